import DelegateProxy
import Glibc
import MessageRuntime
import Synchronization
import Testing

/// The adapter itself: errors at creation, the machinery each shape takes, bound
/// trampolines, floating-point and passed contexts, default results, lifetime.
@Suite("Callback adapter") struct CallbackAdapterTests {
  static let named = Message<Void, UnsafePointer<CChar>?>("named:")
  static let count = Message<Int32, Int32>("count:")
  static let nothing = Message<Void>("ping")

  func receiver() throws -> RuntimeObject {
    let r = RuntimeObject()
    try r.setMethod(Self.named) { _, _ in }
    try r.setMethod(Self.count) { _, n in n + 1 }
    try r.setMethod(Self.nothing) { _ in }
    return r
  }

  // MARK: Errors at creation, by value

  @Test func contextPositionOutsideTheArguments() throws {
    let r = try receiver()
    #expect(throws: CallbackAdapterError.contextOutOfRange(position: 3, arity: 2)) {
      try CallbackAdapter(
        CallbackSignature(parsing: "v^v*"), context: .argument(3), receiver: r,
        selector: Self.named.selector)
    }
    #expect(throws: CallbackAdapterError.contextOutOfRange(position: 0, arity: 0)) {
      try CallbackAdapter(
        CallbackSignature(parsing: "v"), context: .first, receiver: r,
        selector: Self.nothing.selector)
    }
    #expect(throws: CallbackAdapterError.contextOutOfRange(position: -1, arity: 0)) {
      try CallbackAdapter(
        CallbackSignature(parsing: "v"), context: .last, receiver: r,
        selector: Self.nothing.selector)
    }
  }

  @Test func contextThatIsNotAPointer() throws {
    let r = try receiver()
    #expect(throws: CallbackAdapterError.contextNotAPointer(position: 0, found: "i")) {
      try CallbackAdapter(
        CallbackSignature(parsing: "vi*"), context: .first, receiver: r,
        selector: Self.named.selector)
    }
  }

  @Test func signaturesThePackageCannotCarry() throws {
    let r = try receiver()
    do {
      _ = try CallbackAdapter(
        CallbackSignature(parsing: "v^v[4i]"), context: .first, receiver: r,
        selector: Self.named.selector)
      Issue.record("an array by value was accepted")
    } catch {
      guard case .unsupportedSignature(let encoding, let reason) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(encoding == "v^v[4i]")
      #expect(reason.contains("array"))
    }
    #expect {
      try CallbackSignature(parsing: "v^v{broken")
    } throws: { error in
      if case .unsupportedSignature(let encoding, _) = error as? CallbackAdapterError {
        return encoding == "v^v{broken"
      }
      return false
    }
  }

  @Test func argumentsThatDifferFromTheMessage() throws {
    let r = try receiver()
    // named: takes a C string; this callback passes an int after its context.
    #expect(
      throws: CallbackAdapterError.argumentMismatch(
        selector: Self.named.selector, callback: "i", message: "*")
    ) {
      try CallbackAdapter(
        CallbackSignature(parsing: "v^vi"), context: .first, receiver: r,
        selector: Self.named.selector)
    }
    // One argument too many.
    #expect(
      throws: CallbackAdapterError.argumentMismatch(
        selector: Self.named.selector, callback: "*i", message: "*")
    ) {
      try CallbackAdapter(
        CallbackSignature(parsing: "v^v*i"), context: .first, receiver: r,
        selector: Self.named.selector)
    }
  }

  @Test func resultThatDiffersFromTheMessage() throws {
    let r = try receiver()
    #expect(
      throws: CallbackAdapterError.resultMismatch(
        selector: Self.count.selector, callback: "d", message: "i")
    ) {
      try CallbackAdapter(
        CallbackSignature(parsing: "d^vi"), context: .first, receiver: r,
        selector: Self.count.selector)
    }
  }

  @Test func voidMessageBehindAValueReturningCallback() throws {
    let r = try receiver()
    #expect(
      throws: CallbackAdapterError.missingDefaultResult(
        selector: Self.nothing.selector, callbackResult: "i")
    ) {
      try CallbackAdapter(
        CallbackSignature(parsing: "i^v"), context: .first, receiver: r,
        selector: Self.nothing.selector)
    }
    #expect(throws: CallbackAdapterError.defaultResultMismatch(callbackResult: "i", found: "d")) {
      try CallbackAdapter(
        CallbackSignature(parsing: "i^v"), context: .first, receiver: r,
        selector: Self.nothing.selector, defaultResult: CallbackResult(2.5))
    }
    // With a default, every call answers it (a default takes the libffi closure).
    let withDefault = try CallbackAdapter(
      CallbackSignature(parsing: "i^v"), context: .first, receiver: r,
      selector: Self.nothing.selector, defaultResult: CallbackResult(Int32(-7)))
    #expect(withDefault.path == .libffi)
    let f = try withDefault.function(as: (@convention(c) (UnsafeMutableRawPointer?) -> Int32).self)
    #expect(f(withDefault.context) == -7)
    let six = Message<Void, Int, Int, Int, Int, Int, Int>("six:b:c:d:e:f:")
    let seen = Atomic<Int>(0)
    try r.setMethod(six) { _, a, _, _, _, _, f in seen.store(a + f, ordering: .relaxed) }
    let general = try CallbackAdapter(
      CallbackSignature(parsing: "iqqqqqq^v"), context: .last, receiver: r,
      selector: six.selector, defaultResult: CallbackResult(Int32(-9)))
    #expect(general.path == .libffi)
    typealias Six = @convention(c) (Int, Int, Int, Int, Int, Int, UnsafeMutableRawPointer?) -> Int32
    #expect(try general.function(as: Six.self)(1, 2, 3, 4, 5, 6, general.context) == -9)
    #expect(seen.load(ordering: .relaxed) == 7)
  }

  @Test func sharedContexts() throws {
    let r = try receiver()
    let other = try receiver()
    let first = try CallbackAdapter(for: Self.count, context: .first, receiver: r)
    #expect(
      throws: CallbackAdapterError.sharedContextReceiverMismatch(
        expected: r.description, found: other.description)
    ) {
      try CallbackAdapter(
        for: Self.count, context: .first, receiver: other, sharingContextWith: first)
    }
    var shared = [first]
    for _ in 1..<CallbackAdapter.maximumSharedContexts {
      shared.append(
        try CallbackAdapter(
          for: Self.count, context: .first, receiver: r, sharingContextWith: first))
    }
    #expect(Set(shared.map(\.context)).count == 1)
    #expect(Set(shared.map(\.function)).count == CallbackAdapter.maximumSharedContexts)
    #expect(throws: CallbackAdapterError.tooManySharedContexts(limit: 8)) {
      try CallbackAdapter(for: Self.count, context: .first, receiver: r, sharingContextWith: first)
    }
    typealias F = @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32
    for (i, a) in shared.enumerated() {
      #expect(try a.function(as: F.self)(a.context, Int32(i)) == Int32(i) + 1)
    }
  }

  // MARK: Shapes and machinery

  /// `double (*)(double a, void *context, double b, long n)`: the context between
  /// floating-point arguments, in integer register 0; a result in xmm0.
  @Test func floatingPointArgumentsAroundTheContext() throws {
    let mix = Message<Double, Double, Double, Int>("mix:with:times:")
    let target = RuntimeObject()
    try target.setMethod(mix) { _, a, b, n in (a - b) * Double(n) }
    let adapter = try CallbackAdapter(for: mix, context: .argument(1), receiver: target)
    #expect(adapter.callback.encoding == "dd^vdq")
    #expect(adapter.path == .registers)
    typealias F = @convention(c) (Double, UnsafeMutableRawPointer?, Double, Int) -> Double
    #expect(try adapter.function(as: F.self)(2.5, adapter.context, 0.25, 4) == 9)
  }

  /// More integer arguments than registers once self and _cmd are added: the libffi
  /// closure path, same answers.
  @Test func callbacksBeyondTheRegistersTakeLibffi() throws {
    let six = Message<Int, Int, Int, Int, Int, Int, Int>("a:b:c:d:e:f:")
    let target = RuntimeObject()
    try target.setMethod(six) { _, a, b, c, d, e, f in
      a + 10 * b + 100 * c + 1000 * d + 10000 * e + 100000 * f
    }
    let last = try CallbackAdapter(for: six, context: .last, receiver: target)
    #expect(last.path == .libffi)
    typealias Last = @convention(c) (Int, Int, Int, Int, Int, Int, UnsafeMutableRawPointer?) -> Int
    #expect(try last.function(as: Last.self)(1, 2, 3, 4, 5, 6, last.context) == 654321)
    let middle = try CallbackAdapter(for: six, context: .argument(3), receiver: target)
    #expect(middle.path == .libffi)
    typealias Middle =
      @convention(c) (Int, Int, Int, UnsafeMutableRawPointer?, Int, Int, Int) -> Int
    #expect(try middle.function(as: Middle.self)(1, 2, 3, middle.context, 4, 5, 6) == 654321)
  }

  /// The context passed on: the message receives the caller's own value in its place.
  @Test func passedContext() throws {
    let tagged = Message<Int, UnsafeMutableRawPointer?, Int>("tag:value:")
    let target = RuntimeObject()
    try target.setMethod(tagged) { _, tag, value in Int(bitPattern: tag) + value }
    let mine = UnsafeMutableRawPointer(bitPattern: 0x5000)
    for position in [CallbackContext.first, .argument(0)] {
      let adapter = try CallbackAdapter(
        for: tagged, context: position, receiver: target, passContext: true, contextValue: mine)
      #expect(adapter.path == .libffi)  // a context passed on takes the closure
      #expect(adapter.callback.encoding == "q^vq")
      typealias F = @convention(c) (UnsafeMutableRawPointer?, Int) -> Int
      #expect(try adapter.function(as: F.self)(adapter.context, 7) == 0x5007)
    }
  }

  /// No context: qsort's comparator through a bound trampoline.
  @Test func boundComparatorForQsort() throws {
    let compare = Message<Int32, UnsafeRawPointer?, UnsafeRawPointer?>("compare:with:")
    let comparisons = Atomic<Int>(0)
    let target = RuntimeObject()
    try target.setMethod(compare) { _, a, b in
      comparisons.add(1, ordering: .relaxed)
      let x = a!.load(as: Int32.self)
      let y = b!.load(as: Int32.self)
      return x < y ? 1 : x > y ? -1 : 0  // descending
    }
    let adapter = try CallbackAdapter(for: compare, context: .none, receiver: target)
    #expect(adapter.path == .bound)
    #expect(adapter.context == nil)
    var values: [Int32] = [5, 3, 9, 1, 7, 2]
    let comparator = try adapter.function(
      as: (@convention(c) (UnsafeRawPointer?, UnsafeRawPointer?) -> Int32).self)
    values.withUnsafeMutableBufferPointer { qsort($0.baseAddress!, $0.count, 4, comparator) }
    #expect(values == [9, 7, 5, 3, 2, 1])
    #expect(comparisons.load(ordering: .relaxed) > 0)
  }

  // MARK: Lifetime

  @Test func theAdapterKeepsItsReceiverUntilReleased() throws {
    weak var weakTarget: RuntimeObject?
    var adapter: CallbackAdapter?
    let before = CallbackAdapter.releasedCount
    do {
      let target = try receiver()
      weakTarget = target
      adapter = try CallbackAdapter(for: Self.count, context: .first, receiver: target)
    }
    #expect(weakTarget != nil)
    typealias F = @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32
    #expect(try adapter!.function(as: F.self)(adapter!.context, 41) == 42)
    adapter = nil
    #expect(weakTarget == nil)
    #expect(CallbackAdapter.releasedCount > before)
  }

  @Test func aCallAfterReleaseTrapsNamingTheAdapter() async throws {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let message = Message<Int32, Int32>("count:")
      let target = RuntimeObject()
      try target.setMethod(message) { _, n in n + 1 }
      var adapter: CallbackAdapter? = try CallbackAdapter(
        for: message, context: .first, receiver: target)
      let function = try adapter!.function(
        as: (@convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32).self)
      let context = adapter!.context
      adapter = nil
      _ = function(context, 1)  // a library calling after the adapter went away
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(stderr.contains("called after its CallbackAdapter was released"))
    #expect(stderr.contains("callback i^vi, context first → -[Object count:] i@:i"))
  }
}
