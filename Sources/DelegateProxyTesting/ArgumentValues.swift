import DelegateProxy
import MessageRuntime

/// Argument values for any type encoding, as the bytes a caller passes: boundary values
/// (zero, one, minus one, the extremes, infinities, NaN, null and non-null pointers) and
/// seeded random ones. Aggregates get a value in every field.
///
/// Pointers, objects, classes, selectors and C strings point at live things this value
/// source owns — an object, a class, a selector, a C string, a zeroed buffer large enough
/// for any pointee the package passes — valid as long as it lives.
package final class ArgumentValues {
  /// The object `@` arguments point at.
  package let object = RuntimeObject()
  /// The Swift values sent as objects so far (see `SwiftSampleValues`), kept alive as long
  /// as the cases that point at them.
  private var swiftValues: [SwiftValueObject] = []
  /// Samples of the user's own types, by type name (``DeliveryCheck/withSamples(_:)``).
  var userSamples: [String: SampleValues] = [:]
  /// The user's samples sent by their C form (class instances among them), kept alive as
  /// long as the cases that carry them.
  private var keptSamples: [Any] = []
  private let cString: UnsafeMutablePointer<CChar>
  private let buffer: UnsafeMutableRawPointer
  private static let bufferSize = 4096

  /// A value source with its own object, string and buffer.
  package init() {
    let text = Array("argument".utf8CString)
    cString = .allocate(capacity: text.count)
    cString.initialize(from: text, count: text.count)
    buffer = .allocate(byteCount: Self.bufferSize, alignment: 16)
    buffer.initializeMemory(as: UInt8.self, repeating: 0, count: Self.bufferSize)
  }

  deinit {
    cString.deallocate()
    buffer.deallocate()
  }

  /// How many distinct boundary values `type` has (for an aggregate, the most any of its
  /// fields has).
  package func boundaryCount(of type: TypeEncoding) -> Int {
    switch type.unqualified {
    case .structure(_, let fields?), .union(_, let fields?):
      return fields.map { boundaryCount(of: $0) }.max() ?? 1
    case .array(_, let element): return boundaryCount(of: element)
    default: return scalarBoundaries(type.unqualified).count
    }
  }

  /// Boundary value number `k` of `type` (taken modulo the type's count, field by field
  /// for an aggregate), as bytes of the type's size.
  package func boundary(_ k: Int, of type: TypeEncoding) -> [UInt8] {
    fill(type) { scalar in
      let all = scalarBoundaries(scalar)
      return all[k % all.count]
    }
  }

  /// The Swift value sample `k` of a parameter of `valueType` (modulo the samples'
  /// count), as the handle of a ``SwiftValueObject`` this source keeps; nil for a type with
  /// a C form or none listed.
  func swiftSample(_ k: Int, of valueType: DelegateValueType?) -> [UInt8]? {
    guard let valueType else { return nil }
    if let user = userSamples[valueType.name], valueType.encoding != nil {
      return user.cBytes(k, of: valueType, keeping: &keptSamples)
    }
    guard valueType.encoding == nil,
      let samples = userSamples[valueType.name]?.values
        ?? SwiftSampleValues.samples(forTypeNamed: valueType.name)
    else { return nil }
    let object = SwiftValueObject(samples[k % samples.count])
    swiftValues.append(object)
    return Self.pointerBytes(UnsafeRawPointer(object.rawValue))
  }

  /// How many Swift value samples a parameter of `valueType` has (0: none).
  func swiftSampleCount(of valueType: DelegateValueType?) -> Int {
    guard let valueType else { return 0 }
    if let user = userSamples[valueType.name] { return user.values.count }
    guard valueType.encoding == nil else { return 0 }
    return SwiftSampleValues.samples(forTypeNamed: valueType.name)?.count ?? 0
  }

  /// Whether `arrived` is the Swift value `sent` (of the type named `typeName`): by the
  /// user's comparison for a type given samples, else as `SwiftSampleValues` compares.
  func same(_ sent: Any, _ arrived: Any, typeName: String?) -> Bool {
    if let typeName, let user = userSamples[typeName] { return user.same(sent, arrived) }
    return SwiftSampleValues.same(sent, arrived)
  }

  /// A random value of `type` drawn from `rng`: random bits for integers, finite numbers
  /// for floating point, 0 or 1 for `BOOL`, a live or null pointer.
  package func random(of type: TypeEncoding, using rng: inout SeededRandom) -> [UInt8] {
    fill(type) { scalar in
      let size = (try? scalar.layout().size) ?? 0
      switch scalar {
      case .bool: return [UInt8(rng.below(2))]
      case .float: return Self.bytes(Float(Double(Int64(bitPattern: rng.next()) >> 20) / 1024))
      case .double: return Self.bytes(Double(Int64(bitPattern: rng.next()) >> 11) / 4096)
      case .longDouble:
        let all = scalarBoundaries(scalar)
        return all[rng.below(all.count)]
      case .char, .unsignedChar, .short, .unsignedShort, .int, .unsignedInt, .long,
        .unsignedLong, .longLong, .unsignedLongLong:
        return Array(Self.bytes(rng.next()).prefix(size))
      default:
        let all = scalarBoundaries(scalar)
        return all[rng.below(all.count)]
      }
    }
  }

  /// Whether `a` and `b` are the same value of `type`: equal in every significant byte
  /// (``significantBytes(of:)``), padding aside.
  package static func sameValue(_ a: [UInt8], _ b: [UInt8], of type: TypeEncoding) -> Bool {
    a.count == b.count
      && zip(zip(a, b), significantBytes(of: type)).allSatisfy { pair, significant in
        !significant || pair.0 == pair.1
      }
  }

  /// Which bytes of a value of `type` carry it (false for padding, and for the bytes of
  /// an x87 `long double` beyond its 10): the bytes a delivery must preserve.
  package static func significantBytes(of type: TypeEncoding) -> [Bool] {
    let type = type.unqualified
    guard let layout = try? type.layout() else { return [] }
    var mask = [Bool](repeating: false, count: layout.size)
    switch type {
    case .structure(_, let fields?):
      for (field, offset) in zip(fields, layout.fieldOffsets) {
        for (i, bit) in significantBytes(of: field).enumerated() where bit {
          mask[offset + i] = true
        }
      }
    case .union(_, let fields?):
      for field in fields {
        for (i, bit) in significantBytes(of: field).enumerated() where bit { mask[i] = true }
      }
    case .array(let count, let element):
      let inner = significantBytes(of: element)
      for k in 0..<count {
        for (i, bit) in inner.enumerated() where bit { mask[k * inner.count + i] = true }
      }
    case .longDouble:
      #if arch(x86_64) || arch(i386)
        for i in 0..<10 { mask[i] = true }
      #else
        mask = mask.map { _ in true }
      #endif
    case .bool:
      if !mask.isEmpty { mask[0] = true }
    default:
      mask = mask.map { _ in true }
    }
    return mask
  }

  // MARK: Building values

  /// A value of `type` whose every scalar leaf is `leaf(scalarType)`.
  private func fill(_ type: TypeEncoding, _ leaf: (TypeEncoding) -> [UInt8]) -> [UInt8] {
    let type = type.unqualified
    guard let layout = try? type.layout() else { return [] }
    switch type {
    case .structure(_, let fields?):
      var bytes = [UInt8](repeating: 0, count: layout.size)
      for (field, offset) in zip(fields, layout.fieldOffsets) {
        let value = fill(field, leaf)
        bytes.replaceSubrange(offset..<(offset + value.count), with: value)
      }
      return bytes
    case .union(_, let fields?):
      var bytes = [UInt8](repeating: 0, count: layout.size)
      if let first = fields.first {
        let value = fill(first, leaf)
        bytes.replaceSubrange(0..<value.count, with: value)
      }
      return bytes
    case .array(let count, let element):
      return (0..<count).flatMap { _ in fill(element, leaf) }
    default:
      let value = leaf(type)
      return value.count == layout.size
        ? value : Array((value + [UInt8](repeating: 0, count: layout.size)).prefix(layout.size))
    }
  }

  /// The boundary values of a scalar (or pointer-like) type.
  private func scalarBoundaries(_ type: TypeEncoding) -> [[UInt8]] {
    switch type {
    case .char: return ([0, 1, -1, .max, .min] as [Int8]).map(Self.bytes)
    case .unsignedChar: return ([0, 1, .max] as [UInt8]).map(Self.bytes)
    case .short: return ([0, 1, -1, .max, .min] as [Int16]).map(Self.bytes)
    case .unsignedShort: return ([0, 1, .max] as [UInt16]).map(Self.bytes)
    case .int, .long: return ([0, 1, -1, .max, .min] as [Int32]).map(Self.bytes)
    case .unsignedInt, .unsignedLong: return ([0, 1, .max] as [UInt32]).map(Self.bytes)
    case .longLong: return ([0, 1, -1, .max, .min] as [Int64]).map(Self.bytes)
    case .unsignedLongLong: return ([0, 1, .max] as [UInt64]).map(Self.bytes)
    case .bool: return [[0], [1]]
    case .float:
      return
        ([0, -0.0, 1, -1, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity, .nan]
        as [Float]).map(Self.bytes)
    case .double:
      return
        ([0, -0.0, 1, -1, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity, .nan]
        as [Double]).map(Self.bytes)
    case .longDouble:
      return [0, 1, -1].map(Self.longDoubleBytes)
    case .object:
      return [Self.pointerBytes(nil), Self.pointerBytes(UnsafeRawPointer(object.rawValue))]
    case .classObject:
      return [
        Self.pointerBytes(nil), Self.pointerBytes(UnsafeRawPointer(RuntimeClass.root.rawValue)),
      ]
    case .selector:
      return [Self.pointerBytes(UnsafeRawPointer(Selector("argumentValue").rawValue))]
    case .cString: return [Self.pointerBytes(nil), Self.pointerBytes(UnsafeRawPointer(cString))]
    case .pointer, .block:
      return [Self.pointerBytes(nil), Self.pointerBytes(UnsafeRawPointer(buffer))]
    default:
      let size = (try? type.layout().size) ?? 0
      return [[UInt8](repeating: 0, count: size)]
    }
  }

  private static func bytes<T: BitwiseCopyable>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value) { Array($0) }
  }

  /// The Swift value a case sends in `bytes`: a ``SwiftValueObject`` this source made
  /// (alive as long as it is), or nil for any other argument.
  func sentSwiftValue(_ bytes: [UInt8]) -> Any? {
    guard bytes.count == MemoryLayout<UInt>.size else { return nil }
    let raw = bytes.withUnsafeBytes { $0.load(as: UInt.self) }
    return swiftValues.first { UInt(bitPattern: $0.rawValue) == raw }?.value
  }

  private static func pointerBytes(_ pointer: UnsafeRawPointer?) -> [UInt8] {
    bytes(UInt(bitPattern: pointer))
  }

  /// `value` (0 or ±1) as a C `long double`: x87 extended precision on x86, IEEE quad
  /// elsewhere, in 16 bytes.
  private static func longDoubleBytes(_ value: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 16)
    guard value != 0 else { return out }
    let sign: UInt16 = value < 0 ? 0x8000 : 0
    #if arch(x86_64) || arch(i386)
      out.replaceSubrange(0..<8, with: bytes(UInt64(1) << 63))
      out.replaceSubrange(8..<10, with: bytes(sign | 0x3FFF))
    #else
      out.replaceSubrange(14..<16, with: bytes(sign | 0x3FFF))
    #endif
    return out
  }
}
