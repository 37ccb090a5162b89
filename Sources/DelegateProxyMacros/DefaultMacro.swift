import SwiftSyntax
import SwiftSyntaxMacros

/// `@Default(value)`: what a value-returning requirement of a `@Delegate` protocol answers
/// when no delegate answers it. It generates nothing: `@Delegate` reads it.
public struct DefaultMacro: PeerMacro {
  /// Nothing: `@Delegate` reads the value.
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}
