/// What the package reads from the Swift ABI's type layouts (docs/ABI/TypeLayout.rst in
/// the Swift repository, "Existential Container Layout"): RT12 in
/// `CFFIShim/Core/include/dp_swift_runtime.h`, the list of every runtime assumption.
enum SwiftRuntimeLayout {
  /// Whether `T` is a class-bound existential (`any P` with `P: AnyObject`) or a class:
  /// such a value is one reference followed by one witness-table pointer per protocol
  /// (at most two words for one protocol, or three for a composition with a superclass),
  /// where an opaque existential (`any P` that structs may conform to) carries a
  /// three-word inline buffer and its type's metadata before its witness tables — at
  /// least four words. A multicast's `Delegate` is one protocol's existential, so the
  /// size tells the two apart.
  static func isClassExistential<T>(_: T.Type) -> Bool {
    MemoryLayout<T>.size < 4 * MemoryLayout<UnsafeRawPointer>.size
  }
}
