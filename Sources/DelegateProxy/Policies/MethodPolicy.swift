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

/// What a multicast does when a delegate's `throws` method throws — one rule for every
/// ``ReturnPolicy``, chosen per method with ``DelegateMulticast/setErrorPolicy(_:for:)-(_,KeyPath<Handles,ThrowingMessageHandle<Delegate,Arguments,Result>>)``.
///
/// ```swift
/// try proxy.setErrorPolicy(.runAll, for: \.sensorWillSave)
/// do { try proxy.sensorWillSave(sensor) } catch let errors as MemberErrors { … }
/// ```
public enum DelegateErrorPolicy: Sendable, Equatable, CustomStringConvertible {
  /// The default: the first error (in delegate order) ends the dispatch and is rethrown
  /// to the caller as it is; later delegates are not called. The answers given before
  /// it are dropped.
  case stopAtFirst
  /// Every responder is called (under ``ReturnPolicy/firstResponder`` still only the
  /// first). If any threw, the caller receives one ``MemberErrors`` holding every
  /// error in delegate order — even when only one threw; otherwise the answers are
  /// folded by the method's policy as usual.
  case runAll

  /// A readable rendering, for logs and diagnostics.
  public var description: String {
    switch self {
    case .stopAtFirst: "stop at first error"
    case .runAll: "run all, then throw every error"
    }
  }
}

/// How a multicast awaits the delegates of an `async` method, chosen per method with
/// ``DelegateMulticast/setConcurrency(_:for:)``.
public enum DelegateConcurrency: Sendable, Equatable, CustomStringConvertible {
  /// The default: one delegate after another, in order, each awaited before the next is
  /// called. A cancelled task calls no further delegate.
  case sequential
  /// Every responder at once, each in a child task of a task group; the answers are
  /// folded in delegate order once all have answered. Cancelling the caller's task
  /// cancels the children. The arguments are shared by the child tasks: pass values,
  /// or objects safe to use from several tasks at once (as for delegates on queues).
  /// Under ``ReturnPolicy/firstResponder`` only the first responder is called, so this
  /// has no effect there; nor on a method with `inout` parameters (see ``DelegateInout``),
  /// whose delegates each read what the previous one wrote.
  case concurrent

  /// A readable rendering, for logs and diagnostics.
  public var description: String {
    switch self {
    case .sequential: "sequential"
    case .concurrent: "concurrent"
    }
  }
}
