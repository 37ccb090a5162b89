import DelegateProxyCTestSupport
import DelegateProxyTestSupport
import Testing

@testable import MessageRuntime

/// The `NSObject` protocol's introspection as messages every runtime object answers,
/// checked against Apple's documentation of each method.
@Suite("Root messages") struct RootMessageTests {
  static let respondsToSelector = Message<Bool, Selector>("respondsToSelector:")
  static let conformsToProtocol = Message<Bool, UnsafePointer<CChar>?>("conformsToProtocol:")
  static let ping = Message<Void>("ping")

  /// `respondsToSelector:` — "Returns a Boolean value that indicates whether the receiver
  /// implements or inherits a method that can respond to a specified message": sent as a
  /// message (from Swift and from C) to an object whose class never declared it.
  @Test func respondsToSelectorIsAMessageEveryObjectAnswers() throws {
    let cls = try RuntimeClass(name: uniqueClassName())
    try cls.addMethod(Self.ping) { _ in }
    let object = RuntimeObject(class: cls)
    #expect(try Self.respondsToSelector.send(to: object, Self.ping.selector))
    #expect(try !Self.respondsToSelector.send(to: object, Selector("nothing")))
    #expect(dp_test_c_send_responds_to_selector(object.rawValue, "ping"))
    #expect(!dp_test_c_send_responds_to_selector(object.rawValue, "nothing"))
    // It answers for itself too, as NSObject does.
    #expect(try Self.respondsToSelector.send(to: object, Self.respondsToSelector.selector))
    #expect(object.responds(to: Self.conformsToProtocol.selector))
  }

  /// `conformsToProtocol:` — "Returns a Boolean value that indicates whether the receiver
  /// conforms to a given protocol" (here the protocol travels by its registered name).
  @Test func conformsToProtocolIsAMessageEveryObjectAnswers() throws {
    let name = uniqueClassName("Pingable")
    let proto = try RuntimeProtocol(name: name, required: ["ping": "v@:"])
    let cls = try RuntimeClass(name: uniqueClassName())
    try cls.addMethod(Self.ping) { _ in }
    let object = RuntimeObject(class: cls)
    #expect(!dp_test_c_send_conforms_to_protocol(object.rawValue, name))
    object.addProtocol(proto)
    #expect(dp_test_c_send_conforms_to_protocol(object.rawValue, name))
    #expect(try name.withCString { try Self.conformsToProtocol.send(to: object, $0) })
    #expect(!dp_test_c_send_conforms_to_protocol(object.rawValue, "NoSuchProtocol"))
  }

  /// A class may implement `respondsToSelector:` itself: its method comes first, as an
  /// override of NSObject's does.
  @Test func aClassOwnRespondsToSelectorOverridesTheRootOne() throws {
    let cls = try RuntimeClass(name: uniqueClassName())
    try cls.addMethod(Self.respondsToSelector) { _, _ in true }
    let object = RuntimeObject(class: cls)
    #expect(dp_test_c_send_responds_to_selector(object.rawValue, "anything"))
  }

  /// NSProxy: "a proxy answers for itself" — `respondsToSelector:` sent to a forwarding
  /// proxy runs the proxy's own answer (what it forwards), it is not forwarded.
  @Test func aForwardingProxyAnswersRespondsToSelectorForItself() throws {
    let target = try RuntimeClass(name: uniqueClassName())
    try target.addMethod(Self.ping) { _ in }
    let proxy = PingForwarder(target: RuntimeObject(class: target))
    #expect(dp_test_c_send_responds_to_selector(proxy.rawValue, "ping"))
    #expect(!dp_test_c_send_responds_to_selector(proxy.rawValue, "nothing"))
    #expect(proxy.forwarded.entries.isEmpty)
  }
}

/// A proxy that forwards what its target implements and logs what it forwards.
// @unchecked Sendable: its own state is `let`s of Sendable types.
private final class PingForwarder: ForwardingProxy, @unchecked Sendable {
  let target: RuntimeObject
  let forwarded = CallLog()
  init(target: RuntimeObject) {
    self.target = target
    super.init()
  }
  override func methodSignature(for selector: Selector) -> MethodSignature? {
    super.methodSignature(for: selector) ?? target.methodSignature(for: selector)
  }
  override func forwardInvocation(_ invocation: Invocation) throws {
    forwarded.append(invocation.selector?.name ?? "?")
    try invocation.invoke(target: target)
  }
}
