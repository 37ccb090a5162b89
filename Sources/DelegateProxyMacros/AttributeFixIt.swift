import SwiftDiagnostics
import SwiftSyntax

/// The Fix-Its `@Delegate` offers with its errors: attributes to insert before a
/// requirement (`@Default(<#value#>)`, `@Handle("…")`) or to remove.
enum AttributeFixIt {
  /// Inserts `attributes` (such as `@Default(<#value#>)`) before the declaration `decl`,
  /// after its leading trivia.
  static func inserting(_ attributes: String, before decl: Syntax) -> FixIt {
    let position = decl.positionAfterSkippingLeadingTrivia
    return FixIt(
      message: DelegateFixIt(message: "insert '\(attributes)'"),
      changes: [.replaceText(range: position..<position, with: attributes + " ", in: decl)])
  }

  /// Removes `attribute` (with its trailing trivia) from its declaration.
  static func removing(_ attribute: AttributeSyntax) -> FixIt {
    FixIt(
      message: DelegateFixIt(message: "remove '\(attribute.trimmedDescription)'"),
      changes: [
        .replaceText(
          range: attribute.positionAfterSkippingLeadingTrivia..<attribute.endPosition, with: "",
          in: Syntax(attribute))
      ])
  }
}
