import DelegateProxyMacroSupport
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
/// once. The model and generators are DelegateProxyMacroSupport's (the restate command
/// reads the same model).
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
    let expanded = DelegateExpansion.peer(
      of: declaration, attribute: node, isNested: !context.lexicalContext.isEmpty,
      location: { sourceLocation(of: $0, in: context) })
    for diagnostic in expanded.diagnostics { context.diagnose(diagnostic) }
    return expanded.peer.map { [$0] } ?? []
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
    DelegateExpansion.extensions(
      of: declaration, attribute: node, extending: type.trimmedDescription,
      location: { sourceLocation(of: $0, in: context) })
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
