import DelegateProxyCDemoSupport
import MessageRuntime

/// A proxy that logs every message, then forwards it to its target — the classic
/// `NSProxy` + `forwardInvocation:` pattern.
final class LoggingProxy: ForwardingProxy, @unchecked Sendable {
  let target: RuntimeObject
  init(target: RuntimeObject) {
    self.target = target
    super.init()
  }
  override func methodSignature(for selector: Selector) -> MethodSignature? {
    target.methodSignature(for: selector)
  }
  override func forwardInvocation(_ invocation: Invocation) throws {
    print("   [proxy] forwardInvocation: \(invocation)")
    try invocation.invoke(target: target)
    print(
      "   [proxy] result: \(invocation.returnBytes.count == 8 ? "\(try invocation.returnValue(as: Double.self))" : "-")"
    )
  }
}

func runtimeTour() throws {
  // 1. A class with methods: one from a Swift closure, one from C.
  let convert = Message<Double, Double>("convert:")
  let scale = Message<Double>("scale")
  let thermometer = try RuntimeClass(name: "Thermometer")
  try thermometer.addMethod(convert) { receiver, celsius in
    // Methods can send messages too: the scale factor comes from the C method.
    celsius * ((try? scale.send(to: receiver)) ?? 0) + 32
  }
  print("1. class Thermometer: convert: from a Swift closure (\(convert.signature))")
  print("   C adds -scale to the class: \(cdemo_add_scale_method("Thermometer"))")

  // 2. Send the message from Swift: checked by the compiler, dispatched at run time.
  let device = RuntimeObject(class: thermometer)
  print("2. Swift sends convert:100 → \(try convert.send(to: device, 100))")

  // 3. The same message through a forwarding proxy.
  let proxy = LoggingProxy(target: device)
  print("3. through a proxy that has no methods of its own:")
  print(
    "   proxy responds to convert: \(proxy.responds(to: convert.selector)), to explode: \(proxy.responds(to: "explode"))"
  )
  let viaProxy = try convert.send(to: proxy, 37)
  print("   Swift got \(viaProxy)")

  // 4. A C library calls the proxy's IMP — a real C function pointer made for d@:d.
  let imp = try proxy.imp(for: convert.selector)
  print("4. the proxy's IMP for convert: is \(imp); a C library calls it:")
  let values: [Double] = [-40, 0]
  values.withUnsafeBufferPointer { buffer in
    cdemo_run_conversions(
      imp.unsafeCast(to: cdemo_convert_fn.self), proxy.rawValue, convert.selector.rawValue,
      buffer.baseAddress, Int32(buffer.count))
  }
  print("   C sends convert:20 with DP_MSG_SEND → \(cdemo_send_convert(proxy.rawValue, 20))")

  // 5. An invocation built by hand, inspected, retargeted.
  let invocation = Invocation(signature: convert.signature, selector: convert.selector)
  try invocation.setArgument(25.0, at: 0)
  try invocation.invoke(target: device)
  print(
    "5. Invocation \(invocation.signature): convert:25 on the device → \(try invocation.returnValue(as: Double.self))"
  )
  do {
    try Message<Void>("explode").send(to: proxy)
  } catch {
    print("   an unknown message is a typed error: \(error)")
  }
}
