// The types the generated protocols' requirements use, public: the generator's protocols
// are restated from this module's symbol graph (Scripts/restate.sh writes Parents.swift
// next to this file for the run, then removes it).

/// A struct parameter and result type.
public struct GenPoint: Equatable, Sendable {
  /// The first coordinate.
  public var x: Int
  /// The second coordinate.
  public var y: Int
  /// A point.
  public init(x: Int, y: Int) {
    self.x = x
    self.y = y
  }
}

/// An enum parameter and result type.
public enum GenMode: Sendable { case fast, slow, off }

/// A class parameter type.
public final class GenToken: Sendable {
  /// Its name.
  public let name: String
  /// A token.
  public init(_ name: String) { self.name = name }
}

/// What a typed `throws` throws.
public struct GenError: Error {
  /// An error.
  public init() {}
}
