import DelegateProxyCTestSupport
import DelegateProxyTestSupport
import Testing

@testable import MessageRuntime

/// A proxy that forwards everything to one target, optionally rewriting the call.
final class RelayProxy: ForwardingProxy, @unchecked Sendable {
  let target: RuntimeObject
  let before: (@Sendable (Invocation) throws -> Void)?
  let kept = Lock<[Invocation]>([])
  let keep: Bool
  /// How many messages reached forwardInvocation.
  let forwardedCount = Lock(0)

  init(
    target: RuntimeObject, keep: Bool = false,
    proxyClass: RuntimeClass = ForwardingProxy.proxyClass,
    before: (@Sendable (Invocation) throws -> Void)? = nil
  ) {
    self.target = target
    self.keep = keep
    self.before = before
    super.init(proxyClass: proxyClass)
  }

  override func methodSignature(for selector: Selector) -> MethodSignature? {
    target.methodSignature(for: selector)
  }

  override func forwardInvocation(_ invocation: Invocation) throws {
    forwardedCount.withLock { $0 += 1 }
    try before?(invocation)
    try invocation.invoke(target: target)
    if keep { kept.withLock { $0.append(invocation) } }
  }
}

@Suite("Forwarding") struct ForwardingTests {
  let add = Message<Int, Int, Double>("add:to:")

  func calculator() throws -> RuntimeObject {
    let cls = try RuntimeClass(name: uniqueClassName("Calculator"))
    try cls.addMethod(add) { _, a, b in a + Int(b) }
    return RuntimeObject(class: cls)
  }

  @Test func forwardsFromSwiftCAndInvocation() throws {
    let target = try calculator()
    let proxy = RelayProxy(target: target)
    #expect(proxy.responds(to: add.selector))
    #expect(!proxy.responds(to: "unknown"))
    #expect(try add.send(to: proxy, 1, 2) == 3)
    #expect(dp_test_c_send_add(proxy.rawValue, add.selector.rawValue, 30, 12) == 42)
    let inv = Invocation(signature: add.signature, selector: add.selector)
    try inv.setArgument(5, at: 0)
    try inv.setArgument(5.0, at: 1)
    try inv.invoke(target: proxy)
    #expect(try inv.returnValue(as: Int.self) == 10)
  }

  @Test func forwarderRewritesArgumentsAndSeesTheResult() throws {
    let proxy = RelayProxy(target: try calculator()) { inv in
      try inv.setArgument(try inv.argument(at: 0, as: Int.self) * 10, at: 0)
    }
    #expect(try add.send(to: proxy, 4, 2) == 42)
    #expect(dp_test_c_send_add(proxy.rawValue, add.selector.rawValue, 4, 2) == 42)
  }

  @Test func keptInvocationOutlivesTheCall() throws {
    let proxy = RelayProxy(target: try calculator(), keep: true)
    #expect(dp_test_c_send_add(proxy.rawValue, add.selector.rawValue, 7, 8) == 15)
    #expect(try add.send(to: proxy, 1, 1) == 2)
    let kept = proxy.kept.withLock { $0 }
    #expect(kept.count == 2)
    // The caller's frames are gone; the invocations copied what they viewed.
    #expect(try kept[0].argument(at: 0, as: Int.self) == 7)
    #expect(try kept[0].argument(at: 1, as: Double.self) == 8)
    #expect(try kept[0].returnValue(as: Int.self) == 15)
    #expect(try kept[1].returnValue(as: Int.self) == 2)
    #expect(kept[0] !== kept[1])
  }

  @Test func forwardingIMPIsMadeOncePerSignature() throws {
    let a = RelayProxy(target: try calculator())
    let b = RelayProxy(target: try calculator())
    let impA = try a.imp(for: add.selector)
    let impB = try b.imp(for: add.selector)
    #expect(impA == impB)
    #expect(try Runtime.forwardingIMP(for: add.signature) == impA)
    let other = try Runtime.forwardingIMP(for: MethodSignature.parse("v@:@"))
    #expect(other != impA)
  }

  @Test func unrecognizedOnTheSwiftPathIsATypedError() throws {
    let proxy = RelayProxy(target: try calculator())
    let missing = Message<Void>("missing")
    #expect(
      throws: RuntimeError.unrecognizedSelector(className: "ForwardingProxy", selector: "missing")
    ) {
      try missing.send(to: proxy)
    }
    #expect(
      throws: RuntimeError.unrecognizedSelector(className: "ForwardingProxy", selector: "missing")
    ) {
      try proxy.imp(for: "missing")
    }
    // The proxy's signature disagrees with the message's types.
    let wrong = Message<Int, Int, Int>("add:to:")
    #expect(
      throws: RuntimeError.signatureMismatch(
        selector: add.selector, expected: "q@:qd", found: "q@:qq")
    ) {
      try wrong.send(to: proxy, 1, 2)
    }
  }

  @Test func forwarderErrorsReachSwiftSenders() throws {
    struct Refused: Error, Equatable {}
    let proxy = RelayProxy(target: try calculator()) { _ in throw Refused() }
    #expect(throws: Refused()) { try add.send(to: proxy, 1, 2) }
  }

  @Test func messagingNilFromCReturnsZero() {
    #expect(dp_test_c_send_add(nil, add.selector.rawValue, 1, 2) == 0)
  }

  @Test func unrecognizedFromCTrapsWithTheCocoaMessage() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let obj = RuntimeObject()
      dp_test_c_send_void(obj.rawValue, Selector("noSuchMethod:").rawValue)
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(stderr.contains("-[Object noSuchMethod:]: unrecognized selector sent to instance 0x"))
  }

  @Test func unrecognizedStructReturnFromCStillNamesTheReceiver() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let proxy = ForwardingProxy()
      _ = dp_test_c_send_big(proxy.rawValue, Selector("bigValue").rawValue)
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      stderr.contains("-[ForwardingProxy bigValue]: unrecognized selector sent to instance 0x"))
  }

  @Test func forwarderErrorOnTheCPathStopsWithItsDescription() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      final class Refusing: ForwardingProxy, @unchecked Sendable {
        override func methodSignature(for selector: Selector) -> MethodSignature? {
          try? MethodSignature.parse("v@:")
        }
        override func forwardInvocation(_ invocation: Invocation) throws {
          throw RuntimeError.invocationIncomplete("refused by test")
        }
      }
      let proxy = Refusing()
      dp_test_c_send_void(proxy.rawValue, Selector("ping").rawValue)
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(stderr.contains("refused by test"))
  }
}
