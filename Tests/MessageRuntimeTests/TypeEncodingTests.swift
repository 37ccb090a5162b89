// TypeEncodingTests.swift — parsing, canonical strings, errors and C ABI layout of
// Objective-C type encodings.

import DelegateProxyCTestSupport
@_spi(Validation) import MessageRuntime
import Testing

// MARK: - Test data

/// The tables and helpers of these tests, in one namespace so that nothing clashes with
/// other test files of the module.
private enum TypeEncodingFixtures {

  /// A type code with the value it parses to and its layout (nil: none by value).
  struct ScalarCase: Sendable, CustomTestStringConvertible {
    var code: String
    var type: TypeEncoding
    var size: Int?
    var alignment: Int?
    var testDescription: String { code }
  }

  /// A valid encoding with its value, canonical string and layout (nil: throws .unsupported).
  struct ValidCase: Sendable, CustomTestStringConvertible {
    var input: String
    var type: TypeEncoding
    var canonical: String
    var layout: TypeLayout?
    var testDescription: String { input }
  }

  /// A method type list with its values.
  struct MethodCase: Sendable, CustomTestStringConvertible {
    var input: String
    var types: [TypeEncoding]
    var testDescription: String { input }
  }

  /// A malformed encoding with where and why it fails.
  struct MalformedCase: Sendable, CustomTestStringConvertible {
    enum Entry: Sendable { case single, methodTypes, both }
    var input: String
    var entry: Entry
    var position: Int
    var reason: TypeEncodingError.Reason
    var testDescription: String { input.debugDescription }
  }

  /// A type whose layout fails, with where (in its canonical string) and why.
  struct LayoutFailureCase: Sendable, CustomTestStringConvertible {
    var input: String
    var position: Int
    var reason: TypeEncodingError.Reason
    var testDescription: String { input }
  }

  static let point = TypeEncoding.structure(name: "CGPoint", fields: [.double, .double])
  static let size = TypeEncoding.structure(name: "CGSize", fields: [.double, .double])
  static let rect = TypeEncoding.structure(name: "CGRect", fields: [point, size])

  static let scalarCases: [ScalarCase] = [
    ScalarCase(code: "c", type: .char, size: 1, alignment: 1),
    ScalarCase(code: "C", type: .unsignedChar, size: 1, alignment: 1),
    ScalarCase(code: "s", type: .short, size: 2, alignment: 2),
    ScalarCase(code: "S", type: .unsignedShort, size: 2, alignment: 2),
    ScalarCase(code: "i", type: .int, size: 4, alignment: 4),
    ScalarCase(code: "I", type: .unsignedInt, size: 4, alignment: 4),
    ScalarCase(code: "l", type: .long, size: 4, alignment: 4),
    ScalarCase(code: "L", type: .unsignedLong, size: 4, alignment: 4),
    ScalarCase(code: "q", type: .longLong, size: 8, alignment: 8),
    ScalarCase(code: "Q", type: .unsignedLongLong, size: 8, alignment: 8),
    ScalarCase(code: "f", type: .float, size: 4, alignment: 4),
    ScalarCase(code: "d", type: .double, size: 8, alignment: 8),
    ScalarCase(code: "D", type: .longDouble, size: 16, alignment: 16),
    ScalarCase(code: "B", type: .bool, size: 1, alignment: 1),
    ScalarCase(code: "v", type: .void, size: nil, alignment: nil),
    ScalarCase(code: "*", type: .cString, size: 8, alignment: 8),
    ScalarCase(code: "@", type: .object, size: 8, alignment: 8),
    ScalarCase(code: "@?", type: .block, size: 8, alignment: 8),
    ScalarCase(code: "#", type: .classObject, size: 8, alignment: 8),
    ScalarCase(code: ":", type: .selector, size: 8, alignment: 8),
    ScalarCase(code: "?", type: .unknown, size: nil, alignment: nil),
  ]

  static let validCases: [ValidCase] = [
    ValidCase(
      input: "{CGPoint=dd}", type: point, canonical: "{CGPoint=dd}",
      layout: TypeLayout(size: 16, alignment: 8, fieldOffsets: [0, 8])),
    ValidCase(
      input: "{CGRect={CGPoint=dd}{CGSize=dd}}", type: rect,
      canonical: "{CGRect={CGPoint=dd}{CGSize=dd}}",
      layout: TypeLayout(size: 32, alignment: 8, fieldOffsets: [0, 16])),
    ValidCase(
      input: "^{opaque}", type: .pointer(.structure(name: "opaque", fields: nil)),
      canonical: "^{opaque}", layout: TypeLayout(size: 8, alignment: 8)),
    ValidCase(
      input: "{name}", type: .structure(name: "name", fields: nil), canonical: "{name}",
      layout: nil),
    ValidCase(
      input: "(U=if)", type: .union(name: "U", fields: [.int, .float]), canonical: "(U=if)",
      layout: TypeLayout(size: 4, alignment: 4, fieldOffsets: [0, 0])),
    ValidCase(
      input: "[4{P=cc}]",
      type: .array(count: 4, element: .structure(name: "P", fields: [.char, .char])),
      canonical: "[4{P=cc}]", layout: TypeLayout(size: 8, alignment: 1)),
    ValidCase(
      input: "^?", type: .pointer(.unknown), canonical: "^?",
      layout: TypeLayout(size: 8, alignment: 8)),
    ValidCase(
      input: "@?", type: .block, canonical: "@?", layout: TypeLayout(size: 8, alignment: 8)),
    ValidCase(
      input: "@\"NSString\"", type: .object, canonical: "@",
      layout: TypeLayout(size: 8, alignment: 8)),
    ValidCase(
      input: "{P=\"x\"d\"y\"d}", type: .structure(name: "P", fields: [.double, .double]),
      canonical: "{P=dd}", layout: TypeLayout(size: 16, alignment: 8, fieldOffsets: [0, 8])),
    ValidCase(
      input: "r^v", type: .qualified(.const, .pointer(.void)), canonical: "r^v",
      layout: TypeLayout(size: 8, alignment: 8)),
    ValidCase(
      input: "^^i", type: .pointer(.pointer(.int)), canonical: "^^i",
      layout: TypeLayout(size: 8, alignment: 8)),
    ValidCase(
      input: "{?=i[3s]}",
      type: .structure(name: nil, fields: [.int, .array(count: 3, element: .short)]),
      canonical: "{?=i[3s]}", layout: TypeLayout(size: 12, alignment: 4, fieldOffsets: [0, 4])),
    ValidCase(
      input: "{Node=i^{Node}}",
      type: .structure(
        name: "Node", fields: [.int, .pointer(.structure(name: "Node", fields: nil))]),
      canonical: "{Node=i^{Node}}",
      layout: TypeLayout(size: 16, alignment: 8, fieldOffsets: [0, 8])),
    ValidCase(input: "b3", type: .bitfield(width: 3), canonical: "b3", layout: nil),
    ValidCase(
      input: "Vv", type: .qualified(.oneway, .void), canonical: "Vv", layout: nil),
    ValidCase(
      input: "r*", type: .qualified(.const, .cString), canonical: "r*",
      layout: TypeLayout(size: 8, alignment: 8)),
    ValidCase(
      input: "no^i", type: .qualified([.in, .out], .pointer(.int)), canonical: "no^i",
      layout: TypeLayout(size: 8, alignment: 8)),
    ValidCase(
      input: "ONi", type: .qualified([.inout, .bycopy], .int), canonical: "NOi",
      layout: TypeLayout(size: 4, alignment: 4)),
    ValidCase(
      input: "VROonNr@",
      type: .qualified([.const, .in, .inout, .out, .bycopy, .byref, .oneway], .object),
      canonical: "rnNoORV@", layout: TypeLayout(size: 8, alignment: 8)),
    ValidCase(
      input: "^r{S=i}", type: .pointer(.qualified(.const, .structure(name: "S", fields: [.int]))),
      canonical: "^r{S=i}", layout: TypeLayout(size: 8, alignment: 8)),
    ValidCase(
      input: "{S=rinD}",
      type: .structure(
        name: "S", fields: [.qualified(.const, .int), .qualified(.in, .longDouble)]),
      canonical: "{S=rinD}", layout: TypeLayout(size: 32, alignment: 16, fieldOffsets: [0, 16])),
    ValidCase(
      input: "{}", type: .structure(name: nil, fields: nil), canonical: "{?}", layout: nil),
    ValidCase(
      input: "{=ii}", type: .structure(name: nil, fields: [.int, .int]), canonical: "{?=ii}",
      layout: TypeLayout(size: 8, alignment: 4, fieldOffsets: [0, 4])),
    ValidCase(
      input: "{S=}", type: .structure(name: "S", fields: []), canonical: "{S=}",
      layout: TypeLayout(size: 0, alignment: 1)),
    ValidCase(
      input: "(U=)", type: .union(name: "U", fields: []), canonical: "(U=)",
      layout: TypeLayout(size: 0, alignment: 1)),
    ValidCase(
      input: "(?=c[3s])",
      type: .union(name: nil, fields: [.char, .array(count: 3, element: .short)]),
      canonical: "(?=c[3s])", layout: TypeLayout(size: 6, alignment: 2, fieldOffsets: [0, 0])),
    ValidCase(
      input: "(V)", type: .union(name: "V", fields: nil), canonical: "(V)", layout: nil),
    ValidCase(
      input: "[0i]", type: .array(count: 0, element: .int), canonical: "[0i]",
      layout: TypeLayout(size: 0, alignment: 4)),
    ValidCase(
      input: "[007c]", type: .array(count: 7, element: .char), canonical: "[7c]",
      layout: TypeLayout(size: 7, alignment: 1)),
    ValidCase(
      input: "{Größe=if}", type: .structure(name: "Größe", fields: [.int, .float]),
      canonical: "{Größe=if}", layout: TypeLayout(size: 8, alignment: 4, fieldOffsets: [0, 4])),
    ValidCase(
      input: "{vector<int, std::allocator<int> >=^i^i}",
      type: .structure(
        name: "vector<int, std::allocator<int> >", fields: [.pointer(.int), .pointer(.int)]),
      canonical: "{vector<int, std::allocator<int> >=^i^i}",
      layout: TypeLayout(size: 16, alignment: 8, fieldOffsets: [0, 8])),
    ValidCase(
      input: "(U}=i)", type: .union(name: "U}", fields: [.int]), canonical: "(U}=i)",
      layout: TypeLayout(size: 4, alignment: 4, fieldOffsets: [0])),
    // Class names after '@' in field lists with field names (see TypeEncodingParser.swift).
    ValidCase(
      input: "{S=\"a\"@\"NSString\"\"b\"i}", type: .structure(name: "S", fields: [.object, .int]),
      canonical: "{S=@i}", layout: TypeLayout(size: 16, alignment: 8, fieldOffsets: [0, 8])),
    ValidCase(
      input: "{S=\"a\"@\"b\"i}", type: .structure(name: "S", fields: [.object, .int]),
      canonical: "{S=@i}", layout: TypeLayout(size: 16, alignment: 8, fieldOffsets: [0, 8])),
    ValidCase(
      input: "{S=\"a\"@\"NSString\"}", type: .structure(name: "S", fields: [.object]),
      canonical: "{S=@}", layout: TypeLayout(size: 8, alignment: 8, fieldOffsets: [0])),
    ValidCase(
      input: "{S=\"a\"@\"A\"\"b\"@\"B\"}", type: .structure(name: "S", fields: [.object, .object]),
      canonical: "{S=@@}", layout: TypeLayout(size: 16, alignment: 8, fieldOffsets: [0, 8])),
    ValidCase(
      input: "{S=\"a\"i\"b\"@}", type: .structure(name: "S", fields: [.int, .object]),
      canonical: "{S=i@}", layout: TypeLayout(size: 16, alignment: 8, fieldOffsets: [0, 8])),
    ValidCase(
      input: "{S=\"p\"^@\"Foo\"\"q\"i}",
      type: .structure(name: "S", fields: [.pointer(.object), .int]), canonical: "{S=^@i}",
      layout: TypeLayout(size: 16, alignment: 8, fieldOffsets: [0, 8])),
    ValidCase(
      input: "{S=\"a\"[2@\"Foo\"]\"b\"c}",
      type: .structure(name: "S", fields: [.array(count: 2, element: .object), .char]),
      canonical: "{S=[2@]c}", layout: TypeLayout(size: 24, alignment: 8, fieldOffsets: [0, 16])),
    ValidCase(
      input: "(U=\"a\"@\"b\"i)", type: .union(name: "U", fields: [.object, .int]),
      canonical: "(U=@i)", layout: TypeLayout(size: 8, alignment: 8, fieldOffsets: [0, 0])),
    ValidCase(
      input: "{S=@\"NSString\"i}", type: .structure(name: "S", fields: [.object, .int]),
      canonical: "{S=@i}", layout: TypeLayout(size: 16, alignment: 8, fieldOffsets: [0, 8])),
    ValidCase(
      input: "{S=\"\"i\"\"c}", type: .structure(name: "S", fields: [.int, .char]),
      canonical: "{S=ic}", layout: TypeLayout(size: 8, alignment: 4, fieldOffsets: [0, 4])),
    ValidCase(
      input: "^@\"NSString\"", type: .pointer(.object), canonical: "^@",
      layout: TypeLayout(size: 8, alignment: 8)),
  ]

  static let methodCases: [MethodCase] = [
    MethodCase(input: "v24@0:8@16", types: [.void, .object, .selector, .object]),
    MethodCase(input: "v@:@", types: [.void, .object, .selector, .object]),
    MethodCase(input: "q@:qd", types: [.longLong, .object, .selector, .longLong, .double]),
    MethodCase(
      input: "v@:@{CGPoint=dd}^{CGPoint=dd}",
      types: [.void, .object, .selector, .object, point, .pointer(point)]),
    MethodCase(input: "{CGRect={CGPoint=dd}{CGSize=dd}}40@0:8", types: [rect, .object, .selector]),
    MethodCase(input: "v-8@-4:+12i0", types: [.void, .object, .selector, .int]),
    MethodCase(input: "Vv16@0:8", types: [.qualified(.oneway, .void), .object, .selector]),
    MethodCase(
      input: "c32@0:8@\"NSString\"16r*24",
      types: [.char, .object, .selector, .object, .qualified(.const, .cString)]),
    MethodCase(input: "@?", types: [.block]),
    MethodCase(input: "i", types: [.int]),
    MethodCase(input: "v12345678901234567890@:", types: [.void, .object, .selector]),
    MethodCase(
      input: "B@:@^@o^@",
      types: [
        .bool, .object, .selector, .object, .pointer(.object), .qualified(.out, .pointer(.object)),
      ]),
  ]

  static let malformedCases: [MalformedCase] = [
    MalformedCase(
      input: "{CGPoint=dd", entry: .both, position: 11, reason: .unexpectedEnd(expected: "}")),
    MalformedCase(input: "{S=iX}", entry: .both, position: 4, reason: .unknownTypeCode("X")),
    MalformedCase(input: "[i]", entry: .both, position: 1, reason: .invalidNumber),
    MalformedCase(input: "[3i", entry: .both, position: 3, reason: .unexpectedEnd(expected: "]")),
    MalformedCase(
      input: "^", entry: .both, position: 1, reason: .unexpectedEnd(expected: "a type code")),
    MalformedCase(input: "", entry: .both, position: 0, reason: .empty),
    MalformedCase(input: "ii", entry: .single, position: 1, reason: .trailingCharacters),
    MalformedCase(input: "i ", entry: .single, position: 1, reason: .trailingCharacters),
    MalformedCase(input: "{S=i}}", entry: .single, position: 5, reason: .trailingCharacters),
    MalformedCase(input: "v@:", entry: .single, position: 1, reason: .trailingCharacters),
    MalformedCase(input: "v24@0:8", entry: .single, position: 1, reason: .trailingCharacters),
    MalformedCase(input: "(U=i", entry: .both, position: 4, reason: .unexpectedEnd(expected: ")")),
    MalformedCase(
      input: "{S=\"x", entry: .both, position: 5, reason: .unexpectedEnd(expected: "\"")),
    MalformedCase(
      input: "@\"Foo", entry: .both, position: 5, reason: .unexpectedEnd(expected: "\"")),
    MalformedCase(
      input: "{S=\"a\"@\"Foo", entry: .both, position: 11, reason: .unexpectedEnd(expected: "\"")),
    MalformedCase(
      input: "v@: @", entry: .methodTypes, position: 3,
      reason: .unexpectedCharacter(" ", expected: "a type code")),
    MalformedCase(
      input: "v@:\t@", entry: .methodTypes, position: 3,
      reason: .unexpectedCharacter("\t", expected: "a type code")),
    MalformedCase(
      input: " i", entry: .both, position: 0,
      reason: .unexpectedCharacter(" ", expected: "a type code")),
    MalformedCase(
      input: "{S= i}", entry: .both, position: 3,
      reason: .unexpectedCharacter(" ", expected: "a type code")),
    MalformedCase(input: "[99999999999i]", entry: .both, position: 1, reason: .invalidNumber),
    MalformedCase(input: "[1234567890i]", entry: .both, position: 1, reason: .invalidNumber),
    MalformedCase(input: "b", entry: .both, position: 1, reason: .invalidNumber),
    MalformedCase(input: "{S=bx}", entry: .both, position: 4, reason: .invalidNumber),
    MalformedCase(input: "b9999999999", entry: .both, position: 1, reason: .invalidNumber),
    MalformedCase(
      input: "{S", entry: .both, position: 2, reason: .unexpectedEnd(expected: "'=' or '}'")),
    MalformedCase(
      input: "(U", entry: .both, position: 2, reason: .unexpectedEnd(expected: "'=' or ')'")),
    MalformedCase(input: "{S=", entry: .both, position: 3, reason: .unexpectedEnd(expected: "}")),
    MalformedCase(
      input: "[3ix]", entry: .both, position: 3, reason: .unexpectedCharacter("x", expected: "]")),
    MalformedCase(
      input: "[3]", entry: .both, position: 2,
      reason: .unexpectedCharacter("]", expected: "a type code")),
    MalformedCase(input: "[", entry: .both, position: 1, reason: .invalidNumber),
    MalformedCase(
      input: "[5", entry: .both, position: 2, reason: .unexpectedEnd(expected: "a type code")),
    MalformedCase(
      input: "{S=\"a\"}", entry: .both, position: 6,
      reason: .unexpectedCharacter("}", expected: "a type code")),
    MalformedCase(
      input: "{S==i}", entry: .both, position: 3,
      reason: .unexpectedCharacter("=", expected: "a type code")),
    MalformedCase(
      input: "r", entry: .both, position: 1, reason: .unexpectedEnd(expected: "a type code")),
    MalformedCase(input: "X", entry: .both, position: 0, reason: .unknownTypeCode("X")),
    MalformedCase(
      input: "5", entry: .both, position: 0,
      reason: .unexpectedCharacter("5", expected: "a type code")),
    MalformedCase(input: "é", entry: .both, position: 0, reason: .unknownTypeCode("é")),
    MalformedCase(input: "{Größe=iX}", entry: .both, position: 8, reason: .unknownTypeCode("X")),
    MalformedCase(input: "{Größe=i}é", entry: .single, position: 9, reason: .trailingCharacters),
    MalformedCase(
      input: "{Größe=i}é", entry: .methodTypes, position: 9, reason: .unknownTypeCode("é")),
    MalformedCase(input: "v@:-", entry: .methodTypes, position: 4, reason: .invalidNumber),
    MalformedCase(input: "v@:--8", entry: .methodTypes, position: 4, reason: .invalidNumber),
    MalformedCase(
      input: "v@:8-x", entry: .methodTypes, position: 4,
      reason: .unexpectedCharacter("-", expected: "a type code")),
    MalformedCase(
      input: "v@:@\"Foo", entry: .methodTypes, position: 8, reason: .unexpectedEnd(expected: "\"")),
    MalformedCase(
      input: "v@:\r\n@", entry: .methodTypes, position: 3,
      reason: .unexpectedCharacter("\r", expected: "a type code")),
  ]

  static let layoutFailureCases: [LayoutFailureCase] = [
    LayoutFailureCase(input: "v", position: 0, reason: .unsupported("void by value")),
    LayoutFailureCase(input: "?", position: 0, reason: .unsupported("unknown type '?' by value")),
    LayoutFailureCase(
      input: "{name}", position: 0, reason: .unsupported("opaque struct 'name' by value")),
    LayoutFailureCase(input: "(U)", position: 0, reason: .unsupported("opaque union 'U' by value")),
    LayoutFailureCase(input: "b3", position: 0, reason: .unsupported("bitfields")),
    LayoutFailureCase(input: "{S=ib3}", position: 4, reason: .unsupported("bitfields")),
    LayoutFailureCase(
      input: "{S=i{T}}", position: 4, reason: .unsupported("opaque struct 'T' by value")),
    LayoutFailureCase(input: "[2v]", position: 2, reason: .unsupported("void by value")),
    LayoutFailureCase(
      input: "{A={B=c[4?]}}", position: 9, reason: .unsupported("unknown type '?' by value")),
    LayoutFailureCase(input: "r{S=rv}", position: 5, reason: .unsupported("void by value")),
    LayoutFailureCase(
      input: "(U=i{}q)", position: 4, reason: .unsupported("opaque struct '?' by value")),
    LayoutFailureCase(input: "{Größe=v}", position: 7, reason: .unsupported("void by value")),
    LayoutFailureCase(input: "Vv", position: 1, reason: .unsupported("void by value")),
    LayoutFailureCase(
      input: "[999999999[999999999[999999999q]]]", position: 0,
      reason: .unsupported("types larger than Int.max bytes")),
    LayoutFailureCase(
      input: "{S=[999999999[999999999q]][999999999[999999999q]]}", position: 0,
      reason: .unsupported("types larger than Int.max bytes")),
    LayoutFailureCase(
      input: "{S=i[3{T=c[999999999[999999999[999999999D]]]}]}", position: 20,
      reason: .unsupported("types larger than Int.max bytes")),
  ]

  /// Whether a type has a `.qualified` node anywhere.
  static func containsQualifiers(_ type: TypeEncoding) -> Bool {
    switch type {
    case .qualified: true
    case .pointer(let pointee): containsQualifiers(pointee)
    case .array(_, let element): containsQualifiers(element)
    case .structure(_, let fields?), .union(_, let fields?):
      fields.contains(where: containsQualifiers)
    default: false
    }
  }

  /// Whether a type can be written as a string: no field list has a bare `?` right after a
  /// field ending in `@` (the canonical string would read `@?`, a block).
  static func isWritable(_ type: TypeEncoding) -> Bool {
    switch type {
    case .qualified(_, let inner), .pointer(let inner), .array(_, let inner):
      return isWritable(inner)
    case .structure(_, let fields?), .union(_, let fields?):
      for (index, field) in fields.enumerated() {
        if field == .unknown, index > 0, fields[index - 1].canonicalString.hasSuffix("@") {
          return false
        }
      }
      return fields.allSatisfy(isWritable)
    default:
      return true
    }
  }

  // MARK: Random encodings

  /// SplitMix64: a tiny deterministic PRNG, so a failing seed can be replayed.
  struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }

    /// A number in 0..<bound.
    mutating func below(_ bound: Int) -> Int {
      Int(next() % UInt64(bound))
    }
  }

  /// Builds random encodings in the parser's normal form.
  struct EncodingGenerator {
    var random: SplitMix64

    static let leaves: [TypeEncoding] = scalarCases.map(\.type)
    static let names: [String?] = [nil, "S", "CGPoint", "_Private", "Größe", "a b<c, d>", "x.y::z"]

    mutating func type(depth: Int) -> TypeEncoding {
      if depth >= 5 || random.below(10) < 4 {
        return Self.leaves[random.below(Self.leaves.count)]
      }
      switch random.below(7) {
      case 0:
        return .pointer(type(depth: depth + 1))
      case 1:
        return .array(
          count: random.below(4) == 0 ? 0 : random.below(100), element: type(depth: depth + 1))
      case 2:
        return .structure(name: name(), fields: fields(depth: depth))
      case 3:
        return .union(name: name(), fields: fields(depth: depth))
      case 4:
        return .bitfield(width: random.below(65))
      default:
        var inner = type(depth: depth + 1)
        if case .qualified(_, let unqualified) = inner { inner = unqualified }
        let qualifiers = TypeQualifiers(rawValue: UInt8(1 + random.below(127)))
        return .qualified(qualifiers, inner)
      }
    }

    mutating func name() -> String? {
      Self.names[random.below(Self.names.count)]
    }

    mutating func fields(depth: Int) -> [TypeEncoding]? {
      if random.below(8) == 0 { return nil }
      var fields: [TypeEncoding] = []
      for _ in 0..<random.below(5) {
        var field = type(depth: depth + 1)
        // "@?" always reads as a block: an object field cannot be followed by a bare '?'.
        if field == .unknown, let last = fields.last, last.canonicalString.hasSuffix("@") {
          field = .int
        }
        fields.append(field)
      }
      return fields
    }

    /// A method type list: nothing ending in a digit (a bitfield width would swallow the
    /// offset digits) and no bare '?' after a type ending in '@'.
    mutating func methodTypes() -> [TypeEncoding] {
      var types: [TypeEncoding] = []
      for _ in 0..<(1 + random.below(6)) {
        var next = type(depth: 1)
        if let last = next.canonicalString.last, last.isNumber { next = .selector }
        if next == .unknown, let last = types.last, last.canonicalString.hasSuffix("@") {
          next = .int
        }
        types.append(next)
      }
      return types
    }
  }
}

// MARK: - Tests

@Suite("TypeEncoding")
struct TypeEncodingTests {
  @Test(
    "Every scalar code parses to its case and round-trips",
    arguments: TypeEncodingFixtures.scalarCases)
  fileprivate func scalar(_ testCase: TypeEncodingFixtures.ScalarCase) throws {
    let type = try TypeEncoding(parsing: testCase.code)
    #expect(type == testCase.type)
    #expect(type.canonicalString == testCase.code)
    #expect(type.description == testCase.code)
    #expect(type.unqualified == type)
    #expect(try TypeEncoding.parseMethodTypes(testCase.code) == [testCase.type])
    if let size = testCase.size, let alignment = testCase.alignment {
      #expect(try type.layout() == TypeLayout(size: size, alignment: alignment))
    } else {
      #expect(throws: TypeEncodingError.self) { try type.layout() }
    }
  }

  @Test(
    "Valid composite encodings parse, print canonically and lay out",
    arguments: TypeEncodingFixtures.validCases)
  fileprivate func composite(_ testCase: TypeEncodingFixtures.ValidCase) throws {
    let type = try TypeEncoding(parsing: testCase.input)
    #expect(type == testCase.type)
    #expect(type.canonicalString == testCase.canonical)
    #expect(try TypeEncoding(parsing: testCase.canonical) == type)
    if let layout = testCase.layout {
      #expect(try type.layout() == layout)
    } else {
      let error = try #require(throws: TypeEncodingError.self) { try type.layout() }
      guard case .unsupported = error.reason else {
        Issue.record("expected .unsupported, got \(error)")
        return
      }
      #expect(error.encoding == testCase.canonical)
    }
  }

  @Test(
    "Method type lists parse to return type and arguments",
    arguments: TypeEncodingFixtures.methodCases)
  fileprivate func methodTypes(_ testCase: TypeEncodingFixtures.MethodCase) throws {
    let types = try TypeEncoding.parseMethodTypes(testCase.input)
    #expect(types.count == testCase.types.count)
    #expect(types == testCase.types)
  }

  @Test(
    "Canonical strings round-trip",
    arguments: [
      ("{CGPoint=dd}", "{CGPoint=dd}"),
      ("{CGRect={CGPoint=dd}{CGSize=dd}}", "{CGRect={CGPoint=dd}{CGSize=dd}}"),
      ("^{opaque}", "^{opaque}"), ("(U=if)", "(U=if)"), ("[4{P=cc}]", "[4{P=cc}]"), ("^?", "^?"),
      ("@?", "@?"), ("r^v", "r^v"), ("^^i", "^^i"), ("{?=i[3s]}", "{?=i[3s]}"),
      ("{Node=i^{Node}}", "{Node=i^{Node}}"), ("b3", "b3"), ("rnNoORVi", "rnNoORVi"),
      ("{?}", "{?}"),
      ("{S=}", "{S=}"), ("[0{?=}]", "[0{?=}]"), ("^{S=^{T=(?=ci)}}", "^{S=^{T=(?=ci)}}"),
      ("@\"NSString\"", "@"), ("{P=\"x\"d\"y\"d}", "{P=dd}"), ("Onri", "rnOi"), ("rri", "ri"),
      ("{=ii}", "{?=ii}"), ("{}", "{?}"), ("(=c)", "(?=c)"), ("[04i]", "[4i]"), ("b007", "b7"),
      ("{S=\"a\"@\"NSString\"\"b\"i}", "{S=@i}"), ("^r^n^o^i", "^r^n^o^i"), ("r^r^r*", "r^r^r*"),
    ])
  func canonicalRoundTrip(input: String, canonical: String) throws {
    let type = try TypeEncoding(parsing: input)
    #expect(type.canonicalString == canonical)
    #expect(type.description == canonical)
    let reparsed = try TypeEncoding(parsing: canonical)
    #expect(reparsed == type)
    #expect(reparsed.canonicalString == canonical)
  }

  @Test("2000 random nested encodings round-trip through their canonical string")
  func randomRoundTrip() throws {
    let baseSeed: UInt64 = 0x5EED_0001
    for index in 0..<2000 {
      let seed = baseSeed &+ UInt64(index)
      var generator = TypeEncodingFixtures.EncodingGenerator(
        random: TypeEncodingFixtures.SplitMix64(state: seed))
      let type = generator.type(depth: 0)
      let canonical = type.canonicalString
      let reparsed = try #require(
        try? TypeEncoding(parsing: canonical), "seed \(seed): \(canonical) does not parse")
      #expect(TypeEncodingFixtures.isWritable(type), "seed \(seed): \(canonical)")
      #expect(reparsed == type, "seed \(seed): \(canonical)")
      #expect(reparsed.canonicalString == canonical, "seed \(seed)")
      #expect(
        !TypeEncodingFixtures.containsQualifiers(type.unqualified), "seed \(seed): \(canonical)")
      #expect(type.unqualified.unqualified == type.unqualified, "seed \(seed)")
      _ = try? type.layout()  // must not trap, whatever the answer
      #expect(
        (try? type.layout()) == (try? type.unqualified.layout()), "seed \(seed): \(canonical)")

      let types = generator.methodTypes()
      var list = ""
      for (position, element) in types.enumerated() {
        list += element.canonicalString
        switch generator.random.below(4) {
        case 0: break
        case 1: list += "-\(position * 8)"
        default: list += String(position * 8)
        }
      }
      let parsedList = try #require(
        try? TypeEncoding.parseMethodTypes(list), "seed \(seed): \(list) does not parse")
      #expect(parsedList == types, "seed \(seed): \(list)")
    }
  }

  @Test(
    "Malformed encodings fail with the exact position and reason",
    arguments: TypeEncodingFixtures.malformedCases)
  fileprivate func malformed(_ testCase: TypeEncodingFixtures.MalformedCase) throws {
    var errors: [TypeEncodingError] = []
    if testCase.entry != .methodTypes {
      errors.append(
        try #require(throws: TypeEncodingError.self) {
          try TypeEncoding(parsing: testCase.input)
        })
    }
    if testCase.entry != .single {
      errors.append(
        try #require(throws: TypeEncodingError.self) {
          try TypeEncoding.parseMethodTypes(testCase.input)
        })
    }
    for error in errors {
      #expect(error.encoding == testCase.input)
      #expect(error.position == testCase.position)
      #expect(error.reason == testCase.reason)
      #expect(error.description.contains(" at \(testCase.position) in "))
      #expect(error.description.hasSuffix(testCase.input.debugDescription))
    }
  }

  @Test("Error descriptions name the reason, the position and the quoted input")
  func errorDescriptions() throws {
    let unterminated = try #require(throws: TypeEncodingError.self) {
      try TypeEncoding(parsing: "{CGPoint=dd")
    }
    #expect(unterminated.description == #"expected '}' at 11 in "{CGPoint=dd""#)

    let unknown = try #require(throws: TypeEncodingError.self) {
      try TypeEncoding(parsing: "{S=iX}")
    }
    #expect(unknown.description == #"unknown type code 'X' at 4 in "{S=iX}""#)

    let bitfield = try #require(throws: TypeEncodingError.self) {
      try TypeEncoding(parsing: "{S=ib3}").layout()
    }
    #expect(bitfield.description == #"bitfields not supported at 4 in "{S=ib3}""#)

    let space = try #require(throws: TypeEncodingError.self) {
      try TypeEncoding.parseMethodTypes("v@: @")
    }
    #expect(space.description == #"unexpected character ' ', expected a type code at 3 in "v@: @""#)

    let tab = try #require(throws: TypeEncodingError.self) {
      try TypeEncoding.parseMethodTypes("v@:\t@")
    }
    #expect(tab.description == #"unexpected character '\t', expected a type code at 3 in "v@:\t@""#)

    let empty = try #require(throws: TypeEncodingError.self) { try TypeEncoding(parsing: "") }
    #expect(empty.description == #"empty type encoding at 0 in """#)
  }

  @Test(
    "Layout failures name the offending part of the canonical string",
    arguments: TypeEncodingFixtures.layoutFailureCases
  )
  fileprivate func layoutFailure(_ testCase: TypeEncodingFixtures.LayoutFailureCase) throws {
    let type = try TypeEncoding(parsing: testCase.input)
    let error = try #require(throws: TypeEncodingError.self) { try type.layout() }
    #expect(error.encoding == type.canonicalString)
    #expect(error.position == testCase.position)
    #expect(error.reason == testCase.reason)
  }

  @Test("Layout of built values that no string can express")
  func layoutOfBuiltValues() throws {
    let negative = try #require(throws: TypeEncodingError.self) {
      try TypeEncoding.structure(name: "S", fields: [.int, .array(count: -1, element: .int)])
        .layout()
    }
    #expect(negative.reason == .invalidNumber)
    #expect(negative.position == 4)

    var nested = TypeEncoding.int
    for _ in 0..<10_000 { nested = .qualified(.const, nested) }
    #expect(try nested.layout() == TypeLayout(size: 4, alignment: 4))

    var deep = TypeEncoding.char
    for _ in 0..<300 { deep = .array(count: 1, element: deep) }
    let tooDeep = try #require(throws: TypeEncodingError.self) { try deep.layout() }
    #expect(tooDeep.reason == .unsupported("nesting deeper than 256"))
    #expect(tooDeep.position == 257 * 2)
  }

  @Test("Class-name rule and the one value a string cannot express")
  func documentedLimits() throws {
    // In a named field list a quoted string after '@' followed by a type names the next
    // field; followed by '"', the closing bracket or the end, it is the class name.
    #expect(
      try TypeEncoding(parsing: #"{S="a"@"b"c"d"@"NSView"}"#)
        == .structure(name: "S", fields: [.object, .char, .object]))
    // Outside named field lists, '"' after '@' always starts a class name.
    #expect(
      try TypeEncoding(parsing: #"{S=@"b"c}"#) == .structure(name: "S", fields: [.object, .char]))
    #expect(
      try TypeEncoding.parseMethodTypes(#"@"A"16@"B""#) == [.object, .object])
    // '@?' is always a block; an object field followed by a bare '?' (reachable only
    // through a class or field name in between) has no string that reads back as itself.
    let objectThenUnknown = try TypeEncoding(parsing: #"{S="a"@"b"?}"#)
    #expect(objectThenUnknown == .structure(name: "S", fields: [.object, .unknown]))
    #expect(objectThenUnknown.canonicalString == "{S=@?}")
    #expect(try TypeEncoding(parsing: "{S=@?}") == .structure(name: "S", fields: [.block]))
  }

  @Test("Qualifiers: letters, canonical order and unqualified")
  func qualifiers() throws {
    let all: [TypeQualifiers] = [.const, .in, .inout, .out, .bycopy, .byref, .oneway]
    #expect(Set(all.map(\.rawValue)).count == 7)
    for (qualifier, letter) in zip(all, ["r", "n", "N", "o", "O", "R", "V"]) {
      let type = try TypeEncoding(parsing: letter + "i")
      #expect(type == .qualified(qualifier, .int))
      #expect(type.unqualified == .int)
      #expect(try type.layout() == TypeLayout(size: 4, alignment: 4))
    }
    let nested = try TypeEncoding(parsing: "r^{S=ri[2n^o*](U=Vc)}")
    #expect(nested.unqualified == (try TypeEncoding(parsing: "^{S=i[2^*](U=c)}")))
    #expect(TypeEncoding.qualified([.oneway, .const], .void).canonicalString == "rVv")
  }

  @Test("Nesting is limited to 256 levels; deep or wide input is no problem")
  func deepNesting() throws {
    let ok = String(repeating: "^", count: 256) + "i"
    var expected = TypeEncoding.int
    for _ in 0..<256 { expected = .pointer(expected) }
    #expect(try TypeEncoding(parsing: ok) == expected)

    let arrays = String(repeating: "[1", count: 256) + "i" + String(repeating: "]", count: 256)
    #expect(try TypeEncoding(parsing: arrays).layout() == TypeLayout(size: 4, alignment: 4))

    let cases: [(input: String, position: Int)] = [
      (String(repeating: "^", count: 257) + "i", 257),
      (String(repeating: "^", count: 10_000) + "i", 257),
      (String(repeating: "^r", count: 10_000) + "i", 513),
      (String(repeating: "[1", count: 10_000) + "i" + String(repeating: "]", count: 10_000), 514),
      (String(repeating: "{S=", count: 10_000) + "i" + String(repeating: "}", count: 10_000), 771),
      (String(repeating: "(U=", count: 10_000), 771),
      (String(repeating: "{S=\"f\"", count: 10_000), 257 * 6),
    ]
    for (input, position) in cases {
      let error = try #require(throws: TypeEncodingError.self) { try TypeEncoding(parsing: input) }
      #expect(error.reason == .unsupported("nesting deeper than 256"))
      #expect(error.position == position)
      let listError = try #require(throws: TypeEncodingError.self) {
        try TypeEncoding.parseMethodTypes(input)
      }
      #expect(listError.position == position)
    }

    let wide = "{S=" + String(repeating: "\"f\"i", count: 50_000) + "}"
    let wideLayout = try TypeEncoding(parsing: wide).layout()
    #expect(wideLayout.size == 200_000)
    #expect(wideLayout.fieldOffsets.count == 50_000)

    let qualifiers = String(repeating: "r", count: 10_000) + "i"
    #expect(try TypeEncoding(parsing: qualifiers) == .qualified(.const, .int))
    #expect(throws: TypeEncodingError.self) {
      try TypeEncoding(parsing: String(repeating: "(", count: 10_000))
    }
  }

  @Test("Random and mutated input never traps and reports positions inside the input")
  func randomInput() throws {
    func check(_ input: String, iteration: Int) {
      do {
        let type = try TypeEncoding(parsing: input)
        #expect(
          !TypeEncodingFixtures.isWritable(type)
            || (try? TypeEncoding(parsing: type.canonicalString)) == type,
          "iteration \(iteration): \(input.debugDescription)")
        _ = try? type.layout()
      } catch {
        #expect(error.position >= 0 && error.position <= input.count, "\(input.debugDescription)")
        #expect(error.description.contains(input.debugDescription))
      }
      do {
        let types = try TypeEncoding.parseMethodTypes(input)
        #expect(!types.isEmpty)
      } catch {
        #expect(error.position >= 0 && error.position <= input.count, "\(input.debugDescription)")
      }
    }

    let alphabet = Array("cCsSiIlLqQfdDBv*@#:?^[]{}()=\"b0123456789rnNoORV-+ xé")
    var random = TypeEncodingFixtures.SplitMix64(state: 0xF022_0001)
    var generator = TypeEncodingFixtures.EncodingGenerator(
      random: TypeEncodingFixtures.SplitMix64(state: 0xF022_0002))
    for iteration in 0..<5000 {
      var input: String
      if iteration % 2 == 0 {
        input = String((0..<random.below(24)).map { _ in alphabet[random.below(alphabet.count)] })
      } else {
        // A valid encoding with one character replaced, inserted or removed.
        var characters = Array(generator.type(depth: 0).canonicalString)
        let index = random.below(characters.count + 1)
        switch random.below(3) {
        case 0 where index < characters.count:
          characters[index] = alphabet[random.below(alphabet.count)]
        case 1:
          characters.insert(alphabet[random.below(alphabet.count)], at: index)
        default:
          if index < characters.count { characters.remove(at: index) }
        }
        input = String(characters)
      }
      check(input, iteration: iteration)
    }
  }

  @Test(
    "Layout equals the C compiler's sizeof, _Alignof and offsetof",
    arguments: 0..<dp_layout_case_count())
  func layoutMatchesC(index: Int) throws {
    let entry = dp_layout_case_at(index)
    let name = String(cString: try #require(entry.name))
    let encoding = String(cString: try #require(entry.encoding))
    let layout = try TypeEncoding(parsing: encoding).layout()
    #expect(layout.size == entry.size, "\(name) \(encoding)")
    #expect(layout.alignment == entry.align, "\(name) \(encoding)")
    for offsetIndex in 0..<dp_layout_field_offset_count() {
      let offset = dp_layout_field_offset_at(offsetIndex)
      guard String(cString: try #require(offset.case_name)) == name else { continue }
      let field = offset.field_index
      try #require(field < layout.fieldOffsets.count, "\(name) field \(field)")
      #expect(layout.fieldOffsets[field] == offset.offset, "\(name) field \(field)")
    }
  }

  @Test("The C tables are consistent: about 25 aggregates, every offset names a case")
  func layoutTables() throws {
    let names = (0..<dp_layout_case_count()).map { String(cString: dp_layout_case_at($0).name) }
    #expect(names.filter { $0.hasPrefix("dp_layout_") }.count >= 25)
    #expect(dp_layout_field_offset_count() > 40)
    for index in 0..<dp_layout_field_offset_count() {
      let caseName = String(cString: dp_layout_field_offset_at(index).case_name)
      #expect(names.contains(caseName), "\(caseName)")
    }
    #expect(dp_layout_case_at(dp_layout_case_count()).name == nil)
  }
}
