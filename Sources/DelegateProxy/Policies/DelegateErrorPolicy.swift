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
