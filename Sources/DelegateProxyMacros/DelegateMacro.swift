import SwiftSyntax
import SwiftSyntaxMacros

/// `@Delegate`: turns a Swift protocol into a multicast delegate.
///
/// As a peer macro it generates `<Protocol>Multicast`: for a protocol that is not
/// class-bound, a struct with value semantics (see `ValueMulticastGenerator`); otherwise a
/// `DelegateMulticast` subclass that
/// conforms to the protocol, describes its methods to the runtime (selectors as Swift's
/// `@objc` names them, parameter and result types, required or optional) and forwards
/// each call to every delegate added to it; it inherits the methods of the `@Delegate`
/// protocols this one refines (see `ForwardingGenerator`). As an extension macro it gives
/// each optional requirement a default that tells the runtime the conforming class does
/// not implement it, and — constrained to the multicast's `__Forwarding` protocol — the
/// methods a refining protocol's multicast inherits. Everything the macro cannot support is an error on the offending declaration; the
/// peer expansion reports them, the extension expansion stays silent so each is reported
/// once.
public struct DelegateMacro: PeerMacro, ExtensionMacro {
  /// The generated text is laid out already, in the project's two-space style.
  public static var formatMode: FormatMode { .disabled }

  /// The peer: `<Protocol>Multicast`, or nothing and the diagnostics if the protocol
  /// cannot become a multicast delegate.
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    let model = DelegateProtocolModel(declaration: declaration, attribute: node)
    guard model.isValid else {
      for diagnostic in model.diagnostics { context.diagnose(diagnostic) }
      return []
    }
    var generator = MulticastGenerator(model: model, isNested: !context.lexicalContext.isEmpty)
    generator.parentLocations = model.parentNodes.map { sourceLocation(of: $0, in: context) }
    generator.associatedLocations = model.associatedTypes.map {
      sourceLocation(of: $0.node, in: context)
    }
    return [
      DeclSyntax(
        stringLiteral: model.isValue ? generator.multicastStruct : generator.multicastClass)
    ]
  }

  /// The extension: defaults for the optional requirements, if there are any and the
  /// protocol is valid (the peer expansion reports what is not).
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    let model = DelegateProtocolModel(declaration: declaration, attribute: node)
    guard model.isValid else { return [] }
    let generator = MulticastGenerator(model: model)
    let extended = type.trimmedDescription
    // The empty answers the type checker confirms, each at its requirement's line.
    let checks = model.emptyAnswerChecks
    let checked = EmptyAnswerCheck.extension(
      of: extended, checks: checks,
      locations: checks.map { sourceLocation(of: $0.node, in: context) })
    return [
      generator.optionalDefaults(extending: extended),
      generator.forwardingDefaults(extending: extended),
      checked,
    ]
    .compactMap { text in
      text.flatMap { DeclSyntax(stringLiteral: $0).as(ExtensionDeclSyntax.self) }
    }
  }

  /// A `#sourceLocation` directive naming the user's line of `node`, so that an error in
  /// the generated lines after it lands where the user wrote its cause; nil when unknown.
  static func sourceLocation(of node: some SyntaxProtocol, in context: some MacroExpansionContext)
    -> String?
  {
    context.location(of: node, at: .afterLeadingTrivia, filePathMode: .filePath).map {
      "#sourceLocation(file: \($0.file.trimmedDescription), line: \($0.line.trimmedDescription))"
    }
  }
}
