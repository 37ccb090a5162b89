import SwiftDiagnostics
import SwiftSyntax

/// The Fix-Its `@Delegate` offers with its errors: attributes to insert before a
/// requirement (`@Default(<#value#>)`, `@Handle("…")`) or to remove, and words to replace
/// (`throws(E)` → `throws`, `static` → nothing, a closure type → `@escaping` it).
enum SourceFixIt {
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

  /// Replaces `node`'s text (its trivia kept) with `text`; `message` says what it does.
  static func replacing(_ node: some SyntaxProtocol, with text: String, message: String) -> FixIt {
    FixIt(
      message: DelegateFixIt(message: message),
      changes: [
        .replaceText(
          range: node.positionAfterSkippingLeadingTrivia..<node.endPositionBeforeTrailingTrivia,
          with: text, in: Syntax(node))
      ])
  }

  /// Removes a modifier (`static`) with its trailing space.
  static func removing(_ modifier: DeclModifierSyntax) -> FixIt {
    FixIt(
      message: DelegateFixIt(message: "remove '\(modifier.trimmedDescription)'"),
      changes: [
        .replaceText(
          range: modifier.positionAfterSkippingLeadingTrivia..<modifier.endPosition, with: "",
          in: Syntax(modifier))
      ])
  }

  /// Inserts `@escaping ` before a parameter's closure type.
  static func escaping(_ type: TypeSyntax) -> FixIt {
    let position = type.positionAfterSkippingLeadingTrivia
    return FixIt(
      message: DelegateFixIt(message: "insert '@escaping'"),
      changes: [.replaceText(range: position..<position, with: "@escaping ", in: Syntax(type))])
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
}
