package import DelegateProxyCCore

/// A method implementation: a C function pointer called as
/// `R imp(id self, SEL _cmd, args…)` with the method's own types (`IMP`).
///
/// An IMP is only a pointer (a `@convention(c)` function is one: RT10 of
/// dp_swift_runtime.h); whoever calls it must use the method's exact signature.
/// `Invocation`, typed `Message`s and the runtime's lookup check that for you.
// Sendable: a code address, never written through.
public struct IMP: Hashable, @unchecked Sendable, CustomStringConvertible {
  /// The code address.
  package let address: UnsafeRawPointer

  /// Wraps any C function pointer of pointer size, e.g. a C function defined with the
  /// IMP shape, or a code address a C function returned as `const void *`.
  public init<F>(unsafeFunction function: F) {
    precondition(
      MemoryLayout<F>.size == MemoryLayout<UnsafeRawPointer>.size,
      "IMP(unsafeFunction:) takes a @convention(c) function, not \(F.self)")
    address = unsafeBitCast(function, to: UnsafeRawPointer.self)
  }

  /// The IMP whose C function pointer (``rawValue``) is `rawValue`: a `dp_imp` received
  /// from C code (`dp_msg_lookup`'s result, for instance).
  public init(rawValue: @convention(c) () -> Void) {
    address = unsafeBitCast(rawValue, to: UnsafeRawPointer.self)
  }

  /// A placeholder address (never called).
  package init(address: UnsafeRawPointer) { self.address = address }

  package init(_ function: dp_imp) { self.init(rawValue: function) }

  /// The function pointer as `dp_runtime.h` types it, a `dp_imp` (`void (*)(void)`, what
  /// `dp_class_add_method` takes and `dp_msg_lookup` returns): it passes to such C
  /// functions as it is. To call it, cast it to the method's exact C type with
  /// ``unsafeCast(to:)``.
  ///
  /// An IMP is a plain code address and keeps nothing alive. A C function's stays valid
  /// for the life of the process; one made from a Swift closure (a libffi closure) stays
  /// valid while the class or object whose method it implements holds it — and while a
  /// route that calls it does (see the DelegateProxy Misuse article).
  public var rawValue: @convention(c) () -> Void {
    unsafeBitCast(address, to: (@convention(c) () -> Void).self)
  }

  /// Reinterprets the IMP as a function type of your choosing (the `objc_msgSend` cast).
  /// The type must be the method's exact C signature.
  public func unsafeCast<F>(to type: F.Type) -> F {
    precondition(MemoryLayout<F>.size == MemoryLayout<UnsafeRawPointer>.size)
    return unsafeBitCast(address, to: F.self)
  }

  /// The code address, for logs.
  public var description: String { "IMP(\(address))" }
}

/// A NUL-terminated copy of `s` that lives until freed with `freeCString`.
package func makeCString(_ s: String) -> UnsafeMutablePointer<CChar> {
  let utf8 = Array(s.utf8)
  let p = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count + 1)
  for (i, b) in utf8.enumerated() { p[i] = CChar(bitPattern: b) }
  p[utf8.count] = 0
  return p
}

/// The length of a C string, without Foundation.
package func cStringLength(_ p: UnsafePointer<CChar>) -> Int {
  var n = 0
  while p[n] != 0 { n += 1 }
  return n
}
