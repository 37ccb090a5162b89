import SwiftDiagnostics
import SwiftSyntax

/// An associated type the multicast chooses: `associatedtype Span: Spans` in a `@Delegate`
/// protocol, or `where Span: Spans` on a `@Delegate(for:)` one (restating an associated
/// type is better said with a `where` clause, the compiler warns). Its constraint `Spans`
/// is a `@Delegate` protocol, so the multicast binds it to `SpansMulticast` — the name the
/// macro gives every multicast — and a requirement answering it (`-> Span`, `-> Span?`)
/// gathers each member's own answer into one (see `DelegateGenericMethod.gather`): every
/// member's span, not only one's.
struct DelegateAssociatedType {
  /// The associated type's name, such as `Span`.
  var name: String
  /// The multicast that binds it: the constraint's name with `Multicast` appended.
  var multicast: String
  /// Where the user names it, for the binding's `#sourceLocation` (a constraint that is
  /// not a `@Delegate` protocol is then an error on that line).
  var node: Syntax

  /// Reads `associatedtype Name: P` (a body member), reporting what cannot be bound.
  static func read(_ decl: AssociatedTypeDeclSyntax, diagnostics: inout [Diagnostic])
    -> DelegateAssociatedType?
  {
    let name = decl.name.text
    func refuse(_ problem: String) -> DelegateAssociatedType? {
      diagnostics.append(
        Diagnostic(
          node: Syntax(decl),
          message: DelegateDiagnostic.associatedType(
            name,
            problem:
              "\(problem); constrain it to one @Delegate protocol ('associatedtype \(name): P'), and the multicast binds it to that protocol's multicast (PMulticast), gathering the members' answers into one"
          )))
      return nil
    }
    if decl.initializer != nil {
      return refuse("it has a default type ('= …'), which the multicast would not use")
    }
    if decl.genericWhereClause != nil {
      return refuse("it has a 'where' clause")
    }
    let inherited = decl.inheritanceClause?.inheritedTypes.map(\.type) ?? []
    guard inherited.count == 1, let constraint = inherited.first, isProtocolName(constraint) else {
      return refuse(
        inherited.isEmpty
          ? "it has no constraint"
          : "its constraint '\(decl.inheritanceClause!.inheritedTypes.trimmedDescription)' is not one protocol name"
      )
    }
    return DelegateAssociatedType(
      name: name, multicast: constraint.trimmedDescription + "Multicast", node: Syntax(constraint))
  }

  /// Reads a protocol's `where` clause: each `Name: P` requirement binds the associated
  /// type `Name` of the protocol it refines; anything else is reported.
  static func read(
    _ whereClause: GenericWhereClauseSyntax, protocolName: String,
    diagnostics: inout [Diagnostic]
  ) -> [DelegateAssociatedType] {
    var bound: [DelegateAssociatedType] = []
    for requirement in whereClause.requirements {
      guard case .conformanceRequirement(let conformance) = requirement.requirement,
        let left = conformance.leftType.as(IdentifierTypeSyntax.self),
        left.genericArgumentClause == nil, left.name.text != "Self",
        isProtocolName(conformance.rightType)
      else {
        diagnostics.append(
          Diagnostic(
            node: Syntax(requirement),
            message: DelegateDiagnostic.whereClause(
              protocolName, requirement: requirement.requirement.trimmedDescription)))
        continue
      }
      bound.append(
        DelegateAssociatedType(
          name: left.name.text, multicast: conformance.rightType.trimmedDescription + "Multicast",
          node: Syntax(conformance.rightType)))
    }
    return bound
  }

  /// Whether `type` is a plain (possibly qualified) name, with no generic arguments.
  private static func isProtocolName(_ type: TypeSyntax) -> Bool {
    if let identifier = type.as(IdentifierTypeSyntax.self) {
      return identifier.genericArgumentClause == nil && identifier.name.text != "Any"
        && identifier.name.text != "AnyObject"
    }
    if let member = type.as(MemberTypeSyntax.self) {
      return member.genericArgumentClause == nil && isProtocolName(member.baseType)
    }
    return false
  }

  /// Whether `type` names this associated type anywhere: `Span`, `Self.Span`, `[Span]`.
  func isNamed(in node: some SyntaxProtocol) -> Bool {
    Self.names(in: Syntax(node)).contains(name)
  }

  /// The associated type `type` is, directly or as an optional (`Span`, `Self.Span`,
  /// `Span?`, `Optional<Span>`), with whether it is optional; nil for any other type.
  static func answered(by type: TypeSyntax) -> (name: String, isOptional: Bool)? {
    func plain(_ type: TypeSyntax) -> String? {
      if let identifier = type.as(IdentifierTypeSyntax.self),
        identifier.genericArgumentClause == nil
      {
        return identifier.name.text
      }
      if let member = type.as(MemberTypeSyntax.self),
        member.baseType.as(IdentifierTypeSyntax.self)?.name.text == "Self"
      {
        return member.name.text
      }
      return nil
    }
    if let name = plain(type) { return (name, false) }
    if let optional = type.as(OptionalTypeSyntax.self), let name = plain(optional.wrappedType) {
      return (name, true)
    }
    if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
      let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 1,
      let wrapped = arguments.first!.typeArgument, let name = plain(wrapped)
    {
      return (name, true)
    }
    return nil
  }

  /// The type names `node` uses: each identifier type's name and each `Self.Name`'s.
  private static func names(in node: Syntax) -> Set<String> {
    var found: Set<String> = []
    if let identifier = node.as(IdentifierTypeSyntax.self) {
      found.insert(identifier.name.text)
    } else if let member = node.as(MemberTypeSyntax.self),
      member.baseType.as(IdentifierTypeSyntax.self)?.name.text == "Self"
    {
      found.insert(member.name.text)
    }
    for child in node.children(viewMode: .sourceAccurate) {
      found.formUnion(names(in: child))
    }
    return found
  }
}
