import MessageRuntime

/// What a ``MulticastProxy`` does with a message that returns a value: which responders
/// it calls and which value the sender receives. Void messages always go to every
/// responder, in order, whatever the policy.
///
/// A policy is data, read by the proxy's one dispatch loop. A proxy has a default
/// policy and may override it per selector, so one proxy can answer `shouldX` with
/// ``reduce(_:)`` over ``Reducer/allTrue`` and `heightForRow` with ``firstResponder``:
///
/// ```swift
/// let proxy = MulticastProxy(policy: .lastResponder)
/// proxy.setPolicy(.reduce(.allTrue), for: "scrollViewShouldScrollToTop:")
/// proxy.setPolicy(.firstResponder, for: "tableView:heightForRowAtIndexPath:")
/// ```
public enum ReturnPolicy<Value>: Sendable, CustomStringConvertible {
  /// Every responder is called in order and the **last** one's value is returned
  /// (`AIMultiDelegate`). With no responder the message is an unrecognized selector
  /// (`RuntimeError.unrecognizedSelector`) unless the proxy is
  /// ``MulticastProxy/silentWhenEmpty``.
  case lastResponder
  /// Only the **first** responder is called and its value returned
  /// (`LBDelegateMatrioska`). With no responder nothing is called and the value is zero.
  case firstResponder
  /// Every responder is called in order and their values are folded by `reducer`
  /// (`GCDMulticastDelegate`'s aggregation rules, e.g. any `NO` wins). With no
  /// responder the value is the reducer's answer for no values.
  case reduce(Reducer<Value>)

  /// A readable rendering, for logs and diagnostics.
  public var description: String {
    switch self {
    case .lastResponder: return "last responder"
    case .firstResponder: return "first responder"
    case .reduce(let r): return "reduce(\(r.name))"
    }
  }

  /// The reducer, for ``reduce(_:)``.
  var reducer: Reducer<Value>? {
    if case .reduce(let r) = self { return r }
    return nil
  }

  /// The same policy seen as folding `Other` (see ``Reducer``'s `relabeled`): the
  /// multicasts keep every method's policy in one erased form.
  func relabeled<Other>(as _: Other.Type = Other.self) -> ReturnPolicy<Other> {
    switch self {
    case .lastResponder: .lastResponder
    case .firstResponder: .firstResponder
    case .reduce(let r): .reduce(r.relabeled())
    }
  }

  /// The erased form the multicasts store.
  var erased: ErasedPolicy { relabeled() }
}

/// A policy as the multicasts store it, whatever its method's result type.
@usableFromInline typealias ErasedPolicy = ReturnPolicy<ReturnValue>
/// A reducer as the multicasts store it.
@usableFromInline typealias ErasedReducer = Reducer<ReturnValue>
