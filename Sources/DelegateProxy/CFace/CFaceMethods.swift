import MessageRuntime

/// A multicast's protocol methods as C reaches them and their generated C calls, by method
/// index, with the protocol's existential type erased (the C face's per-message path is
/// not generic).
final class CFaceMethods: Sendable {
  let plans: [CFaceMethod]
  /// Each takes the address of the multicast's stored existential, with one strong
  /// reference taken for the call (which it releases), and the frame, and runs the
  /// method's generated C call on the multicast.
  let calls: [@Sendable (UnsafeMutableRawPointer, __CFaceFrame) -> Void]
  /// The selectors, for finding a method from `_cmd` (protocols are short: a scan).
  private let selectors: [Selector]

  /// By method index: the generated C function of the method's own signature, where
  /// there is one and its guesses fit the protocol's types (see `__CFaceFunction`).
  let entries: [__CFaceFunction?]

  init<Delegate>(
    plans: [CFaceMethod], calls: [__CFaceCall<Delegate>], entries: [__CFaceFunction?]
  ) {
    self.plans = plans
    self.entries = entries
    self.calls = calls.map { call in
      { existential, frame in
        CFace.withMulticast(existential, as: Delegate.self) { multicast in call(multicast, frame) }
      }
    }
    selectors = plans.map(\.selector)
  }

  func index(of selector: Selector) -> Int? {
    for i in selectors.indices where selectors[i] == selector { return i }
    return nil
  }
}
