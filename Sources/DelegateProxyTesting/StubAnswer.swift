import DelegateProxy
import MessageRuntime

/// What a stub does when it answers a call: return a value (or each of a sequence in
/// turn), write through an out-pointer argument, run code, or pass the call to the real
/// delegate of a partial double. A stub may combine several.
public struct StubAnswer: Sendable, CustomStringConvertible {
  enum Action: Sendable {
    /// Return these bytes; with several, one per call in order, the last repeating.
    case returnBytes([[UInt8]], TypeEncoding)
    /// Store bytes at the pointer passed as argument `position`.
    case write([UInt8], TypeEncoding, position: Int)
    case perform(@Sendable (Invocation) throws -> Void)
    case forward
    /// A typed stub (``SwiftDelegateDouble``): answers the invocation from the call's
    /// Swift arguments (those the stub receives: an `inout` one is the caller's
    /// variable) and returns what must outlive the call (the value it answered); what it
    /// throws, the stand-in of a `throws` method throws to the delegator.
    case answer(@Sendable (Invocation, [Any?]) throws -> KeptValue?)
  }
  let action: Action
  /// How the answer reads in descriptions.
  public let description: String
  /// The value answered, kept so that an object returned by handle stays alive as long
  /// as the stub (as a delegate keeps the cells it hands out).
  let kept: KeptValue?

  init(action: Action, description: String, keeping value: Any? = nil) {
    self.action = action
    self.description = description
    self.kept = value.map(KeptValue.init)
  }

  /// Return `value`; `T` must be the method's return type.
  public static func returning<T: MessageArgument>(_ value: T) -> StubAnswer {
    let bytes = Bytes.of(value)
    return StubAnswer(
      action: .returnBytes([bytes], T.typeEncoding),
      description: "returns \(ValueText.text(bytes, T.typeEncoding, dereference: false))",
      keeping: value)
  }

  /// Return `value`, a Swift value with no C form (`String`, an optional, an enum, an
  /// array…), as the answer to a method of a `@Delegate` protocol whose result type is
  /// `T`: the stand-in hands it to the Swift delegator as it is.
  public static func returning<T>(_ value: T) -> StubAnswer {
    let object = SwiftValueObject(value)
    let bytes = Bytes.of(object.rawValue)
    return StubAnswer(
      action: .returnBytes([bytes], .object), description: "returns \(value)",
      keeping: object)
  }

  /// Return each of `values` in turn, one per call; the last answers every later call.
  public static func returning<T: MessageArgument>(inOrder values: [T]) -> StubAnswer {
    let all = values.map(Bytes.of)
    return StubAnswer(
      action: .returnBytes(all, T.typeEncoding),
      description: "returns "
        + all.map { ValueText.text($0, T.typeEncoding, dereference: false) }.joined(
          separator: ", then "), keeping: values)
  }

  /// Store `value` where the pointer argument at `position` points (0 is the first
  /// argument after `self` and `_cmd`), as a delegate answers through an out-pointer
  /// (`targetContentOffset`). A null pointer is left alone.
  public static func writing<T: MessageArgument>(_ value: T, toArgument position: Int)
    -> StubAnswer
  {
    let bytes = Bytes.of(value)
    return StubAnswer(
      action: .write(bytes, T.typeEncoding, position: position),
      description:
        "writes \(ValueText.text(bytes, T.typeEncoding, dereference: false)) through argument \(position)",
      keeping: value)
  }

  /// Run `body` with the call's invocation (read its arguments, set its return value).
  /// An error thrown is thrown to the delegator when the call came through the stand-in
  /// of a `@Delegate` protocol's `throws` method; otherwise it is recorded as a test failure. The stub keeps `body`: capture the
  /// double itself weakly, or the two keep each other alive.
  public static func perform(_ body: @escaping @Sendable (Invocation) throws -> Void)
    -> StubAnswer
  {
    StubAnswer(action: .perform(body), description: "runs code")
  }

  /// Pass the call to the real delegate of a partial double (one made with
  /// `forwardingTo:`), even when an earlier stub answers too.
  public static var forwardToDelegate: StubAnswer {
    StubAnswer(action: .forward, description: "forwards to the delegate")
  }
}
