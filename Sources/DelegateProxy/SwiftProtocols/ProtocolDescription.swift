import MessageRuntime

/// A Swift delegate protocol as the runtime sees it: its methods in declaration order,
/// each with its selector, its parameters' and result's types, and whether it is
/// required. `@Delegate` generates one per protocol; the runtime protocol (selectors and
/// encodings, for C callers and ``MulticastProxy``) is derived from it.
public final class ProtocolDescription<Delegate>: Sendable, CustomStringConvertible {
  /// The Swift protocol's name.
  public let name: String
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
  /// form as an object, `@`; see ``MethodDescription/signature(in:)``).
  public func runtimeProtocol() throws(DelegateProxyError) -> RuntimeProtocol { try derived.get() }

  /// The method with `selector`, if the protocol has one.
  public func method(for selector: Selector) -> MethodDescription? {
    methods.first { $0.selector == selector }
  }

  /// The protocol's name and its methods' selectors.
  public var description: String {
    "protocol \(name) { \(methods.map(\.selector.name).joined(separator: ", ")) }"
  }
}
