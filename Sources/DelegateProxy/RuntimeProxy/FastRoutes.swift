import MessageRuntime

/// The fast path: a proxy's selectors served by C routes (register replay or libffi),
/// with no Swift code, lock or allocation per message. A route is built from a selector's
/// responder list whenever the responder table is rebuilt, for each selector where a
/// direct call of every responder gives exactly what `forwardInvocation(_:)` would:
///
/// - the signature is known and the policy has a C rule (`lastResponder`; `firstResponder`;
///   the built-in `allTrue`, `anyTrue`, `firstNonNil` reducers), allowed for the result
///   type on its path;
/// - no responder delivers on a queue or is itself a forwarder (nested proxies are asked
///   `responds(to:)` per message), and no observer watches the selector.
///
/// Everything else — custom folds, collect, queues, observers, empty selectors with their
/// error or silence — stays on the general path, and so does a routed selector whose
/// targets have all been removed or deallocated since the route was built. Both paths share each member's removed
/// flag (``Member/flag``), so a removal stops them at the same moment.
extension MulticastProxy {
  /// The route rule for a selector's responder list, or nil when the selector must stay
  /// on the general path.
  static func routeReducer(for list: ProxyResponderList) -> RouteReducer? {
    guard let signature = list.signature, !list.responders.isEmpty, !list.hasObservers else {
      return nil
    }
    if list.responders.contains(where: { $0.queue != nil || $0.isForwarder }) { return nil }
    let rule = ReducerRule(list.policy, returnsVoid: signature.returnsVoid)
    guard let reducer = rule.routeReducer,
      RuntimeObject.routePath(for: signature, reducer: reducer) != nil
    else {
      return nil
    }
    return reducer
  }

  /// Installs a route for every eligible selector of `table` and removes the routes of
  /// `previous` selectors that are no longer eligible. Returns the routed selectors.
  /// Called under the proxy's lock; calls no delegate.
  func installRoutes(from table: ProxyMemberTable, replacing previous: Set<Selector>) -> Set<
    Selector
  > {
    var routed: Set<Selector> = []
    for (selector, list) in table.lists {
      guard let reducer = MulticastProxy.routeReducer(for: list), let signature = list.signature
      else {
        continue
      }
      var targets: [RouteTarget] = []
      for entry in list.responders where !entry.isRemoved {
        guard let delegate = entry.delegate else { continue }  // dead: compacted later
        targets.append(RouteTarget(delegate, membership: entry.flag))
      }
      guard !targets.isEmpty else { continue }
      do {
        // Once every target is removed or dead (before the next rebuild), a message takes
        // the general path, which answers as for a selector with no responder.
        try setRoute(
          selector, signature: signature, targets: targets, reducer: reducer,
          forwardWhenEmpty: true)
        routed.insert(selector)
      } catch {
        // A member whose method changed under it: the general path still answers.
      }
    }
    for selector in previous.subtracting(routed) { removeRoute(selector) }
    return routed
  }

  /// The path a message with `selector` takes right now: `.registers`,
  /// `.registersAndMemory` or `.libffi` for a C route, nil for `forwardInvocation(_:)`.
  public func fastPath(for selector: Selector) -> RoutePath? { routePath(for: selector) }
}

// The C routes' side of a rule, here rather than beside ReducerRule: only routes need
// it, and the Swift multicasts' policies must not name the C routes (issue #35).
extension ReducerRule {
  /// The same rule as the C route loops run it; nil for a custom reducer, which only the
  /// Swift paths can run. (A `void` route calls every target: C's `last`.)
  var routeReducer: RouteReducer? {
    switch self {
    case .every, .last: .last
    case .first: .first
    case .allTrue: .allTrue
    case .anyTrue: .anyTrue
    case .firstNonNil: .firstNonNil
    case .firstAnswer, .custom: nil
    }
  }
}
