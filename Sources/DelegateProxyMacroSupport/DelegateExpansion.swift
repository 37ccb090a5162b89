import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder

/// What `@Delegate` expands to, apart from the compiler's context: the macro
/// (DelegateProxyMacros' `DelegateMacro`) hands in where it is and how to name a node's
/// line, and reports the diagnostics. The model and generators stay internal to this module;
/// the restate command reads the same model through ``DelegateRefusals``.
package enum DelegateExpansion {
  /// The peer: `<Protocol>Multicast`, or nil and the diagnostics if the protocol cannot
  /// become a multicast delegate.
  /// - Parameters:
  ///   - isNested: whether the protocol is declared inside a type.
  ///   - location: a `#sourceLocation` directive naming a node's line, or nil.
  package static func peer(
    of declaration: some SyntaxProtocol, attribute: AttributeSyntax, isNested: Bool,
    location: (Syntax) -> String?
  ) -> (peer: DeclSyntax?, diagnostics: [Diagnostic]) {
    let model = DelegateProtocolModel(declaration: declaration, attribute: attribute)
    guard model.isValid else { return (nil, model.diagnostics) }
    var generator = MulticastGenerator(model: model, isNested: isNested)
    generator.parentLocations = model.parentNodes.map { location(Syntax($0)) }
    generator.associatedLocations = model.associatedTypes.map { location($0.node) }
    return (
      DeclSyntax(
        stringLiteral: model.isValue ? generator.multicastStruct : generator.multicastClass),
      []
    )
  }

  /// The extensions: defaults for the optional requirements, the forwarding a refining
  /// protocol's multicast inherits, and the empty answers the type checker confirms; none
  /// when the protocol is not valid (the peer reports why).
  /// - Parameters:
  ///   - extended: the extended type, as written.
  ///   - location: a `#sourceLocation` directive naming a node's line, or nil.
  package static func extensions(
    of declaration: some SyntaxProtocol, attribute: AttributeSyntax, extending extended: String,
    location: (Syntax) -> String?
  ) -> [ExtensionDeclSyntax] {
    let model = DelegateProtocolModel(declaration: declaration, attribute: attribute)
    guard model.isValid else { return [] }
    let generator = MulticastGenerator(model: model)
    // The empty answers the type checker confirms, each at its requirement's line.
    let checks = model.emptyAnswerChecks
    let checked = EmptyAnswerCheck.extension(
      of: extended, checks: checks, locations: checks.map { location(Syntax($0.node)) })
    return [
      generator.optionalDefaults(extending: extended),
      generator.forwardingDefaults(extending: extended),
      checked,
    ]
    .compactMap { text in
      text.flatMap { DeclSyntax(stringLiteral: $0).as(ExtensionDeclSyntax.self) }
    }
  }
}
