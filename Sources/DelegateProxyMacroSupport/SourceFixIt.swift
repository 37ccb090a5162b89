import SwiftDiagnostics
import SwiftSyntax

/// The Fix-Its `@Delegate` offers with its errors: attributes to insert before a
/// requirement (`@Default(<#value#>)`, `@Handle("…")`) or to remove, and words to replace
/// (`throws(E)` → `throws`, `static` → nothing, a closure type → `@escaping` it).
enum SourceFixIt {
  /// Inserts `attributes` (such as `@Default(<#value#>)`) before the declaration `decl`,
  /// after its leading trivia.
  static func inserting(_ attributes: String, before decl: Syntax) -> FixIt {
    FixIt(
      message: DelegateFixIt(message: "insert '\(attributes)'"),
      changes: [insertion(attributes + " ", before: decl)])
  }

  /// Removes `attribute` (with its trailing trivia) from its declaration.
  static func removing(_ attribute: AttributeSyntax) -> FixIt {
    FixIt(
      message: DelegateFixIt(message: "remove '\(attribute.trimmedDescription)'"),
      changes: [replacement(of: attribute, throughTrailingTrivia: true, with: "")])
  }

  /// Replaces `node`'s text (its trivia kept) with `text`; `message` says what it does.
  static func replacing(_ node: some SyntaxProtocol, with text: String, message: String) -> FixIt {
    FixIt(
      message: DelegateFixIt(message: message),
      changes: [replacement(of: node, throughTrailingTrivia: false, with: text)])
  }

  /// Removes a modifier (`static`) with its trailing space.
  static func removing(_ modifier: DeclModifierSyntax) -> FixIt {
    FixIt(
      message: DelegateFixIt(message: "remove '\(modifier.trimmedDescription)'"),
      changes: [replacement(of: modifier, throughTrailingTrivia: true, with: "")])
  }

  /// Inserts `@escaping ` before a parameter's closure type.
  static func escaping(_ type: TypeSyntax) -> FixIt {
    FixIt(
      message: DelegateFixIt(message: "insert '@escaping'"),
      changes: [insertion("@escaping ", before: type)])
  }

  /// Removes the attribute `@name` (or `@DelegateProxy.name`) from `attributes`, if there.
  static func removing(attribute name: String, from attributes: AttributeListSyntax) -> FixIt? {
    for element in attributes {
      guard case .attribute(let attribute) = element else { continue }
      let spelled = attribute.attributeName.trimmedDescription
      if spelled == name || spelled == "DelegateProxy.\(name)" { return removing(attribute) }
    }
    return nil
  }

  // The two textual edits above. swift-syntax 602 has `FixIt.Change.replaceText`; before
  // it (600, 601) a change replaces a whole node, so the same text is written as a token
  // that spells it, standing where the node stood, with the trivia the edit keeps.

  /// Inserts `text` where `node`'s text begins (after its leading trivia).
  private static func insertion(_ text: String, before node: some SyntaxProtocol)
    -> FixIt.Change
  {
    #if canImport(SwiftSyntax602)
      let position = node.positionAfterSkippingLeadingTrivia
      return .replaceText(range: position..<position, with: text, in: Syntax(node))
    #else
      let first = node.firstToken(viewMode: .sourceAccurate)!
      return .replace(
        oldNode: Syntax(first),
        newNode: Syntax(first.with(\.tokenKind, .identifier(text + first.text))))
    #endif
  }

  /// Replaces `node`'s text after its leading trivia, up to its end or (when
  /// `throughTrailingTrivia` is false) its trailing trivia, with `text`.
  private static func replacement(
    of node: some SyntaxProtocol, throughTrailingTrivia: Bool, with text: String
  ) -> FixIt.Change {
    #if canImport(SwiftSyntax602)
      let end = throughTrailingTrivia ? node.endPosition : node.endPositionBeforeTrailingTrivia
      return .replaceText(
        range: node.positionAfterSkippingLeadingTrivia..<end, with: text, in: Syntax(node))
    #else
      return .replace(
        oldNode: Syntax(node),
        newNode: Syntax(
          TokenSyntax(
            .identifier(text), leadingTrivia: node.leadingTrivia,
            trailingTrivia: throughTrailingTrivia ? [] : node.trailingTrivia, presence: .present)))
    #endif
  }
}
