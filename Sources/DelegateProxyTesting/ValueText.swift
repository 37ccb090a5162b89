import MessageRuntime

/// Reads argument bytes as text and numbers, by their type encoding. Bytes are in the
/// machine's order (little-endian on every supported platform).
enum ValueText {
  /// The value as text, reading pointees (objects, selectors, classes, C strings) only
  /// when `dereference` is true — the bytes came from a live call.
  static func text(_ bytes: [UInt8], _ type: TypeEncoding, dereference: Bool) -> String {
    let type = type.unqualified
    if type == .unsignedLongLong, bytes.count == 8 {
      return String(bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
    }
    if let n = integer(bytes, type) {
      return type == .bool ? (n != 0 ? "true" : "false") : String(n)
    }
    if let x = floatingPoint(bytes, type) { return String(x) }
    switch type {
    case .object, .block, .classObject, .selector, .cString, .pointer:
      let raw = bytes.withUnsafeBytes { $0.load(as: UInt.self) }
      guard raw != 0 else { return "nil" }
      let address = "0x" + String(raw, radix: 16)
      guard dereference, let pointer = OpaquePointer(bitPattern: raw) else { return address }
      switch type {
      case .object:
        if let object = RuntimeObject.object(rawValue: pointer) {
          return "<\(object.runtimeClass.name) \(address)>"
        }
        return "<object \(address)>"
      case .classObject:
        return RuntimeClass.class(rawValue: pointer)?.name ?? "<class \(address)>"
      case .selector: return "@selector(\(Selector(rawValue: pointer).name))"
      case .cString:
        return "\"" + cString(UnsafePointer<CChar>(pointer)) + "\""
      default: return address
      }
    case .structure(_, let fields?), .union(_, let fields?):
      guard case .structure = type, let layout = try? type.layout() else {
        return "(" + hex(bytes) + ")"
      }
      let parts = zip(fields, layout.fieldOffsets).map { field, offset -> String in
        let size = (try? field.layout().size) ?? 0
        let end = min(offset + size, bytes.count)
        return text(Array(bytes[min(offset, end)..<end]), field, dereference: dereference)
      }
      return "{" + parts.joined(separator: ", ") + "}"
    case .array(let count, let element):
      let stride = bytes.count / max(count, 1)
      let parts = (0..<count).map { i in
        text(Array(bytes[(i * stride)..<((i + 1) * stride)]), element, dereference: dereference)
      }
      return "[" + parts.joined(separator: ", ") + "]"
    default:
      return hex(bytes)
    }
  }

  /// The longest C string argument read, in bytes: a `char *` a C library passes with a
  /// separate length (expat's character data) need not end in NUL.
  static let maximumStringLength = 256

  /// A C string's contents, at most ``maximumStringLength`` bytes (then "…").
  static func cString(_ p: UnsafePointer<CChar>) -> String {
    var bytes: [UInt8] = []
    while bytes.count < maximumStringLength, p[bytes.count] != 0 {
      bytes.append(UInt8(bitPattern: p[bytes.count]))
    }
    let text = String(decoding: bytes, as: UTF8.self)
    return bytes.count == maximumStringLength ? text + "…" : text
  }

  /// An integer type's value (sign-extended when signed); nil for other types.
  static func integer(_ bytes: [UInt8], _ type: TypeEncoding) -> Int64? {
    var unsigned: UInt64 = 0
    for (i, b) in bytes.prefix(8).enumerated() { unsigned |= UInt64(b) << (8 * UInt64(i)) }
    let bits = UInt64(bytes.count * 8)
    switch type.unqualified {
    case .char, .short, .int, .long, .longLong:
      guard bits < 64 else { return Int64(bitPattern: unsigned) }
      let shift = 64 - bits
      return Int64(bitPattern: unsigned << shift) >> Int64(shift)
    case .unsignedChar, .unsignedShort, .unsignedInt, .unsignedLong, .bool:
      return Int64(bitPattern: unsigned)
    case .unsignedLongLong:
      return Int64(bitPattern: unsigned)
    default:
      return nil
    }
  }

  /// A `float`'s or `double`'s value; nil for other types.
  static func floatingPoint(_ bytes: [UInt8], _ type: TypeEncoding) -> Double? {
    switch type.unqualified {
    case .float where bytes.count == 4:
      return Double(bytes.withUnsafeBytes { $0.loadUnaligned(as: Float.self) })
    case .double where bytes.count == 8:
      return bytes.withUnsafeBytes { $0.loadUnaligned(as: Double.self) }
    default:
      return nil
    }
  }

  /// Whether values of `type` are one pointer.
  static func isPointerSized(_ type: TypeEncoding) -> Bool {
    switch type.unqualified {
    case .object, .block, .classObject, .selector, .cString, .pointer: true
    default: false
    }
  }

  /// Bytes as hex pairs.
  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
  }
}
