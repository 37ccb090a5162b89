/// A method: a selector, its signature and the implementation that runs for it
/// (`Method` in the Objective-C runtime).
public struct Method: Sendable, CustomStringConvertible {
  /// The method's name.
  public let selector: Selector
  /// The method's types.
  public let signature: MethodSignature
  /// The code that runs.
  public let imp: IMP
  /// Keeps a closure-made IMP alive for as long as the method is installed.
  let closure: ClosureIMP?
  /// The route this method's entry serves (per-object route methods only).
  let route: RouteBox?

  init(
    selector: Selector, signature: MethodSignature, imp: IMP, closure: ClosureIMP? = nil,
    route: RouteBox? = nil
  ) {
    self.selector = selector
    self.signature = signature
    self.imp = imp
    self.closure = closure
    self.route = route
  }

  /// Whether the implementation was made from a Swift closure.
  package var isClosureBacked: Bool { closure != nil }

  /// Hands this method's closure IMP (if any) to the grace period after it was replaced
  /// or removed: a send in a read section of `domain` that looked it up before may still
  /// be calling it, so its code is freed only once such sections have ended (never at
  /// once, never waited for). A route's entry needs nothing: the route retires itself.
  func retireCode(in domain: UnsafeRawPointer) {
    if let closure { Quiescence.retire(closure, in: domain) }
  }

  public var description: String { "\(selector.name) \(signature.encoding) → \(imp)" }
}
