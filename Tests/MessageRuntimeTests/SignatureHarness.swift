// Shared helpers of the signature suites (SignatureTableTests, RandomSignatureTests):
// a seeded PRNG, the scalar leaves of a type, random but valid argument values, argument
// frames for C and libffi calls, and the retargeting proxy every forwarding path uses.

import DelegateProxyCFFIShim
import DelegateProxyCTestSupport
import DelegateProxyTesting
import Testing

@_spi(Validation) @testable import MessageRuntime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - Seeds

/// The seeded generator of the signature suites: DelegateProxyTesting's, which the
/// random signatures come from too.
typealias SplitMix64 = SeededRandom

enum SignatureEnvironment {
  /// The seed of both signature suites: `DP_SIGNATURE_SEED` (decimal or 0x-hex) or a fixed
  /// default.
  static let seed: UInt64 = {
    if let text = variable("DP_SIGNATURE_SEED") {
      let parsed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
      if let parsed { return parsed }
    }
    return 0x5EED_DE1E_6A7E_0001
  }()

  /// How many random signatures to check: `DP_SIGNATURE_COUNT`, default 1000.
  static let count: Int = variable("DP_SIGNATURE_COUNT").flatMap { Int($0) } ?? 1000

  /// Only this random signature index, when `DP_SIGNATURE_INDEX` is set (for replaying
  /// one failure).
  static let onlyIndex: Int? = variable("DP_SIGNATURE_INDEX").flatMap { Int($0) }

  static func variable(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    let text = String(cString: value)
    return text.isEmpty ? nil : text
  }
}

// MARK: - Leaves

/// What a scalar leaf holds, which decides how values are made and compared.
enum LeafKind: Equatable {
  case signedInteger, unsignedInteger, bool, float, double, longDouble
  case pointer, cString, object, classObject, selector
}

/// One scalar of a value: `size` significant bytes at `offset`.
struct Leaf: Equatable {
  var offset: Int
  /// Bytes that carry the value (10 for an x87 `long double`, whose slot is 16).
  var size: Int
  var kind: LeafKind
  /// The scalar's full size in memory.
  var slotSize: Int
}

#if arch(x86_64) || arch(i386)
  /// Significant bytes of a `long double`: x87 extended precision.
  let longDoubleSignificantBytes = 10
#else
  /// Significant bytes of a `long double`: IEEE binary128.
  let longDoubleSignificantBytes = 16
#endif

enum Leaves {
  /// The scalar leaves of `type` in memory order of the walk: struct fields in order,
  /// array elements in order, and for a union the leaves of its largest member (the
  /// first of equal size) — the member that carries the union's value in these tests.
  /// The same walk as the C recorder in `gen_signature_cases.py`.
  static func of(_ type: TypeEncoding) -> [Leaf] { typed(type).map(\.leaf) }

  /// The leaves with their scalar types.
  static func typed(_ type: TypeEncoding) -> [(leaf: Leaf, type: TypeEncoding)] {
    var out: [(leaf: Leaf, type: TypeEncoding)] = []
    walk(type, at: 0, into: &out)
    return out
  }

  private static func size(_ t: TypeEncoding) -> Int { try! t.layout().size }

  private static func walk(
    _ type: TypeEncoding, at base: Int, into out: inout [(leaf: Leaf, type: TypeEncoding)]
  ) {
    let t = type.unqualified
    switch t {
    case .structure(_, let fields?):
      let offsets = try! t.layout().fieldOffsets
      for (field, offset) in zip(fields, offsets) { walk(field, at: base + offset, into: &out) }
    case .union(_, let fields?):
      guard let largest = fields.max(by: { size($0) < size($1) }),
        let first = fields.first(where: { size($0) == size(largest) })
      else { return }
      walk(first, at: base, into: &out)
    case .array(let count, let element):
      let stride = size(element)
      for i in 0..<count { walk(element, at: base + i * stride, into: &out) }
    default:
      let kind = leafKind(t)
      let slot = size(t)
      let significant = kind == .longDouble ? longDoubleSignificantBytes : slot
      out.append((Leaf(offset: base, size: significant, kind: kind, slotSize: slot), t))
    }
  }

  static func leafKind(_ t: TypeEncoding) -> LeafKind {
    switch t {
    case .char, .short, .int, .long, .longLong: return .signedInteger
    case .unsignedChar, .unsignedShort, .unsignedInt, .unsignedLong, .unsignedLongLong:
      return .unsignedInteger
    case .bool: return .bool
    case .float: return .float
    case .double: return .double
    case .longDouble: return .longDouble
    case .cString: return .cString
    case .object: return .object
    case .classObject: return .classObject
    case .selector: return .selector
    default: return .pointer  // ^T, @? (a block is a pointer we never call)
    }
  }

  /// The significant bytes of every leaf of the value `bytes` of `type`, concatenated.
  static func bytes(_ bytes: [UInt8], of type: TypeEncoding) -> [UInt8] {
    var out: [UInt8] = []
    for leaf in of(type) { out += bytes[leaf.offset..<(leaf.offset + leaf.size)] }
    return out
  }

  /// Whether `type` contains a union anywhere by value.
  static func containsUnion(_ type: TypeEncoding) -> Bool {
    switch type.unqualified {
    case .union: return true
    case .structure(_, let fields?): return fields.contains(where: containsUnion)
    case .array(_, let element): return containsUnion(element)
    default: return false
    }
  }
}

// MARK: - Values

/// Objects, classes, selectors and C strings that live for the whole test run, so
/// arguments can be real handles without any test owning them.
final class ValuePool: @unchecked Sendable {
  static let shared = ValuePool()

  let classes: [RuntimeClass]
  let objects: [RuntimeObject]
  let selectors: [Selector]
  let strings: [UnsafeMutablePointer<CChar>]

  private init() {
    classes = ["SigPoolAlpha", "SigPoolBeta", "SigPoolGamma"].map { try! RuntimeClass(name: $0) }
    objects =
      classes.flatMap { [RuntimeObject(class: $0), RuntimeObject(class: $0)] } + [RuntimeObject()]
    selectors = ["alpha", "beta:gamma:", "tableView:numberOfRowsInSection:", "x:"].map {
      Selector($0)
    }
    strings = ["", "hello", "ünïcødé ✓", "a longer string that is not a short one at all"].map {
      text in
      let utf8 = Array(text.utf8)
      let p = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count + 1)
      for (i, b) in utf8.enumerated() { p[i] = CChar(bitPattern: b) }
      p[utf8.count] = 0
      return p
    }
  }
}

/// A buffer an argument points at, which the callee may write through.
struct OutBuffer {
  var pointer: UnsafeMutableRawPointer
  var type: TypeEncoding
  var initial: [UInt8]

  func reset() {
    initial.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress!, byteCount: initial.count) }
  }
  var current: [UInt8] { Array(UnsafeRawBufferPointer(start: pointer, count: initial.count)) }
  var leafBytes: [UInt8] { Leaves.bytes(current, of: type) }
}

/// Makes random, valid values of any type: integers of every bit pattern, finite floating
/// point, 0/1 booleans, real object/class/selector/string handles (or nil), and — when
/// `realPointees` — real buffers behind data pointers so a callee can write through them.
final class ValueMaker {
  var rng: SplitMix64
  let realPointees: Bool
  private(set) var outBuffers: [OutBuffer] = []
  private var allocations: [UnsafeMutableRawPointer] = []
  private let pool = ValuePool.shared

  init(rng: SplitMix64, realPointees: Bool) {
    self.rng = rng
    self.realPointees = realPointees
  }

  deinit { for p in allocations { p.deallocate() } }

  /// A value of `type`: its leaves set, padding filled with junk (only leaves count).
  func value(of type: TypeEncoding) -> [UInt8] {
    let size = try! type.layout().size
    var bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    for (leaf, leafType) in Leaves.typed(type) {
      let v = leafValue(leaf, type: leafType)
      bytes.replaceSubrange(leaf.offset..<(leaf.offset + leaf.slotSize), with: v)
    }
    return bytes
  }

  private func leafValue(_ leaf: Leaf, type: TypeEncoding) -> [UInt8] {
    switch leaf.kind {
    case .signedInteger, .unsignedInteger:
      let special: [UInt64] = [
        0, 1, ~0, 0x80, 0x7F, 0x8000, 0x7FFF, 0x8000_0000, 0x7FFF_FFFF, 1 << 63,
      ]
      let bits = rng.chance(1, in: 4) ? special[rng.below(special.count)] : rng.next()
      return littleEndian(bits, count: leaf.slotSize)
    case .bool:
      return [UInt8(rng.next() & 1)]
    case .float:
      return withUnsafeBytes(of: randomFloat()) { Array($0) }
    case .double:
      return withUnsafeBytes(of: randomDouble()) { Array($0) }
    case .longDouble:
      return longDoubleBytes(randomDouble(), divideByThree: true)
    case .cString:
      if rng.chance(1, in: 10) { return littleEndian(0, count: 8) }
      return pointerBytes(UnsafeRawPointer(pool.strings[rng.below(pool.strings.count)]))
    case .object:
      if rng.chance(1, in: 10) { return littleEndian(0, count: 8) }
      return pointerBytes(pool.objects[rng.below(pool.objects.count)].rawValue)
    case .classObject:
      if rng.chance(1, in: 10) { return littleEndian(0, count: 8) }
      return pointerBytes(pool.classes[rng.below(pool.classes.count)].rawValue)
    case .selector:
      if rng.chance(1, in: 10) { return littleEndian(0, count: 8) }
      return pointerBytes(pool.selectors[rng.below(pool.selectors.count)].rawValue)
    case .pointer:
      if realPointees, case .pointer(let pointee) = type, Self.isWritablePointee(pointee) {
        let layout = try! pointee.layout()
        let p = UnsafeMutableRawPointer.allocate(
          byteCount: max(layout.size, 1), alignment: max(layout.alignment, 16))
        allocations.append(p)
        let initial = value(of: pointee)
        let buffer = OutBuffer(pointer: p, type: pointee, initial: initial)
        buffer.reset()
        outBuffers.append(buffer)
        return pointerBytes(UnsafeRawPointer(p))
      }
      // Never dereferenced: any bits, sometimes nil.
      if rng.chance(1, in: 10) { return littleEndian(0, count: 8) }
      return littleEndian(rng.next() & 0x0000_7FFF_FFFF_FFF8, count: 8)
    }
  }

  /// Whether a pointer to `pointee` is an out-parameter the C recorders write through
  /// (sized data without handles in it — the same rule as the generator's).
  static func isWritablePointee(_ pointee: TypeEncoding) -> Bool {
    switch pointee.unqualified {
    case .void, .unknown, .cString, .object, .block, .classObject, .selector, .pointer: return false
    case .structure(_, nil), .union(_, nil), .bitfield: return false
    default: return (try? pointee.layout()) != nil
    }
  }

  /// A finite float: all bit patterns but infinities and NaNs, or a special value.
  func randomFloat() -> Float {
    let special: [Float] = [
      0, -0.0, 1, -1.5, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1,
    ]
    if rng.chance(1, in: 5) { return special[rng.below(special.count)] }
    var bits = UInt32(truncatingIfNeeded: rng.next())
    if bits & 0x7F80_0000 == 0x7F80_0000 { bits &= ~0x0080_0000 }
    return Float(bitPattern: bits)
  }

  /// A finite double, as for `randomFloat`.
  func randomDouble() -> Double {
    let special: [Double] = [
      0, -0.0, 1, -2.25, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1,
    ]
    if rng.chance(1, in: 5) { return special[rng.below(special.count)] }
    var bits = rng.next()
    if bits & 0x7FF0_0000_0000_0000 == 0x7FF0_0000_0000_0000 { bits &= ~0x0010_0000_0000_0000 }
    return Double(bitPattern: bits)
  }
}

func littleEndian(_ value: UInt64, count: Int) -> [UInt8] {
  (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
}

func pointerBytes(_ p: UnsafeRawPointer) -> [UInt8] {
  littleEndian(UInt64(UInt(bitPattern: p)), count: 8)
}

func pointerBytes(_ p: OpaquePointer) -> [UInt8] { pointerBytes(UnsafeRawPointer(p)) }

/// The 16 bytes of a `long double` holding `value` (divided by 3 for a full mantissa).
func longDoubleBytes(_ value: Double, divideByThree: Bool) -> [UInt8] {
  #if arch(x86_64) || arch(i386)
    var x = Float80(value)
    if divideByThree { x /= 3 }
    var bytes = withUnsafeBytes(of: x) { Array($0.prefix(10)) }
    bytes += [UInt8](repeating: 0, count: 6)
    return bytes
  #else
    // IEEE binary128 from a double (exact); the division is skipped (no quad arithmetic).
    let bits = value.bitPattern
    let sign = bits >> 63
    let exponent = Int((bits >> 52) & 0x7FF)
    var fraction = bits & 0x000F_FFFF_FFFF_FFFF
    var high: UInt64
    var low: UInt64 = 0
    if exponent == 0 && fraction == 0 {
      high = sign << 63
    } else if exponent == 0 {
      // Subnormal double: normalise.
      var e = -1022
      while fraction & (1 << 52) == 0 {
        fraction <<= 1
        e -= 1
      }
      fraction &= ~(1 << 52)
      high = (sign << 63) | (UInt64(e + 16383) << 48) | (fraction >> 4)
      low = fraction << 60
    } else {
      high = (sign << 63) | (UInt64(exponent - 1023 + 16383) << 48) | (fraction >> 4)
      low = fraction << 60
    }
    return littleEndian(low, count: 8) + littleEndian(high, count: 8)
  #endif
}

/// Hex for failure messages.
func hex(_ bytes: [UInt8]) -> String {
  let digits = Array("0123456789abcdef")
  return bytes.map { "\(digits[Int($0 >> 4)])\(digits[Int($0 & 15)])" }.joined()
}

// MARK: - Expected records

/// The argument record a C recording IMP makes for the value `bytes` of `type`: leaf
/// bytes, with a top-level narrow integer widened to 8 bytes by its signedness.
func expectedCRecord(_ bytes: [UInt8], of type: TypeEncoding) -> [UInt8] {
  switch type.unqualified {
  case .char: return littleEndian(UInt64(bitPattern: Int64(Int8(bitPattern: bytes[0]))), count: 8)
  case .short:
    return littleEndian(
      UInt64(bitPattern: Int64(Int16(bitPattern: UInt16(bytes[0]) | UInt16(bytes[1]) << 8))),
      count: 8)
  case .unsignedChar, .bool: return littleEndian(UInt64(bytes[0]), count: 8)
  case .unsignedShort: return littleEndian(UInt64(bytes[0]) | UInt64(bytes[1]) << 8, count: 8)
  default: return Leaves.bytes(bytes, of: type)
  }
}

/// What a C recording IMP dereferences from the value `bytes` of `type`: a C string's
/// characters, an object's class name, a class's name, a selector's name — each
/// NUL-terminated, `~` for NULL.
func expectedDeref(_ bytes: [UInt8], of type: TypeEncoding) -> [UInt8] {
  var out: [UInt8] = []
  for leaf in Leaves.of(type)
  where [.cString, .object, .classObject, .selector].contains(leaf.kind) {
    let word = bytes[leaf.offset..<(leaf.offset + 8)].reversed().reduce(UInt64(0)) {
      $0 << 8 | UInt64($1)
    }
    let handle = OpaquePointer(bitPattern: UInt(word))
    let text: String?
    switch leaf.kind {
    case .cString:
      text = handle.map { String(cString: UnsafePointer<CChar>($0)) }
    case .object:
      text = handle.map { RuntimeObject.object(rawValue: $0)!.runtimeClass.name }
    case .classObject:
      text = handle.map { RuntimeClass.class(rawValue: $0)!.name }
    case .selector:
      text = handle.map { Selector(rawValue: $0).name }
    default:
      continue
    }
    out += Array((text ?? "~").utf8) + [0]
  }
  return out
}

// MARK: - Frames

/// Argument storage for one call: each argument 16-byte aligned, the pointer array libffi
/// wants (`ffiArguments`, self and _cmd first) and the tail C callers take
/// (`cArguments`, from argument 2); and a result buffer larger than any result.
final class ArgumentFrame {
  let signature: MethodSignature
  let ffiArguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  let result: UnsafeMutableRawPointer
  let resultCapacity: Int

  init(signature: MethodSignature) {
    self.signature = signature
    let n = signature.numberOfArguments
    ffiArguments = .allocate(capacity: n + 1)
    for i in 0..<n {
      let size = (signature.argumentLayouts[i].size + 15) & ~15
      let p = UnsafeMutableRawPointer.allocate(byteCount: max(size, 16), alignment: 16)
      p.initializeMemory(as: UInt8.self, repeating: 0, count: max(size, 16))
      ffiArguments[i] = p
    }
    ffiArguments[n] = nil
    resultCapacity = max(signature.returnBufferLength, 64) + 64
    result = .allocate(byteCount: resultCapacity, alignment: 16)
  }

  deinit {
    for i in 0..<signature.numberOfArguments { ffiArguments[i]!.deallocate() }
    ffiArguments.deallocate()
    result.deallocate()
  }

  /// The arguments from index 2, as `sc_call_N` takes them.
  var cArguments: UnsafePointer<UnsafeMutableRawPointer?> { UnsafePointer(ffiArguments + 2) }

  func set(_ index: Int, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes {
      ffiArguments[index]!.copyMemory(from: $0.baseAddress!, byteCount: bytes.count)
    }
  }

  func setReceiver(_ handle: OpaquePointer, _ selector: Selector) {
    ffiArguments[0]!.storeBytes(of: handle, as: OpaquePointer.self)
    ffiArguments[1]!.storeBytes(of: selector.rawValue, as: OpaquePointer.self)
  }

  /// Fills the result buffer with a junk pattern before a call.
  func clearResult() {
    result.initializeMemory(as: UInt8.self, repeating: 0xA5, count: resultCapacity)
  }

  /// The result's bytes (its type's size).
  var resultBytes: [UInt8] {
    Array(UnsafeRawBufferPointer(start: result, count: signature.returnLayout.size))
  }
}

// MARK: - The proxy

/// The forwarding proxy of the signature suites: it has no methods, answers every
/// selector with its target's signature and forwards by invoking the target — the
/// invocation is retargeted, so the target's IMP sees the target as `self`.
final class RetargetingProxy: ForwardingProxy, @unchecked Sendable {
  let target: RuntimeObject

  init(target: RuntimeObject) {
    self.target = target
    super.init()
  }

  override func methodSignature(for selector: Selector) -> MethodSignature? {
    target.methodSignature(for: selector)
  }

  override func forwardInvocation(_ invocation: Invocation) throws {
    try invocation.invoke(target: target)
  }
}

/// A selector taking `count` arguments, unique to `name`: `name:` followed by colons.
func selector(named name: String, arguments count: Int) -> Selector {
  Selector(count == 0 ? name : name + ":" + String(repeating: ":", count: count - 1))
}
