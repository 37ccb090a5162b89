import MessageRuntime
// The standard library's reflection SPI, for `_forEachField(of:options:_:)`: the one way
// to list a struct type's stored properties with their offsets and types without an
// instance (Mirror needs a value). It is the API swift-testing and the Swift runtime's own
// tests use (stdlib/public/core/ReflectionMirror.swift, `@_spi(Reflection)`); if it
// changes, `DelegateValueType(_:)` stops compiling here rather than misreading layouts.
// RT6, RT7 and RT9 of CFFIShim/Core/include/dp_swift_runtime.h (with their tests).
@_spi(Reflection) import Swift

/// A Swift type as a parameter or result of a delegate protocol's method: its name and
/// its C form — the type encoding C callers and the runtime see — or the reason it has
/// none.
///
/// Derived from the Swift type at run time, once per protocol:
///
/// - `Void` is `v`; the library's `MessageArgument` types (integers, floating point,
///   `Bool`, pointers, `RuntimeObject`, your C-layout structs) keep their own encoding;
/// - a Swift class instance, optional or not, passes as itself: an opaque object
///   pointer (`^v`), nil as `NULL`;
/// - a struct of such values, nested structs included, is a C struct of its stored
///   properties in order (`{Reading=di}`), with C's padding: where Swift packs a field
///   into a nested struct's tail padding, values are converted field by field;
/// - anything else (enums, tuples, closures, existentials, `String`, arrays, optionals
///   of values, structs holding references) has no C form, and ``unsupportedReason``
///   says why.
package struct DelegateValueType: Sendable, CustomStringConvertible {
  /// The Swift type's name, as `String(reflecting:)` writes it.
  package let name: String
  /// The C form, nil when the type has none.
  package let encoding: TypeEncoding?
  /// Why the type has no C form (nil when it has one).
  package let unsupportedReason: String?
  /// How the Swift value's bytes become the C value's.
  let conversion: Conversion?
  /// Whether this is `Void`.
  package let isVoid: Bool
  /// Whether the type is an optional (`String?`, `Sensor?`).
  package let isOptional: Bool
  /// The Swift type's identity.
  let typeID: ObjectIdentifier
  /// The Swift type itself (package: DelegateProxyTesting's typed doubles read recorded
  /// arguments back as values of it).
  package let swiftType: Any.Type

  /// How a value moves between its Swift and C representations.
  enum Conversion: Sendable {
    /// The Swift bytes are the C bytes (the C value may be longer: its tail padding is
    /// zero).
    case bitwise(swiftSize: Int, cSize: Int)
    /// Leaf fields copied one by one (Swift and C offsets differ).
    case fields([FieldCopy], swiftSize: Int, cSize: Int)
    /// A Swift object reference, passed as its address (+0).
    case object
    /// A `MessageArgument`, through its own `load`/`store`.
    case messageArgument(any MessageArgument.Type)
  }

  /// One leaf's bytes: where they sit in the Swift value and in the C value.
  struct FieldCopy: Sendable, Equatable {
    var swiftOffset: Int
    var cOffset: Int
    var size: Int
  }

  /// Describes `type`.
  package init<T>(_ type: T.Type) {
    name = String(reflecting: type)
    isVoid = type == Void.self
    isOptional = type is any OptionalType.Type
    typeID = ObjectIdentifier(type)
    swiftType = type
    switch DelegateValueType.describe(type) {
    case .success(let (encoding, conversion)):
      self.encoding = encoding
      self.conversion = conversion
      unsupportedReason = nil
    case .failure(let reason):
      encoding = nil
      conversion = nil
      unsupportedReason = reason.text
    }
  }

  /// Whether a value passes to C as a Swift object's address (a class instance, optional
  /// or not).
  var passesAsObjectAddress: Bool {
    if case .object? = conversion { return true }
    return false
  }

  /// The encoding, e.g. `{Reading=di}`, or `<name>` for a type with no C form.
  package var description: String { encoding?.canonicalString ?? "<\(name)>" }

  struct Reason: Error { let text: String }

  /// The C form of `type`, or why it has none.
  static func describe(_ type: Any.Type) -> Result<(TypeEncoding, Conversion?), Reason> {
    if type == Void.self { return .success((.void, nil)) }
    if let argument = type as? any MessageArgument.Type {
      return .success((argument.typeEncoding, .messageArgument(argument)))
    }
    if type is AnyObject.Type { return .success((.pointer(.void), .object)) }
    if let pointer = pointerEncoding(type) {
      return .success((pointer, .bitwise(swiftSize: 8, cSize: 8)))
    }
    if let optional = type as? any OptionalType.Type {
      let wrapped = optional.wrappedType
      if wrapped is AnyObject.Type { return .success((.pointer(.void), .object)) }
      if let pointer = pointerEncoding(wrapped) {
        return .success((pointer, .bitwise(swiftSize: 8, cSize: 8)))
      }
      if let argument = wrapped as? any MessageArgument.Type,
        case let encoding = argument.typeEncoding.unqualified, encoding.isNullable
      {
        // A nullable C pointer: nil is NULL, the same bytes as the optional's.
        return .success((encoding, .bitwise(swiftSize: 8, cSize: 8)))
      }
      return .failure(
        Reason(text: "Optional<\(wrapped)> has no C form (only optional classes and pointers do)"))
    }
    switch MetadataKind(type) {
    case .structure: return describeStruct(type)
    case .enumeration:
      return .failure(Reason(text: "an enum has no C layout; pass its raw value instead"))
    case .tuple:
      return .failure(Reason(text: "a tuple has no C form; declare a struct instead"))
    case .function:
      return .failure(Reason(text: "a Swift closure has no C form"))
    case .existential:
      return .failure(
        Reason(text: "an existential (`any P`) has no C form; use a class-bound type"))
    case .other:
      return .failure(Reason(text: "\(type) has no C form"))
    }
  }

  /// A typed or raw pointer (`UnsafeMutablePointer<CGPoint>` → `^{CGPoint=dd}`; a
  /// pointee with no C form, or a raw pointer, → `^v`).
  private static func pointerEncoding(_ type: Any.Type) -> TypeEncoding? {
    if type == UnsafeRawPointer.self || type == UnsafeMutableRawPointer.self
      || type == OpaquePointer.self
    {
      return .pointer(.void)
    }
    guard let pointer = type as? any TypedPointer.Type else { return nil }
    let target = pointer.pointeeType
    if case .success(let (encoding, _)) = describe(target), encoding != .void {
      return .pointer(encoding)
    }
    return .pointer(.void)
  }

  /// A struct: its stored properties in order, each of which must have a bitwise C form.
  private static func describeStruct(_ type: Any.Type) -> Result<
    (TypeEncoding, Conversion?), Reason
  > {
    guard isPOD(type) else {
      return .failure(
        Reason(text: "\(type) holds references (classes, strings, arrays…), so it has no C layout"))
    }
    var fields: [(name: String, offset: Int, type: Any.Type)] = []
    _ = _forEachField(of: type, options: []) { name, offset, fieldType, _ in
      fields.append((String(cString: name), offset, fieldType))
      return true
    }
    if fields.isEmpty {
      return .failure(Reason(text: "\(type) has no stored properties; C has no empty structs"))
    }
    var encodings: [TypeEncoding] = []
    var leaves: [(swiftOffset: Int, copies: [FieldCopy])] = []
    for field in fields {
      switch describe(field.type) {
      case .failure(let reason):
        return .failure(Reason(text: "\(type).\(field.name): \(reason.text)"))
      case .success(let (encoding, conversion)):
        let copies: [FieldCopy]
        switch conversion {
        case .bitwise(let swiftSize, _)?:
          copies = [FieldCopy(swiftOffset: 0, cOffset: 0, size: swiftSize)]
        case .fields(let inner, _, _)?:
          copies = inner
        case .messageArgument(let argument)?
        where argument.representation == .bitwise:
          copies = [FieldCopy(swiftOffset: 0, cOffset: 0, size: sizeOf(argument))]
        default:
          return .failure(
            Reason(text: "\(type).\(field.name): \(field.type) cannot be copied into a C struct"))
        }
        encodings.append(encoding)
        leaves.append((field.offset, copies))
      }
    }
    let encoding = TypeEncoding.structure(name: shortName(type), fields: encodings)
    guard let layout = try? encoding.layout() else {
      return .failure(Reason(text: "\(type) has no C layout"))
    }
    var copies: [FieldCopy] = []
    for (i, leaf) in leaves.enumerated() {
      for c in leaf.copies {
        copies.append(
          FieldCopy(
            swiftOffset: leaf.swiftOffset + c.swiftOffset,
            cOffset: layout.fieldOffsets[i] + c.cOffset,
            size: c.size))
      }
    }
    let swiftSize = sizeOf(type)
    let merged = merge(copies)
    if merged.count == 1, merged[0] == FieldCopy(swiftOffset: 0, cOffset: 0, size: swiftSize) {
      return .success((encoding, .bitwise(swiftSize: swiftSize, cSize: layout.size)))
    }
    return .success((encoding, .fields(merged, swiftSize: swiftSize, cSize: layout.size)))
  }

  /// Joins copies that continue each other in both representations.
  private static func merge(_ copies: [FieldCopy]) -> [FieldCopy] {
    var out: [FieldCopy] = []
    for c in copies {
      if var last = out.last, last.swiftOffset + last.size == c.swiftOffset,
        last.cOffset + last.size == c.cOffset
      {
        last.size += c.size
        out[out.count - 1] = last
      } else {
        out.append(c)
      }
    }
    return out
  }

  private static func shortName(_ type: Any.Type) -> String {
    String(describing: type).split(separator: "<").first.map(String.init) ?? "\(type)"
  }

  private static func isPOD(_ type: Any.Type) -> Bool {
    func open<T>(_: T.Type) -> Bool { _isPOD(T.self) }
    return open(type)
  }

  private static func sizeOf(_ type: Any.Type) -> Int {
    func open<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
    return open(type)
  }

  // MARK: Values

  /// The C bytes of `value` (of this type), for reducers that work on C values.
  func cBytes<T>(of value: T) -> [UInt8]? {
    switch conversion {
    case .bitwise(let swiftSize, let cSize)?:
      var out = [UInt8](repeating: 0, count: cSize)
      withUnsafeBytes(of: value) { src in
        out.withUnsafeMutableBytes {
          $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[0..<swiftSize]))
        }
      }
      return out
    case .fields(let copies, _, let cSize)?:
      var out = [UInt8](repeating: 0, count: cSize)
      withUnsafeBytes(of: value) { src in
        out.withUnsafeMutableBytes { dst in
          for c in copies {
            (dst.baseAddress! + c.cOffset).copyMemory(
              from: src.baseAddress! + c.swiftOffset, byteCount: c.size)
          }
        }
      }
      return out
    case .object?:
      return withUnsafeBytes(of: value) { Array($0.prefix(8)) }
    case .messageArgument(let argument)?:
      guard let v = value as? any MessageArgument, type(of: v) == argument else { return nil }
      let size = (try? argument.typeEncoding.layout().size) ?? 0
      var out = [UInt8](repeating: 0, count: size)
      out.withUnsafeMutableBytes { v.store(to: $0.baseAddress!) }
      return out
    case nil:
      return nil
    }
  }

  /// The Swift value whose C form is `bytes` (a recorded argument, a result), when `T` is
  /// the type this describes and `bytes` is its C size; nil otherwise, and for a class
  /// instance, whose C form is its unretained address.
  package func swiftValue<T>(fromC bytes: [UInt8], as type: T.Type = T.self) -> T? {
    guard DelegateValueType(T.self).name == name, let encoding,
      (try? encoding.layout().size) == bytes.count
    else { return nil }
    return value(fromC: bytes, as: T.self)
  }

  /// The Swift value whose C form is `bytes`, as `Any`, for a type with a C form other
  /// than a reference — a Swift class instance (an unretained address) or a runtime
  /// object or class (a handle, which may be nil or stale) — nil otherwise (package:
  /// DelegateProxyTesting's typed doubles, reading what a C caller passed).
  package func anyValue(fromC bytes: [UInt8]) -> Any? {
    guard let encoding, (try? encoding.layout().size) == bytes.count else { return nil }
    if case .messageArgument(let argument)? = conversion,
      argument is RuntimeObject.Type || argument is RuntimeClass.Type
    {
      return nil
    }
    func open<T>(_: T.Type) -> Any? { value(fromC: bytes, as: T.self) }
    return open(swiftType)
  }

  /// The Swift value whose C bytes are `bytes`.
  func value<T>(fromC bytes: [UInt8], as: T.Type) -> T? {
    switch conversion {
    case .bitwise(let swiftSize, _)?:
      return withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { slot in
        let raw = UnsafeMutableRawPointer(slot.baseAddress!)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<T>.size)
        bytes.withUnsafeBytes { raw.copyMemory(from: $0.baseAddress!, byteCount: swiftSize) }
        return slot.baseAddress!.move()
      }
    case .fields(let copies, _, _)?:
      return withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { slot in
        let raw = UnsafeMutableRawPointer(slot.baseAddress!)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<T>.size)
        bytes.withUnsafeBytes { src in
          for c in copies {
            (raw + c.swiftOffset).copyMemory(from: src.baseAddress! + c.cOffset, byteCount: c.size)
          }
        }
        return slot.baseAddress!.move()
      }
    case .messageArgument(let argument)?:
      return bytes.withUnsafeBytes { argument.load(from: $0.baseAddress!) } as? T
    case .object?, nil:
      return nil
    }
  }
}

private func sizeOf(_ argument: any MessageArgument.Type) -> Int {
  func open<T: MessageArgument>(_: T.Type) -> Int { MemoryLayout<T>.size }
  return open(argument)
}

/// A typed pointer, seen through its pointee's type.
protocol TypedPointer {
  static var pointeeType: Any.Type { get }
}

extension UnsafePointer: TypedPointer where Pointee: Copyable {
  static var pointeeType: Any.Type { Pointee.self }
}

extension UnsafeMutablePointer: TypedPointer where Pointee: Copyable {
  static var pointeeType: Any.Type { Pointee.self }
}

extension TypeEncoding {
  /// Whether a zero value of this type means "none" (pointers, objects, selectors).
  fileprivate var isNullable: Bool {
    switch self {
    case .pointer, .cString, .object, .block, .classObject, .selector: true
    default: false
    }
  }
}

/// The kind of a type's runtime metadata (the first word of its metadata record).
enum MetadataKind {
  case structure, enumeration, tuple, function, existential, other

  init(_ type: Any.Type) {
    // The Swift ABI's metadata kinds: struct 0x200, enum 0x201, optional 0x202,
    // tuple 0x301, function 0x302, existential 0x303 — the `MetadataKind` values of the
    // stable ABI (swift/include/swift/ABI/MetadataKind.def, documented in
    // docs/ABI/TypeMetadata.rst: "the kind is the first pointer-sized word of every
    // metadata record"). No public API tells a tuple or function type from a struct
    // without a value. A class's first word is its isa pointer, which is larger than
    // every kind (classes are handled before this).
    let kind = unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee
    switch kind {
    case 0x200: self = .structure
    case 0x201, 0x202: self = .enumeration
    case 0x301: self = .tuple
    case 0x302: self = .function
    case 0x303: self = .existential
    default: self = .other
    }
  }
}
