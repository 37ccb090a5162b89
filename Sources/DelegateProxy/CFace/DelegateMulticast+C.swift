import MessageRuntime

/// The C face: C code reaches a multicast's plain Swift delegates through real C function
/// pointers.
///
/// ```swift
/// let proxy = SensorDelegateMulticast()
/// proxy.add(display)                                       // plain Swift classes
/// c_library_set_reading_callback(                          // a C library's one slot
///   try proxy.runtime.imp(for: \.sensorDidRead).rawValue, try proxy.runtime.rawValue(),
///   proxy.runtime.selector(for: \.sensorDidRead).rawValue)
/// ```
/// ```c
/// // C: calls it as any IMP; a Swift object travels as void *, a struct by value
/// ((void (*)(dp_id, dp_sel, void *, struct reading))imp)(self, cmd, sensor, r);
/// ```
///
/// Behind `rawValue()` is `proxy()`, a ``MulticastProxy`` whose members are the
/// multicast's own (its protocol, policies and members in order, handed over each time the
/// multicast changes). Each member appears there as an adapter whose methods are C functions into Swift, so the proxy's C routes call
/// Swift code with a plain C call: for a method of C scalars, pointers and class
/// instances, the `@convention(c)` function of its own signature that `@Delegate`
/// generates (`__CFaceFunction`: one `tryRetain`, the call, one release); for others
/// (structs by value), a static C entry per return class that decodes the registers
/// (``SwiftEntryObject``). A removed or
/// deallocated delegate is never called from C either; adapters hold delegates as the
/// multicast does (weakly unless strong) and nothing that leads back to the multicast.
///
/// A Swift class instance travels as its address (+0, `void *` in C), a struct by value
/// in its C layout (`{Reading=di}`). Signatures whose arguments or result do not travel
/// in registers reach the delegates through libffi closures instead of entries.
extension DelegateMulticast {
  /// The multicast as the message runtime and C code see it: its runtime proxy, C handle,
  /// selectors, IMPs and C callback adapters. Swift callers never need it; it keeps these
  /// out of the multicast's own members.
  public final var runtime: MulticastRuntimeFace<Delegate, Messages> {
    MulticastRuntimeFace(multicast: self)
  }

  /// The C face, made (and given the members) on first use.
  func cFace() throws(DelegateProxyError) -> CFace<Delegate> {
    if let face = state.withLock({ $0.cFace }) { return face }
    return try update { s throws(DelegateProxyError) in
      if let face = s.cFace { return face }
      let face = try CFace(
        description: protocolDescription, calls: Self.__cCalls, entries: Self.__cFunctions,
        arguments: Self.__cArguments, rebuild: needsRebuild)
      s.cFace = face
      return face
    }
  }
}
