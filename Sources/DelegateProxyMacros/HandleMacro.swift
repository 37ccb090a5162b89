import SwiftSyntax
import SwiftSyntaxMacros

/// `@Handle("name")`: the name of a requirement's typed handle, for one that would share
/// its derived handle with another (an overload by parameter type). It generates nothing:
/// `@Delegate` reads it.
public struct HandleMacro: PeerMacro {
  /// Nothing: `@Delegate` reads the name.
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}
