import Foundation

/// A protocol read from symbol graphs: its requirements, inherited ones included, in
/// declaration order (the protocol's own first, then each parent's).
public struct ForeignProtocol: Sendable {
  /// The protocol's name as written in Swift (`XMLParserDelegate`, `Span`).
  public var name: String
  /// The module that declares it.
  public var module: String
  /// Every requirement, inherited ones included.
  public var requirements: [Requirement]
  /// Whether it (or a parent) is constrained to `AnyObject`: its multicast is a class.
  public var isClassBound: Bool
  /// The parents whose requirements are not restated, and why (`NSObjectProtocol`).
  public var skippedParents: [String]
  /// Parents the graphs do not hold: their requirements could not be listed.
  public var missingParents: [String]

  /// Protocols every type or class satisfies: nothing to restate.
  static let markerProtocols: Set<String> = [
    "s:s8SendableP", "s:s16SendableMetatypeP", "s:s8CopyableP", "s:s9EscapableP",
    "s:s9BitwiseCopyableP",
  ]

  /// Parents whose requirements the conformer's class base provides (`object:` in
  /// `@Delegate`): `NSObjectProtocol`'s `isEqual(_:)`, `hash`, ….
  static let classBaseProtocols: Set<String> = ["s:10Foundation16NSObjectProtocolP"]

  /// Reads the protocol `entry` names, with its parents, from `index`.
  public init(_ entry: SymbolGraphIndex.Entry, in index: SymbolGraphIndex) {
    name = entry.symbol.pathComponents.joined(separator: ".")
    module = entry.module
    requirements = []
    isClassBound = false
    skippedParents = []
    missingParents = []
    var visited: Set<String> = []
    var seen: Set<String> = []
    collect(entry.symbol.identifier.precise, index: index, visited: &visited, seen: &seen)
    let shadowed = Set(requirements.filter { $0.kind == .associatedType }.map(\.title))
    if !shadowed.isEmpty {
      for index in requirements.indices where requirements[index].kind != .associatedType {
        requirements[index].declaration = DeclarationText.restated(
          requirements[index].fragments, shadowed: shadowed)
      }
    }
  }

  /// The empty value of a requirement's result when its type is an alias of an array, a
  /// dictionary, an optional, a number, `Bool` or a string, or an enum without payloads:
  /// the alias's or the enum's declaration is in the graphs, where the macro sees only the
  /// type's name.
  static func aliasDefault(of symbol: SymbolGraph.Symbol, in index: SymbolGraphIndex) -> String? {
    let fragments = symbol.declarationFragments ?? []
    let result: ArraySlice<SymbolGraph.Fragment>
    switch symbol.kind.identifier {
    case "swift.property":
      guard
        let colon = fragments.firstIndex(where: { $0.kind == "text" && $0.spelling.hasPrefix(": ") }
        )
      else { return nil }
      let end =
        fragments[colon...].firstIndex { $0.kind == "text" && $0.spelling.contains("{") }
        ?? fragments.endIndex
      result = fragments[(colon + 1)..<end]
    case "swift.method", "swift.subscript":
      guard let arrow = fragments.lastIndex(where: { $0.spelling.contains("->") }) else {
        return nil
      }
      // A subscript's accessors (` { get set }`) follow its result.
      let end =
        fragments[(arrow + 1)...].firstIndex { $0.kind == "text" && $0.spelling.contains("{") }
        ?? fragments.endIndex
      result = fragments[(arrow + 1)..<end]
    default:
      return nil
    }
    // `Logger.Metadata`: names and dots only (an optional or a collection of it has its own
    // empty value, which the macro sees).
    let text = result.map(\.spelling).joined().trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }),
      let named = result.last(where: { $0.kind == "typeIdentifier" })?.preciseIdentifier,
      let declaration = index.symbols[named]
    else { return nil }
    if declaration.symbol.kind.identifier == "swift.enum" {
      return firstCase(of: named, in: index).map { "\(text).\($0)" }
    }
    guard declaration.symbol.kind.identifier == "swift.typealias",
      let printed = declaration.symbol.declarationFragments.map(DeclarationText.join),
      let equals = printed.range(of: "= ")
    else { return nil }
    let aliased = printed[equals.upperBound...].trimmingCharacters(in: .whitespaces)
    if aliased.hasSuffix("?") || aliased.hasPrefix("Optional<") { return "nil" }
    if aliased.hasPrefix("[") {
      var depth = 0
      for character in aliased {
        if character == "[" { depth += 1 } else if character == "]" { depth -= 1 }
        if character == ":" && depth == 1 { return "[:]" }
      }
      return "[]"
    }
    if aliased.hasPrefix("Dictionary<") { return "[:]" }
    if aliased.hasPrefix("Array<") || aliased.hasPrefix("Set<") { return "[]" }
    // An alias of a number, `Bool` or a string: the macro's type check accepts it.
    return EmptyValue.literal(for: aliased)
  }

  /// The first case of an enum without payloads — what the macro answers for a
  /// bitwise-copyable enum of its own module (its all-zero value), said with `@Default`
  /// for another module's, where the macro cannot see that the type is one.
  static func firstCase(of usr: String, in index: SymbolGraphIndex) -> String? {
    let cases = index.relationships.filter { $0.kind == "memberOf" && $0.target == usr }
      .compactMap { index.symbols[$0.source]?.symbol }
      .filter { $0.kind.identifier == "swift.enum.case" }
    guard let first = cases.first,
      cases.allSatisfy({
        !(($0.declarationFragments.map(DeclarationText.join) ?? "").contains("("))
      })
    else { return nil }
    return first.pathComponents.last
  }

  private mutating func collect(
    _ usr: String, index: SymbolGraphIndex, visited: inout Set<String>, seen: inout Set<String>
  ) {
    guard visited.insert(usr).inserted, let entry = index.symbols[usr] else { return }
    let protocolName = entry.symbol.pathComponents.joined(separator: ".")
    let printed = entry.symbol.declarationFragments.map(DeclarationText.join) ?? ""
    if printed.contains("AnyObject")
      || printed.range(of: #":\s*class\b"#, options: .regularExpression) != nil
    {
      isClassBound = true
    }
    let defaults = Set(
      index.relationships.filter { $0.kind == "defaultImplementationOf" }.map(\.target))
    for relationship in index.relationships
    where relationship.target == usr
      && (relationship.kind == "requirementOf" || relationship.kind == "optionalRequirementOf")
    {
      // A graph and its `M@N` companions may repeat a relationship.
      guard seen.insert(relationship.source).inserted,
        let member = index.symbols[relationship.source]
      else { continue }
      var requirement = DeclarationText.requirement(
        member.symbol, protocolName: protocolName, module: entry.module,
        hasDefault: defaults.contains(relationship.source))
      requirement.aliasDefault = Self.aliasDefault(of: member.symbol, in: index)
      requirements.append(requirement)
    }
    for relationship in index.relationships
    where relationship.source == usr
      && (relationship.kind == "conformsTo" || relationship.kind == "inheritsFrom")
    {
      let parent = relationship.target
      if Self.markerProtocols.contains(parent) { continue }
      if Self.classBaseProtocols.contains(parent) {
        isClassBound = true
        let parentName =
          relationship.targetFallback ?? index.symbols[parent]?.symbol.pathComponents.joined(
            separator: ".") ?? parent
        if !skippedParents.contains(parentName) { skippedParents.append(parentName) }
        continue
      }
      if index.symbols[parent] == nil {
        let parentName = relationship.targetFallback ?? parent
        if !missingParents.contains(parentName) { missingParents.append(parentName) }
        continue
      }
      collect(parent, index: index, visited: &visited, seen: &seen)
    }
  }
}
