// The C-callback rows: a library-shaped callback (context first or last, no self/_cmd)
// called by a C loop, either straight into N handlers (`c_callback_direct`) or into one
// CallbackAdapter whose receiver is a MulticastProxy over N delegates
// (`c_callback_proxy`).

import BenchmarkSupport
import DelegateProxy
import MessageRuntime

/// The two callback shapes measured.
public enum CallbackShape: Int, CaseIterable, Sendable {
  /// expat's start-element handler, context first: `v^v*^*`.
  case startElement
  /// libcurl's write callback, context last: `Q*QQ^v`.
  case write

  /// The C enum value.
  public var c: bs_callback_shape { bs_callback_shape(rawValue: UInt32(rawValue)) }
  /// The callback's encoding, return type first.
  public var encoding: String { String(cString: bs_callback_encoding(c)) }
  /// The message the adapter sends.
  public var selector: Selector { Selector(String(cString: bs_callback_selector(c))) }
  /// The message's encoding (the callback's without the context, after self and _cmd).
  public var messageEncoding: String { self == .startElement ? "v@:*^*" : "Q@:*QQ" }
  /// Where the context is.
  public var context: CallbackContext { self == .startElement ? .first : .last }
  /// What one call must answer (see `bs_callback_probe`).
  func expectedProbe(fanout: Int) -> Int64 { self == .startElement ? Int64(fanout) : 12 }
}

/// The two rows per shape and fan-out.
public enum CallbackRowKind: String, CaseIterable, Sendable {
  /// A C loop calling N handler functions of the library's signature.
  case direct = "c_callback_direct"
  /// The same C loop calling the adapter's function pointer once.
  case proxy = "c_callback_proxy"
}

extension Fixtures {
  /// Delegates implementing both callback messages with C IMPs.
  public static let callbackDelegateClass: RuntimeClass = {
    let cls = try! RuntimeClass(name: "BenchCallbackDelegate")
    for shape in CallbackShape.allCases {
      try! cls.addMethod(
        shape.selector, imp: IMP(unsafeFunction: bs_callback_delegate_imp(shape.c)),
        types: shape.messageEncoding)
    }
    return cls
  }()
}

extension Workload {
  /// The `kind` row for `shape` at `fanout` handlers.
  public static func callback(_ kind: CallbackRowKind, _ shape: CallbackShape, fanout: Int)
    -> Workload
  {
    let delegates = (0..<fanout).map { _ in RuntimeObject(class: Fixtures.callbackDelegateClass) }
    switch kind {
    case .direct:
      let handlers: [UnsafeRawPointer?] = Array(
        repeating: bs_callback_handler(shape.c), count: fanout)
      let contexts: [UnsafeMutableRawPointer?] = delegates.map {
        UnsafeMutableRawPointer($0.rawValue)
      }
      return Workload(
        name: kind.rawValue, signature: .object, fanout: fanout, responders: fanout,
        path: "c-function-pointers", keepAlive: delegates, encoding: shape.encoding
      ) { n in
        handlers.withUnsafeBufferPointer { h in
          contexts.withUnsafeBufferPointer { c in
            bs_callback_direct_loop(shape.c, h.baseAddress, c.baseAddress, Int32(fanout), UInt64(n))
          }
        }
      }
    case .proxy:
      let proxy: MulticastProxy
      let adapter: CallbackAdapter
      do {
        proxy = try MulticastProxy(delegates: delegates, policy: .lastResponder)
        adapter = try CallbackAdapter(
          CallbackSignature(parsing: shape.encoding), context: shape.context, receiver: proxy,
          selector: shape.selector)
      } catch {
        fatalError("c_callback_proxy \(shape.encoding): \(error)")
      }
      let function = adapter.function
      let context = adapter.context
      let route = proxyPath(proxy, selector: shape.selector)
      return Workload(
        name: kind.rawValue, signature: .object, fanout: fanout, responders: fanout,
        path: "callback-\(adapter.path)+\(route)", keepAlive: [proxy, adapter] + delegates,
        check: {
          let got = bs_callback_probe(shape.c, function, context)
          let want = shape.expectedProbe(fanout: fanout)
          return got == want ? nil : "\(shape.encoding): got \(got), expected \(want)"
        }, encoding: shape.encoding,
        run: { n in bs_callback_caller_loop(shape.c, function, context, UInt64(n)) })
    }
  }
}

/// Which path the proxy takes for `selector` (as `proxyPath(_:_:)` for the five signatures).
func proxyPath(_ proxy: MulticastProxy, selector: Selector) -> String {
  switch proxy.fastPath(for: selector) {
  case .registers: "route-registers"
  case .registersAndMemory: "route-registers-memory"
  case .libffi: "route-libffi"
  case nil: "forwarding-general"
  }
}
