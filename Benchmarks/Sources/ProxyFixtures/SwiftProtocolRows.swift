// Swift-protocol rows: what one call to N plain Swift delegates costs through the loops
// Swift programmers write by hand and through a @Delegate multicast, for an
// `(Int, Double) -> Int` method (`q@:qd`) and a void method taking an object (`v@:@`).
//
// Every row makes its own delegate objects (an object that was ever referenced weakly
// keeps a side table, which slows all its retains), and each mixes two conforming
// classes (one class alone lets the optimizer devirtualize the call).

import BenchmarkSupport
import DelegateProxy
import MessageRuntime

/// The object the void method receives.
public final class BenchSubject: Sendable {
  public let id: Int
  public init(id: Int) { self.id = id }
}

/// The delegate protocol of the Swift rows.
@Delegate(cFace: true)
public protocol BenchListener: AnyObject {
  func value(_ a: Int, scale: Double) -> Int
  func observe(_ subject: BenchSubject)
}

/// Two conforming classes, mixed in every row. Their bodies write through a pointer, so
/// the call cannot be optimized away and no exclusivity check is paid.
final class ListenerA: BenchListener {
  let sink: UnsafeMutablePointer<Int>
  let bias: Int
  init(sink: UnsafeMutablePointer<Int>, bias: Int) {
    self.sink = sink
    self.bias = bias
  }
  func value(_ a: Int, scale: Double) -> Int { a &+ Int(scale) &+ bias }
  func observe(_ subject: BenchSubject) { sink.pointee &+= subject.id }
}

final class ListenerB: BenchListener {
  let sink: UnsafeMutablePointer<Int>
  let bias: Int
  init(sink: UnsafeMutablePointer<Int>, bias: Int) {
    self.sink = sink
    self.bias = bias
  }
  func value(_ a: Int, scale: Double) -> Int { a &* 2 &+ bias }
  func observe(_ subject: BenchSubject) { sink.pointee &+= subject.id &* 2 }
}

/// A delegator as Swift programmers write one.
final class BenchDelegator {
  weak var delegate: (any BenchListener)?
}

/// The Swift rows.
public enum SwiftRowKind: String, CaseIterable, Sendable {
  /// A plain `[any P]` loop (the Swift limit).
  case strongArray = "swift_strong_array"
  /// The array of weak boxes Swift programmers hand-write.
  case weakArray = "swift_weak_array"
  /// The cheapest loop that does not keep its delegates alive: Swift `unowned`
  /// references, each load one checked retain and its release — the atomic work of the
  /// multicast's `tryRetain` per weak member (a deallocated delegate traps here instead of
  /// being skipped). Not a target: the floor weak membership puts under every weak row.
  case unownedArray = "swift_unowned_array"
  /// A delegator's weak slot holding a @Delegate multicast of N weak members
  /// (last-responder policy).
  case protocolProxy = "swift_protocol_proxy"
  /// The same multicast called through a strong reference: the multicast's own cost,
  /// without the delegator's weak load (every weak load of an object goes through its
  /// side table).
  case protocolProxyStrongSlot = "swift_protocol_proxy_strong_slot"
  /// The same multicast through a strong reference, its members added with
  /// `retention: .strong`: no reference count changes per call — what the multicast's
  /// own loop costs beside a strong array, without weak membership.
  case protocolProxyStrongMembers = "swift_protocol_proxy_strong_members"
  /// A C loop calling N `@convention(c)` functions, each calling one delegate's Swift
  /// method (found from `self`, unretained): the limit for C calling Swift.
  case cToSwiftDirect = "c_to_swift_direct"
  /// The C caller loop calling a @Delegate multicast's `imp(for:)` with its `rawValue`:
  /// the generated C function of the method, which runs the multicast's own dispatch over
  /// its weak members (last-responder policy).
  case cToSwiftProxy = "c_to_swift_proxy"
}

struct WeakListener {
  weak var value: (any BenchListener)?
}

/// An unowned delegate: each load takes a strong reference (checking that the object's
/// deinit has not begun) and the call's end drops it — the same two atomic reference-count
/// operations as a `tryRetain` and its release.
struct UnownedListener {
  unowned let value: any BenchListener
  init(_ value: any BenchListener) { self.value = value }
}

/// Sink for the delegates' writes (never read back but by the check).
nonisolated(unsafe) private let sink: UnsafeMutablePointer<Int> = {
  // nonisolated(unsafe): the benchmark harness runs one row at a time on one thread.
  let p = UnsafeMutablePointer<Int>.allocate(capacity: 1)
  p.initialize(to: 0)
  return p
}()

extension Workload {
  /// The Swift row `kind` at `fanout` delegates, for `.qd` or `.object`.
  public static func swift(_ kind: SwiftRowKind, _ signature: BenchSignature, fanout: Int)
    -> Workload
  {
    precondition(signature == .qd || signature == .object, "Swift rows measure q@:qd and v@:@")
    let listeners: [any BenchListener] = (0..<fanout).map { i in
      i % 2 == 0
        ? ListenerA(sink: sink, bias: i) as any BenchListener : ListenerB(sink: sink, bias: i)
    }
    let subject = BenchSubject(id: 3)
    // What the last delegate answers to value(i, 0.5), for the check.
    let expected: (Int) -> Int = { i in listeners.last!.value(i, scale: 0.5) }
    let run: (Int) -> UInt64
    var keep: [AnyObject] = listeners.map { $0 as AnyObject }
    var check: () -> String? = { nil }
    switch kind {
    case .strongArray:
      run =
        signature == .qd
        ? { n in SwiftRows.strongValue(listeners, n) }
        : { n in SwiftRows.strongObserve(listeners, subject, n) }
      check = {
        SwiftRows.strongValue1(listeners, 5) == expected(5) ? nil : "strong array: wrong value"
      }
    case .weakArray:
      let boxes = listeners.map { WeakListener(value: $0) }
      run =
        signature == .qd
        ? { n in SwiftRows.weakValue(boxes, n) } : { n in SwiftRows.weakObserve(boxes, subject, n) }
    case .unownedArray:
      let boxes = listeners.map(UnownedListener.init)
      run =
        signature == .qd
        ? { n in SwiftRows.unownedValue(boxes, n) }
        : { n in SwiftRows.unownedObserve(boxes, subject, n) }
      check = {
        SwiftRows.unownedValue1(boxes, 5) == expected(5) ? nil : "unowned array: wrong value"
      }
    case .protocolProxy:
      let proxy = BenchListenerMulticast()
      for l in listeners { proxy.add(l) }
      let delegator = BenchDelegator()
      delegator.delegate = proxy
      keep.append(proxy)
      keep.append(delegator)
      run =
        signature == .qd
        ? { n in SwiftRows.delegatorValue(delegator, n) }
        : { n in SwiftRows.delegatorObserve(delegator, subject, n) }
      check = {
        let got = delegator.delegate?.value(5, scale: 0.5)
        return got == expected(5)
          ? nil
          : "swift_protocol_proxy: value(5) answered \(got.map(String.init) ?? "nil"), expected \(expected(5))"
      }
    case .protocolProxyStrongSlot, .protocolProxyStrongMembers:
      let proxy = BenchListenerMulticast()
      let retention: Retention = kind == .protocolProxyStrongMembers ? .strong : .weak
      for l in listeners { proxy.add(l, retention: retention) }
      keep.append(proxy)
      run =
        signature == .qd
        ? { n in SwiftRows.strongValue([proxy], n) }
        : { n in SwiftRows.strongObserve([proxy], subject, n) }
      check = {
        proxy.value(5, scale: 0.5) == expected(5) ? nil : "\(kind.rawValue): wrong value"
      }
    case .cToSwiftDirect, .cToSwiftProxy:
      let c = CToSwiftRows.make(
        kind, signature, listeners: listeners, subject: subject, expected: expected(5))
      run = c.run
      check = c.check
      keep += c.keep
    }
    let path: String
    switch kind {
    case .protocolProxy, .protocolProxyStrongSlot, .protocolProxyStrongMembers:
      path = "swift-delegate-multicast"
    case .cToSwiftDirect: path = "c-to-swift-thunks"
    case .cToSwiftProxy: path = "c-route-to-swift-entries"
    case .strongArray, .weakArray, .unownedArray: path = "swift-loop"
    }
    return Workload(
      name: kind.rawValue, signature: signature, fanout: fanout, responders: fanout,
      path: path, keepAlive: keep + [subject], check: check, run: run)
  }
}

enum SwiftRows {
  @inline(never) static func strongValue1(_ listeners: [any BenchListener], _ i: Int) -> Int {
    var last = 0
    for l in listeners { last = l.value(i, scale: 0.5) }
    return last
  }

  @inline(never) static func strongValue(_ listeners: [any BenchListener], _ n: Int) -> UInt64 {
    var acc = 0
    let start = bs_now_ns()
    for i in 0..<n {
      var last = 0
      for l in listeners { last = l.value(i, scale: 0.5) }
      acc &+= last
    }
    let end = bs_now_ns()
    bs_consume(Int64(acc))
    return end &- start
  }

  @inline(never) static func strongObserve(
    _ listeners: [any BenchListener], _ subject: BenchSubject, _ n: Int
  )
    -> UInt64
  {
    let start = bs_now_ns()
    for _ in 0..<n {
      for l in listeners { l.observe(subject) }
    }
    return bs_now_ns() &- start
  }

  @inline(never) static func weakValue(_ boxes: [WeakListener], _ n: Int) -> UInt64 {
    var acc = 0
    let start = bs_now_ns()
    for i in 0..<n {
      var last = 0
      for b in boxes { if let l = b.value { last = l.value(i, scale: 0.5) } }
      acc &+= last
    }
    let end = bs_now_ns()
    bs_consume(Int64(acc))
    return end &- start
  }

  @inline(never) static func weakObserve(_ boxes: [WeakListener], _ subject: BenchSubject, _ n: Int)
    -> UInt64
  {
    let start = bs_now_ns()
    for _ in 0..<n {
      for b in boxes { b.value?.observe(subject) }
    }
    return bs_now_ns() &- start
  }

  @inline(never) static func unownedValue1(_ boxes: [UnownedListener], _ i: Int) -> Int {
    var last = 0
    for b in boxes { last = b.value.value(i, scale: 0.5) }
    return last
  }

  @inline(never) static func unownedValue(_ boxes: [UnownedListener], _ n: Int) -> UInt64 {
    var acc = 0
    let start = bs_now_ns()
    for i in 0..<n {
      var last = 0
      for b in boxes { last = b.value.value(i, scale: 0.5) }
      acc &+= last
    }
    let end = bs_now_ns()
    bs_consume(Int64(acc))
    return end &- start
  }

  @inline(never) static func unownedObserve(
    _ boxes: [UnownedListener], _ subject: BenchSubject, _ n: Int
  ) -> UInt64 {
    let start = bs_now_ns()
    for _ in 0..<n {
      for b in boxes { b.value.observe(subject) }
    }
    return bs_now_ns() &- start
  }

  @inline(never) static func delegatorValue(_ delegator: BenchDelegator, _ n: Int) -> UInt64 {
    var acc = 0
    let start = bs_now_ns()
    for i in 0..<n { acc &+= delegator.delegate?.value(i, scale: 0.5) ?? 0 }
    let end = bs_now_ns()
    bs_consume(Int64(acc))
    return end &- start
  }

  @inline(never) static func delegatorObserve(
    _ delegator: BenchDelegator, _ subject: BenchSubject, _ n: Int
  )
    -> UInt64
  {
    let start = bs_now_ns()
    for _ in 0..<n { delegator.delegate?.observe(subject) }
    return bs_now_ns() &- start
  }
}

// MARK: C calling Swift

/// `@convention(c)` thunks of the benchmark signatures, one per listener class: each finds
/// its listener from `self` (unretained) and calls its Swift method.
private let valueThunkA: @convention(c) (bs_id?, bs_sel?, Int64, Double) -> Int64 = { me, _, a, d in
  Int64(
    Unmanaged<ListenerA>.fromOpaque(me!)._withUnsafeGuaranteedRef { $0.value(Int(a), scale: d) })
}
private let valueThunkB: @convention(c) (bs_id?, bs_sel?, Int64, Double) -> Int64 = { me, _, a, d in
  Int64(
    Unmanaged<ListenerB>.fromOpaque(me!)._withUnsafeGuaranteedRef { $0.value(Int(a), scale: d) })
}
private let observeThunkA: @convention(c) (bs_id?, bs_sel?, bs_id?) -> Void = { me, _, subject in
  let s = Unmanaged<BenchSubject>.fromOpaque(subject!).takeUnretainedValue()
  Unmanaged<ListenerA>.fromOpaque(me!)._withUnsafeGuaranteedRef { $0.observe(s) }
}
private let observeThunkB: @convention(c) (bs_id?, bs_sel?, bs_id?) -> Void = { me, _, subject in
  let s = Unmanaged<BenchSubject>.fromOpaque(subject!).takeUnretainedValue()
  Unmanaged<ListenerB>.fromOpaque(me!)._withUnsafeGuaranteedRef { $0.observe(s) }
}

enum CToSwiftRows {
  /// The run, check and kept objects of a `c_to_swift_*` row.
  static func make(
    _ kind: SwiftRowKind, _ signature: BenchSignature, listeners: [any BenchListener],
    subject: BenchSubject, expected: Int
  ) -> (run: (Int) -> UInt64, check: () -> String?, keep: [AnyObject]) {
    let subjectPointer = Unmanaged.passUnretained(subject).toOpaque()
    let sig = signature.c
    switch kind {
    case .cToSwiftDirect:
      let targets: [bs_id?] = listeners.map { Unmanaged.passUnretained($0 as AnyObject).toOpaque() }
      let imps: [UnsafeRawPointer?] = listeners.map { l in
        switch (l is ListenerA, signature == .qd) {
        case (true, true): unsafeBitCast(valueThunkA, to: UnsafeRawPointer.self)
        case (false, true): unsafeBitCast(valueThunkB, to: UnsafeRawPointer.self)
        case (true, false): unsafeBitCast(observeThunkA, to: UnsafeRawPointer.self)
        case (false, false): unsafeBitCast(observeThunkB, to: UnsafeRawPointer.self)
        }
      }
      let run: (Int) -> UInt64 = { n in
        bs_set_object_argument(subjectPointer)
        return imps.withUnsafeBufferPointer { i in
          targets.withUnsafeBufferPointer { t in
            bs_direct_loop(sig, i.baseAddress, t.baseAddress, Int32(t.count), nil, UInt64(n))
          }
        }
      }
      let check: () -> String? = {
        guard signature == .qd else { return nil }
        let last = imps.last!
        let target = targets.last!
        let got = bs_probe(sig, last, target, nil)
        return got == Int64(expected)
          ? nil : "c_to_swift_direct: value(5) answered \(got), expected \(expected)"
      }
      return (run, check, [])
    default:
      let proxy = BenchListenerMulticast()
      for l in listeners { proxy.add(l) }
      let imp =
        try! signature == .qd
        ? proxy.runtime.imp(for: \.valueScale) : proxy.runtime.imp(for: \.observe)
      let selector =
        signature == .qd
        ? proxy.runtime.selector(for: \.valueScale) : proxy.runtime.selector(for: \.observe)
      let code = imp.unsafeCast(to: UnsafeRawPointer.self)
      let receiver = UnsafeMutableRawPointer(try! proxy.runtime.rawValue())
      let sel = UnsafeRawPointer(selector.rawValue)
      let run: (Int) -> UInt64 = { n in
        bs_set_object_argument(subjectPointer)
        return bs_caller_loop(sig, code, receiver, sel, UInt64(n))
      }
      let check: () -> String? = {
        // The C face's method is the C function @Delegate generated (no frame, no libffi).
        let entries = BenchListenerMulticast.__cFunctions.map { $0?.imp }
        guard entries.contains(imp) else {
          return "c_to_swift_proxy: \(selector) is not the generated C function"
        }
        guard signature == .qd else { return nil }
        let got = bs_probe(sig, code, receiver, sel)
        return got == Int64(expected)
          ? nil : "c_to_swift_proxy: value(5) answered \(got), expected \(expected)"
      }
      return (run, check, [proxy])
    }
  }
}
