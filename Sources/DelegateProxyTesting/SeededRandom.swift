/// A small, fast, seeded random number generator (SplitMix64, Steele, Lea & Flood 2014)
/// whose runs replay exactly from their seed.
@usableFromInline
package struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator whose sequence is fixed by `seed`.
  package init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  @usableFromInline package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// An independent stream for item `index` of a run seeded with `seed`, so any one item
  /// replays without generating the ones before it.
  package static func stream(seed: UInt64, index: Int) -> SeededRandom {
    var mixer = SeededRandom(
      seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
    return SeededRandom(seed: mixer.next())
  }

  /// A value in `0..<bound` (`bound` > 0).
  package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  /// True with probability `numerator / denominator`.
  package mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
    below(denominator) < numerator
  }

  /// The seed a run uses: the environment variable `variable` (decimal or `0x` hex) when
  /// set — to replay a printed seed — else a fresh random one.
  @usableFromInline package static func seed(fromEnvironment variable: String = "DP_SIGNATURE_SEED")
    -> UInt64
  {
    if let text = Environment.value(variable) {
      let parsed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
      if let parsed { return parsed }
    }
    var system = SystemRandomNumberGenerator()
    return system.next()
  }
}
