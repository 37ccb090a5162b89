/// A stand-in object with no methods of its own: every message goes to
/// `methodSignature(for:)` and then `forwardInvocation(_:)` (`NSProxy`).
///
/// Subclass it and override both hooks. Each proxy class gets its own runtime class
/// (a root class: it does not inherit `RuntimeClass.root`'s methods), so nothing a
/// proxy receives is answered by an inherited method.
///
/// ```swift
/// final class LoggingProxy: ForwardingProxy {
///   let target: RuntimeObject
///   init(target: RuntimeObject) { self.target = target; super.init() }
///   override func methodSignature(for s: Selector) -> MethodSignature? { target.methodSignature(for: s) }
///   override func forwardInvocation(_ i: Invocation) throws { print(i); try i.invoke(target: target) }
/// }
/// ```
// @unchecked Sendable restates RuntimeObject's (a subclass must): no stored state here.
open class ForwardingProxy: RuntimeObject, @unchecked Sendable {
  /// The root class proxies use unless given another.
  public static let proxyClass: RuntimeClass = try! RuntimeClass(name: "ForwardingProxy")

  /// A proxy of class `runtimeClass` (by default `ForwardingProxy`, which has no
  /// methods).
  public init(proxyClass runtimeClass: RuntimeClass = ForwardingProxy.proxyClass) {
    super.init(class: runtimeClass)
  }

  /// The signature for a forwarded message; nil (the default) means the proxy does not
  /// handle `selector`.
  open override func methodSignature(for selector: Selector) -> MethodSignature? {
    super.methodSignature(for: selector)
  }

  /// A proxy responds to what it has a method for or can give a signature for, and to
  /// what its `forwardingTarget(for:)` (another object) responds to.
  open override func responds(to selector: Selector) -> Bool {
    if methodSignature(for: selector) != nil { return true }
    guard let target = forwardingTarget(for: selector), target !== self else { return false }
    return target.responds(to: selector)
  }
}
