import DelegateProxyCTestSupport
import DelegateProxyTestSupport
import MessageRuntime
import Testing

@testable import DelegateProxy

/// NSProxy's rule for introspection: a multicast proxy answers `respondsToSelector:` and
/// `conformsToProtocol:` itself — for what it forwards — and never multicasts them, even
/// when a delegate implements them as methods.
@Suite("Root messages to a multicast") struct RootMessageProxyTests {
  static let respondsToSelector = Message<Bool, Selector>("respondsToSelector:")
  static let ping = Message<Void>("ping")

  @Test func aMulticastProxyAnswersRespondsToSelectorForItself() throws {
    let log = CallLog()
    let cls = try RuntimeClass(name: uniqueClassName())
    try cls.addMethod(Self.ping) { _ in }
    // A delegate whose own respondsToSelector: says yes to everything.
    try cls.addMethod(Self.respondsToSelector) { _, _ in
      log.append("delegate asked")
      return true
    }
    let delegate = RuntimeObject(class: cls)
    let proxy = try MulticastProxy(delegates: [delegate])
    #expect(dp_test_c_send_responds_to_selector(proxy.rawValue, "ping"))
    #expect(!dp_test_c_send_responds_to_selector(proxy.rawValue, "nothing"))
    #expect(try !Self.respondsToSelector.send(to: proxy, Selector("nothing")))
    #expect(log.entries.isEmpty)
    // The delegate still answers for itself when asked directly.
    #expect(dp_test_c_send_responds_to_selector(delegate.rawValue, "nothing"))
  }

  @Test func aMulticastProxyAnswersConformsToProtocolForItself() throws {
    let name = uniqueClassName("Pinging")
    let proto = try RuntimeProtocol(name: name, required: ["ping": "v@:"])
    let cls = try RuntimeClass(name: uniqueClassName())
    try cls.addMethod(Self.ping) { _ in }
    let delegate = RuntimeObject(class: cls)
    delegate.addProtocol(proto)
    let proxy = MulticastProxy()
    #expect(!dp_test_c_send_conforms_to_protocol(proxy.rawValue, name))
    try proxy.add(delegate)
    #expect(dp_test_c_send_conforms_to_protocol(proxy.rawValue, name))  // a delegate conforms
  }
}
