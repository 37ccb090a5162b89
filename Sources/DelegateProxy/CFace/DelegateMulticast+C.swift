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
/// Behind `rawValue()` is `proxy()`, one runtime object whose method for each protocol
/// method runs the multicast's own dispatch — the table it publishes, its policies,
/// queues, observers and blocking, as a Swift call does — so there is one engine under
/// both faces. For a method of C scalars, pointers and class instances, the method is the
/// `@convention(c)` function of its own signature that `@Delegate` generates
/// (`__CFaceFunction`): a plain C call into the multicast's method; for others (structs
/// by value), a static C entry per return class that decodes the registers
/// (``SwiftEntryObject``). A removed or deallocated delegate is never called from C
/// either: the dispatch is the Swift one. The C face keeps nothing alive.
///
/// A Swift class instance travels as its address (+0, `void *` in C), a struct by value
/// in its C layout (`{Reading=di}`). Signatures whose arguments or result do not travel
/// in registers reach the delegates through libffi closures instead of entries.
extension DelegateMulticast {
  /// The multicast as the message runtime and C code see it: its runtime proxy, C handle,
  /// selectors, IMPs and C callback adapters. Swift callers never need it; it keeps these
  /// out of the multicast's own members.
  public final var runtime: MulticastCFace<Delegate, Handles> {
    MulticastCFace(multicast: self)
  }

  /// The C face, made on first use.
  func cFace() throws(DelegateProxyError) -> CFace {
    if let face = state.withLock({ $0.cFace }) { return face }
    // Made outside the lock (it asks the multicast nothing under it); the first one
    // stored wins.
    let made = try CFace(self)
    return state.withLock { s in
      if let face = s.cFace { return face }
      s.cFace = made
      return made
    }
  }
}
