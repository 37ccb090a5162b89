import MessageRuntime

/// What every adapter of one multicast shares: the protocol's methods as C reaches them
/// and the generated calls, by method index, with the delegate's type erased.
final class CFaceMethods: Sendable {
  let plans: [CFaceMethod]
  /// Each takes an owned delegate value (moved out of the pointer) and the frame.
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
      { value, frame in call(value.assumingMemoryBound(to: Delegate.self).move(), frame) }
    }
    selectors = plans.map(\.selector)
  }

  func index(of selector: Selector) -> Int? {
    for i in selectors.indices where selectors[i] == selector { return i }
    return nil
  }
}
