import DelegateProxy
import MessageRuntime

/// A method a double knows: its selector and signature, whether the protocol requires
/// it, and — for a Swift protocol — its Swift name and parameters.
public struct DoubledMethod: Sendable, CustomStringConvertible {
  /// The selector.
  public let selector: Selector
  /// The signature (`self` and `_cmd` included).
  public let signature: MethodSignature
  /// Whether the protocol requires it.
  package let isRequired: Bool
  /// The Swift name (`sensor(_:didRead:)`), when the double was made from a Swift protocol.
  package let swiftName: String?
  /// The parameters' names, when known (empty otherwise).
  package let parameterNames: [String]
  /// The parameters' Swift type names, when known (empty otherwise).
  package let parameterTypes: [String]
  /// The parameters' Swift types, when the method comes from a `@Delegate` protocol
  /// (empty otherwise): recorded arguments convert back to Swift values with them.
  var parameterValueTypes: [DelegateValueType] = []
  /// By parameter, for a `@Delegate` protocol: whether the argument is lent for the call
  /// only (a non-escaping closure), which the double must not keep.
  var parameterLent: [Bool] = []
  /// For a `@Delegate` protocol's method: its result type as Swift writes it (`Bool`,
  /// `String?`); nil for `Void` or a method known only by selector.
  var resultType: String? = nil
  /// For a `@Delegate` protocol's method: its result type (typed stubs write their
  /// answers in its C form, or as a `SwiftValueObject` where it has none).
  var resultValueType: DelegateValueType? = nil

  /// A method description.
  public init(
    selector: Selector, signature: MethodSignature, isRequired: Bool = true,
    swiftName: String? = nil, parameterNames: [String] = [], parameterTypes: [String] = []
  ) {
    self.selector = selector
    self.signature = signature
    self.isRequired = isRequired
    self.swiftName = swiftName
    self.parameterNames = parameterNames
    self.parameterTypes = parameterTypes
  }

  /// The number of the method's own arguments (without `self` and `_cmd`).
  package var arity: Int { signature.numberOfArguments - 2 }

  /// The Swift name and selector, or the selector and encoding.
  public var description: String {
    if let swiftName { return "\(swiftName) [\(selector.name)]" }
    return "\(selector.name) \(signature.encoding)"
  }
}
