import SwiftParser
import SwiftSyntax

/// A Swift file that holds (or will hold) a `@Delegate(for: P.self)` protocol: its text,
/// the restating protocol found in it, and that protocol's members.
public struct RestatementFile {
  /// The whole file.
  public var text: String
  /// The file's syntax tree.
  let tree: SourceFileSyntax
  /// The restating protocol, when the file has one for the parent.
  let restating: ProtocolDeclSyntax?

  /// Parses `text` and finds the `@Delegate(for: …)` protocol restating `parentName`
  /// (`XMLParserDelegate`, or qualified: `Tracing.Span`).
  public init(text: String, parentName: String) {
    self.text = text
    tree = Parser.parse(source: text)
    restating = Self.find(parentName, in: tree)
  }

  /// Whether the file restates the parent.
  public var hasRestatement: Bool { restating != nil }

  /// The restating protocol's name.
  public var restatingName: String? { restating?.name.text }

  /// The `import`ed module names.
  public var imports: [String] {
    tree.statements.compactMap { $0.item.as(ImportDeclSyntax.self)?.path.trimmedDescription }
  }

  /// The restating protocol's members, each with its text (comments and attributes
  /// included) and signature.
  var members: [Member] {
    restating?.memberBlock.members.map { item in Member(item: item) } ?? []
  }

  /// One member of the restating protocol as the file has it.
  struct Member {
    /// The member.
    var item: MemberBlockItemSyntax

    /// Its text as written: comments, attributes, signature, from the indentation of its
    /// first line (blank lines before it dropped; no trailing newline).
    var text: String {
      var lines = item.description.split(separator: "\n", omittingEmptySubsequences: false)
      while lines.count > 1, let first = lines.first, first.allSatisfy(\.isWhitespace) {
        lines.removeFirst()
      }
      return lines.joined(separator: "\n").trimmingTrailingWhitespace
    }

    /// Its comments and the attributes a restatement does not write (`@Default`,
    /// `@Selector`, …): what a rewrite of its signature keeps.
    var keptPrefix: String {
      var lines: [String] = []
      for piece in item.leadingTrivia {
        switch piece {
        case .lineComment(let text), .docLineComment(let text): lines.append(text)
        case .blockComment(let text), .docBlockComment(let text): lines.append(text)
        default: break
        }
      }
      let attributes: AttributeListSyntax? =
        item.decl.as(FunctionDeclSyntax.self)?.attributes
        ?? item.decl.as(VariableDeclSyntax.self)?.attributes
        ?? item.decl.as(SubscriptDeclSyntax.self)?.attributes
      for element in attributes ?? [] {
        guard let attribute = element.as(AttributeSyntax.self),
          attribute.attributeName.trimmedDescription != "available"
        else { continue }
        lines.append(attribute.trimmedDescription)
      }
      return lines.map { $0 + "\n" }.joined()
    }

    func signature(modules: Set<String>) -> RequirementSignature? {
      RequirementSignature(item.decl, modules: modules)
    }
  }

  /// The restating protocol's `@Delegate` arguments as written: `for:` without `.self`
  /// (`Tracing.Span`), and `semantics:` without the dot (`value`), when given.
  var delegateArguments: (parent: String?, semantics: String?) {
    let attribute = restating?.attributes.lazy.compactMap { $0.as(AttributeSyntax.self) }
      .first { $0.attributeName.trimmedDescription == "Delegate" }
    guard case .argumentList(let arguments)? = attribute?.arguments else { return (nil, nil) }
    func argument(_ label: String, dropping suffix: String, prefix: String) -> String? {
      guard
        var text = arguments.first(where: { $0.label?.text == label })?.expression
          .trimmedDescription
      else { return nil }
      if text.hasSuffix(suffix) { text.removeLast(suffix.count) }
      if text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
      return text
    }
    return (
      argument("for", dropping: ".self", prefix: ""),
      argument("semantics", dropping: "", prefix: ".")
    )
  }

  /// The restating protocol's `where` clause requirements, as written (`Span: Spans`).
  var whereRequirements: [String] {
    restating?.genericWhereClause?.requirements.map {
      $0.requirement.trimmedDescription
    } ?? []
  }

  /// The file's text with `bindings` the restating protocol's `where` clause lacks added to
  /// it (`--bind` on a file written without it); nil when it has them all.
  func adding(bindings: [(String, String)]) -> String? {
    guard let restating else { return nil }
    let present = Set(RestatementWriter.bound([], whereRequirements).map(\.0))
    let missing = bindings.filter { !present.contains($0.0) }.map { "\($0.0): \($0.1)" }
    guard !missing.isEmpty else { return nil }
    let utf8 = Array(text.utf8)
    let offset: Int
    let insertion: String
    if let clause = restating.genericWhereClause {
      offset = clause.endPositionBeforeTrailingTrivia.utf8Offset
      insertion = ", " + missing.joined(separator: ", ")
    } else {
      let end =
        restating.inheritanceClause?.endPositionBeforeTrailingTrivia
        ?? restating.name
        .endPositionBeforeTrailingTrivia
      offset = end.utf8Offset
      insertion = " where " + missing.joined(separator: ", ")
    }
    return String(decoding: utf8[..<offset], as: UTF8.self) + insertion
      + String(decoding: utf8[offset...], as: UTF8.self)
  }

  static func find(_ parentName: String, in tree: SourceFileSyntax) -> ProtocolDeclSyntax? {
    let parentLast = parentName.split(separator: ".").last.map(String.init) ?? parentName
    for statement in tree.statements {
      guard let proto = statement.item.as(ProtocolDeclSyntax.self) else { continue }
      for element in proto.attributes {
        guard let attribute = element.as(AttributeSyntax.self),
          attribute.attributeName.trimmedDescription == "Delegate",
          case .argumentList(let arguments)? = attribute.arguments,
          let forArgument = arguments.first(where: { $0.label?.text == "for" })
        else { continue }
        var named = forArgument.expression.trimmedDescription
        if named.hasSuffix(".self") { named.removeLast(5) }
        if named == parentName || named.split(separator: ".").last.map(String.init) == parentLast {
          return proto
        }
      }
    }
    return nil
  }

  /// The text from the start of the file to the restating protocol's `{`, and from its `}`
  /// to the end: what a rewrite keeps around the members.
  var around: (before: String, after: String)? {
    guard let restating else { return nil }
    let utf8 = Array(text.utf8)
    let open = restating.memberBlock.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset
    let close = restating.memberBlock.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset
    return (
      String(decoding: utf8[..<open], as: UTF8.self),
      String(decoding: utf8[close...], as: UTF8.self)
    )
  }
}

extension String {
  /// The string without trailing spaces and newlines.
  var trimmingTrailingWhitespace: String {
    var copy = self
    while let last = copy.last, last.isWhitespace { copy.removeLast() }
    return copy
  }
}
