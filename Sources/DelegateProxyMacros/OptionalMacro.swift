import SwiftSyntax
import SwiftSyntaxMacros

/// The marker of an optional requirement in a `@Delegate` protocol. It generates nothing:
/// `@Delegate` reads it.
public struct OptionalMacro: PeerMacro {
  /// Nothing: the marker only tells `@Delegate` the requirement is optional.
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}
