// TypeEncodingParser.swift — parsing Objective-C type encoding strings.
//
// The parser reads the UTF-8 bytes of the input and never traps: every malformed input
// ends in a TypeEncodingError that names the character where parsing stopped. It recurses
// once per nested pointer, array or aggregate, at most `maxDepth` levels deep.
//
// Rules for the ambiguous spots:
// - Qualifier letters (r n N o O R V) may precede any type; all of them before one type
//   merge into one `.qualified` node, so `Onri` and `rnOi` parse to the same value.
// - `@?` is always a block, never an object followed by `?`.
// - A struct or union name is everything between the bracket and the first `=` or
//   closing bracket (`}` for a struct, `)` for a union), spaces and non-ASCII included;
//   an empty name and `?` mean anonymous. `{name}` (no `=`) is an opaque aggregate.
// - A quoted field name may precede any field of a struct or union and is dropped.
//   A field list is "named" when its first field has a name.
// - `@"ClassName"` is an object whose class name is dropped. After `@`, a `"` starts a
//   class name unless the `@` ends a field of a named field list; there (as in clang's
//   ivar encodings, `{S="a"@"NSString""b"i}`) the quoted string is the class name only if
//   its closing quote is followed by another `"`, the closing bracket or the end of the
//   input, because a field name is always followed by a type; otherwise it is the name of
//   the next field and the `@` is a bare `id` (`{S="a"@"b"i}` has the fields `@` and `i`).
// - In a method type list, each type may be followed by an offset: an optional `-` or `+`
//   and digits, which are skipped (`v24@0:8@16`, `v@:@-8`).
// - Whitespace is never skipped; outside names it is an error.

extension TypeEncoding {
  /// Parses exactly one type (no trailing characters, no offsets).
  public init(parsing encoding: String) throws(TypeEncodingError) {
    self = try TypeEncodingParser.run(encoding) { (parser) throws(TypeEncodingParser.Failure) in
      let type = try parser.parseType(depth: 0, classNames: .always)
      if !parser.isAtEnd {
        throw TypeEncodingParser.Failure(offset: parser.index, reason: .trailingCharacters)
      }
      return type
    }
  }

  /// Parses a method type list as in `v24@0:8@16` or `v@:@`: return type first, then the
  /// arguments (self and _cmd included). Old-style offset digits after each type (and an
  /// optional leading '-' on them) are skipped. At least one type is required.
  ///
  /// A `+` (NeXT's register-argument mark) is accepted in place of the `-` as well.
  public static func parseMethodTypes(_ encoding: String) throws(TypeEncodingError)
    -> [TypeEncoding]
  {
    try TypeEncodingParser.run(encoding) { (parser) throws(TypeEncodingParser.Failure) in
      var types: [TypeEncoding] = []
      while !parser.isAtEnd {
        types.append(try parser.parseType(depth: 0, classNames: .always))
        try parser.skipOffset()
      }
      return types
    }
  }
}

/// A recursive-descent parser over the UTF-8 bytes of one encoding string.
struct TypeEncodingParser {
  /// The deepest nesting of pointers, arrays and aggregates accepted.
  static let maxDepth = 256
  /// The most digits an array count or bitfield width may have.
  static let maxDigits = 9

  /// A parse error with its position as a UTF-8 offset.
  struct Failure: Error {
    var offset: Int
    var reason: TypeEncodingError.Reason
  }

  /// Whether a `"` after `@` starts a class name.
  enum ClassNamePolicy {
    /// Always (outside named field lists).
    case always
    /// Only if the closing quote is followed by `"`, `closer` or the end of the input
    /// (the `@` may end a field of a named field list closed by `closer`).
    case unlessFieldName(closer: UInt8)
  }

  /// The input.
  let bytes: UnsafeBufferPointer<UInt8>
  /// The offset of the next byte to read.
  var index = 0

  /// True when all input has been read.
  var isAtEnd: Bool { index >= bytes.count }

  /// Runs `body` on a parser over the UTF-8 bytes of `encoding`, turning its failure into
  /// a ``TypeEncodingError`` with a character position. An empty input fails with `.empty`.
  static func run<T>(
    _ encoding: String, _ body: (inout TypeEncodingParser) throws(Failure) -> T
  ) throws(TypeEncodingError) -> T {
    var string = encoding
    let result: Result<T, Failure> = string.withUTF8 { buffer in
      if buffer.isEmpty {
        return .failure(Failure(offset: 0, reason: .empty))
      }
      var parser = TypeEncodingParser(bytes: buffer)
      return Result { () throws(Failure) -> T in try body(&parser) }
    }
    switch result {
    case .success(let value):
      return value
    case .failure(let failure):
      throw TypeEncodingError(
        encoding: encoding, utf8Offset: failure.offset, reason: failure.reason)
    }
  }

  /// Parses one type with its qualifiers at nesting level `depth`.
  mutating func parseType(depth: Int, classNames: ClassNamePolicy) throws(Failure)
    -> TypeEncoding
  {
    if depth > Self.maxDepth {
      throw Failure(offset: index, reason: .unsupported("nesting deeper than \(Self.maxDepth)"))
    }
    var qualifiers: TypeQualifiers = []
    while index < bytes.count, let qualifier = TypeQualifiers.qualifier(forCode: bytes[index]) {
      qualifiers.insert(qualifier)
      index += 1
    }
    let type = try parseUnqualifiedType(depth: depth, classNames: classNames)
    return qualifiers.isEmpty ? type : .qualified(qualifiers, type)
  }

  /// Parses one type without qualifiers.
  private mutating func parseUnqualifiedType(depth: Int, classNames: ClassNamePolicy)
    throws(Failure) -> TypeEncoding
  {
    guard index < bytes.count else {
      throw Failure(offset: index, reason: .unexpectedEnd(expected: "a type code"))
    }
    let start = index
    let code = bytes[index]
    index += 1
    switch code {
    case UInt8(ascii: "c"): return .char
    case UInt8(ascii: "C"): return .unsignedChar
    case UInt8(ascii: "s"): return .short
    case UInt8(ascii: "S"): return .unsignedShort
    case UInt8(ascii: "i"): return .int
    case UInt8(ascii: "I"): return .unsignedInt
    case UInt8(ascii: "l"): return .long
    case UInt8(ascii: "L"): return .unsignedLong
    case UInt8(ascii: "q"): return .longLong
    case UInt8(ascii: "Q"): return .unsignedLongLong
    case UInt8(ascii: "f"): return .float
    case UInt8(ascii: "d"): return .double
    case UInt8(ascii: "D"): return .longDouble
    case UInt8(ascii: "B"): return .bool
    case UInt8(ascii: "v"): return .void
    case UInt8(ascii: "*"): return .cString
    case UInt8(ascii: "#"): return .classObject
    case UInt8(ascii: ":"): return .selector
    case UInt8(ascii: "?"): return .unknown
    case UInt8(ascii: "@"):
      return try parseObject(classNames: classNames)
    case UInt8(ascii: "^"):
      // The pointee ends where the pointer does, so it keeps the class-name policy.
      return .pointer(try parseType(depth: depth + 1, classNames: classNames))
    case UInt8(ascii: "["):
      let count = try parseNumber()
      let element = try parseType(depth: depth + 1, classNames: .always)
      try expect(UInt8(ascii: "]"))
      return .array(count: count, element: element)
    case UInt8(ascii: "{"):
      let (name, fields) = try parseAggregate(closer: UInt8(ascii: "}"), depth: depth)
      return .structure(name: name, fields: fields)
    case UInt8(ascii: "("):
      let (name, fields) = try parseAggregate(closer: UInt8(ascii: ")"), depth: depth)
      return .union(name: name, fields: fields)
    case UInt8(ascii: "b"):
      return .bitfield(width: try parseNumber())
    default:
      index = start
      let character = self.character(at: start)
      if Self.isPunctuationOrSpace(code) {
        throw Failure(
          offset: start, reason: .unexpectedCharacter(character, expected: "a type code"))
      }
      throw Failure(offset: start, reason: .unknownTypeCode(character))
    }
  }

  /// Parses what follows `@`: `?` for a block, or an optional quoted class name.
  private mutating func parseObject(classNames: ClassNamePolicy) throws(Failure) -> TypeEncoding
  {
    guard index < bytes.count else { return .object }
    if bytes[index] == UInt8(ascii: "?") {
      index += 1
      return .block
    }
    guard bytes[index] == UInt8(ascii: "\"") else { return .object }
    switch classNames {
    case .always:
      try skipQuotedString()
    case .unlessFieldName(let closer):
      var end = index + 1
      while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
      if end >= bytes.count {
        try skipQuotedString()  // unterminated either way: report it
      }
      let next = end + 1
      if next >= bytes.count || bytes[next] == UInt8(ascii: "\"") || bytes[next] == closer {
        index = next  // a class name
      }
      // Otherwise the quoted string names the next field; leave it to the field loop.
    }
    return .object
  }

  /// Parses the rest of `{name=...}` or `(name=...)` after the opening bracket.
  private mutating func parseAggregate(closer: UInt8, depth: Int) throws(Failure)
    -> (name: String?, fields: [TypeEncoding]?)
  {
    let closerText = closer == UInt8(ascii: "}") ? "}" : ")"
    let nameStart = index
    while index < bytes.count, bytes[index] != UInt8(ascii: "="), bytes[index] != closer {
      index += 1
    }
    guard index < bytes.count else {
      throw Failure(offset: index, reason: .unexpectedEnd(expected: "'=' or '\(closerText)'"))
    }
    var name: String? = String(decoding: bytes[nameStart..<index], as: UTF8.self)
    if name == "" || name == "?" { name = nil }
    if bytes[index] == closer {
      index += 1
      return (name, nil)
    }
    index += 1  // "="

    let named = index < bytes.count && bytes[index] == UInt8(ascii: "\"")
    let policy: ClassNamePolicy = named ? .unlessFieldName(closer: closer) : .always
    var fields: [TypeEncoding] = []
    while true {
      guard index < bytes.count else {
        throw Failure(offset: index, reason: .unexpectedEnd(expected: closerText))
      }
      if bytes[index] == closer {
        index += 1
        return (name, fields)
      }
      if bytes[index] == UInt8(ascii: "\"") {
        try skipQuotedString()
      }
      fields.append(try parseType(depth: depth + 1, classNames: policy))
    }
  }

  /// Skips a `"..."` string starting at the current byte.
  private mutating func skipQuotedString() throws(Failure) {
    index += 1  // opening quote
    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += 1 }
    guard index < bytes.count else {
      throw Failure(offset: index, reason: .unexpectedEnd(expected: "\""))
    }
    index += 1  // closing quote
  }

  /// Parses a non-negative decimal number of 1 to `maxDigits` digits.
  private mutating func parseNumber() throws(Failure) -> Int {
    let start = index
    var value = 0
    while index < bytes.count, let digit = Self.digitValue(bytes[index]) {
      if index - start < Self.maxDigits {
        value = value * 10 + digit
      }
      index += 1
    }
    let digits = index - start
    guard digits > 0, digits <= Self.maxDigits else {
      index = start
      throw Failure(offset: start, reason: .invalidNumber)
    }
    return value
  }

  /// Skips an old-style offset after a type in a method type list: an optional sign
  /// (`-` or `+`, which must be followed by a digit) and any number of digits.
  mutating func skipOffset() throws(Failure) {
    guard index < bytes.count else { return }
    if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
      index += 1
      guard index < bytes.count, Self.digitValue(bytes[index]) != nil else {
        throw Failure(offset: index, reason: .invalidNumber)
      }
    }
    while index < bytes.count, Self.digitValue(bytes[index]) != nil { index += 1 }
  }

  /// Consumes `byte` or fails, naming it as expected.
  private mutating func expect(_ byte: UInt8) throws(Failure) {
    let expected = String(Unicode.Scalar(byte))
    guard index < bytes.count else {
      throw Failure(offset: index, reason: .unexpectedEnd(expected: expected))
    }
    guard bytes[index] == byte else {
      throw Failure(
        offset: index, reason: .unexpectedCharacter(character(at: index), expected: expected))
    }
    index += 1
  }

  /// The value of an ASCII digit, or nil.
  private static func digitValue(_ byte: UInt8) -> Int? {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
  }

  /// Whether a byte that is not a type code is structure or spacing (reported as an
  /// unexpected character) rather than something that looks like a type code.
  private static func isPunctuationOrSpace(_ byte: UInt8) -> Bool {
    if byte <= 0x20 || byte == 0x7F { return true }  // whitespace and control characters
    switch byte {
    case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "\""),
      UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return false
    }
  }

  /// The Unicode scalar starting at byte `offset` (always a scalar boundary here), as a
  /// character.
  private func character(at offset: Int) -> Character {
    var iterator = bytes[offset...].makeIterator()
    var decoder = UTF8()
    if case .scalarValue(let scalar) = decoder.decode(&iterator) {
      return Character(scalar)
    }
    return "\u{FFFD}"
  }
}
