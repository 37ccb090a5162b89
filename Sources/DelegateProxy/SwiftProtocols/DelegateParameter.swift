import MessageRuntime

/// One parameter of a delegate protocol's method: its name and type.
public struct DelegateParameter: Sendable, CustomStringConvertible {
  /// The parameter's name in the declaration.
  public let name: String
  /// Its type.
  public let type: DelegateValueType
  /// Whether the parameter is `inout` (its type is a ``DelegateInout``).
  public let isInout: Bool

  /// A parameter named `name` of type `type`.
  public init<T>(_ name: String, _ type: T.Type) {
    self.name = name
    self.type = DelegateValueType(type)
    isInout = type is any DelegateInoutArgument.Type
  }

  /// `name: type`.
  public var description: String { "\(name): \(type.name)" }
}
