import DelegateProxyCTestSupport
import DelegateProxyTestSupport
import Testing

@testable import MessageRuntime

/// No method body runs once a receiver's deinit has begun (Misuse.md): a message that
/// reaches the handle then — here sent by the object's own deinit, the one moment a
/// sender can still name it — answers zero, whatever kind of method the object has.
@Suite("No method body after deinit has begun") struct DeinitDeliveryTests {
  static let ping = Message<Void>("ping")
  static let answer = Message<Int>("answer")

  @Test func closureMethodDoesNotRunDuringDeinit() throws {
    let log = CallLog()
    let cls = try RuntimeClass(name: uniqueClassName("ClosureReceiver"))
    try cls.addMethod(Self.ping) { _ in log.append("ping") }
    try cls.addMethod(Self.answer) { _ in 42 }
    // A raw invocation body: no typed wrapper checks the target for it.
    try cls.addMethod(Selector("raw"), signature: MethodSignature.parse("q@:")) { invocation in
      log.append("raw")
      try? invocation.setReturnValue(7)
    }
    do {
      let object = SendsToItselfInDeinit(class: cls, log: log)
      try Self.ping.send(to: object)
      #expect(try Self.answer.send(to: object) == 42)
    }
    #expect(log.entries == ["ping", "deinit", "answer 0", "raw 0"])
  }

  @Test func swiftEntryObjectSubclassDoesNotReceiveDuringDeinit() throws {
    let log = CallLog()
    let cls = try RuntimeClass(name: uniqueClassName("EntryReceiver"))
    do {
      let object = EntryReceiver(class: cls, log: log)
      #expect(object.setEntryMethod(Self.answer.selector, signature: Self.answer.signature))
      #expect(try Self.answer.send(to: object) == 42)
    }
    #expect(log.entries == ["receive", "deinit", "answer 0"])
  }

  /// Messaging a receiver being deallocated from C answers zero for every result type
  /// (issue #37, item 4): a 40-byte struct returned through a hidden pointer and a
  /// `long double` (x87 `st(0)` on x86-64) included, for a selector the receiver has no
  /// method for (the resolver answers the nil IMP); and so does messaging nil.
  @Test func messagingADyingReceiverOrNilFromCAnswersZeroForEveryResultType() throws {
    let log = CallLog()
    let cls = try RuntimeClass(name: uniqueClassName("DyingZero"))
    do { _ = SendsStructAndLongDoubleInDeinit(class: cls, log: log) }
    #expect(log.entries == ["big 0 0 0 0 0", "long double 0.0"])
    let big = dp_test_c_send_big(nil, Selector("makeBig").rawValue)
    #expect([big.a, big.b, big.c, big.d, big.e] == [0, 0, 0, 0, 0])
    #expect(dp_test_c_send_long_double_20(nil, Selector("precise").rawValue) == 0)
  }
}

/// Sends itself, from its deinit and from C, a message answering a 40-byte struct and one
/// answering `long double`, neither of which it has a method for, and logs the answers.
// @unchecked Sendable: its own state is a `let` of a Sendable type.
private final class SendsStructAndLongDoubleInDeinit: RuntimeObject, @unchecked Sendable {
  let log: CallLog
  init(class cls: RuntimeClass, log: CallLog) {
    self.log = log
    super.init(class: cls)
  }
  deinit {
    let big = dp_test_c_send_big(rawValue, Selector("makeBig").rawValue)
    log.append("big \(big.a) \(big.b) \(big.c) \(big.d) \(big.e)")
    log.append(
      "long double \(dp_test_c_send_long_double_20(rawValue, Selector("precise").rawValue))")
  }
}

/// Sends `answer` and `raw` to itself from its deinit, from C (`dp_msg_lookup`), and logs
/// what they answered.
// @unchecked Sendable: its own state is a `let` of a Sendable type.
private final class SendsToItselfInDeinit: RuntimeObject, @unchecked Sendable {
  let log: CallLog
  init(class cls: RuntimeClass, log: CallLog) {
    self.log = log
    super.init(class: cls)
  }
  deinit {
    log.append("deinit")
    log.append("answer \(dp_test_c_send_add(rawValue, Selector("answer").rawValue, 0, 0))")
    log.append("raw \(dp_test_c_send_add(rawValue, Selector("raw").rawValue, 0, 0))")
  }
}

/// A `__SwiftEntryObject` subclass whose `receive` answers 42 and whose deinit sends itself
/// `answer` from C.
// @unchecked Sendable: its own state is a `let` of a Sendable type.
private final class EntryReceiver: __SwiftEntryObject, @unchecked Sendable {
  let log: CallLog
  init(class cls: RuntimeClass, log: CallLog) {
    self.log = log
    super.init(class: cls)
  }
  override func receive(_ selector: Selector, frame: __SwiftEntryFrame) {
    log.append("receive")
    let slot = DeinitDeliveryTests.answer.signature.entryResultSlots![0]
    frame.base.storeBytes(of: 42, toByteOffset: slot.frameOffset, as: Int.self)
  }
  deinit {
    log.append("deinit")
    log.append("answer \(dp_test_c_send_add(rawValue, Selector("answer").rawValue, 0, 0))")
  }
}
