import DelegateProxyCTestSupport
import DelegateProxyTestSupport
import Testing

@testable import MessageRuntime

/// `forwardingTargetForSelector:` — "Returns the object to which unrecognized messages
/// should first be directed. … If an object implements (or inherits) this method, and
/// returns a non-nil (and non-self) result, that returned object is used as the new
/// receiver object and the message dispatch resumes to that new object. … If you
/// implement this method and return nil or self, the message is sent through full
/// forwarding" (methodSignatureForSelector:, forwardInvocation:).
@Suite("forwardingTargetForSelector:") struct ForwardingTargetTests {
  let add = Message<Int, Int, Double>("add:to:")

  /// A calculator whose method records the receiver it ran on.
  func calculator(receivers: CallLog) throws -> RuntimeObject {
    let cls = try RuntimeClass(name: uniqueClassName("Calculator"))
    try cls.addMethod(add) { receiver, a, b in
      receivers.append("\(receiver.rawValue)")
      return a + Int(b)
    }
    return RuntimeObject(class: cls)
  }

  @Test func forwardingTargetForSelectorResendsTheMessageToTheTarget() throws {
    let receivers = CallLog()
    let target = try calculator(receivers: receivers)
    let proxy = TargetingProxy(answer: .other(target))
    // Swift typed send, Invocation and a C sender (DP_MSG_SEND through the forwarding IMP).
    #expect(try add.send(to: proxy, 1, 2) == 3)
    let inv = Invocation(signature: add.signature, selector: add.selector)
    try inv.setArgument(5, at: 0)
    try inv.setArgument(5.0, at: 1)
    try inv.invoke(target: proxy)
    #expect(try inv.returnValue(as: Int.self) == 10)
    #expect(inv.target === proxy)  // the invocation's own target is unchanged
    #expect(dp_test_c_send_add(proxy.rawValue, add.selector.rawValue, 30, 12) == 42)
    // The target ran as the receiver ("the new receiver object"), three times; the
    // proxy's full forwarding never ran.
    #expect(receivers.entries == Array(repeating: "\(target.rawValue)", count: 3))
    // Asked once per message (a C sender's lookup asks too, for the target's types).
    #expect(proxy.log.entries.filter { $0.hasPrefix("target ") }.count >= 3)
    #expect(!proxy.log.entries.contains { $0.hasPrefix("signature ") || $0 == "forward" })
    // And the proxy responds to what its target does.
    #expect(proxy.responds(to: add.selector))
  }

  @Test(arguments: [TargetingProxy.Answer.none, .itself])
  func forwardingTargetForSelectorReturningNilOrSelfFallsThroughToFullForwarding(
    answer: TargetingProxy.Answer
  ) throws {
    let receivers = CallLog()
    let target = try calculator(receivers: receivers)
    let proxy = TargetingProxy(answer: answer, fullForwardingTo: target)
    #expect(try add.send(to: proxy, 1, 2) == 3)
    #expect(dp_test_c_send_add(proxy.rawValue, add.selector.rawValue, 30, 12) == 42)
    // Each message asked for a target first, then went through full forwarding.
    let log = proxy.log.entries
    #expect(log.filter { $0.hasPrefix("target ") }.count >= 2)
    #expect(log.filter { $0 == "forward" }.count == 2)
    #expect(log.contains("signature add:to:"))
  }

  @Test func forwardingTargetForSelectorIsNotAskedForAMethodTheReceiverHas() throws {
    let receivers = CallLog()
    let target = try calculator(receivers: receivers)
    let cls = try RuntimeClass(name: uniqueClassName("Own"))
    try cls.addMethod(add) { _, a, b in 1000 + a + Int(b) }
    let proxy = TargetingProxy(answer: .other(target), class: cls)
    #expect(try add.send(to: proxy, 1, 2) == 1003)
    #expect(dp_test_c_send_add(proxy.rawValue, add.selector.rawValue, 1, 2) == 1003)
    #expect(proxy.log.entries.isEmpty)
    #expect(receivers.entries.isEmpty)
  }
}

/// A proxy whose `forwardingTarget(for:)` answers as told, logging every hook it runs.
// @unchecked Sendable: its own state is `let`s of Sendable types.
final class TargetingProxy: ForwardingProxy, @unchecked Sendable {
  enum Answer: Sendable, CustomStringConvertible {
    case none, itself
    case other(RuntimeObject)
    var description: String {
      switch self {
      case .none: "nil"
      case .itself: "self"
      case .other: "another object"
      }
    }
  }
  let answer: Answer
  let fullForwardingTo: RuntimeObject?
  let log = CallLog()

  init(
    answer: Answer, fullForwardingTo: RuntimeObject? = nil,
    class runtimeClass: RuntimeClass = ForwardingProxy.proxyClass
  ) {
    self.answer = answer
    self.fullForwardingTo = fullForwardingTo
    super.init(proxyClass: runtimeClass)
  }

  override func forwardingTarget(for selector: Selector) -> RuntimeObject? {
    log.append("target \(selector.name)")
    switch answer {
    case .none: return nil
    case .itself: return self
    case .other(let object): return object
    }
  }

  override func methodSignature(for selector: Selector) -> MethodSignature? {
    log.append("signature \(selector.name)")
    return fullForwardingTo?.methodSignature(for: selector) ?? super.methodSignature(for: selector)
  }

  override func forwardInvocation(_ invocation: Invocation) throws {
    log.append("forward")
    guard let fullForwardingTo else { return try super.forwardInvocation(invocation) }
    try invocation.invoke(target: fullForwardingTo)
  }
}
