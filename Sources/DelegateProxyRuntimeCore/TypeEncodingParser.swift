// TypeEncodingParser.swift — parsing Objective-C type encoding strings.
//
// The parser reads the UTF-8 bytes of the input and never traps: every malformed input
// ends in a TypeEncodingError that names the character where parsing stopped. It does not
// recurse: the pointers, arrays and aggregates around the type being read are kept on an
// explicit stack, at most `maxDepth` deep, so no input can exhaust the call stack (and
// every value it returns is shallow enough for the recursive operations on it).
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
//   class name unless the `@` ends a field of a named field list (directly or under
//   pointers); there (as in clang's ivar encodings, `{S="a"@"NSString""b"i}`) the quoted
//   string is the class name only if its closing quote is followed by another `"`, the
//   closing bracket or the end of the input, because a field name is always followed by
//   a type; otherwise it is the name of the next field and the `@` is a bare `id`
//   (`{S="a"@"b"i}` has the fields `@` and `i`).
// - In a method type list, each type may be followed by an offset: an optional `-` or `+`
//   and digits, which are skipped (`v24@0:8@16`, `v@:@-8`).
// - Whitespace is never skipped; outside names it is an error.
// - Numbers (array counts, bitfield widths) have 1 to 9 digits; offsets in method type
//   lists are skipped whatever their length.

extension TypeEncoding {
  /// Parses exactly one type (no trailing characters, no offsets).
  public init(parsing encoding: String) throws(TypeEncodingError) {
    self = try TypeEncodingParser.run(encoding) { (parser) throws(TypeEncodingParser.Failure) in
      let type = try parser.parseType()
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
  @_spi(Validation) public static func parseMethodTypes(_ encoding: String)
    throws(TypeEncodingError)
    -> [TypeEncoding]
  {
    try TypeEncodingParser.run(encoding) { (parser) throws(TypeEncodingParser.Failure) in
      var types: [TypeEncoding] = []
      while !parser.isAtEnd {
        types.append(try parser.parseType())
        try parser.skipOffset()
      }
      return types
    }
  }
}

/// A parser over the UTF-8 bytes of one encoding string, iterative with an explicit stack.
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

  /// A pointer, array or aggregate whose pointee, element or fields are being parsed.
  struct Frame {
    /// What the frame builds.
    enum Kind {
      case pointer, array, structure, union
    }

    /// What the frame builds.
    var kind: Kind
    /// The qualifiers written before the type this frame builds.
    var qualifiers: TypeQualifiers
    /// The element count of an array.
    var count = 0
    /// The name of an aggregate (nil when anonymous).
    var name: String? = nil
    /// The fields of an aggregate parsed so far.
    var fields: [TypeEncoding] = []
    /// Whether the aggregate's field list has field names (its first field has one).
    var named = false

    /// The byte that closes an aggregate.
    var closer: UInt8 { kind == .union ? UInt8(ascii: ")") : UInt8(ascii: "}") }

    /// The struct or union this frame builds, with the given name and fields.
    func aggregate(name: String?, fields: [TypeEncoding]?) -> TypeEncoding {
      kind == .union ? .union(name: name, fields: fields) : .structure(name: name, fields: fields)
    }
  }

  /// The input.
  let bytes: UnsafeBufferPointer<UInt8>
  /// The offset of the next byte to read.
  var index = 0
  /// The constructs enclosing the type being parsed, innermost last.
  private var stack: [Frame] = []

  /// Creates a parser at the start of `bytes`.
  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

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

  /// Parses one complete type with its qualifiers, nested at most `maxDepth` levels.
  mutating func parseType() throws(Failure) -> TypeEncoding {
    stack.removeAll(keepingCapacity: true)
    nextType: while true {
      // The start of a type nested `stack.count` levels deep.
      if stack.count > Self.maxDepth {
        throw Failure(offset: index, reason: .unsupported("nesting deeper than \(Self.maxDepth)"))
      }
      let qualifiers = parseQualifiers()
      guard index < bytes.count else {
        throw Failure(offset: index, reason: .unexpectedEnd(expected: "a type code"))
      }
      let start = index
      let code = bytes[index]
      index += 1

      var value: TypeEncoding
      if let scalar = Self.scalar(forCode: code) {
        value = Self.qualify(scalar, qualifiers)
      } else {
        switch code {
        case UInt8(ascii: "@"):
          value = Self.qualify(try parseObject(), qualifiers)
        case UInt8(ascii: "^"):
          stack.append(Frame(kind: .pointer, qualifiers: qualifiers))
          continue nextType
        case UInt8(ascii: "["):
          let count = try parseNumber()
          stack.append(Frame(kind: .array, qualifiers: qualifiers, count: count))
          continue nextType
        case UInt8(ascii: "{"), UInt8(ascii: "("):
          var frame = Frame(
            kind: code == UInt8(ascii: "{") ? .structure : .union, qualifiers: qualifiers)
          let (name, opaque) = try parseAggregateName(closer: frame.closer)
          if opaque {
            value = Self.qualify(frame.aggregate(name: name, fields: nil), qualifiers)
          } else {
            frame.name = name
            frame.named = index < bytes.count && bytes[index] == UInt8(ascii: "\"")
            stack.append(frame)
            guard let finished = try closeAggregateOrSkipFieldName() else { continue nextType }
            value = finished  // already qualified
          }
        case UInt8(ascii: "b"):
          value = Self.qualify(.bitfield(width: try parseNumber()), qualifiers)
        default:
          throw unknownCode(at: start)
        }
      }

      // Complete the enclosing constructs that this value completes.
      // (The top frame is not copied out: that would copy its field list on each append.)
      while let kind = stack.last?.kind {
        switch kind {
        case .pointer:
          let frame = stack.removeLast()
          value = Self.qualify(.pointer(value), frame.qualifiers)
        case .array:
          let frame = stack.removeLast()
          try expect(UInt8(ascii: "]"))
          value = Self.qualify(.array(count: frame.count, element: value), frame.qualifiers)
        case .structure, .union:
          stack[stack.count - 1].fields.append(value)
          guard let finished = try closeAggregateOrSkipFieldName() else { continue nextType }
          value = finished
        }
      }
      return value
    }
  }

  /// Reads the qualifier letters at the current position.
  private mutating func parseQualifiers() -> TypeQualifiers {
    var qualifiers: TypeQualifiers = []
    while index < bytes.count, let qualifier = TypeQualifiers.qualifier(forCode: bytes[index]) {
      qualifiers.insert(qualifier)
      index += 1
    }
    return qualifiers
  }

  /// The types written as a single character, indexed by ASCII code.
  private static let scalars: [TypeEncoding?] = {
    var table = [TypeEncoding?](repeating: nil, count: 128)
    let pairs: [(Unicode.Scalar, TypeEncoding)] = [
      ("c", .char), ("C", .unsignedChar), ("s", .short), ("S", .unsignedShort), ("i", .int),
      ("I", .unsignedInt), ("l", .long), ("L", .unsignedLong), ("q", .longLong),
      ("Q", .unsignedLongLong), ("f", .float), ("d", .double), ("D", .longDouble),
      ("B", .bool), ("v", .void), ("*", .cString), ("#", .classObject), (":", .selector),
      ("?", .unknown),
    ]
    for (code, type) in pairs {
      table[Int(code.value)] = type
    }
    return table
  }()

  /// The type written as the single character `code`, if there is one (`@` is not: it
  /// may be followed by `?` or a class name).
  private static func scalar(forCode code: UInt8) -> TypeEncoding? {
    code < 128 ? scalars[Int(code)] : nil
  }

  /// `type` with `qualifiers` in front, or `type` itself when there are none.
  private static func qualify(_ type: TypeEncoding, _ qualifiers: TypeQualifiers)
    -> TypeEncoding
  {
    qualifiers.isEmpty ? type : .qualified(qualifiers, type)
  }

  /// The failure for the byte at `offset`, which cannot start a type.
  private func unknownCode(at offset: Int) -> Failure {
    let character = self.character(at: offset)
    if Self.isPunctuationOrSpace(bytes[offset]) {
      return Failure(
        offset: offset, reason: .unexpectedCharacter(character, expected: "a type code"))
    }
    return Failure(offset: offset, reason: .unknownTypeCode(character))
  }

  /// The closing bracket of the named field list whose field an `@` read now would end
  /// (through pointers only), or nil if a `"` after it always starts a class name.
  private func namedFieldListCloser() -> UInt8? {
    for frame in stack.reversed() {
      switch frame.kind {
      case .pointer: continue
      case .array: return nil
      case .structure, .union: return frame.named ? frame.closer : nil
      }
    }
    return nil
  }

  /// Parses what follows `@`: `?` for a block, or an optional quoted class name.
  private mutating func parseObject() throws(Failure) -> TypeEncoding {
    guard index < bytes.count else { return .object }
    if bytes[index] == UInt8(ascii: "?") {
      index += 1
      return .block
    }
    guard bytes[index] == UInt8(ascii: "\"") else { return .object }
    guard let closer = namedFieldListCloser() else {
      try skipQuotedString()
      return .object
    }
    var end = index + 1
    while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
    if end >= bytes.count {
      try skipQuotedString()  // unterminated, class name or field name: report it
    }
    let next = end + 1
    if next >= bytes.count || bytes[next] == UInt8(ascii: "\"") || bytes[next] == closer {
      index = next  // a class name
    }
    // Otherwise the quoted string names the next field; the field loop skips it.
    return .object
  }

  /// Parses an aggregate's name after its opening bracket, up to and including the `=`,
  /// or the closing bracket of an opaque `{name}` (then `opaque` is true).
  private mutating func parseAggregateName(closer: UInt8) throws(Failure)
    -> (name: String?, opaque: Bool)
  {
    let nameStart = index
    while index < bytes.count, bytes[index] != UInt8(ascii: "="), bytes[index] != closer {
      index += 1
    }
    guard index < bytes.count else {
      let closerText = String(Unicode.Scalar(closer))
      throw Failure(offset: index, reason: .unexpectedEnd(expected: "'=' or '\(closerText)'"))
    }
    var name: String? = String(decoding: bytes[nameStart..<index], as: UTF8.self)
    if name == "" || name == "?" { name = nil }
    let opaque = bytes[index] == closer
    index += 1
    return (name, opaque)
  }

  /// At a field boundary of the aggregate on top of the stack: if its closing bracket
  /// follows, consumes it, pops the frame and returns the finished (qualified) aggregate;
  /// otherwise skips an optional quoted field name and returns nil (a field follows).
  private mutating func closeAggregateOrSkipFieldName() throws(Failure) -> TypeEncoding? {
    let closer = stack[stack.count - 1].closer
    guard index < bytes.count else {
      throw Failure(
        offset: index, reason: .unexpectedEnd(expected: String(Unicode.Scalar(closer))))
    }
    if bytes[index] == closer {
      index += 1
      let frame = stack.removeLast()
      return Self.qualify(
        frame.aggregate(name: frame.name, fields: frame.fields), frame.qualifiers)
    }
    if bytes[index] == UInt8(ascii: "\"") {
      try skipQuotedString()
    }
    return nil
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
      UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "+"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
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
