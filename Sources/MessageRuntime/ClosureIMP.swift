internal import DelegateProxyCFFIShim

/// An IMP made from a Swift closure (`imp_implementationWithBlock`): a libffi closure
/// for one signature whose entry hands the closure an `Invocation` over the caller's
/// arguments. The executable code is freed when this object goes away. A method that
/// holds it and is replaced or removed retires it (`Method.retireCode`): it goes a grace
/// period later, once every send that may have looked it up — each runs its lookup and
/// call in a read section of its receiver — has returned. A route that was calling it
/// lets go of it a grace period after the route stops (see `RouteMembership`).
///
/// As with `imp_removeBlock`, a caller that keeps an IMP it looked up and calls it later,
/// outside any read section, must not do so after the method was replaced.
// @unchecked Sendable: `closure` and `imp` are written only in init (they need `self` for
// libffi's user data, so they cannot be `let`) and only read afterwards; the body is a
// @Sendable closure.
final class ClosureIMP: @unchecked Sendable {
  let signature: MethodSignature
  let body: @Sendable (Invocation) -> Void
  // Set once in init, then only read; freed in deinit.
  private var closure: UnsafeMutableRawPointer?
  private(set) var imp: IMP

  init(signature: MethodSignature, body: @escaping @Sendable (Invocation) -> Void)
    throws(RuntimeError)
  {
    self.signature = signature
    self.body = body
    self.imp = IMP(address: UnsafeRawPointer(bitPattern: 1)!)
    var code: dp_imp? = nil
    // user_data is unretained: the closure's code cannot run after deinit frees it.
    let made = dp_ffi_closure_create(
      signature.cif, closureEntry, Unmanaged.passUnretained(self).toOpaque(), &code)
    guard let made, let code else { throw .closureAllocationFailed(encoding: signature.encoding) }
    closure = made
    imp = IMP(code)
  }

  deinit {
    if let closure { dp_ffi_closure_free(closure) }
  }
}

/// The C entry of every closure IMP (libffi's closure handler).
private let closureEntry: dp_ffi_handler = { _, result, arguments, userData in
  let imp = Unmanaged<ClosureIMP>.fromOpaque(userData!).takeUnretainedValue()
  let signature = imp.signature
  // No method body runs once the receiver's deinit has begun: such a message answers
  // zero, as for a receiver a weak reference no longer reaches. A handle without a Swift
  // owner (an object C made for itself) has no deinit to wait for.
  var retained: UnsafeMutableRawPointer? = nil
  if let handle = arguments![0]!.load(as: OpaquePointer?.self), let owner = dp_object_owner(handle)
  {
    retained = dp_owner_try_retain(owner)
    if retained == nil {
      result!.initializeMemory(as: UInt8.self, repeating: 0, count: signature.returnLayout.size)
      widenIntegralResult(signature.returnType, result!)
      return
    }
  }
  defer { if let retained { dp_swift_release(retained) } }
  Invocation.withBorrowedFrame(
    signature: signature,
    arguments: arguments!,
    result: result!
  ) { invocation in
    imp.body(invocation)
  }
  widenIntegralResult(signature.returnType, result!)
}

/// libffi wants an integral result narrower than a register written as a whole
/// register (`ffi_arg`), sign- or zero-extended.
func widenIntegralResult(_ type: TypeEncoding, _ result: UnsafeMutableRawPointer) {
  switch type {
  case .char: result.storeBytes(of: Int64(result.load(as: Int8.self)), as: Int64.self)
  case .unsignedChar, .bool:
    result.storeBytes(of: UInt64(result.load(as: UInt8.self)), as: UInt64.self)
  case .short: result.storeBytes(of: Int64(result.load(as: Int16.self)), as: Int64.self)
  case .unsignedShort: result.storeBytes(of: UInt64(result.load(as: UInt16.self)), as: UInt64.self)
  case .int, .long: result.storeBytes(of: Int64(result.load(as: Int32.self)), as: Int64.self)
  case .unsignedInt, .unsignedLong:
    result.storeBytes(of: UInt64(result.load(as: UInt32.self)), as: UInt64.self)
  default: break
  }
}
