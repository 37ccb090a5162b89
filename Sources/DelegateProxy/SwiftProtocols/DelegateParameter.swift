import MessageRuntime

/// One parameter of a delegate protocol's method: its name and type.
public struct DelegateParameter: Sendable, CustomStringConvertible {
  /// The parameter's name in the declaration.
  public let name: String
  /// Its type.
  public let type: DelegateValueType
  /// Whether the parameter is `inout` (its type is a ``DelegateInout``).
  public let isInout: Bool
  /// Whether the argument is lent for the call only: a non-escaping closure (the
  /// multicast waits for delegates on queues; observers, message sequences and doubles
  /// get a closure that stops the process if called, or none).
  public let isLent: Bool

  /// A parameter named `name` of type `type`; `lent` for a non-escaping closure.
  public init<T>(_ name: String, _ type: T.Type, lent: Bool = false) {
    self.name = name
    self.type = DelegateValueType(type)
    isInout = type is any DelegateInoutArgument.Type
    isLent = lent
  }

  /// What an observer's or message sequence's copy of a non-escaping closure argument
  /// does when called: the closure was lent for the call only, so it stops the process
  /// with a message naming the method and the parameter (generated code).
  public static func lentClosureCalled(_ method: String, _ parameter: String) -> Never {
    fatalError(
      "\(method): '\(parameter)' is a non-escaping closure, lent to the delegates for the call only; observers and message sequences get no callable copy"
    )
  }

  /// `name: type`.
  public var description: String { "\(name): \(type.name)" }
}
