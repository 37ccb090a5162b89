import MessageRuntime
import Synchronization

/// One message a double received: what, with which arguments, in which order, where.
public struct RecordedCall: Sendable, CustomStringConvertible {
  /// The message's selector.
  public let selector: Selector
  /// The message's signature (`self` and `_cmd` included).
  package let signature: MethodSignature
  /// The method's own arguments, from the first after `self` and `_cmd`.
  public let arguments: [RecordedArgument]
  /// The order of arrival among the calls every double in the process received (it
  /// increases: compare two doubles' calls with it).
  package let sequence: UInt64
  /// Where the call ran.
  public let context: CallContext
  /// Whether a stub answered the call (false: answered zero, forwarded, or unexpected).
  public let wasStubbed: Bool
  /// What a stub threw for the call and the delegator's call threw (a `throws` method's
  /// stub, through its stand-in); nil when it answered.
  public internal(set) var thrownError: (any Error)? = nil
  /// The method's Swift name (`sensor(_:didRead:)`), for a `@Delegate` protocol's method.
  let swiftName: String?
  /// The method's Swift result type as Swift writes it (`Bool`), nil for `Void` or an
  /// unknown one.
  let resultType: String?

  init(
    selector: Selector, signature: MethodSignature, arguments: [RecordedArgument],
    sequence: UInt64, context: CallContext, wasStubbed: Bool, swiftName: String? = nil,
    resultType: String? = nil
  ) {
    self.selector = selector
    self.signature = signature
    self.arguments = arguments
    self.sequence = sequence
    self.context = context
    self.wasStubbed = wasStubbed
    self.swiftName = swiftName
    self.resultType = resultType
  }

  /// The argument at `position` (0 is the first after `self` and `_cmd`) as `T`.
  /// Throws ``DoubleError/argumentTypeMismatch(selector:position:expected:found:)`` when
  /// `T` does not fit it, or when there is no such argument.
  public func argument<T: MessageArgument>(_ position: Int, as _: T.Type = T.self)
    throws(DoubleError) -> T
  {
    guard arguments.indices.contains(position) else {
      throw .argumentTypeMismatch(
        selector: selector, position: position, expected: "one of \(arguments.count) argument(s)",
        found: "\(T.self)")
    }
    do { return try arguments[position].value(as: T.self) } catch {
      throw .argumentTypeMismatch(
        selector: selector, position: position, expected: arguments[position].type.canonicalString,
        found: "\(T.self) (\(T.typeEncoding.canonicalString))")
    }
  }

  /// The argument at `position` as the Swift value it was sent as, for a double made
  /// from a `@Delegate` protocol (see ``RecordedArgument/swiftValue(as:)``). Throws
  /// ``DoubleError/argumentTypeMismatch(selector:position:expected:found:)`` when `T` is
  /// not the parameter's type.
  public func swiftArgument<T>(_ position: Int, as _: T.Type = T.self) throws(DoubleError) -> T {
    guard arguments.indices.contains(position),
      let value = arguments[position].swiftValue(as: T.self)
    else {
      let expected =
        arguments.indices.contains(position)
        ? arguments[position].swiftType ?? arguments[position].type.canonicalString
        : "one of \(arguments.count) argument(s)"
      throw .argumentTypeMismatch(
        selector: selector, position: position, expected: expected, found: "\(T.self)")
    }
    return value
  }

  /// `selector(argument, …)`, e.g. `tableView:numberOfRowsInSection:(<TableView 0x…>, 3)`.
  public var description: String {
    "\(selector.name)(\(arguments.map(\.description).joined(separator: ", ")))"
  }

  /// For a `@Delegate` protocol's method, the call as Swift writes it: the Swift name, then
  /// each argument's label and Swift value, e.g.
  /// `sensor(_:didRead:)(sensor: <Sensor>, reading: Reading(celsius: 21.5, sensorID: 7))`.
  /// Nil for a method known only by selector.
  var swiftDescription: String? {
    guard let swiftName else { return nil }
    let values = arguments.map { argument -> String in
      let text = argument.swiftText
      return argument.name.map { "\($0): \(text)" } ?? text
    }
    return "\(swiftName)(\(values.joined(separator: ", ")))"
  }

  /// The process-wide arrival counter.
  static let counter = Atomic<UInt64>(0)
}
