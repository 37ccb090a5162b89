import DelegateProxyMacroSupport
import SwiftParser
import SwiftSyntax

/// What the `@Delegate` macro refuses among a protocol's requirements, found before anything
/// is written by reading the restatement with the macro's own model
/// (DelegateProxyMacroSupport): its reasons, word for word, so the command and the macro
/// cannot disagree.
struct Refusal {
  /// The macro's reason for each requirement it refuses, by index in the parent's
  /// requirements.
  var reasons: [Int: String] = [:]
  /// For each associated type no `where` clause binds, by name: the macro's reason for not
  /// binding it (what it says of the associated type declared without a constraint, which
  /// is what the restating protocol has of it).
  var unbound: [String: String] = [:]

  /// The diagnostics the command settles itself rather than refusing: a result with no
  /// empty value (`--default`), overloads sharing a handle or selector (the command writes
  /// `@Handle` and `@Selector`).
  static let settledByCommand: Set<String> = [
    "noZeroAnswer", "duplicateMessageName", "duplicateSelector",
  ]

  /// Reads `requirements` as the restating protocol `restatingName` of `parentSpelling`
  /// would list them.
  /// - Parameters:
  ///   - semantics: the restatement's `semantics:` argument, if it has one.
  ///   - bound: the associated types bound, with their `@Delegate` protocols
  ///     (`where Span: Spans`).
  init(
    parentSpelling: String, restatingName: String, semantics: String?,
    requirements: [Requirement], bound: [(String, String)]
  ) {
    let associated = requirements.filter { $0.kind == .associatedType }.map(\.title)
    var bindings = bound.filter { associated.contains($0.0) }
    for name in associated where !bound.contains(where: { $0.0 == name }) {
      // Read as bound, so that its uses are read as the macro reads them once it is.
      bindings.append((name, "__Unbound\(name)"))
    }
    let listed = requirements.indices.filter {
      requirements[$0].kind != .associatedType
        && !requirements[$0].availability.contains { $0.contains("unavailable") }
    }
    let found = Self.refusals(
      parentSpelling: parentSpelling, restatingName: restatingName, semantics: semantics,
      bindings: bindings,
      members: listed.map { requirements[$0].declaration })
    for refusal in found where !Self.settledByCommand.contains(refusal.id) {
      guard let member = refusal.member, member < listed.count else { continue }
      let index = listed[member]
      reasons[index] = reasons[index].map { $0 + "; " + refusal.message } ?? refusal.message
    }
    let names = associated.filter { name in !bound.contains { $0.0 == name } }
    let declared = Self.refusals(
      parentSpelling: parentSpelling, restatingName: restatingName, semantics: semantics,
      bindings: [],
      members: names.map { "associatedtype \($0)" })
    for refusal in declared {
      guard let member = refusal.member, member < names.count else { continue }
      unbound[names[member]] = refusal.message
    }
  }

  /// What the macro reports on `@Delegate(for: P.self) protocol Ps: P where … { … }` listing
  /// `members`.
  static func refusals(
    parentSpelling: String, restatingName: String, semantics: String?, bindings: [(String, String)],
    members: [String]
  ) -> [DelegateRefusal] {
    let attribute =
      "@Delegate(for: \(parentSpelling).self\(semantics.map { ", semantics: .\($0)" } ?? ""))"
    let whereClause =
      bindings.isEmpty
      ? "" : " where " + bindings.map { "\($0.0): \($0.1)" }.joined(separator: ", ")
    // One member a line: a member is one item of the body, as in the written file.
    let source =
      "\(attribute)\nprotocol \(restatingName): \(parentSpelling)\(whereClause) {\n"
      + members.map { $0.replacingOccurrences(of: "\n", with: " ") + "\n" }.joined() + "}\n"
    let file = Parser.parse(source: source)
    // A declaration that does not read as one member: nothing to relay here, and the
    // written file's build reports what the macro says of it.
    guard let declaration = file.statements.first?.item.as(ProtocolDeclSyntax.self),
      declaration.memberBlock.members.count == members.count
    else { return [] }
    return DelegateRefusals.refusals(of: declaration)
  }
}
