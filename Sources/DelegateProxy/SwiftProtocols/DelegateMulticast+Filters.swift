/// Per-call member selection: which members a call of a method reaches.
extension DelegateMulticast {
  /// Sets which members a call of `message` reaches, from each member and the call's
  /// arguments (nil: every member again). `filter` sees the member as the protocol and the
  /// arguments typed as the method's: swift-log's `MultiplexLogHandler` sends a line only
  /// to the handlers whose own level admits it.
  ///
  /// ```swift
  /// sinks.setFilter(for: \.logLevelMessage) { sink, call in sink.logLevel <= call.0 }
  /// ```
  ///
  /// A member the filter refuses is not called and gives no answer (as if it did not
  /// respond: the policy folds the others'; nobody answering is the method's answer for
  /// no delegates). The filter runs on the calling thread, just before the member's call
  /// — also for a member added with a queue — and must not call the multicast. It applies
  /// to every Swift path (the protocol's methods, ``aggregate(_:_:reducer:)-(DelegateMulticast<Delegate,Handles>.HandleKey<(Argument),Result>,_,_)``,
  /// ``broadcast(_:_:)-(DelegateMulticast<Delegate,Handles>.HandleKey<(Argument),Void>,_)``) and C callers of ``imp(for:)``, which run the same dispatch. The fast
  /// loop asks it before each member's call (the arguments made once per call for it), so
  /// a filtered call allocates nothing; a method without one pays nothing.
  public final func setFilter<Handle: MessageHandleProtocol>(
    for message: KeyPath<Handles, Handle>,
    _ filter: (@Sendable (Delegate, Handle.Arguments) -> Bool)?
  ) where Handle.Delegate == Delegate {
    let index = index(of: message)
    // Unwrapped with `if let`, not `Optional.map`: through `map` the closure was stored
    // behind two reabstraction thunks (to and from an opaque result), called per member.
    var typed: MemberFilter<Delegate, Handle.Arguments>? = nil
    if let filter { typed = MemberFilter(filter) }
    update { $0.filters[index] = typed }
  }

  /// Whether a method has a filter (``setFilter(for:_:)``).
  public final func hasFilter<Handle: MessageHandleProtocol>(for message: KeyPath<Handles, Handle>)
    -> Bool
  {
    let index = index(of: message)
    return state.withLock { $0.filters[index] != nil }
  }

  /// Whether `filter` (the method's, if any) admits `member` for a call with `arguments`;
  /// false for a member removed or being deallocated.
  @usableFromInline
  final func admits<Arguments>(
    _ filter: AnyMemberFilter?, _ member: SwiftMember<Delegate>, _ arguments: Arguments
  ) -> Bool {
    guard let filter else { return true }
    let typed = unsafeDowncast(filter, to: MemberFilter<Delegate, Arguments>.self)
    return member.withDelegate { typed.admits(member.existential.pointee, arguments) } ?? false
  }

  /// ``admits(_:_:_:)`` for a member whose delegate the caller holds already.
  final func admits<Arguments>(
    _ filter: AnyMemberFilter?, _ delegate: Delegate, _ arguments: Arguments
  )
    -> Bool
  {
    guard let filter else { return true }
    return unsafeDowncast(filter, to: MemberFilter<Delegate, Arguments>.self).admits(
      delegate, arguments)
  }
}

/// The filter of one method of a Swift multicast, erased (see
/// ``DelegateMulticast/setFilter(for:_:)``): a ``MemberFilter`` of the method's types.
@usableFromInline
class AnyMemberFilter: @unchecked Sendable {
  // @unchecked Sendable: no stored state (the subclass's is an immutable @Sendable closure).
  init() {}
}

/// Which members a call of one method reaches: `admits(member, arguments)`, asked for each
/// member before its call.
@usableFromInline
final class MemberFilter<Delegate, Arguments>: AnyMemberFilter, @unchecked Sendable {
  // @unchecked Sendable: its one stored property is an immutable @Sendable closure.
  @usableFromInline let admits: @Sendable (Delegate, Arguments) -> Bool

  init(_ admits: @escaping @Sendable (Delegate, Arguments) -> Bool) {
    self.admits = admits
  }
}
