import DelegateProxy
import DelegateProxyTestSupport
import MessageRuntime
import Synchronization
import Testing

/// Wrong types never reach a handler: an adapter whose message differs from the receiver's
/// method is refused, a proxy with a live adapter refuses a member whose method differs,
/// and `function(as:)` refuses a function type it can prove is not the callback's.
@Suite("Callback adapter: type checks") struct CallbackTypeCheckTests {
  static let takeInt = Message<Void, Int32>("take:")
  static let takeDouble = Message<Void, Double>("take:")
  static let answer = Message<Int32, Int32>("answer:")

  /// A class whose instances implement `take:` with `message`'s types.
  func takerClass<A>(_ message: Message<Void, A>) throws -> RuntimeClass {
    let cls = try RuntimeClass(name: uniqueClassName("Taker"))
    try cls.addMethod(message) { _, _ in }
    return cls
  }

  /// The parts of a `receiverMethodMismatch`, or nil (an issue recorded) for another error.
  static func mismatch(_ error: CallbackAdapterError?) -> (
    selector: Selector, receiverClass: String, method: String, message: String
  )? {
    guard
      case .receiverMethodMismatch(let selector, let receiverClass, let method, let message)? =
        error
    else {
      Issue.record("expected receiverMethodMismatch, got \(String(describing: error))")
      return nil
    }
    return (selector, receiverClass, method, message)
  }

  // MARK: At creation

  @Test func aPlainObjectWhoseMethodHasOtherTypesIsRefused() throws {
    let cls = try takerClass(Self.takeInt)
    let receiver = RuntimeObject(class: cls)
    let error = #expect(throws: CallbackAdapterError.self) {
      try CallbackAdapter(for: Self.takeDouble, context: .first, receiver: receiver)
    }
    guard let (selector, receiverClass, method, message) = Self.mismatch(error) else { return }
    #expect(selector == "take:")
    #expect(receiverClass == cls.name)
    #expect(method == Self.takeInt.signature.encoding)
    #expect(message == Self.takeDouble.signature.encoding)
    #expect(method != message)
    #expect(
      error?.description
        == "-[\(cls.name) take:] is \"\(method)\" but the callback's message is \"\(message)\": its calls would reach the method with arguments of other types"
    )
    // The same types are accepted.
    let adapter = try CallbackAdapter(for: Self.takeInt, context: .first, receiver: receiver)
    #expect(adapter.callback.encoding == "v^vi")
  }

  @Test func aSignatureGivenByHandIsCheckedToo() throws {
    let receiver = RuntimeObject(class: try takerClass(Self.takeInt))
    #expect(throws: CallbackAdapterError.self) {
      try CallbackAdapter(
        CallbackSignature(parsing: "v^vd"), context: .first, receiver: receiver,
        message: Self.takeDouble)
    }
    // Without a message, the receiver's own signature is used: the callback must match it.
    #expect(throws: CallbackAdapterError.self) {
      try CallbackAdapter(
        CallbackSignature(parsing: "v^vd"), context: .first, receiver: receiver,
        selector: "take:")
    }
    _ = try CallbackAdapter(
      CallbackSignature(parsing: "v^vi"), context: .first, receiver: receiver, selector: "take:")
  }

  @Test func aProxyWhoseMembersHaveOtherTypesIsRefused() throws {
    let cls = try takerClass(Self.takeInt)
    let member = RuntimeObject(class: cls)
    let proxy = try MulticastProxy(delegates: [member])
    let error = #expect(throws: CallbackAdapterError.self) {
      try CallbackAdapter(for: Self.takeDouble, context: .last, receiver: proxy)
    }
    guard let (selector, receiverClass, method, message) = Self.mismatch(error) else { return }
    #expect(selector == "take:")
    #expect(receiverClass == proxy.runtimeClass.name)
    #expect(method == Self.takeInt.signature.encoding)
    #expect(message == Self.takeDouble.signature.encoding)
    withExtendedLifetime(member) {}
  }

  // MARK: Members added later

  @Test func aProxyWithALiveAdapterRefusesAMemberOfOtherTypes() throws {
    let doubles = RuntimeObject(class: try takerClass(Self.takeDouble))
    let ints = RuntimeObject(class: try takerClass(Self.takeInt))
    let intClass = ints.runtimeClass.name
    let proxy = try MulticastProxy(delegates: [])
    var adapter: CallbackAdapter? = try CallbackAdapter(
      for: Self.takeDouble, context: .first, receiver: proxy)
    let error = #expect(throws: DelegateProxyError.self) { try proxy.add(ints) }
    guard
      case .signatureConflict(let selector, let existing, let owner, let new, let newClass)? = error
    else {
      Issue.record("expected signatureConflict, got \(String(describing: error))")
      return
    }
    #expect(selector == "take:")
    #expect(existing == Self.takeDouble.signature.encoding)
    #expect(new == Self.takeInt.signature.encoding)
    #expect(newClass == intClass)
    #expect(owner.hasPrefix("CallbackAdapter <callback v^vd, context first → -["))
    #expect(owner.contains("take:"))
    #expect(proxy.count == 0)  // membership unchanged
    // insert takes the same check.
    #expect(throws: DelegateProxyError.self) { try proxy.insert(ints, at: 0) }
    // A member of the same types joins, and the adapter reaches it.
    try proxy.add(doubles)
    #expect(proxy.count == 1)
    // Once the adapter is gone, nothing holds the proxy to those types but its members.
    adapter = nil
    proxy.remove(doubles)
    try proxy.add(ints)
    #expect(proxy.count == 1)
    withExtendedLifetime((doubles, ints, adapter)) {}
  }

  @Test func reloadingAMemberWhoseMethodChangedTypesIsRefused() throws {
    let member = RuntimeObject()
    try member.setMethod(Self.takeDouble) { _, _ in }
    let proxy = try MulticastProxy(delegates: [member])
    let adapter = try CallbackAdapter(for: Self.takeDouble, context: .first, receiver: proxy)
    try member.setMethod(Self.takeInt) { _, _ in }
    let error = #expect(throws: DelegateProxyError.self) { try proxy.reloadMethods() }
    guard case .signatureConflict(_, let existing, let owner, let new, _)? = error else {
      Issue.record("expected signatureConflict, got \(String(describing: error))")
      return
    }
    #expect(existing == Self.takeDouble.signature.encoding)
    #expect(new == Self.takeInt.signature.encoding)
    #expect(owner.hasPrefix("CallbackAdapter <"))
    withExtendedLifetime(adapter) {}
  }

  @Test func anAdapterAndAMemberRacingNeverBothWin() throws {
    // Each round, one thread makes an adapter for take: as double while another adds a
    // member implementing it as int: one of them must be refused.
    for _ in 0..<200 {
      let proxy = try MulticastProxy(delegates: [])
      let member = RuntimeObject(class: try takerClass(Self.takeInt))
      let adapterMade = Atomic<Bool>(false)
      let memberAdded = Atomic<Bool>(false)
      let kept = Mutex<CallbackAdapter?>(nil)
      let a = Thread.start {
        if let made = try? CallbackAdapter(for: Self.takeDouble, context: .first, receiver: proxy) {
          kept.withLock { $0 = made }
          adapterMade.store(true, ordering: .relaxed)
        }
      }
      let b = Thread.start {
        if (try? proxy.add(member)) != nil { memberAdded.store(true, ordering: .relaxed) }
      }
      a.join()
      b.join()
      let both = adapterMade.load(ordering: .relaxed) && memberAdded.load(ordering: .relaxed)
      #expect(!both, "an adapter for v^vd and a member taking an int both got in")
      #expect(adapterMade.load(ordering: .relaxed) || memberAdded.load(ordering: .relaxed))
      if both { break }
      withExtendedLifetime(member) {}
    }
  }

  // MARK: function(as:)

  @Test func functionAsRefusesATypeOfAnotherArity() throws {
    let receiver = RuntimeObject()
    try receiver.setMethod(Self.answer) { _, n in n + 1 }
    let adapter = try CallbackAdapter(for: Self.answer, context: .first, receiver: receiver)
    typealias Right = @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32
    typealias OneArgument = @convention(c) (UnsafeMutableRawPointer?) -> Int32
    #expect(try adapter.function(as: Right.self)(adapter.context, 41) == 42)
    #expect(try adapter.function(as: Right?.self) != nil)  // an optional of the right type
    let error = #expect(throws: CallbackAdapterError.self) {
      try adapter.function(as: OneArgument.self)
    }
    #expect(
      error
        == .functionTypeMismatch(
          type: "\(OneArgument.self)", callback: "i^vi",
          reason: "it takes 1 argument, the callback 2"))
    #expect(
      error?.description
        == "function(as: \(OneArgument.self)): it takes 1 argument, the callback 2; the callback is \"i^vi\""
    )
  }

  @Test func functionAsRefusesArgumentsAndResultsPassedDifferently() throws {
    let receiver = RuntimeObject()
    try receiver.setMethod(Self.answer) { _, n in n + 1 }
    let adapter = try CallbackAdapter(for: Self.answer, context: .first, receiver: receiver)
    typealias DoubleArgument = @convention(c) (UnsafeMutableRawPointer?, Double) -> Int32
    typealias WideArgument = @convention(c) (UnsafeMutableRawPointer?, Int64) -> Int32
    typealias NoResult = @convention(c) (UnsafeMutableRawPointer?, Int32) -> Void
    typealias FloatResult = @convention(c) (UnsafeMutableRawPointer?, Int32) -> Float
    typealias Unsigned = @convention(c) (UnsafeMutableRawPointer?, UInt32) -> UInt32
    typealias OtherPointer = @convention(c) (UnsafeMutablePointer<CChar>?, Int32) -> Int32
    let reasons: [(String, CallbackAdapterError?)] = [
      (
        "argument 1 is Double (a 64-bit floating-point value), the callback's \"i\" (a 32-bit integer)",
        #expect(throws: CallbackAdapterError.self) { try adapter.function(as: DoubleArgument.self) }
      ),
      (
        "argument 1 is Int64 (a 64-bit integer), the callback's \"i\" (a 32-bit integer)",
        #expect(throws: CallbackAdapterError.self) { try adapter.function(as: WideArgument.self) }
      ),
      (
        "it returns nothing, the callback \"i\"",
        #expect(throws: CallbackAdapterError.self) { try adapter.function(as: NoResult.self) }
      ),
      (
        "it returns Float (a 32-bit floating-point value), the callback \"i\" (a 32-bit integer)",
        #expect(throws: CallbackAdapterError.self) { try adapter.function(as: FloatResult.self) }
      ),
    ]
    for (reason, error) in reasons {
      guard case .functionTypeMismatch(_, let callback, let found)? = error else {
        Issue.record("expected functionTypeMismatch, got \(String(describing: error))")
        continue
      }
      #expect(callback == "i^vi")
      #expect(found == reason)
    }
    // What the C calling convention passes alike is accepted: signedness, pointer types.
    #expect(try adapter.function(as: Unsigned.self)(adapter.context, 1) == 2)
    _ = try adapter.function(as: OtherPointer.self)
  }

  @Test func functionAsRefusesWhatIsNotACFunctionPointer() throws {
    let receiver = RuntimeObject()
    try receiver.setMethod(Self.answer) { _, n in n + 1 }
    let adapter = try CallbackAdapter(for: Self.answer, context: .first, receiver: receiver)
    typealias SwiftClosure = (UnsafeMutableRawPointer?, Int32) -> Int32
    let closure = #expect(throws: CallbackAdapterError.self) {
      try adapter.function(as: SwiftClosure.self)
    }
    guard case .functionTypeMismatch(_, _, let reason)? = closure else {
      Issue.record("expected functionTypeMismatch, got \(String(describing: closure))")
      return
    }
    #expect(reason == "\(SwiftClosure.self) is not a @convention(c) function type")
    let pointer = #expect(throws: CallbackAdapterError.self) {
      try adapter.function(as: UnsafeRawPointer.self)
    }
    guard case .functionTypeMismatch(_, _, let reason)? = pointer else {
      Issue.record("expected functionTypeMismatch, got \(String(describing: pointer))")
      return
    }
    #expect(reason == "UnsafeRawPointer is not a function type")
  }
}
