/// `Optional`, seen through its wrapped type.
@usableFromInline
protocol OptionalType {
  static var wrappedType: Any.Type { get }
  /// Whether the optional at `address` is nil.
  static func isNone(at address: UnsafeRawPointer) -> Bool
}

extension Optional: OptionalType {
  @usableFromInline static var wrappedType: Any.Type { Wrapped.self }
  @inlinable static func isNone(at address: UnsafeRawPointer) -> Bool {
    // A borrow of the caller's value: no copy of the payload.
    switch address.assumingMemoryBound(to: Self.self).pointee {
    case .none: true
    case .some: false
    }
  }
}
