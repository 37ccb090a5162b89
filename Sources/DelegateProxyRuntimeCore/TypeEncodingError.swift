// TypeEncodingError.swift — the one error type of TypeEncoding's parser and layout.

/// A malformed or unsupported type encoding: which string, where, and why.
public struct TypeEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Why an encoding was rejected.
  public enum Reason: Sendable, Hashable {
    /// There was nothing to parse.
    case empty
    /// The input ended where `expected` was required (e.g. `"}"`, or `"a type code"`).
    case unexpectedEnd(expected: String)
    /// A character appeared where `expected` was required (whitespace, a stray bracket, …).
    case unexpectedCharacter(Character, expected: String)
    /// A character in a type position is not a known type code.
    case unknownTypeCode(Character)
    /// An array count, bitfield width or offset is missing or has more than 9 digits.
    case invalidNumber
    /// `init(parsing:)` found characters after the one complete type.
    case trailingCharacters
    /// The encoding is well formed but cannot be handled (the payload says what:
    /// bitfields, opaque aggregates or `?`/`void` by value, too deep nesting, …).
    case unsupported(String)
  }

  /// The whole input string (for layout errors, the canonical string of the type).
  public let encoding: String
  /// The 0-based character offset of the problem in ``encoding`` (its length at its end).
  public let position: Int
  /// Why the encoding was rejected.
  public let reason: Reason

  /// Creates an error for `encoding` at character offset `position`.
  package init(encoding: String, position: Int, reason: Reason) {
    self.encoding = encoding
    self.position = position
    self.reason = reason
  }

  /// The reason, the position and the quoted input, e.g.
  /// `expected '}' at 11 in "{CGPoint=dd"`.
  public var description: String {
    "\(reasonDescription) at \(position) in \(encoding.debugDescription)"
  }

  /// The reason alone, in words.
  private var reasonDescription: String {
    switch reason {
    case .empty:
      return "empty type encoding"
    case .unexpectedEnd(let expected):
      return "expected \(Self.describe(expected: expected))"
    case .unexpectedCharacter(let character, let expected):
      return
        "unexpected character \(Self.quote(character)), expected \(Self.describe(expected: expected))"
    case .unknownTypeCode(let character):
      return "unknown type code \(Self.quote(character))"
    case .invalidNumber:
      return "missing or invalid number"
    case .trailingCharacters:
      return "unexpected trailing characters"
    case .unsupported(let what):
      return "\(what) not supported"
    }
  }

  /// A single expected character is quoted (`'}'`); a phrase is left as it is.
  private static func describe(expected: String) -> String {
    expected.count == 1 ? quote(expected.first!) : expected
  }

  /// A character in single quotes, with control characters and quotes escaped.
  private static func quote(_ character: Character) -> String {
    var text = "'"
    for scalar in character.unicodeScalars {
      text += scalar.escaped(asASCII: false)
    }
    return text + "'"
  }
}

extension TypeEncodingError {
  /// Creates an error whose position is given as a UTF-8 offset into `encoding`.
  init(encoding: String, utf8Offset: Int, reason: Reason) {
    self.init(
      encoding: encoding,
      position: Self.characterOffset(in: encoding, utf8Offset: utf8Offset),
      reason: reason)
  }

  /// The index of the character that contains the byte at `utf8Offset` (the character
  /// count when the offset is at or past the end).
  static func characterOffset(in string: String, utf8Offset: Int) -> Int {
    var position = 0
    var consumed = 0
    for character in string {
      let length = character.utf8.count
      if consumed + length > utf8Offset { return position }
      consumed += length
      position += 1
    }
    return position
  }
}
