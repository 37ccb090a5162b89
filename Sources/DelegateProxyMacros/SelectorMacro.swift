import SwiftSyntax
import SwiftSyntaxMacros

/// `@Selector("name:with:")`: an explicit selector for a requirement of a `@Delegate`
/// protocol. It generates nothing: `@Delegate` reads and checks it.
public struct SelectorMacro: PeerMacro {
  /// Nothing: `@Delegate` reads the selector and reports a malformed one.
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}
