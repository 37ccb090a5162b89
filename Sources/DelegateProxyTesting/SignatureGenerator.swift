import MessageRuntime

/// Random signatures over the type grammar:
///
///     signature := result argument{0…12}             (plus self and _cmd: up to 14)
///     result    := void | qualified? (small | value)
///     argument  := qualified? value
///     value     := scalar | pointer | small | struct | union   (aggregates to depth 3)
///     small     := {name=part{1…4}} | (?=part{2…4})        (≤ 16 bytes, no D)
///     part      := scalar | small | [n f] | [n c]          (n in 1…3)
///     scalar    := c C s S i I l L q Q f d B * @ # :  | D (rarer)
///     pointer   := ^v | ^? | ^scalar | ^{Opaque} | ^struct | @?
///     struct    := {name=field{1…5}}                   (name "?" or S<n>; ≤ 128 bytes)
///     union     := (?=field{2…3})
///     field     := value | [n element]                 (n in 1…4)
///     element   := scalar | struct
///
/// About one signature in 50 puts an array by value as an argument or the result; the
/// runtime must refuse it with `.invalidSignature`, as it must a 16-byte result that
/// mixes `long double` with other members (see `Spec.expectedRefusal`).
package struct SignatureGenerator: Sendable {
  /// The generator's random source.
  package var rng: SeededRandom

  /// A generator drawing from `rng`; use ``SeededRandom/stream(seed:index:)`` so each
  /// signature of a run replays alone.
  package init(rng: SeededRandom) { self.rng = rng }

  /// One generated signature.
  package struct Spec: Sendable, Hashable, CustomStringConvertible {
    /// The result type.
    package var returnType: TypeEncoding
    /// The method's own arguments (without `self` and `_cmd`).
    package var arguments: [TypeEncoding]
    /// The signature has an array by value and must be refused.
    package var refused: Bool

    /// What the runtime must say when it refuses this signature, or nil if it must
    /// accept it: arrays by value, and (x86-64) a 16-byte result that mixes `long double`
    /// with other members — returned in memory, which libffi cannot describe.
    package var expectedRefusal: String? {
      if refused { return "array" }
      #if arch(x86_64)
        if let layout = try? returnType.layout(), layout.size == 16, layout.alignment == 16,
          !Self.isLongDoubleOnly(returnType)
        {
          return "long double"
        }
      #endif
      return nil
    }

    /// A `long double`, or an aggregate whose every member is one at offset 0.
    package static func isLongDoubleOnly(_ t: TypeEncoding) -> Bool {
      switch t.unqualified {
      case .longDouble: return true
      case .structure(_, let fields?): return fields.count == 1 && isLongDoubleOnly(fields[0])
      case .union(_, let fields?): return !fields.isEmpty && fields.allSatisfy(isLongDoubleOnly)
      case .array(1, let element): return isLongDoubleOnly(element)
      default: return false
      }
    }

    /// The method encoding, `self` and `_cmd` included.
    package var encoding: String {
      ([returnType, .object, .selector] + arguments).map(\.canonicalString).joined()
    }

    /// The method encoding.
    package var description: String { encoding }
  }

  /// The next random signature.
  package mutating func signature() -> Spec {
    let count: Int
    switch rng.below(10) {
    case 0..<6: count = rng.below(5)
    case 6..<9: count = 4 + rng.below(5)
    default: count = 8 + rng.below(5)
    }
    var arguments = (0..<count).map { _ in qualified(value(depth: 0)) }
    // Small aggregates are over-represented as results: register-pair returns are the
    // ones with most ways to go wrong.
    var returnType =
      rng.chance(1, in: 6)
      ? qualifiedVoid() : qualified(rng.chance(2, in: 5) ? small(depth: 0) : value(depth: 0))
    var refused = false
    if rng.chance(1, in: 50) {
      refused = true
      let array = TypeEncoding.array(count: 1 + rng.below(4), element: scalar())
      if arguments.isEmpty || rng.chance(1, in: 3) {
        returnType = array
      } else {
        arguments[rng.below(arguments.count)] = array
      }
    }
    return Spec(returnType: returnType, arguments: arguments, refused: refused)
  }

  /// Sometimes a method qualifier, which the ABI ignores.
  private mutating func qualified(_ t: TypeEncoding) -> TypeEncoding {
    guard rng.chance(1, in: 12) else { return t }
    let all: [TypeQualifiers] = [.const, .in, .inout, .out, .bycopy, .byref]
    return .qualified(all[rng.below(all.count)], t)
  }

  private mutating func qualifiedVoid() -> TypeEncoding {
    rng.chance(1, in: 4) ? .qualified(.oneway, .void) : .void
  }

  /// A value type at aggregate depth `depth`.
  package mutating func value(depth: Int) -> TypeEncoding {
    let roll = rng.below(100)
    if roll < 50 || depth >= 3 { return scalar() }
    if roll < 58 { return pointer(depth: depth) }
    if roll < 82 { return small(depth: depth) }
    if roll < 93 { return structure(depth: depth) }
    return union(depth: depth)
  }

  /// An aggregate of at most 16 bytes without `long double`: the ones the ABI splits
  /// into registers, where classification mistakes show.
  package mutating func small(depth: Int) -> TypeEncoding {
    for _ in 0..<8 {
      let fields = (0..<(1 + rng.below(4))).map { _ -> TypeEncoding in
        switch rng.below(10) {
        case 0 where depth < 2: return small(depth: depth + 1)
        case 1:
          return .array(count: 1 + rng.below(3), element: rng.chance(1, in: 2) ? .float : .char)
        default:
          let t = scalar()
          return t == .longDouble ? .double : t
        }
      }
      let t: TypeEncoding =
        rng.chance(1, in: 5) && fields.count > 1
        ? .union(name: nil, fields: fields)
        : .structure(name: rng.chance(1, in: 4) ? "P\(rng.below(100))" : nil, fields: fields)
      if let size = try? t.layout().size, size <= 16 { return t }
    }
    return .structure(name: nil, fields: [.float, .int])
  }

  /// A scalar type (`long double` rarely).
  package mutating func scalar() -> TypeEncoding {
    if rng.chance(1, in: 60) { return .longDouble }
    let all: [TypeEncoding] = [
      .char, .unsignedChar, .short, .unsignedShort, .int, .unsignedInt, .long, .unsignedLong,
      .longLong, .unsignedLongLong, .float, .double, .bool, .cString, .object, .classObject,
      .selector, .float, .double, .double, .int, .longLong,
    ]
    return all[rng.below(all.count)]
  }

  /// A pointer or block type.
  package mutating func pointer(depth: Int) -> TypeEncoding {
    switch rng.below(6) {
    case 0: return .pointer(.void)
    case 1: return .pointer(.unknown)
    case 2: return .pointer(.structure(name: "Opaque", fields: nil))
    case 3: return .block
    case 4: return .pointer(structure(depth: min(depth + 1, 3)))
    default: return .pointer(scalar())
    }
  }

  /// A struct of at most 128 bytes.
  package mutating func structure(depth: Int) -> TypeEncoding {
    for _ in 0..<8 {
      let fields = (0..<(1 + rng.below(5))).map { _ in field(depth: depth + 1) }
      let name: String? = rng.chance(1, in: 4) ? "S\(rng.below(1000))" : nil
      let t = TypeEncoding.structure(name: name, fields: fields)
      if let size = try? t.layout().size, size <= 128 { return t }
    }
    return .structure(name: nil, fields: [scalar()])
  }

  /// A union of at most 128 bytes.
  package mutating func union(depth: Int) -> TypeEncoding {
    for _ in 0..<8 {
      let fields = (0..<(2 + rng.below(2))).map { _ in field(depth: depth + 1) }
      let t = TypeEncoding.union(name: nil, fields: fields)
      if let size = try? t.layout().size, size <= 128 { return t }
    }
    return .union(name: nil, fields: [.int, .float])
  }

  /// A struct or union field: a value or an array.
  package mutating func field(depth: Int) -> TypeEncoding {
    guard rng.chance(1, in: 6) else { return value(depth: depth) }
    let element = depth < 3 && rng.chance(1, in: 3) ? structure(depth: depth) : scalar()
    return .array(count: 1 + rng.below(4), element: element)
  }
}
