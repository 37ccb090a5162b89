/// The zero value of a result type: what a value-returning message answers when no
/// delegate answers it.
@usableFromInline
enum ZeroValue {
  /// `()`, nil, or all-zero bytes (false, 0, a zero struct); traps for a type whose
  /// all-zero bytes are no value (a non-optional class, a struct holding one).
  @usableFromInline
  static func value<R>(_: R.Type, for selector: @autoclosure () -> String) -> R {
    if let void = () as? R { return void }
    if let nilable = R.self as? any ExpressibleByNilLiteral.Type,
      let none = nilable.init(nilLiteral: ()) as? R
    {
      return none
    }
    guard _isPOD(R.self) else {
      fatalError(
        "\(selector()): no delegate answered, and \(R.self) has no zero value to answer with; "
          + "make the result optional or add a delegate that implements it")
    }
    return withUnsafeTemporaryAllocation(of: R.self, capacity: 1) { slot in
      UnsafeMutableRawPointer(slot.baseAddress!).initializeMemory(
        as: UInt8.self, repeating: 0, count: MemoryLayout<R>.size)
      return slot.baseAddress!.move()
    }
  }

  /// `true` (1) or `false` (0) as `R`, for the truth reducers (Bool and integer results).
  @usableFromInline
  static func truth<R>(_ value: Bool, _: R.Type, for selector: @autoclosure () -> String) -> R {
    var result = ZeroValue.value(R.self, for: selector())
    if value {
      withUnsafeMutableBytes(of: &result) { bytes in
        if !bytes.isEmpty { bytes[UInt16(1).littleEndian == 1 ? 0 : bytes.count - 1] = 1 }
      }
    }
    return result
  }
}

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
