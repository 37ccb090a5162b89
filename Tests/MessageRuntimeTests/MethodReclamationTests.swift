import DelegateProxyCTestSupport
import DelegateProxyTestSupport
import Dispatch
import Synchronization
import Testing

@testable import MessageRuntime

/// Nothing is freed while a sender may call it (issue #37, item 2): a replaced or removed
/// closure IMP, and a replaced per-object method table, are retired — freed after every
/// send that may have looked them up has ended, not at once and not never.
@Suite("Replaced methods are reclaimed after a grace period") struct MethodReclamationTests {
  static let tick = Message<Int, Int>("reclaimTick:")
  static let tickSignature = tick.signature

  /// What a method body captures: its weak reference tells whether the closure IMP that
  /// holds the body was freed.
  final class Token: Sendable {}

  /// What the sending thread and the test share.
  final class Shared: Sendable {
    let stop = Atomic<Bool>(false)
    let sent = Atomic<Int>(0)
    let wrong = Atomic<Int>(0)
  }

  /// One thread sends (typed send, `Invocation`, and C's `DP_MSG_SEND` by turns) while
  /// this one replaces the method 10,000 times. Run under AddressSanitizer
  /// (`Scripts/sanitize.sh address --filter MethodReclamationTests`): a closure IMP freed
  /// under a call is a use-after-free report; without the sanitizer, a crash.
  @Test func replacingAMethodWhileAnotherThreadSendsItFreesNothingUnderTheCall() throws {
    let cls = try RuntimeClass(name: uniqueClassName("ReclaimTicker"))
    try cls.addMethod(Self.tick) { _, x in x + 1 }
    let object = RuntimeObject(class: cls)
    let shared = Shared()
    // The handle crosses to the sender thread as a bit pattern; `object` outlives it.
    let handle = UInt(bitPattern: object.rawValue)
    let sender = Thread.start {
      let raw = OpaquePointer(bitPattern: handle)!
      var i = 0
      while !shared.stop.load(ordering: .acquiring) {
        let answer: Int
        switch i % 3 {
        case 0: answer = (try? Self.tick.send(to: object, 5)) ?? -1
        case 1:
          let invocation = Invocation(signature: Self.tickSignature)
          invocation.selector = Self.tick.selector
          try? invocation.setArgument(5, at: 0)
          answer =
            (try? invocation.invoke(target: object)).flatMap {
              try? invocation.returnValue(as: Int.self)
            } ?? -1
        default:
          answer = Int(dp_test_c_send_add(raw, Self.tick.selector.rawValue, 5, 0))
        }
        // Every body installed answers x + something in 1...3.
        if !(6...8).contains(answer) { shared.wrong.add(1, ordering: .relaxed) }
        shared.sent.add(1, ordering: .relaxed)
        i += 1
      }
    }
    weak var firstReplaced: Token?
    for round in 0..<10_000 {
      let token = Token()
      if round == 0 { firstReplaced = token }
      let k = round % 3 + 1
      try cls.replaceMethod(Self.tick.selector, signature: Self.tickSignature) { invocation in
        withExtendedLifetime(token) {}
        let x: Int = (try? invocation.argument(at: 0)) ?? 0
        try? invocation.setReturnValue(x + k)
      }
    }
    shared.stop.store(true, ordering: .releasing)
    sender.join()
    let sent = shared.sent.load(ordering: .relaxed)
    let wrong = shared.wrong.load(ordering: .relaxed)
    #expect(sent > 0)
    #expect(wrong == 0, "\(wrong) of \(sent) answers came from no body ever installed")
    // Not never: once the senders' sections have ended, the replaced bodies are freed.
    Quiescence.waitForReclamation()
    #expect(firstReplaced == nil)
    withExtendedLifetime(object) {}
  }

  /// Not at once: a body that replaces its own method is still running, in its send's
  /// read section, so what it replaced (itself) is kept until that send has returned.
  @Test func aMethodThatReplacesItselfKeepsRunningOnLiveCode() throws {
    let cls = try RuntimeClass(name: uniqueClassName("ReclaimSelfReplacing"))
    // @unchecked Sendable: `token` is written before the send and read during it, on
    // this thread; `kept` is an atomic.
    final class WeakBox: @unchecked Sendable {
      weak var token: Token?
      let kept = Atomic<Bool>(false)
    }
    let box = WeakBox()
    do {
      let token = Token()
      box.token = token
      try cls.addMethod(Self.tick.selector, signature: Self.tickSignature) { invocation in
        withExtendedLifetime(token) {}
        _ = try? cls.replaceMethod(Self.tick.selector, signature: Self.tickSignature) { inv in
          try? inv.setReturnValue(0)
        }
        box.kept.store(box.token != nil, ordering: .relaxed)
        try? invocation.setReturnValue(1)
      }
    }
    let object = RuntimeObject(class: cls)
    #expect(try Self.tick.send(to: object, 0) == 1)
    let kept = box.kept.load(ordering: .relaxed)
    #expect(kept)
    #expect(try Self.tick.send(to: object, 0) == 0)
    Quiescence.waitForReclamation()
    #expect(box.token == nil)
  }

  /// An object's own methods set and removed 100,000 times: the tables it replaced are
  /// freed, not kept until the object dies, and what waits to be freed stays bounded.
  @Test func replacedObjectTablesAreFreedAndTheRetiredCountStaysBounded() throws {
    let cls = try RuntimeClass(name: uniqueClassName("ReclaimOwnTables"))
    let object = RuntimeObject(class: cls)
    Quiescence.waitForReclamation()
    let before = Quiescence.methodTablesLive
    var mostWaiting: UInt64 = 0
    for round in 0..<100_000 {
      object.setMethod(Self.tick.selector, imp: Self.constantIMP, signature: Self.tickSignature)
      object.removeMethod(Self.tick.selector)
      // The writer frees what no reader holds (never waiting); the rest is the reclaimer's.
      if round % 1000 == 999 { mostWaiting = max(mostWaiting, Quiescence.reclaim()) }
    }
    Quiescence.waitForReclamation()
    // Before the grace period freed them, 200,000 tables stayed until the object died.
    // Other suites running alongside make and free tables too: a generous bound.
    let after = Quiescence.methodTablesLive
    #expect(after < before + 1_000)
    #expect(mostWaiting < 10_000)
    withExtendedLifetime(object) {}
  }

  /// A C function IMP answering 7 for `reclaimTick:` (its value does not matter here).
  static let constantIMP: IMP = {
    let function: @convention(c) (OpaquePointer?, OpaquePointer?, Int64) -> Int64 =
      dp_test_constant_tick
    return IMP(unsafeFunction: function)
  }()
}
