import MessageRuntime

/// One method of a Swift delegate protocol (`objc_method_description`, plus the Swift
/// name and types).
public struct DelegateMethodDescription: Sendable, CustomStringConvertible {
  /// The selector, as Swift's `@objc` names the method (`sensor(_:didRead:)` →
  /// `sensor:didRead:`) unless the declaration gives another.
  public let selector: Selector
  /// The Swift name, e.g. `sensor(_:didRead:)`.
  public let swiftName: String
  /// Whether conforming classes must implement it.
  public let isRequired: Bool
  /// The parameters, in order.
  public let parameters: [DelegateParameter]
  /// The result type (`Void` for none).
  public let result: DelegateValueType

  /// A method description.
  public init(
    selector: String, swiftName: String, isRequired: Bool, parameters: [DelegateParameter],
    result: DelegateValueType
  ) {
    self.selector = Selector(selector)
    self.swiftName = swiftName
    self.isRequired = isRequired
    self.parameters = parameters
    self.result = result
  }

  /// The method's runtime signature: `self`, `_cmd`, then each parameter's C form.
  /// Throws for the first type with no C form, naming it.
  public func signature(in protocolName: String) throws(DelegateProxyError) -> MethodSignature {
    var arguments: [TypeEncoding] = [.object, .selector]
    for p in parameters {
      guard let encoding = p.type.encoding else {
        throw .unsupportedType(
          protocol: protocolName, method: swiftName, parameter: p.name, type: p.type.name,
          reason: p.type.unsupportedReason ?? "no C form")
      }
      arguments.append(encoding)
    }
    guard let returnType = result.encoding else {
      throw .unsupportedType(
        protocol: protocolName, method: swiftName, parameter: nil, type: result.name,
        reason: result.unsupportedReason ?? "no C form")
    }
    do {
      return try MethodSignature.make(returnType: returnType, arguments: arguments)
    } catch {
      throw .unsupportedType(
        protocol: protocolName, method: swiftName, parameter: nil, type: swiftName,
        reason: "\(error)")
    }
  }

  /// `swiftName` and selector, and whether it is optional.
  public var description: String {
    "\(swiftName) [\(selector.name)]\(isRequired ? "" : " optional")"
  }
}
