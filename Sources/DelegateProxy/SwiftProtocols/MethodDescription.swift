import MessageRuntime

/// One method of a Swift delegate protocol (`objc_method_description`, plus the Swift
/// name and types).
public struct MethodDescription: Sendable, CustomStringConvertible {
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
  /// What a call answers when no delegate answers it (see ``DelegateMulticast``'s
  /// *No answer*): the requirement's `@Default(…)`, else the result type's empty value.
  /// Nil for a description made without one: the result type's zero value.
  let declaredNoAnswer: (@Sendable () -> Any)?

  /// A method description whose unanswered calls answer `result`'s zero value (`()`,
  /// `nil`, or all-zero bytes).
  public init(
    selector: String, swiftName: String, isRequired: Bool, parameters: [DelegateParameter],
    result: DelegateValueType
  ) {
    self.selector = Selector(selector)
    self.swiftName = swiftName
    self.isRequired = isRequired
    self.parameters = parameters
    self.result = result
    declaredNoAnswer = nil
  }

  /// A method description with its answer for no delegates: what `@Delegate` generates,
  /// `noAnswer` being the requirement's `@Default(…)` or its result type's empty value.
  public init<Result>(
    selector: String, swiftName: String, isRequired: Bool, parameters: [DelegateParameter],
    result: Result.Type, noAnswer: @escaping @Sendable () -> Result
  ) {
    self.selector = Selector(selector)
    self.swiftName = swiftName
    self.isRequired = isRequired
    self.parameters = parameters
    self.result = DelegateValueType(result)
    declaredNoAnswer = { noAnswer() }
  }

  /// The answer for no delegates, as `Result` (the method's result type).
  func noAnswer<Result>(as _: Result.Type) -> Result {
    if let value = declaredNoAnswer?() as? Result { return value }
    return ZeroValue.value(Result.self, for: selector.name)
  }

  /// Whether a parameter is `inout`: delegates on queues are waited for, so that each
  /// sees the value the previous one left.
  public var hasInout: Bool { parameters.contains(where: \.isInout) }

  /// Whether an argument is valid only during the call (`inout`, or a non-escaping
  /// closure): delegates on queues are waited for, for a `void` method too.
  public var lendsArguments: Bool { parameters.contains { $0.isInout || $0.isLent } }

  /// Whether every parameter and the result have a C form: the method is on the C face
  /// (``MulticastCFace/imp(for:)``, C callbacks) as well as the Swift one.
  public var hasCForm: Bool {
    result.encoding != nil && parameters.allSatisfy { $0.type.encoding != nil }
  }

  /// The method's runtime signature: `self`, `_cmd`, then each parameter's C form; a
  /// Swift value with no C form travels as an object (`@`). Throws only for a signature
  /// the runtime cannot carry.
  public func signature(in protocolName: String) throws(DelegateProxyError) -> MethodSignature {
    var arguments: [TypeEncoding] = [.object, .selector]
    for p in parameters { arguments.append(p.type.encoding ?? .object) }
    do {
      return try MethodSignature.make(
        returnType: result.encoding ?? .object, arguments: arguments)
    } catch {
      throw .unsupportedType(
        protocol: protocolName, method: swiftName, parameter: nil, type: swiftName,
        reason: "\(error)")
    }
  }

  /// The method's C signature, for C callers (``MulticastCFace/imp(for:)``, C
  /// callbacks). Throws
  /// ``DelegateProxyError/unsupportedType(protocol:method:parameter:type:reason:)`` for
  /// the first parameter or result with no C form, naming it.
  public func cSignature(in protocolName: String) throws(DelegateProxyError) -> MethodSignature {
    for p in parameters where p.type.encoding == nil {
      throw .unsupportedType(
        protocol: protocolName, method: swiftName, parameter: p.name, type: p.type.name,
        reason: p.type.unsupportedReason ?? "no C form")
    }
    if result.encoding == nil {
      throw .unsupportedType(
        protocol: protocolName, method: swiftName, parameter: nil, type: result.name,
        reason: result.unsupportedReason ?? "no C form")
    }
    return try signature(in: protocolName)
  }

  /// `swiftName` and selector, and whether it is optional.
  public var description: String {
    "\(swiftName) [\(selector.name)]\(isRequired ? "" : " optional")"
  }
}
