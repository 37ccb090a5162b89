// Package: a declined call is noted from code inlined into DelegateProxy (package-level
// `@inlinable`), never from users' modules.
internal import DelegateProxyCFFIShim

/// A target that turns out unable to answer a call it received tells the loop that called
/// it (dp_decline.h): a Swift delegate found gone, a class found lacking an optional
/// method. Route and callback loops in C and the forwarding path in Swift then do not
/// count the call — no answer under any rule.
package enum CallDecline {
  /// Called by a target right before it returns: the call gave no answer.
  @inlinable package static func decline() { dp_decline_call() }
  /// Called by a loop before its first call.
  @inlinable package static func clear() { dp_declined_clear() }
  /// Called by a loop after each call: whether that call declined (clearing the flag).
  @inlinable package static func take() -> Bool { dp_declined_take() }
}
