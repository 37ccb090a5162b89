internal import DelegateProxyCFFIShim

/// The messages every runtime object answers whatever its class, as `NSObject` and
/// `NSProxy` both do: `respondsToSelector:` (`B@::`) and `conformsToProtocol:` (`B@:*`, the
/// protocol's registered name: protocols are not objects in this runtime). Each runs the
/// receiver's own ``RuntimeObject/responds(to:)`` or ``RuntimeObject/conforms(to:)`` — a
/// proxy answers for itself (its override says what it forwards), the message is never
/// forwarded. Found after the class chain (a class may define its own) and before
/// forwarding; cached with the class's methods.
enum RootMethods {
  static let respondsToSelector = Selector("respondsToSelector:")
  static let conformsToProtocol = Selector("conformsToProtocol:")

  /// The root method for `selector`, or nil.
  static func method(for selector: Selector) -> Method? {
    if selector == respondsToSelector { return responds }
    if selector == conformsToProtocol { return conforms }
    return nil
  }

  private static let responds = Method(
    selector: respondsToSelector, signature: try! MethodSignature.parse("B@::"),
    imp: IMP(rawValue: unsafeBitCast(respondsEntry, to: (@convention(c) () -> Void).self)))
  private static let conforms = Method(
    selector: conformsToProtocol, signature: try! MethodSignature.parse("B@:*"),
    imp: IMP(rawValue: unsafeBitCast(conformsEntry, to: (@convention(c) () -> Void).self)))
}

extension Runtime {
  /// Whether `selector` is one every runtime object answers for itself
  /// (`respondsToSelector:`, `conformsToProtocol:`): a proxy never forwards it.
  package static func answersForItself(_ selector: Selector) -> Bool {
    RootMethods.method(for: selector) != nil
  }
}

/// `-respondsToSelector:` — false for nil arguments or a receiver being deallocated.
private let respondsEntry: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Bool =
  { handle, _, selector in
    guard let selector, let receiver = RuntimeObject.object(rawValue: handle) else { return false }
    return receiver.responds(to: Selector(rawValue: selector))
  }

/// `-conformsToProtocol:` with the protocol's name — false for an unknown protocol.
private let conformsEntry:
  @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<CChar>?) -> Bool = {
    handle, _, name in
    guard let name, let receiver = RuntimeObject.object(rawValue: handle),
      let proto = RuntimeProtocol.named(String(cString: name))
    else { return false }
    return receiver.conforms(to: proto)
  }
