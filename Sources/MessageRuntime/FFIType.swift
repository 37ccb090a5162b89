internal import CFFIShim
import Synchronization

/// Builds libffi type descriptors from type encodings. Descriptors are cached by
/// canonical encoding and never freed: signatures are interned for the life of the
/// process and their prepared call interfaces point at these.
///
/// This file and `MethodSignature`'s call code are the only places that hold libffi
/// pointers; nothing public exposes them.
enum FFIType {
  /// An immortal libffi type pointer. Sendable because nothing ever writes through it
  /// after construction (libffi fills size/alignment once, under `cache`'s lock).
  struct Handle: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<ffi_type>
  }

  private static let cache = Mutex<[TypeEncoding: Handle]>([:])

  /// The libffi type for a value of `type` passed or returned by value.
  static func type(for type: TypeEncoding) throws(RuntimeError) -> UnsafeMutablePointer<ffi_type> {
    let t = type.unqualified
    if let scalar = scalarCode(t) {
      guard let p = dp_ffi_scalar_type(scalar) else {
        throw .invalidSignature(
          encoding: t.canonicalString,
          reason: "libffi cannot pass \(t.canonicalString) on this platform")
      }
      return p
    }
    if let cached = cache.withLock({ $0[t] }) { return cached.pointer }
    let built = Handle(pointer: try aggregate(t))
    let kept = cache.withLock { table -> Handle in
      if let existing = table[t] { return existing }
      table[t] = built
      return built
    }
    if kept.pointer != built.pointer { dp_ffi_struct_free(built.pointer) }
    return kept.pointer
  }

  /// The scalar code `dp_ffi_scalar_type` understands, or nil for aggregates.
  static func scalarCode(_ t: TypeEncoding) -> CChar? {
    let code: Character
    switch t {
    case .char: code = "c"
    case .unsignedChar: code = "C"
    case .bool: code = "B"
    case .short: code = "s"
    case .unsignedShort: code = "S"
    case .int: code = "i"
    case .unsignedInt: code = "I"
    case .long: code = "l"
    case .unsignedLong: code = "L"
    case .longLong: code = "q"
    case .unsignedLongLong: code = "Q"
    case .float: code = "f"
    case .double: code = "d"
    case .longDouble: code = "D"
    case .void: code = "v"
    case .cString, .object, .block, .classObject, .selector, .pointer: code = "p"
    case .qualified(_, let inner): return scalarCode(inner)
    default: return nil
    }
    return CChar(code.asciiValue!)
  }

  private static func aggregate(_ t: TypeEncoding) throws(RuntimeError) -> UnsafeMutablePointer<ffi_type> {
    switch t {
    case .structure(_, let fields?):
      // libffi has no array type: an array member is its element repeated.
      var elements: [UnsafeMutablePointer<ffi_type>?] = []
      for field in fields { try appendFlattened(field, to: &elements) }
      if elements.isEmpty {
        throw .invalidSignature(
          encoding: t.canonicalString, reason: "an empty struct cannot be passed by value")
      }
      return elements.withUnsafeBufferPointer { dp_ffi_struct_create($0.baseAddress, $0.count) }
    case .union:
      return try unionStandIn(t)
    default:
      throw .invalidSignature(
        encoding: t.canonicalString, reason: "\(t.canonicalString) cannot be passed by value")
    }
  }

  private static func appendFlattened(
    _ t: TypeEncoding, to elements: inout [UnsafeMutablePointer<ffi_type>?]
  ) throws(RuntimeError) {
    switch t.unqualified {
    case .array(let count, let element):
      let e = try type(for: element)
      for _ in 0..<count { elements.append(e) }
    default:
      elements.append(try type(for: t))
    }
  }

  /// libffi cannot describe a union. What the ABI needs is its size, alignment and, per
  /// eightbyte, whether any member puts integer data there (then the eightbyte travels
  /// in an integer register) or only floating-point data (a vector register). A struct
  /// of alignment-sized slots, each an integer unless every member covering it is
  /// floating point, has exactly that classification.
  private static func unionStandIn(_ t: TypeEncoding) throws(RuntimeError) -> UnsafeMutablePointer<ffi_type> {
    let layout: TypeLayout
    do { layout = try t.layout() } catch { throw .invalidEncoding(error) }
    guard layout.size > 0 else {
      throw .invalidSignature(
        encoding: t.canonicalString, reason: "an empty union cannot be passed by value")
    }
    let scalars = try ScalarMap.flatten(t)
    let slot = min(layout.alignment, 8)
    var elements: [UnsafeMutablePointer<ffi_type>?] = []
    var offset = 0
    while offset < layout.size {
      let covering = scalars.filter { $0.offset < offset + slot && $0.offset + $0.size > offset }
      let allFloat = !covering.isEmpty && covering.allSatisfy { $0.kind == .float }
      let code: Character
      switch (slot, allFloat) {
      case (8, true): code = "d"
      case (4, true): code = "f"
      case (8, false): code = "Q"
      case (4, false): code = "I"
      case (2, _): code = "S"
      default: code = "C"
      }
      elements.append(dp_ffi_scalar_type(CChar(code.asciiValue!)))
      offset += slot
    }
    return elements.withUnsafeBufferPointer { dp_ffi_struct_create($0.baseAddress, $0.count) }
  }
}

/// The scalars a type is made of, at their byte offsets: what the ABI classifies.
struct ScalarMap {
  enum Kind { case integer, float, x87 }
  struct Scalar: Equatable {
    var offset: Int
    var size: Int
    var kind: Kind
  }

  static func flatten(_ t: TypeEncoding) throws(RuntimeError) -> [Scalar] {
    var out: [Scalar] = []
    try flatten(t, at: 0, into: &out)
    return out
  }

  private static func layout(_ t: TypeEncoding) throws(RuntimeError) -> TypeLayout {
    do { return try t.layout() } catch { throw .invalidEncoding(error) }
  }

  private static func flatten(_ t: TypeEncoding, at base: Int, into out: inout [Scalar]) throws(RuntimeError) {
    switch t.unqualified {
    case .structure(_, let fields?):
      let offsets = try layout(t).fieldOffsets
      for (field, offset) in zip(fields, offsets) { try flatten(field, at: base + offset, into: &out) }
    case .union(_, let fields?):
      for field in fields { try flatten(field, at: base, into: &out) }
    case .array(let count, let element):
      let size = try layout(element).size
      for i in 0..<count { try flatten(element, at: base + i * size, into: &out) }
    case .float, .double:
      out.append(Scalar(offset: base, size: try layout(t).size, kind: .float))
    case .longDouble:
      out.append(Scalar(offset: base, size: 16, kind: .x87))
    default:
      out.append(Scalar(offset: base, size: try layout(t).size, kind: .integer))
    }
  }
}
