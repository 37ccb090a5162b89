/// What ``CallbackAdapter/function(as:)`` can prove about a Swift function type against a
/// callback signature, from the type's runtime metadata (RT7 and RT8 of
/// dp_swift_runtime.h, with their tests).
///
/// Swift's ABI lays a function type's metadata out as: the kind (`0x302`), flags (the
/// parameter count in the low 16 bits, the calling convention in bits 16–23, 3 being a C
/// function pointer), the result type's metadata, then each parameter's. Those are read
/// here. A parameter or result whose Swift type is a ``MessageArgument`` (integers,
/// floating point, `Bool`, pointers, `OpaquePointer`, `RuntimeObject`, `Selector`, their
/// optionals) is compared by how the C calling convention passes it — an integer of its
/// size (pointers and objects: a pointer-sized integer) or a floating-point value of its
/// size — so `size_t` imported as `Int` matches a callback's `Q`, but `int` for `double`,
/// `int` for `long long` or `float` for `double` does not. A type that is not a
/// `MessageArgument` (an imported C struct by value, a C enum) cannot be checked and
/// passes, as does a struct or `long double` on the callback's side.
enum CallbackFunctionType {
  /// The metadata kind of function types.
  private static let functionKind: UInt = 0x302
  /// The calling convention of `@convention(c)` function types.
  private static let cConvention: UInt = 3

  /// Why `type` is provably not a function type for `callback`; nil when it may be.
  static func mismatch(_ type: Any.Type, _ callback: CallbackSignature) -> String? {
    let unwrapped = (type as? any OptionalFunction.Type)?.wrappedType ?? type
    let metadata = unsafeBitCast(unwrapped, to: UnsafeRawPointer.self)
    let word = MemoryLayout<UInt>.size
    guard metadata.load(as: UInt.self) == functionKind else {
      return "\(unwrapped) is not a function type"
    }
    let flags = metadata.load(fromByteOffset: word, as: UInt.self)
    guard (flags >> 16) & 0xFF == cConvention else {
      return "\(unwrapped) is not a @convention(c) function type"
    }
    let count = Int(flags & 0xFFFF)
    guard count == callback.arity else {
      return
        "it takes \(count) argument\(count == 1 ? "" : "s"), the callback \(callback.arity)"
    }
    for index in 0..<count {
      let parameter = metadata.load(fromByteOffset: word * (3 + index), as: Any.Type.self)
      let expected = callback.argumentTypes[index]
      if let passed = passing(parameter), let wanted = passing(expected), passed != wanted {
        return
          "argument \(index) is \(parameter) (\(passed)), the callback's \"\(expected.canonicalString)\" (\(wanted))"
      }
    }
    let result = metadata.load(fromByteOffset: word * 2, as: Any.Type.self)
    if result == Void.self {
      if callback.returnType != .void {
        return "it returns nothing, the callback \"\(callback.returnType.canonicalString)\""
      }
    } else if callback.returnType == .void {
      return "it returns \(result), the callback nothing"
    } else if let passed = passing(result), let wanted = passing(callback.returnType),
      passed != wanted
    {
      return
        "it returns \(result) (\(passed)), the callback \"\(callback.returnType.canonicalString)\" (\(wanted))"
    }
    return nil
  }

  /// How the C calling convention passes a value.
  enum Passing: Equatable, CustomStringConvertible {
    /// In an integer register (or as an integer), `bytes` wide.
    case integer(bytes: Int)
    /// In a floating-point register, `bytes` wide.
    case floatingPoint(bytes: Int)

    var description: String {
      switch self {
      case .integer(let n): "a \(n * 8)-bit integer"
      case .floatingPoint(let n): "a \(n * 8)-bit floating-point value"
      }
    }
  }

  /// How a Swift type that has an encoding is passed; nil for one that has none.
  private static func passing(_ type: Any.Type) -> Passing? {
    (type as? any MessageArgument.Type).flatMap { passing($0.typeEncoding) }
  }

  /// How a scalar of `encoding` is passed; nil for aggregates, `long double` and the rest.
  private static func passing(_ encoding: TypeEncoding) -> Passing? {
    switch encoding.unqualified {
    case .char, .unsignedChar, .bool: .integer(bytes: 1)
    case .short, .unsignedShort: .integer(bytes: 2)
    case .int, .unsignedInt, .long, .unsignedLong: .integer(bytes: 4)
    case .longLong, .unsignedLongLong: .integer(bytes: 8)
    case .pointer, .cString, .object, .block, .classObject, .selector:
      .integer(bytes: MemoryLayout<UnsafeRawPointer>.size)
    case .float: .floatingPoint(bytes: 4)
    case .double: .floatingPoint(bytes: 8)
    default: nil
    }
  }
}
/// An optional, whose wrapped type `function(as:)` looks through (a C function pointer
/// typedef may be asked for as `F?` or `F!`).
private protocol OptionalFunction {
  static var wrappedType: Any.Type { get }
}

extension Optional: OptionalFunction {
  fileprivate static var wrappedType: Any.Type { Wrapped.self }
}
