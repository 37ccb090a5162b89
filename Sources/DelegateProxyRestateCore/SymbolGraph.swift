/// The parts of a symbol graph file (`swift-symbolgraph-extract`'s or SwiftPM's
/// `*.symbols.json`, format 0.6) that a restatement reads: symbols with their declaration
/// fragments and availability, and the relationships between them.
public struct SymbolGraph: Decodable, Sendable {
  /// The module the graph describes (for `M@N.symbols.json`, `M`: extensions of `N`'s types).
  public var module: Module
  /// Every symbol the graph holds.
  public var symbols: [Symbol]
  /// `requirementOf`, `defaultImplementationOf`, `conformsTo`, `inheritsFrom`, …
  public var relationships: [Relationship]

  /// The graph's module.
  public struct Module: Decodable, Sendable {
    /// The module's name.
    public var name: String
  }

  /// One declaration.
  public struct Symbol: Decodable, Sendable {
    /// `swift.protocol`, `swift.method`, `swift.property`, `swift.subscript`,
    /// `swift.associatedtype`, `swift.init`, `swift.type.method`, …
    public var kind: Kind
    /// The symbol's USR.
    public var identifier: Identifier
    /// The path from the module: `["XMLParserDelegate", "parserDidStartDocument(_:)"]`.
    public var pathComponents: [String]
    /// The declaration as printed, in pieces.
    public var declarationFragments: [Fragment]?
    /// `@available` data, one entry per domain.
    public var availability: [Availability]?
    /// `public`, `internal`, …
    public var accessLevel: String?

    /// The symbol's kind.
    public struct Kind: Decodable, Sendable {
      /// `swift.protocol` and so on.
      public var identifier: String
    }

    /// The symbol's identifier.
    public struct Identifier: Decodable, Sendable {
      /// The USR (`s:13FoundationXML17XMLParserDelegateP`).
      public var precise: String
    }
  }

  /// A piece of a printed declaration.
  public struct Fragment: Decodable, Sendable, Equatable {
    /// `keyword`, `text`, `identifier`, `typeIdentifier`, `externalParam`, `attribute`, …
    public var kind: String
    /// The text.
    public var spelling: String
    /// The USR of the type a `typeIdentifier` names.
    public var preciseIdentifier: String?

    /// A fragment.
    public init(kind: String, spelling: String, preciseIdentifier: String? = nil) {
      self.kind = kind
      self.spelling = spelling
      self.preciseIdentifier = preciseIdentifier
    }
  }

  /// One domain's `@available` data.
  public struct Availability: Decodable, Sendable {
    /// `*`, `macOS`, `iOS`, `Swift`, …
    public var domain: String?
    /// The version that introduced it.
    public var introduced: Version?
    /// The version that deprecated it.
    public var deprecated: Version?
    /// The version that made it unavailable.
    public var obsoleted: Version?
    /// The `message:` text.
    public var message: String?
    /// The `renamed:` text.
    public var renamed: String?
    /// `@available(*, deprecated)`.
    public var isUnconditionallyDeprecated: Bool?
    /// `@available(*, unavailable)`.
    public var isUnconditionallyUnavailable: Bool?
  }

  /// A version number of `@available`.
  public struct Version: Decodable, Sendable {
    /// The parts.
    public var major: Int
    /// The parts.
    public var minor: Int?
    /// The parts.
    public var patch: Int?

    /// `13`, `10.15`, `1.2.3`.
    public var text: String {
      [major, minor, patch].compactMap { $0 }.map(String.init).joined(separator: ".")
    }
  }

  /// A relationship between two symbols.
  public struct Relationship: Decodable, Sendable {
    /// `requirementOf`, `optionalRequirementOf`, `defaultImplementationOf`, `conformsTo`,
    /// `inheritsFrom`, `memberOf`, …
    public var kind: String
    /// The USR of the symbol the relationship starts from.
    public var source: String
    /// The USR of the symbol it points to.
    public var target: String
    /// The target's qualified name when the graph does not hold it (`Swift.Sendable`).
    public var targetFallback: String?
  }
}
