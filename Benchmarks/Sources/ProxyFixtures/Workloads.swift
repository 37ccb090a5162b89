// One measurable workload per row: a function that sends `n` messages and returns the
// elapsed CLOCK_MONOTONIC nanoseconds. One message is one send to the proxy (or one
// pass over the N targets for `direct` and `swift_closures`), whatever the fan-out.

import BenchmarkSupport
import DelegateProxy
import MessageRuntime

/// The rows measured in this process (the GNUstep row comes from its own driver).
public enum RowKind: String, CaseIterable, Sendable {
  /// A C loop calling N function pointers of the exact signature.
  case direct
  /// A Swift array of closures called in a loop (the hand-written multicast).
  case swiftClosures = "swift_closures"
  /// A libffi closure whose handler calls each target with ffi_call.
  case naiveFFI = "naive_ffi"
  /// A C caller calling the proxy's IMP (its C entry).
  case proxyC = "proxy_c"
  /// A typed Swift `Message.send` to the proxy.
  case proxySwift = "proxy_swift"

  /// What the row's number is the cost of, recorded as "path".
  public var path: String {
    switch self {
    case .direct: "c-function-pointers"
    case .swiftClosures: "swift-closure-array"
    case .naiveFFI: "ffi-closure+ffi_call"
    case .proxyC, .proxySwift: "multicast-proxy"
    }
  }
}

/// A row's workload and the objects it keeps alive.
// @unchecked Sendable: run from one thread at a time by the harness that made it.
public final class Workload: @unchecked Sendable {
  public let name: String
  public let signature: BenchSignature
  /// The encoding the row measures: `signature`'s, or a C callback's for the
  /// `c_callback_*` rows (see CallbackWorkloads.swift).
  public let encoding: String
  /// Members of the proxy (targets of the loop).
  public let fanout: Int
  /// How many of them implement the message (== fanout except responders_* rows).
  public let responders: Int
  public let path: String
  /// Sends `n` messages; returns elapsed nanoseconds.
  public let run: (Int) -> UInt64
  /// Sends one message and checks the answer; nil when right, else what went wrong.
  public let check: () -> String?
  private let keepAlive: [AnyObject]
  private let cleanup: (() -> Void)?

  init(
    name: String, signature: BenchSignature, fanout: Int, responders: Int, path: String,
    keepAlive: [AnyObject], cleanup: (() -> Void)? = nil, check: @escaping () -> String? = { nil },
    encoding: String? = nil, run: @escaping (Int) -> UInt64
  ) {
    self.name = name
    self.signature = signature
    self.encoding = encoding ?? signature.encoding
    self.fanout = fanout
    self.responders = responders
    self.path = path
    self.keepAlive = keepAlive
    self.cleanup = cleanup
    self.check = check
    self.run = run
  }

  deinit { cleanup?() }
}

extension Workload {
  /// The workload for `kind` at `fanout` delegates, sending `signature`.
  public static func make(_ kind: RowKind, _ signature: BenchSignature, fanout: Int) -> Workload {
    let targets = Fixtures.delegates(fanout)
    let sel = UnsafeRawPointer(signature.selector.rawValue)
    let handles: [bs_id?] = targets.map { UnsafeMutableRawPointer($0.rawValue) }
    switch kind {
    case .direct:
      let imps: [UnsafeRawPointer?] = Array(repeating: bs_delegate_imp(signature.c), count: fanout)
      return Workload(
        name: kind.rawValue, signature: signature, fanout: fanout, responders: fanout, path: kind.path,
        keepAlive: targets
      ) { n in
        imps.withUnsafeBufferPointer { i in
          handles.withUnsafeBufferPointer { t in
            bs_direct_loop(signature.c, i.baseAddress, t.baseAddress, Int32(fanout), sel, UInt64(n))
          }
        }
      }
    case .swiftClosures:
      return Workload(
        name: kind.rawValue, signature: signature, fanout: fanout, responders: fanout, path: kind.path,
        keepAlive: targets, run: ClosureRows.make(signature, handles: handles, sel: sel))
    case .naiveFFI:
      let imps: [UnsafeRawPointer?] = Array(repeating: bs_delegate_imp(signature.c), count: fanout)
      let forwarder = imps.withUnsafeBufferPointer { i in
        handles.withUnsafeBufferPointer { t in
          bs_naive_create(signature.c, i.baseAddress, t.baseAddress, Int32(fanout))
        }
      }
      guard let forwarder else { fatalError("naive_ffi: libffi could not prepare \(signature.encoding)") }
      guard let imp = bs_naive_imp(forwarder) else { fatalError("naive_ffi: no closure code") }
      // The naive forwarder ignores its own `self`; any non-nil receiver will do.
      let receiver = UnsafeMutableRawPointer(Fixtures.argumentObject.rawValue)
      return Workload(
        name: kind.rawValue, signature: signature, fanout: fanout, responders: fanout, path: kind.path,
        keepAlive: targets, cleanup: { bs_naive_destroy(forwarder) },
        check: { probe(signature, imp: imp, receiver: receiver, responders: fanout) }
      ) { n in
        bs_caller_loop(signature.c, imp, receiver, sel, UInt64(n))
      }
    case .proxyC:
      let proxy = makeProxy(members: targets, signature: signature)
      return callerWorkload(
        name: kind.rawValue, proxy: proxy, members: targets, signature: signature, fanout: fanout,
        responders: fanout)
    case .proxySwift:
      let proxy = makeProxy(members: targets, signature: signature)
      return Workload(
        name: kind.rawValue, signature: signature, fanout: fanout, responders: fanout,
        path: proxyPath(proxy, signature), keepAlive: [proxy] + targets, check: { SwiftSendRows.check(signature, proxy: proxy, responders: fanout) },
        run: SwiftSendRows.make(signature, proxy: proxy))
    }
  }

  /// `responders_3_of_<members>`: a proxy over `members` objects of which 3 implement
  /// `q@:qd` (spread through the list), sent to through its C entry.
  public static func responders(members: Int) -> Workload {
    let indices: Set<Int> = members <= 3 ? Set(0..<members) : [members / 10, members / 2, members - members / 10]
    let objects = Fixtures.members(members, responderIndices: indices)
    let proxy = makeProxy(members: objects, signature: .qd)
    return callerWorkload(
      name: "responders_3_of_\(members)", proxy: proxy, members: objects, signature: .qd, fanout: members,
      responders: indices.count)
  }

  /// A C caller calling the proxy's IMP (its C entry) in a loop.
  static func callerWorkload(
    name: String, proxy: MulticastProxy, members: [RuntimeObject], signature: BenchSignature, fanout: Int,
    responders: Int
  ) -> Workload {
    let imp: IMP
    do { imp = try proxy.imp(for: signature.selector) } catch {
      fatalError("\(name) \(signature.encoding): the proxy has no IMP: \(error)")
    }
    let receiver = UnsafeMutableRawPointer(proxy.rawValue)
    let sel = UnsafeRawPointer(signature.selector.rawValue)
    return Workload(
      name: name, signature: signature, fanout: fanout, responders: responders,
      path: proxyPath(proxy, signature), keepAlive: [proxy] + members, check: { probe(signature, imp: imp.unsafeCast(to: UnsafeRawPointer.self), receiver: receiver, responders: responders) }
    ) { n in
      bs_caller_loop(signature.c, imp.unsafeCast(to: UnsafeRawPointer.self), receiver, sel, UInt64(n))
    }
  }
}

/// What one message of `signature` must return through a correct forwarder to
/// `responders` delegates (see `bs_probe`).
func expectedProbe(_ signature: BenchSignature, responders: Int) -> Int64 {
  switch signature {
  case .qd: 6
  case .object: 0
  case .point: 3 * Int64(responders)
  case .ten: 55
  case .big40: 18
  }
}

/// Sends one message through a C entry and checks the answer.
func probe(_ signature: BenchSignature, imp: UnsafeRawPointer, receiver: bs_id, responders: Int) -> String? {
  let sel = UnsafeRawPointer(signature.selector.rawValue)
  let got = bs_probe(signature.c, imp, receiver, sel)
  let want = expectedProbe(signature, responders: responders)
  return got == want ? nil : "\(signature.encoding): got \(got), expected \(want)"
}

/// `swift_closures`: an array of closures, each calling its delegate's implementation
/// (the same C function the other rows reach through a pointer), called in a loop.
enum ClosureRows {
  static func make(_ signature: BenchSignature, handles: [bs_id?], sel: UnsafeRawPointer) -> (Int) -> UInt64 {
    switch signature {
    case .qd:
      let closures: [(Int, Double) -> Int] = handles.map { h in { a, d in Int(bs_imp_qd(h, sel, Int64(a), d)) } }
      return { n in qd(closures, n) }
    case .object:
      let closures: [(bs_id?) -> Void] = handles.map { h in { o in bs_imp_object(h, sel, o) } }
      let argument = UnsafeMutableRawPointer(Fixtures.argumentObject.rawValue)
      return { n in object(closures, argument, n) }
    case .point:
      let closures: [(bs_id?, bs_point, UnsafeMutablePointer<bs_point>) -> Void] = handles.map { h in
        { v, p, o in bs_imp_point(h, sel, v, p, o) }
      }
      let argument = UnsafeMutableRawPointer(Fixtures.argumentObject.rawValue)
      return { n in point(closures, argument, n) }
    case .ten:
      let closures: [(Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) -> Int] = handles.map { h in
        { a, b, c, d, e, f, g, hh, i, j in
          Int(
            bs_imp_ten(
              h, sel, Int64(a), Int64(b), Int64(c), Int64(d), Int64(e), Int64(f), Int64(g), Int64(hh),
              Int64(i), Int64(j)))
        }
      }
      return { n in ten(closures, n) }
    case .big40:
      let closures: [(Int) -> bs_big40] = handles.map { h in { a in bs_imp_big40(h, sel, Int64(a)) } }
      return { n in big40(closures, n) }
    }
  }

  @inline(never) static func qd(_ closures: [(Int, Double) -> Int], _ n: Int) -> UInt64 {
    var acc = 0
    let start = bs_now_ns()
    for i in 0..<n {
      var last = 0
      for c in closures { last = c(i, 0.5) }
      acc &+= last
    }
    let end = bs_now_ns()
    bs_consume(Int64(acc))
    return end &- start
  }

  @inline(never) static func object(_ closures: [(bs_id?) -> Void], _ argument: bs_id?, _ n: Int) -> UInt64 {
    let start = bs_now_ns()
    for _ in 0..<n {
      for c in closures { c(argument) }
    }
    return bs_now_ns() &- start
  }

  @inline(never) static func point(
    _ closures: [(bs_id?, bs_point, UnsafeMutablePointer<bs_point>) -> Void], _ argument: bs_id?, _ n: Int
  ) -> UInt64 {
    var out = bs_point(x: 0, y: 0)
    let start = bs_now_ns()
    withUnsafeMutablePointer(to: &out) { o in
      for i in 0..<n {
        let p = bs_point(x: Double(i), y: 2)
        for c in closures { c(argument, p, o) }
      }
    }
    let end = bs_now_ns()
    bs_consume(Int64(out.x))
    return end &- start
  }

  @inline(never) static func ten(_ closures: [(Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) -> Int], _ n: Int)
    -> UInt64
  {
    var acc = 0
    let start = bs_now_ns()
    for i in 0..<n {
      var last = 0
      for c in closures { last = c(i, 1, 2, 3, 4, 5, 6, 7, 8, 9) }
      acc &+= last
    }
    let end = bs_now_ns()
    bs_consume(Int64(acc))
    return end &- start
  }

  @inline(never) static func big40(_ closures: [(Int) -> bs_big40], _ n: Int) -> UInt64 {
    var acc: Int64 = 0
    let start = bs_now_ns()
    for i in 0..<n {
      var last = bs_big40()
      for c in closures { last = c(i) }
      acc &+= last.a &+ last.e
    }
    let end = bs_now_ns()
    bs_consume(acc)
    return end &- start
  }
}

/// `proxy_swift`: typed `Message.send(to:…)` to the proxy in a Swift loop.
enum SwiftSendRows {
  static func make(_ signature: BenchSignature, proxy: RuntimeObject) -> (Int) -> UInt64 {
    switch signature {
    case .qd: return { n in qd(proxy, n) }
    case .object: return { n in object(proxy, Fixtures.argumentObject, n) }
    case .point: return { n in point(proxy, Fixtures.argumentObject, n) }
    case .ten: return { n in ten(proxy, n) }
    case .big40: return { n in big40(proxy, n) }
    }
  }

  /// One typed send of each kind, checked as `bs_probe` checks the C senders.
  static func check(_ signature: BenchSignature, proxy: RuntimeObject, responders: Int) -> String? {
    do {
      let got: Int64
      switch signature {
      case .qd: got = Int64(try Messages.qd.send(to: proxy, 5, 0.5))
      case .object:
        try Messages.object.send(to: proxy, Fixtures.argumentObject)
        got = 0
      case .point:
        var out = CGPoint(x: 0, y: 0)
        try withUnsafeMutablePointer(to: &out) { try Messages.point.send(to: proxy, Fixtures.argumentObject, CGPoint(x: 3, y: 2), $0) }
        got = out.y == 2 ? Int64(out.x) : -1
      case .ten: got = Int64(try Messages.ten.send(to: proxy, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10))
      case .big40:
        let r = try Messages.big40.send(to: proxy, 7)
        got = r.a + r.e
      }
      let want = expectedProbe(signature, responders: responders)
      return got == want ? nil : "\(signature.encoding): got \(got), expected \(want)"
    } catch {
      return "\(signature.encoding): \(error)"
    }
  }

  static func failed(_ error: any Error) -> Never { fatalError("proxy_swift: send failed: \(error)") }

  @inline(never) static func qd(_ proxy: RuntimeObject, _ n: Int) -> UInt64 {
    let message = Messages.qd
    var acc = 0
    let start = bs_now_ns()
    do {
      for i in 0..<n { acc &+= try message.send(to: proxy, i, 0.5) }
    } catch { failed(error) }
    let end = bs_now_ns()
    bs_consume(Int64(acc))
    return end &- start
  }

  @inline(never) static func object(_ proxy: RuntimeObject, _ argument: RuntimeObject, _ n: Int) -> UInt64 {
    let message = Messages.object
    let start = bs_now_ns()
    do {
      for _ in 0..<n { try message.send(to: proxy, argument) }
    } catch { failed(error) }
    return bs_now_ns() &- start
  }

  @inline(never) static func point(_ proxy: RuntimeObject, _ argument: RuntimeObject, _ n: Int) -> UInt64 {
    let message = Messages.point
    var out = CGPoint(x: 0, y: 0)
    let start = bs_now_ns()
    withUnsafeMutablePointer(to: &out) { o in
      do {
        for i in 0..<n { try message.send(to: proxy, argument, CGPoint(x: Double(i), y: 2), o) }
      } catch { failed(error) }
    }
    let end = bs_now_ns()
    bs_consume(Int64(out.x))
    return end &- start
  }

  @inline(never) static func ten(_ proxy: RuntimeObject, _ n: Int) -> UInt64 {
    let message = Messages.ten
    var acc = 0
    let start = bs_now_ns()
    do {
      for i in 0..<n { acc &+= try message.send(to: proxy, i, 1, 2, 3, 4, 5, 6, 7, 8, 9) }
    } catch { failed(error) }
    let end = bs_now_ns()
    bs_consume(Int64(acc))
    return end &- start
  }

  @inline(never) static func big40(_ proxy: RuntimeObject, _ n: Int) -> UInt64 {
    let message = Messages.big40
    var acc: Int64 = 0
    let start = bs_now_ns()
    do {
      for i in 0..<n {
        let r = try message.send(to: proxy, i)
        acc &+= r.a &+ r.e
      }
    } catch { failed(error) }
    let end = bs_now_ns()
    bs_consume(acc)
    return end &- start
  }
}
