/// An object whose answers to `responds(to:)` can change over time and that says when:
/// the number changes whenever an answer may have changed.
///
/// ``MulticastProxy`` and ``DelegateSlot`` adopt it, so a delegator that caches
/// `responds(to:)` — as UIKit views do when their delegate is set — can refresh its
/// cache when delegates are added after the proxy was set, instead of never hearing them.
public protocol Generational: AnyObject {
  /// Changes whenever some `responds(to:)` answer may have changed.
  var generation: UInt64 { get }
}
