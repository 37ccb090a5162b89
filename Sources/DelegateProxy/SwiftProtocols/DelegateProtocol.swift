import MessageRuntime

/// A Swift delegate protocol as the runtime sees it: its methods in declaration order,
/// each with its selector, its parameters' and result's types, and whether it is
/// required. `@Delegate` generates one per protocol; the runtime protocol (selectors and
/// encodings, for C callers and ``MulticastProxy``) is derived from it.
public final class DelegateProtocol<Delegate>: Sendable, CustomStringConvertible {
  /// The Swift protocol's name.
  public let name: String
  /// The methods, in declaration order (a ``DelegateMessage``'s index points here).
  public let methods: [DelegateMethodDescription]
  private let derived: Result<RuntimeProtocol, DelegateProxyError>

  /// A protocol description. Types with no C form are reported by ``runtimeProtocol()``
  /// and when a delegate is added to a multicast of this protocol.
  public init(name: String, methods: [DelegateMethodDescription]) {
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

  /// The runtime protocol: each method's selector and encoding. Throws
  /// ``DelegateProxyError/unsupportedType(protocol:method:parameter:type:reason:)`` for
  /// the first parameter or result with no C form.
  public func runtimeProtocol() throws(DelegateProxyError) -> RuntimeProtocol { try derived.get() }

  /// The method with `selector`, if the protocol has one.
  public func method(for selector: Selector) -> DelegateMethodDescription? {
    methods.first { $0.selector == selector }
  }

  /// The protocol's name and its methods' selectors.
  public var description: String {
    "protocol \(name) { \(methods.map(\.selector.name).joined(separator: ", ")) }"
  }
}

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

/// One parameter of a delegate protocol's method: its name and type.
public struct DelegateParameter: Sendable, CustomStringConvertible {
  /// The parameter's name in the declaration.
  public let name: String
  /// Its type.
  public let type: DelegateValueType

  /// A parameter named `name` of type `type`.
  public init<T>(_ name: String, _ type: T.Type) {
    self.name = name
    self.type = DelegateValueType(type)
  }

  /// `name: type`.
  public var description: String { "\(name): \(type.name)" }
}
