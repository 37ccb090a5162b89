// TypeEncoding.swift — Objective-C type encodings (`@encode`) as Swift values.
//
// The parser lives in TypeEncodingParser.swift, the C ABI layout in TypeLayout.swift and
// the error type in TypeEncodingError.swift.

/// Objective-C method type qualifiers (r n N o O R V).
///
/// In an encoding string they are letters written before a type, as in `r*`
/// (`const char *`) or `Vv` (`oneway void`).
public struct TypeQualifiers: OptionSet, Sendable, Hashable {
  /// The qualifier bits, one per letter in the order r n N o O R V.
  public let rawValue: UInt8

  /// Creates a qualifier set from its raw bits.
  public init(rawValue: UInt8) {
    self.rawValue = rawValue
  }

  /// `const`, encoded `r`.
  public static let const = TypeQualifiers(rawValue: 1 << 0)
  /// `in`, encoded `n`.
  public static let `in` = TypeQualifiers(rawValue: 1 << 1)
  /// `inout`, encoded `N`.
  public static let `inout` = TypeQualifiers(rawValue: 1 << 2)
  /// `out`, encoded `o`.
  public static let out = TypeQualifiers(rawValue: 1 << 3)
  /// `bycopy`, encoded `O`.
  public static let bycopy = TypeQualifiers(rawValue: 1 << 4)
  /// `byref`, encoded `R`.
  public static let byref = TypeQualifiers(rawValue: 1 << 5)
  /// `oneway`, encoded `V`.
  public static let oneway = TypeQualifiers(rawValue: 1 << 6)

  /// The qualifier letters as ASCII bytes, in canonical order (bit i ↔ letter i).
  static let codes: [UInt8] = Array("rnNoORV".utf8)

  /// The qualifier for one encoding letter, or nil if the byte is not a qualifier.
  static func qualifier(forCode byte: UInt8) -> TypeQualifiers? {
    guard let bit = codes.firstIndex(of: byte) else { return nil }
    return TypeQualifiers(rawValue: 1 << UInt8(bit))
  }

  /// The letters of this set in the canonical order r n N o O R V (unknown bits are ignored).
  var canonicalCodes: String {
    var result = ""
    for (bit, code) in Self.codes.enumerated() where rawValue & (1 << UInt8(bit)) != 0 {
      result.unicodeScalars.append(Unicode.Scalar(code))
    }
    return result
  }
}

/// One Objective-C type encoding (`@encode`), parsed or built.
///
/// Values made by the parser are in a normal form: qualifiers are merged into one
/// non-empty ``qualified(_:_:)`` node that never directly wraps another, and anonymous
/// aggregates have a `nil` name. For such values ``canonicalString`` parses back to an
/// equal value. A built value outside that form still has a canonical string, but it
/// may parse to a different (normalized) value; names containing `=` or the aggregate's
/// closing bracket, negative counts, and an ``object`` field directly followed by an
/// ``unknown`` one (which reads back as `@?`, a ``block``) cannot be written at all.
public indirect enum TypeEncoding: Sendable, Hashable, CustomStringConvertible {
  /// `char` or `signed char`, encoded `c`.
  case char
  /// `unsigned char`, encoded `C`.
  case unsignedChar
  /// `short`, encoded `s`.
  case short
  /// `unsigned short`, encoded `S`.
  case unsignedShort
  /// `int`, encoded `i`.
  case int
  /// `unsigned int`, encoded `I`.
  case unsignedInt
  /// A 32-bit `long`, encoded `l` (4 bytes even on LP64, where C `long` encodes as `q`).
  case long
  /// A 32-bit `unsigned long`, encoded `L` (4 bytes even on LP64).
  case unsignedLong
  /// `long long` (and `long` on LP64), encoded `q`.
  case longLong
  /// `unsigned long long` (and `unsigned long` on LP64), encoded `Q`.
  case unsignedLongLong
  /// `float`, encoded `f`.
  case float
  /// `double`, encoded `d`.
  case double
  /// `long double`, encoded `D` (16 bytes, 16-aligned on x86-64 and AArch64 Linux).
  case longDouble
  /// C `_Bool` (Objective-C `BOOL` on some platforms), encoded `B`.
  case bool
  /// `void`, encoded `v`; only meaningful as a return type or under a pointer.
  case void
  /// A C string, `char *`, encoded `*`.
  case cString
  /// An object pointer, `id`, encoded `@` (`@"ClassName"` also parses to this).
  case object
  /// A block pointer, encoded `@?`.
  case block
  /// A class object, `Class`, encoded `#`.
  case classObject
  /// A selector, `SEL`, encoded `:`.
  case selector
  /// An unknown type, encoded `?`; it has no size and is only meaningful as `^?`.
  case unknown
  /// A pointer to a type, encoded `^T`.
  case pointer(TypeEncoding)
  /// A C array of `count` elements, encoded `[NT]`.
  case array(count: Int, element: TypeEncoding)
  /// A struct, encoded `{name=T...}`; `fields` is nil for an opaque `{name}`, `name` is
  /// nil for an anonymous struct (`?` or empty in the encoding).
  case structure(name: String?, fields: [TypeEncoding]?)
  /// A union, encoded `(name=T...)`; `fields` and `name` as for ``structure(name:fields:)``.
  case union(name: String?, fields: [TypeEncoding]?)
  /// A bitfield of `width` bits, encoded `bN`; it parses but has no layout.
  case bitfield(width: Int)
  /// A type with method type qualifiers written before it, as in `r*` or `Vv`.
  case qualified(TypeQualifiers, TypeEncoding)

  /// The canonical encoding string: no offsets, no quoted field/class names, anonymous
  /// aggregates named "?", qualifiers in the fixed order r n N o O R V. Parsing it gives back an equal value.
  public var canonicalString: String {
    var result = ""
    writeCanonical(into: &result)
    return result
  }

  /// The canonical encoding string, the same as ``canonicalString``.
  public var description: String {
    canonicalString
  }

  /// The type without qualifiers at any level (what the ABI sees).
  package var unqualified: TypeEncoding {
    switch self {
    case .qualified(_, let inner):
      return inner.unqualified
    case .pointer(let pointee):
      return .pointer(pointee.unqualified)
    case .array(let count, let element):
      return .array(count: count, element: element.unqualified)
    case .structure(let name, let fields):
      return .structure(name: name, fields: fields?.map(\.unqualified))
    case .union(let name, let fields):
      return .union(name: name, fields: fields?.map(\.unqualified))
    default:
      return self
    }
  }

  /// The one-character code of a type without components, or nil for the others.
  var scalarCode: String? {
    switch self {
    case .char: "c"
    case .unsignedChar: "C"
    case .short: "s"
    case .unsignedShort: "S"
    case .int: "i"
    case .unsignedInt: "I"
    case .long: "l"
    case .unsignedLong: "L"
    case .longLong: "q"
    case .unsignedLongLong: "Q"
    case .float: "f"
    case .double: "d"
    case .longDouble: "D"
    case .bool: "B"
    case .void: "v"
    case .cString: "*"
    case .object: "@"
    case .block: "@?"
    case .classObject: "#"
    case .selector: ":"
    case .unknown: "?"
    case .pointer, .array, .structure, .union, .bitfield, .qualified: nil
    }
  }

  /// The name an aggregate is written with: its own, or "?" when anonymous.
  static func canonicalName(_ name: String?) -> String {
    guard let name, !name.isEmpty else { return "?" }
    return name
  }

  /// Appends the canonical encoding of this type to `output`.
  func writeCanonical(into output: inout String) {
    if let code = scalarCode {
      output += code
      return
    }
    switch self {
    case .pointer(let pointee):
      output += "^"
      pointee.writeCanonical(into: &output)
    case .array(let count, let element):
      output += "["
      output += String(count)
      element.writeCanonical(into: &output)
      output += "]"
    case .structure(let name, let fields):
      Self.writeAggregate(name: name, fields: fields, open: "{", close: "}", into: &output)
    case .union(let name, let fields):
      Self.writeAggregate(name: name, fields: fields, open: "(", close: ")", into: &output)
    case .bitfield(let width):
      output += "b"
      output += String(width)
    case .qualified(let qualifiers, let inner):
      output += qualifiers.canonicalCodes
      inner.writeCanonical(into: &output)
    default:
      break  // every other case has a scalar code
    }
  }

  /// Appends `{name=fields}` / `(name=fields)`, or `{name}` when the fields are unknown.
  private static func writeAggregate(
    name: String?, fields: [TypeEncoding]?, open: String, close: String,
    into output: inout String
  ) {
    output += open
    output += canonicalName(name)
    if let fields {
      output += "="
      for field in fields {
        field.writeCanonical(into: &output)
      }
    }
    output += close
  }
}
