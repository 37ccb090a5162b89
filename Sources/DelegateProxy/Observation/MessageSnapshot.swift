import MessageRuntime

/// The arguments of one message a proxy received, copied for an observer: safe to keep
/// and to send to another thread (objects are retained, C strings copied, structs and
/// pointers travel as bytes). After delivery it also holds the return value.
///
/// Argument indices count the message's own arguments from 0 (`self` and `_cmd` are not
/// numbered), as `Invocation`'s do: for `tableView:didSelectRow:`, argument 0 is the
/// table view.
public struct MessageSnapshot: Sendable, CustomStringConvertible {
  /// The message's selector.
  public let selector: Selector
  /// Before or after delivery.
  public let phase: ObservationPhase
  /// An independent copy of the invocation, only read after it is made.
  private let detached: DetachedInvocation
  /// The copy (read only).
  var invocation: Invocation { detached.invocation }

  init(copying invocation: Invocation, selector: Selector, phase: ObservationPhase) {
    self.selector = selector
    self.phase = phase
    self.detached = DetachedInvocation(copying: invocation)
  }

  /// The message's signature.
  public var signature: MethodSignature { invocation.signature }

  /// How many arguments the message has (without `self` and `_cmd`): valid indices are
  /// `0..<count`.
  public var count: Int { signature.numberOfArguments - 2 }

  /// The message's argument at `index` (0 is its first argument, after `self` and `_cmd`)
  /// as `T` (checked against the signature).
  public func argument<T: MessageArgument>(at index: Int, as _: T.Type = T.self)
    throws(RuntimeError) -> T
  {
    try invocation.argument(at: index, as: T.self)
  }

  /// The bytes of the message's argument at `index` (0 is its first argument, after
  /// `self` and `_cmd`).
  public func argumentBytes(at index: Int) throws(RuntimeError) -> [UInt8] {
    try invocation.argumentBytes(at: index)
  }

  /// The value the message returned, after delivery of a value-returning message
  /// (nil before delivery and for void messages).
  public var returnValue: ReturnValue? {
    guard phase == .after, !signature.returnsVoid else { return nil }
    return ReturnValue(of: invocation)
  }

  /// A readable rendering, for logs and diagnostics.
  public var description: String { "\(phase) \(invocation)" }
}

/// A copy of an invocation that nothing else references, so that it may cross threads.
///
/// `Invocation` is not `Sendable`: it is a mutable frame that is not thread-safe. Queued
/// delivery and observer snapshots hand a message to another thread, and they do so only
/// through this wrapper, whose initializer makes the copy itself (`Invocation.copy()`:
/// own frame, arguments retained, C strings copied). The copy's one reference lives here,
/// so what makes the `@unchecked Sendable` safe is how it is used:
///
/// - queued delivery moves the wrapper into exactly one closure, which alone reads and
///   invokes it;
/// - a `MessageSnapshot` only reads it after construction, and no `Invocation` getter
///   writes.
struct DetachedInvocation: @unchecked Sendable {
  /// The copy.
  let invocation: Invocation

  /// Copies `invocation` (the caller's instance is not captured).
  init(copying invocation: Invocation) {
    self.invocation = invocation.copy()
  }
}
