/// One requirement of the protocol being restated (its own or a parent's), as the symbol
/// graph prints it.
public struct Requirement: Sendable, Equatable {
  /// What kind of member it is.
  public enum Kind: String, Sendable {
    /// `func`.
    case method
    /// `var`.
    case property
    /// `subscript`.
    case `subscript`
    /// `associatedtype`: bound by the restating protocol's `where` clause, not restated.
    case associatedType
    /// `init`, `static`/`class` members: a multicast cannot forward them.
    case unforwardable
  }

  /// What kind of member it is.
  public var kind: Kind
  /// The symbol graph's title: `parser(_:foundCharacters:)`, `metadata`, `Span`.
  public var title: String
  /// The declaration as written in the restatement: the symbol graph's text, with
  /// `Self.` taken off associated types (the macro refuses `Self`).
  public var declaration: String
  /// `@available` attributes, one a line.
  public var availability: [String]
  /// The protocol that declares it (`Base` for a requirement `Events` inherits).
  public var protocolName: String
  /// The module that declares that protocol.
  public var module: String
  /// Whether a default implementation exists (members that lack the method run it).
  public var hasDefault: Bool
  /// Modules the declaration's types come from (for the file's imports).
  public var typeModules: [String]
  /// The empty value of a result whose type is an alias of a collection or an optional
  /// (`Logger.Metadata` = `[String: MetadataValue]` → `[:]`): the macro sees only the
  /// alias's name, so the restatement says it with `@Default`.
  public var aliasDefault: String?
  /// The symbol graph's fragments the declaration was written from.
  var fragments: [SymbolGraph.Fragment] = []

  /// A requirement.
  public init(
    kind: Kind, title: String, declaration: String, availability: [String] = [],
    protocolName: String, module: String, hasDefault: Bool, typeModules: [String] = []
  ) {
    self.kind = kind
    self.title = title
    self.declaration = declaration
    self.availability = availability
    self.protocolName = protocolName
    self.module = module
    self.hasDefault = hasDefault
    self.typeModules = typeModules
    self.aliasDefault = nil
  }
}
