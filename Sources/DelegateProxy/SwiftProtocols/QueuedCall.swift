import MessageRuntime

/// What a queued delivery carries to a delegate's queue.
struct QueuedCall<Delegate, Arguments, Result>: @unchecked Sendable {
  // @unchecked Sendable: a delegate added with a queue is called on that queue with the
  // sender's arguments — as GCDMulticastDelegate hands them over. The member is only read
  // (its flag atomically); the arguments must be safe to use from the delegate's queue
  // (values, or objects the caller shares knowingly), as documented on add(_:queue:).
  let member: SwiftMember<Delegate>
  let arguments: Arguments
  let call: (Delegate, Arguments) -> Result
  /// For an optional method: its selector, to drop the answer of a class that turns out
  /// not to implement it.
  var optionalSelector: String? = nil

  /// Calls the delegate unless it was removed or is being deallocated, or its class
  /// does not implement the (optional) method; nil then.
  func run() -> Result? {
    guard let value = member.withDelegate({ call(member.existential.pointee, arguments) }) else {
      return nil
    }
    if let optionalSelector,
      DelegateOptional.isKnownMissing(optionalSelector, typeID: member.typeID)
    {
      return nil
    }
    return value
  }
}
