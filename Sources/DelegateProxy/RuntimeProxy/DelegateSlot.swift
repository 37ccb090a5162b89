import MessageRuntime

/// A delegator's one delegate slot, made so that someone who does not own it can
/// inject secondary delegates beside the delegate the owner set (the `secondaryDelegate`
/// category on `UIScrollView`, generalized).
///
/// The owner sets ``delegate``; anyone may ``Delegator/addSecondaryDelegate(_:)``. The delegator sends its
/// messages to ``target``: the delegate itself while there is no secondary, otherwise a
/// ``MulticastProxy`` holding the delegate first and the secondaries after it, all
/// weakly. The slot keeps that proxy alive (the associated storage of the original).
/// Messages go to the primary, then to each secondary; a value-returning message calls
/// both and the last one's value wins (``ReturnPolicy/lastResponder``, silent when
/// nothing answers).
///
/// Unlike the original, setting ``delegate`` after a secondary was injected keeps the
/// secondary in place, and removing the last secondary restores the plain delegate.
/// ``generation`` changes whenever ``target`` or its answers may have
/// changed, for delegators that cache `responds(to:)` (see ``RespondsToCache``).
public final class DelegateSlot: Generational, Sendable {
  private struct State {
    weak var primary: RuntimeObject?
    var secondaries: [WeakBox] = []
    var proxy: MulticastProxy?
    var changes: UInt64 = 0
  }
  private struct WeakBox { weak var object: RuntimeObject? }

  private let state = Lock(State())
  /// The protocol given to the injection proxy, if any.
  package let protocolDescription: RuntimeProtocol?

  /// An empty slot; `protocol` (optional) lets the injection proxy know the delegate
  /// protocol's signatures.
  public init(delegate: RuntimeObject? = nil, protocol proto: RuntimeProtocol? = nil) {
    protocolDescription = proto
    state.withLock { $0.primary = delegate }
  }

  /// The delegate the owner set (weak). Setting it keeps injected secondaries.
  public var delegate: RuntimeObject? {
    get { state.withLock { $0.primary } }
    set { setPrimary(newValue) }
  }

  /// What the delegator sends its messages to: the injection proxy while there are
  /// secondaries, else the delegate.
  public var target: RuntimeObject? {
    state.withLock { s -> RuntimeObject? in s.proxy ?? s.primary }
  }

  /// The injection proxy, while there are secondaries.
  public var proxy: MulticastProxy? { state.withLock { $0.proxy } }

  /// The live secondary delegates, in the order they were added.
  package var secondaryDelegates: [RuntimeObject] {
    state.withLock { $0.secondaries.compactMap(\.object) }
  }

  /// Injects `secondary` after the delegate and any earlier secondaries. Throws when it
  /// implements a selector with another signature than the delegates present.
  package func addSecondary(_ secondary: RuntimeObject) throws(DelegateProxyError) {
    try state.withLock { s throws(DelegateProxyError) in
      s.secondaries.removeAll { $0.object == nil }
      if s.secondaries.contains(where: { $0.object === secondary }) { return }
      let proxy =
        s.proxy
        ?? MulticastProxy(
          policy: .lastResponder, options: [.silentWhenEmpty], protocol: protocolDescription)
      if s.proxy == nil, let primary = s.primary { try proxy.add(primary) }
      try proxy.add(secondary)
      s.secondaries.append(WeakBox(object: secondary))
      if s.proxy == nil {
        s.proxy = proxy
        s.changes &+= 1
      }
    }
  }

  /// Removes `secondary`; when it was the last, the delegator gets its plain delegate
  /// back (``target`` is the delegate again).
  package func removeSecondary(_ secondary: RuntimeObject) {
    let proxy = state.withLock { s -> MulticastProxy? in
      s.secondaries.removeAll { $0.object == nil || $0.object === secondary }
      guard let proxy = s.proxy else { return nil }
      if s.secondaries.isEmpty {
        s.proxy = nil
        s.changes &+= 1
      }
      return proxy
    }
    // Outside the slot's lock: remove waits for running dispatches.
    proxy?.remove(secondary)
  }

  /// Removes every secondary and restores the plain delegate.
  package func removeAllSecondaries() {
    let proxy = state.withLock { s -> MulticastProxy? in
      s.secondaries.removeAll()
      defer { s.proxy = nil }
      if s.proxy != nil { s.changes &+= 1 }
      return s.proxy
    }
    proxy?.removeAll()
  }

  private func setPrimary(_ newValue: RuntimeObject?) {
    let (proxy, old) = state.withLock { s -> (MulticastProxy?, RuntimeObject?) in
      let old = s.primary
      s.primary = newValue
      s.changes &+= 1
      return (s.proxy, old)
    }
    guard let proxy else { return }
    // The primary stays first in the proxy; secondaries stay where they are.
    if let old, old !== newValue { proxy.remove(old) }
    if let newValue, !proxy.contains(newValue) {
      // A signature conflict between the new primary and the secondaries leaves the
      // primary out of the proxy; the slot still reports it as `delegate`.
      try? proxy.insert(newValue, at: 0)
    }
  }

  /// Changes whenever ``target`` or its `responds(to:)` answers may have changed.
  public var generation: UInt64 {
    let (changes, proxy) = state.withLock { ($0.changes, $0.proxy) }
    return changes << 32 | (proxy?.generation ?? 0) & 0xFFFF_FFFF
  }
}
