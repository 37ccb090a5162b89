import MessageRuntime

extension DelegateMulticast {
  /// Generated value multicasts call this when they are changed while another copy shares
  /// their multicast (copy on write); not for direct use. A new multicast of the same class
  /// with the same policies, error policies, concurrency, options, observers, filters and
  /// argument pairings (ArgumentPairing.swift), and the
  /// same members in the same order — each value copied, each object the same object with
  /// the same retention and queue, each keeping its ``MemberID`` (so a token names the
  /// same member in every copy). Not its C face, made again on first use.
  public final func __copy() -> Self {
    let s = state.withLock { $0 }
    let records = s.members.records.compactMap { m in
      m.isRemoved ? nil : m.copiedForAnotherMulticast()
    }
    let copy = type(of: self).init(policy: .lastResponder, options: s.options)
    copy.update { c in
      c.defaultPolicy = s.defaultPolicy
      c.overrides = s.overrides
      c.errorPolicies = s.errorPolicies
      c.concurrency = s.concurrency
      c.observers = s.observers
      c.filters = s.filters
      c.pairing = s.pairing
      c.members = MemberList(records)
    }
    return copy
  }
}
