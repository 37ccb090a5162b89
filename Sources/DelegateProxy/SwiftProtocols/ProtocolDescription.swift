import MessageRuntime

/// A Swift delegate protocol as the runtime sees it: its methods in declaration order,
/// each with its selector, its parameters' and result's types, and whether it is
/// required. `@Delegate` generates one per protocol; the runtime protocol (selectors and
/// encodings, for C callers and ``MulticastProxy``) is derived from it.
public final class ProtocolDescription<Delegate>: Sendable, CustomStringConvertible {
  /// The Swift protocol's name.
  package let name: String
  /// The methods, in declaration order (a ``MessageHandle``'s index points here).
  public let methods: [MethodDescription]
  private let derived: Result<RuntimeProtocol, DelegateProxyError>

  /// A protocol description.
  public init(name: String, methods: [MethodDescription]) {
    self.name = name
    self.methods = methods
    derived = Result { () throws(DelegateProxyError) -> RuntimeProtocol in
      var requirements: [RuntimeProtocol.Requirement] = []
      for m in methods {
        requirements.append(
          RuntimeProtocol.Requirement(
            m.selector, try m.signature(in: name), required: m.isRequired))
      }
      return RuntimeProtocol(name: name, requirements: requirements)
    }
  }

  /// The runtime protocol: each method's selector and encoding (a Swift value with no C
  /// form as an object, `@`; see `MethodDescription.signature(in:)`).
  public func runtimeProtocol() throws(DelegateProxyError) -> RuntimeProtocol { try derived.get() }

  /// The method with `selector`, if the protocol has one.
  package func method(for selector: Selector) -> MethodDescription? {
    methods.first { $0.selector == selector }
  }

  /// The protocol's name and its methods' selectors.
  public var description: String {
    "protocol \(name) { \(methods.map(\.selector.name).joined(separator: ", ")) }"
  }
}

/// One method of a Swift delegate protocol (`objc_method_description`, plus the Swift
/// name and types).
public struct MethodDescription: Sendable, CustomStringConvertible {
  /// The selector, as Swift's `@objc` names the method (`sensor(_:didRead:)` →
  /// `sensor:didRead:`) unless the declaration gives another.
  package let selector: Selector
  /// The Swift name, e.g. `sensor(_:didRead:)`.
  package let swiftName: String
  /// Whether conforming classes must implement it.
  package let isRequired: Bool
  /// The parameters, in order.
  package let parameters: [DelegateParameter]
  /// The result type (`Void` for none).
  package let result: DelegateValueType
  /// What a call answers when no delegate answers it (see ``DelegateMulticast``'s
  /// *No answer*): the requirement's `@Default(…)`, else the result type's empty value.
  /// Nil for a description made without one: the result type's zero value.
  let declaredNoAnswer: (@Sendable () -> Any)?

  /// A method description whose unanswered calls answer `result`'s zero value (`()`,
  /// `nil`, or all-zero bytes).
  package init(
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
  package var hasInout: Bool { parameters.contains(where: \.isInout) }

  /// Whether an argument is valid only during the call (`inout`, or a non-escaping
  /// closure): delegates on queues are waited for, for a `void` method too.
  package var lendsArguments: Bool { parameters.contains { $0.isInout || $0.isLent } }

  /// Whether every parameter and the result have a C form: the method is on the C face
  /// (``MulticastCFace/imp(for:)``, C callbacks) as well as the Swift one.
  package var hasCForm: Bool {
    result.encoding != nil && parameters.allSatisfy { $0.type.encoding != nil }
  }

  /// The method's runtime signature: `self`, `_cmd`, then each parameter's C form; a
  /// Swift value with no C form travels as an object (`@`). Throws only for a signature
  /// the runtime cannot carry.
  package func signature(in protocolName: String) throws(DelegateProxyError) -> MethodSignature {
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
  package func cSignature(in protocolName: String) throws(DelegateProxyError) -> MethodSignature {
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

/// One parameter of a delegate protocol's method: its name and type.
public struct DelegateParameter: Sendable, CustomStringConvertible {
  /// The parameter's name in the declaration.
  package let name: String
  /// Its type.
  package let type: DelegateValueType
  /// Whether the parameter is `inout` (its type is a ``DelegateInout``).
  package let isInout: Bool
  /// Whether the argument is lent for the call only: a non-escaping closure (the
  /// multicast waits for delegates on queues; observers, message sequences and doubles
  /// get a closure that stops the process if called, or none).
  package let isLent: Bool

  /// A parameter named `name` of type `type`; `lent` for a non-escaping closure.
  public init<T>(_ name: String, _ type: T.Type, lent: Bool = false) {
    self.name = name
    self.type = DelegateValueType(type)
    isInout = type is any DelegateInoutArgument.Type
    isLent = lent
  }

  /// What an observer's or message sequence's copy of a non-escaping closure argument
  /// does when called: the closure was lent for the call only, so it stops the process
  /// with a message naming the method and the parameter. Generated by `@Delegate`; not
  /// for direct use.
  public static func __lentClosureCalled(_ method: String, _ parameter: String) -> Never {
    fatalError(
      "\(method): '\(parameter)' is a non-escaping closure, lent to the delegates for the call only; observers and message sequences get no callable copy"
    )
  }

  /// `name: type`.
  public var description: String { "\(name): \(type.name)" }
}
