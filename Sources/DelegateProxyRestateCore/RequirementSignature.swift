import SwiftParser
import SwiftSyntax

/// A requirement's identity (its name and labels) and its signature with everything that
/// does not change which requirement it is taken out: parameter names, `any`, module
/// qualifiers, `Self.`, spacing, where generic constraints are written. Two declarations
/// with the same ``key`` restate the same requirement; the same ``identity`` and another
/// key is a requirement whose signature changed.
public struct RequirementSignature: Sendable, Equatable {
  /// `func parser(_:foundCharacters:)`, `var metadata`, `subscript(metadataKey:)`.
  public var identity: String
  /// The normalized signature.
  public var key: String

  /// The signature of a protocol member; nil for members that are not requirements a
  /// restatement lists (associated types, type aliases).
  public init?(_ decl: DeclSyntax, modules: Set<String>) {
    let normalizer = TypeKey(modules: modules)
    if let function = decl.as(FunctionDeclSyntax.self) {
      let labels = function.signature.parameterClause.parameters.map { "\($0.firstName.text):" }
      let name = function.name.text
      identity = "func \(name)(\(labels.joined()))"
      var parts = [
        Self.isolation(function.attributes), Self.modifiers(function.modifiers), "func", name,
      ]
      parts.append(
        Self.generics(function.genericParameterClause, function.genericWhereClause, normalizer))
      parts.append(
        "("
          + function.signature.parameterClause.parameters.map { parameter in
            "\(parameter.firstName.text):\(normalizer.key(parameter.type))\(parameter.ellipsis == nil ? "" : "...")"
          }.joined(separator: ",") + ")")
      parts.append(Self.effects(function.signature.effectSpecifiers))
      parts.append("->" + Self.result(function.signature.returnClause?.type, normalizer))
      key = parts.filter { !$0.isEmpty }.joined(separator: " ")
    } else if let variable = decl.as(VariableDeclSyntax.self),
      let binding = variable.bindings.first,
      let pattern = binding.pattern.as(IdentifierPatternSyntax.self)
    {
      identity = "var \(pattern.identifier.text)"
      let type = binding.typeAnnotation.map { normalizer.key($0.type) } ?? ""
      key = [
        Self.isolation(variable.attributes), Self.modifiers(variable.modifiers), "var",
        pattern.identifier.text + ":" + type, Self.accessors(binding.accessorBlock),
      ].filter { !$0.isEmpty }.joined(separator: " ")
    } else if let subscriptDecl = decl.as(SubscriptDeclSyntax.self) {
      // A subscript's parameter has a label only when it names two: `(metadataKey _: String)`.
      let labels = subscriptDecl.parameterClause.parameters.map { parameter in
        (parameter.secondName == nil ? "_" : parameter.firstName.text) + ":"
      }
      identity = "subscript(\(labels.joined()))"
      let parameters = subscriptDecl.parameterClause.parameters.map { parameter in
        (parameter.secondName == nil ? "_" : parameter.firstName.text) + ":"
          + normalizer.key(parameter.type)
      }
      key = [
        Self.isolation(subscriptDecl.attributes), Self.modifiers(subscriptDecl.modifiers),
        "subscript",
        Self.generics(
          subscriptDecl.genericParameterClause, subscriptDecl.genericWhereClause, normalizer),
        "(" + parameters.joined(separator: ",") + ")",
        "->" + normalizer.key(subscriptDecl.returnClause.type),
        Self.accessors(subscriptDecl.accessorBlock),
      ].filter { !$0.isEmpty }.joined(separator: " ")
    } else {
      return nil
    }
  }

  /// The signature of a declaration's text (a symbol graph's), or nil when it does not
  /// parse as a protocol member.
  public init?(text: String, modules: Set<String>) {
    let file = Parser.parse(source: "protocol __Restated {\n\(text)\n}")
    guard let proto = file.statements.first?.item.as(ProtocolDeclSyntax.self),
      let member = proto.memberBlock.members.first
    else { return nil }
    self.init(member.decl, modules: modules)
  }

  /// The global-actor attributes (`@MainActor`): the only attributes that change what a
  /// conformer must provide.
  static func isolation(_ attributes: AttributeListSyntax) -> String {
    attributes.compactMap { element -> String? in
      guard let attribute = element.as(AttributeSyntax.self) else { return nil }
      let name = attribute.attributeName.trimmedDescription
      return name.hasSuffix("Actor") ? "@" + name : nil
    }.joined(separator: " ")
  }

  /// `mutating`, `nonmutating`, `static`, `nonisolated`, … in source order.
  static func modifiers(_ modifiers: DeclModifierListSyntax) -> String {
    modifiers.map(\.name.text).filter { $0 != "public" && $0 != "open" }.joined(separator: " ")
  }

  /// `async throws`, `rethrows`, `throws(E)`.
  static func effects(_ effects: FunctionEffectSpecifiersSyntax?) -> String {
    guard let effects else { return "" }
    return effects.tokens(viewMode: .sourceAccurate).map(\.text).joined(separator: " ")
  }

  /// A result type's key; `Void` and `()` are no result.
  static func result(_ type: TypeSyntax?, _ normalizer: TypeKey) -> String {
    guard let type else { return "()" }
    let key = normalizer.key(type)
    return key == "Void" ? "()" : key
  }

  /// The generic parameters' names, then every constraint, inline or in `where`, sorted.
  static func generics(
    _ clause: GenericParameterClauseSyntax?, _ whereClause: GenericWhereClauseSyntax?,
    _ normalizer: TypeKey
  ) -> String {
    var names: [String] = []
    var constraints: [String] = []
    for parameter in clause?.parameters ?? [] {
      names.append(parameter.name.text)
      if let inherited = parameter.inheritedType {
        for part in Self.composition(inherited) {
          constraints.append("\(parameter.name.text):\(normalizer.key(part))")
        }
      }
    }
    for requirement in whereClause?.requirements ?? [] {
      if let conformance = requirement.requirement.as(ConformanceRequirementSyntax.self) {
        for part in Self.composition(conformance.rightType) {
          constraints.append("\(normalizer.key(conformance.leftType)):\(normalizer.key(part))")
        }
      } else {
        constraints.append(normalizer.key(requirement.requirement))
      }
    }
    if names.isEmpty && constraints.isEmpty { return "" }
    return "<" + names.joined(separator: ",") + ">" + " where "
      + constraints.sorted().joined(separator: ",")
  }

  /// `A & B` as `[A, B]`, so `T: A & B` and `where T: A, T: B` compare equal.
  static func composition(_ type: TypeSyntax) -> [TypeSyntax] {
    if let composition = type.as(CompositionTypeSyntax.self) {
      return composition.elements.map(\.type)
    }
    return [type]
  }

  /// `{ get set }`, `{ get nonmutating set }`, `{ get async throws }`.
  static func accessors(_ block: AccessorBlockSyntax?) -> String {
    guard let block else { return "" }
    if case .accessors(let list) = block.accessors {
      return "{"
        + list.map { accessor in
          accessor.tokens(viewMode: .sourceAccurate).map(\.text).joined(separator: " ")
        }.joined(separator: " ") + "}"
    }
    return "{get}"
  }
}

/// A type's text with `any`, module qualifiers and `Self.` taken out and no spacing but
/// between two words.
struct TypeKey {
  /// The modules whose qualifiers are dropped (`Tracing.Span` → `Span`).
  var modules: Set<String>

  func key(_ node: some SyntaxProtocol) -> String {
    let tokens = Array(node.tokens(viewMode: .sourceAccurate))
    var text = ""
    var previousIsWord = false
    var index = 0
    while index < tokens.count {
      let token = tokens[index]
      let next = index + 1 < tokens.count ? tokens[index + 1] : nil
      if token.tokenKind == .keyword(.any) {
        index += 1
        continue
      }
      if next?.tokenKind == .period,
        token.tokenKind == .keyword(.Self) || modules.contains(token.text)
      {
        index += 2
        continue
      }
      let isWord =
        token.text.first.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "@" } ?? false
      if isWord && previousIsWord { text += " " }
      text += token.text
      previousIsWord =
        isWord && (token.text.last.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false)
      index += 1
    }
    return text
  }
}
