/// The differential tests' seeded generator (SplitMix64): the same seed, the same
/// sequence, so a failing seed replays exactly. One for every integration test target.
public struct SeededRandom: RandomNumberGenerator {
  /// The generator's state; its first value is the seed.
  public var state: UInt64

  /// A generator starting from `state` (the seed).
  public init(state: UInt64) { self.state = state }

  /// The next value of the sequence.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
