import Foundation
import SwiftParser
import SwiftSyntax

/// Writes — or rewrites in place — the `@Delegate(for: P.self)` protocol that restates
/// every requirement of a protocol read from symbol graphs.
///
/// A rewrite keeps everything around the restating protocol, the protocol's own line
/// (its name, attributes, `where` clause), each member whose signature still matches
/// verbatim, and, on a member whose signature changed, its comments and attributes other
/// than `@available` (`@Default`, `@Selector`). Nothing else needs keeping: policies are
/// set in code, on the multicast, not in this file.
public struct RestatementWriter {
  /// The protocol restated.
  public var parent: ForeignProtocol
  /// The name the parent is written as (`XMLParserDelegate`, `Tracing.Span`).
  public var parentSpelling: String
  /// The restating protocol's name for a new file (a rewrite keeps the file's).
  public var restatingName: String
  /// `value` or `reference` for a new file; nil chooses `value` for a protocol that is
  /// not class-bound and has no associated types.
  public var semantics: String?
  /// Associated types bound to `@Delegate` protocols: `Span` → `Spans`.
  public var bindings: [(String, String)]
  /// The module the file is compiled in: not imported.
  public var userModule: String?
  /// The command line that wrote the file, for its header.
  public var command: String
  /// `--default TYPE=EXPRESSION`: the `@Default(EXPRESSION)` written on each value-returning
  /// requirement whose result type is spelled `TYPE`.
  public var defaults: [String: String]

  /// A writer.
  public init(
    parent: ForeignProtocol, parentSpelling: String, restatingName: String? = nil,
    semantics: String? = nil, bindings: [(String, String)] = [], userModule: String? = nil,
    command: String, defaults: [String: String] = [:]
  ) {
    self.parent = parent
    self.parentSpelling = parentSpelling
    self.restatingName = restatingName ?? Self.defaultName(for: parent.name)
    self.semantics = semantics
    self.bindings = bindings
    self.userModule = userModule
    self.command = command
    self.defaults = Dictionary(
      defaults.map { (EmptyValue.key($0.key), $0.value) }, uniquingKeysWith: { _, last in last })
  }

  /// What a write produced.
  public struct Output: Sendable {
    /// The file's new text.
    public var text: String
    /// The requirements the restating protocol lists.
    public var restated: Int
    /// What changed, one a line.
    public var notes: [String]
    /// The requirements written without the `@Default` the macro needs: the file does not
    /// compile until each gets one (`--default`, or by hand).
    public var missingDefaults: [MissingDefault] = []
    /// The associated types no `where` clause binds: the file does not compile until each
    /// is bound (`--bind`).
    public var unbound: [UnboundAssociatedType] = []
  }

  /// An associated type of the parent that the restating protocol does not bind.
  public struct UnboundAssociatedType: Sendable, Equatable, CustomStringConvertible {
    /// The protocol that declares it.
    public var protocolName: String
    /// Its name.
    public var name: String
    /// What the `@Delegate` macro says of it.
    public var reason: String

    /// The line the command prints: the macro's reason, and the option to pass.
    public var description: String {
      "\(protocolName)'s associated type '\(name)' is not bound: \(reason); in a restatement that constraint is the 'where' clause: pass --bind \(name)=P, P a @Delegate protocol restating \(name)'s constraint"
    }
  }

  /// A value-returning requirement whose result type has no undisputed empty value and
  /// that no `@Default` answers.
  public struct MissingDefault: Sendable, Equatable, CustomStringConvertible {
    /// The protocol that declares it.
    public var protocolName: String
    /// Its declaration.
    public var declaration: String
    /// Its result type, as written.
    public var resultType: String

    /// Why it needs a `@Default`, and the option to pass.
    public var reason: String {
      "whose result '\(resultType)' has no empty value for @Delegate to answer when no delegate answers: pass --default '\(resultType)=<expression>' (or add @Default(<expression>) above it)"
    }

    /// The line the command prints: what, why, and the option to pass.
    public var description: String { "\(protocolName) requires '\(declaration)', \(reason)" }
  }

  /// `XMLParserDelegate` → `XMLParserDelegates`, `MetricsFactory` → `MetricsFactories`.
  public static func defaultName(for parent: String) -> String {
    let last = parent.split(separator: ".").last.map(String.init) ?? parent
    if last.hasSuffix("y"), let before = last.dropLast().last, !"aeiou".contains(before) {
      return last.dropLast() + "ies"
    }
    if last.hasSuffix("s") || last.hasSuffix("x") || last.hasSuffix("ch") || last.hasSuffix("sh") {
      return last + "es"
    }
    return last + "s"
  }

  /// The modules whose qualifiers signatures ignore.
  var modules: Set<String> {
    Set(parent.requirements.flatMap(\.typeModules) + parent.requirements.map(\.module) + ["Swift"])
  }

  /// The explicit handle and selector of an overload whose name and labels an earlier
  /// requirement has: its base name followed by its parameters' type names
  /// (`record(_ value: Double)` → `recordDouble`, `recordDouble:`), the name the macro's
  /// Fix-It suggests.
  static func overloadName(_ declaration: String) -> (handle: String, selector: String)? {
    let source = Parser.parse(source: declaration)
    guard let function = source.statements.first?.item.as(FunctionDeclSyntax.self) else {
      return nil
    }
    let parameters = Array(function.signature.parameterClause.parameters)
    let types = parameters.map { parameter in
      parameter.type.trimmedDescription.filter { $0.isLetter || $0.isNumber }
    }
    let handle = function.name.text + types.joined()
    var pieces = [handle]
    for parameter in parameters.dropFirst() {
      pieces.append(parameter.firstName.text == "_" ? "" : parameter.firstName.text)
    }
    let selector = parameters.isEmpty ? handle : pieces.map { $0 + ":" }.joined()
    return (handle, selector)
  }

  /// Writes the restatement over `existing` (a file's text; nil or no restating protocol
  /// in it: a new protocol, appended).
  public func write(over existing: String?) throws -> Output {
    var notes: [String] = []
    var missingDefaults: [MissingDefault] = []
    var file = existing.map { RestatementFile(text: $0, parentName: parentSpelling) }
    // `--bind` on a file written without it: the binding joins the protocol's line.
    if let bound = file?.adding(bindings: bindings) {
      file = RestatementFile(text: bound, parentName: parentSpelling)
      notes.append("bound: \(bindings.map { "\($0.0): \($0.1)" }.joined(separator: ", "))")
    }
    let oldMembers = file?.members ?? []
    var used = Array(repeating: false, count: oldMembers.count)
    let modules = self.modules
    let oldSignatures = oldMembers.map { $0.signature(modules: modules) }
    var lines: [String] = []
    var restated = 0
    // The handles already taken, by identity (`func record(_:)`): a later overload that
    // would share one is named explicitly, as the macro asks (a handle never changes when
    // a requirement is added).
    var identities: Set<String> = []
    let bound = Self.bound(bindings, file?.whereRequirements ?? [])
    let refusal = Refusal(
      parentSpelling: parentSpelling, restatingName: file?.restatingName ?? restatingName,
      semantics: chosenSemantics, requirements: parent.requirements, bound: bound)

    for (index, requirement) in parent.requirements.enumerated() {
      if requirement.kind == .associatedType { continue }
      if requirement.availability.contains(where: { $0.contains("unavailable") }) { continue }
      if let reason = refusal.reasons[index] {
        if requirement.hasDefault {
          notes.append(
            "not restated: '\(requirement.declaration)' (\(reason); its default implementation answers)"
          )
          continue
        }
        throw RestateError.refusedRequirement(
          protocolName: requirement.protocolName, declaration: requirement.declaration,
          reason: reason)
      }
      let signature = RequirementSignature(text: requirement.declaration, modules: modules)
      let overloadName =
        signature.map { identities.insert($0.identity).inserted } == false
        ? Self.overloadName(requirement.declaration) : nil
      var match = oldSignatures.indices.first {
        !used[$0] && oldSignatures[$0]?.key == signature?.key
      }
      let answer = defaultAnswer(for: requirement)
      if let found = match {
        let hasDefault = oldMembers[found].keptPrefix.contains("@Default")
        if hasDefault || answer.written == nil {
          used[found] = true
          lines.append(oldMembers[found].text)
          restated += 1
          if !hasDefault, let missing = answer.missing { missingDefaults.append(missing) }
          continue
        }
      }
      // A member still in step that gets a @Default now (`--default`) is rewritten from its
      // kept comments and attributes, like a changed one.
      if match == nil {
        match = oldSignatures.indices.first {
          !used[$0] && oldSignatures[$0]?.identity == signature?.identity
        }
      }
      let unchanged = match.map { oldSignatures[$0]?.key == signature?.key } ?? false
      var prefix = ""
      if let match {
        used[match] = true
        prefix = oldMembers[match].keptPrefix
      }
      if let match, !unchanged {
        notes.append(
          "updated: '\(oldMembers[match].item.decl.trimmedDescription)' is now '\(requirement.declaration)'"
        )
      } else if match == nil, file?.hasRestatement == true {
        notes.append("added: '\(requirement.declaration)'")
      }
      if !prefix.contains("@Default") {
        if let written = answer.written {
          prefix += "@Default(\(written))\n"
        } else if let missing = answer.missing {
          missingDefaults.append(missing)
        }
      }
      if let (handle, selector) = overloadName, !prefix.contains("@Handle") {
        prefix += "@Handle(\"\(handle)\") @Selector(\"\(selector)\")\n"
      }
      let body =
        prefix + requirement.availability.map { $0 + "\n" }.joined()
        + Self.wrap(requirement.declaration, indent: "  ", width: 100)
      lines.append(
        body.split(separator: "\n", omittingEmptySubsequences: false).map { line in
          line.hasPrefix("  ") || line.isEmpty ? String(line) : "  " + line
        }.joined(separator: "\n"))
      restated += 1
    }
    for index in oldMembers.indices where !used[index] {
      if oldSignatures[index] == nil {
        lines.append(oldMembers[index].text)  // an associated type or alias the user wrote
      } else {
        notes.append(
          "removed: '\(oldMembers[index].item.decl.trimmedDescription)' (\(parent.name) no longer requires it)"
        )
      }
    }

    let unbound = parent.requirements.compactMap { requirement in
      refusal.unbound[requirement.title].map {
        UnboundAssociatedType(
          protocolName: requirement.protocolName, name: requirement.title, reason: $0)
      }
    }

    let body = lines.joined(separator: "\n")
    var imports = ["DelegateProxy"]
    for module in parent.requirements.flatMap({ [$0.module] + $0.typeModules }) + [parent.module] {
      let name = Self.importName(module)
      if name != userModule && !name.hasPrefix("_") && !imports.contains(name) {
        imports.append(name)
      }
    }
    if let file, let around = file.around {
      let present = Set(file.imports)
      var text = around.before + "\n" + body + "\n" + around.after
      let missing = imports.filter { !present.contains($0) }
      if !missing.isEmpty { text = missing.map { "import \($0)\n" }.joined() + text }
      return Output(
        text: text, restated: restated, notes: notes, missingDefaults: missingDefaults,
        unbound: unbound)
    }
    var header = """
      // Every requirement of \(parent.module)'s \(parent.name), inherited ones included, restated
      // for @Delegate by `\(command)`.
      // Re-run it when the dependency changes; `--check` fails when this falls out of step.
      // Comments and attributes you add to a requirement (@Default, @Selector) are kept;
      // policies are set in code, on the multicast, so nothing else here needs editing.

      """
    let present = Set(file?.imports ?? [])
    header += imports.filter { !present.contains($0) }.map { "import \($0)\n" }.joined()
    let chosen = chosenSemantics
    let attribute =
      "@Delegate(for: \(parentSpelling).self\(chosen.map { ", semantics: .\($0)" } ?? ""))"
    let whereClause =
      bindings.isEmpty
      ? "" : " where " + bindings.map { "\($0.0): \($0.1)" }.joined(separator: ", ")
    let declaration =
      "\(attribute)\nprotocol \(restatingName): \(parentSpelling)\(whereClause) {\n\(body)\n}\n"
    if let existing, !existing.isEmpty {
      return Output(
        text: existing.trimmingTrailingWhitespace + "\n\n" + header + "\n" + declaration,
        restated: restated, notes: notes, missingDefaults: missingDefaults, unbound: unbound)
    }
    return Output(
      text: header + "\n" + declaration, restated: restated, notes: notes,
      missingDefaults: missingDefaults, unbound: unbound)
  }

  /// `semantics`, else `value` for a protocol that is not class-bound and has no
  /// associated types; nil: a class.
  var chosenSemantics: String? {
    semantics
      ?? (!parent.isClassBound && !parent.requirements.contains { $0.kind == .associatedType }
        ? "value" : nil)
  }

  /// The associated types bound: by `--bind`, and by the file's `where` clause
  /// (`Span: Spans`).
  static func bound(_ bindings: [(String, String)], _ whereRequirements: [String]) -> [(
    String, String
  )] {
    var bound = bindings
    for requirement in whereRequirements {
      let parts = requirement.split(separator: ":", maxSplits: 1).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      if parts.count == 2, !bound.contains(where: { $0.0 == parts[0] }) {
        bound.append((parts[0], parts[1]))
      }
    }
    return bound
  }

  /// What a requirement answers when no delegate answers, when the macro cannot derive it:
  /// the `@Default` to write (`--default` for its result type first, else the empty value of
  /// the alias or enum it names), or, with neither and no undisputed empty value, what is
  /// missing. Both nil: nothing to write (no result, or an undisputed empty value).
  func defaultAnswer(for requirement: Requirement) -> (written: String?, missing: MissingDefault?) {
    guard let type = EmptyValue.resultType(of: requirement.declaration) else { return (nil, nil) }
    let spelled = type.trimmedDescription
    if let given = defaults[EmptyValue.key(spelled)] { return (given, nil) }
    if let alias = requirement.aliasDefault { return (alias, nil) }
    if EmptyValue.literal(for: type) != nil { return (nil, nil) }
    // An associated type's answer is the macro's to gather or refuse (by its binding).
    let first = EmptyValue.key(spelled).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
    if parent.requirements.contains(where: { $0.kind == .associatedType && $0.title == first }) {
      return (nil, nil)
    }
    return (
      nil,
      MissingDefault(
        protocolName: requirement.protocolName, declaration: requirement.declaration,
        resultType: spelled)
    )
  }

  /// The module a file imports for a declaring module: Foundation for the modules it
  /// re-exports on Linux.
  static func importName(_ module: String) -> String {
    ["FoundationEssentials", "FoundationInternationalization"].contains(module)
      ? "Foundation" : module
  }

  /// A declaration broken at its top-level parameter commas into lines of at most `width`
  /// columns, continued four spaces in.
  static func wrap(_ declaration: String, indent: String, width: Int) -> String {
    if indent.count + declaration.count <= width { return indent + declaration }
    var pieces: [String] = []
    var current = ""
    var depth = 0
    var previous: Character = " "
    for character in declaration {
      current.append(character)
      switch character {
      case "(", "[", "<": depth += 1
      case ")", "]": depth -= 1
      case ">" where previous != "-": depth -= 1
      case "," where depth == 1:
        pieces.append(current)
        current = ""
      default: break
      }
      previous = character
    }
    pieces.append(current)
    var lines: [String] = []
    var line = indent
    for piece in pieces {
      let candidate = line + piece
      if candidate.count > width && line.trimmingCharacters(in: .whitespaces).count > 0 {
        lines.append(line.trimmingTrailingWhitespace)
        line = indent + "    " + piece.trimmingCharacters(in: .whitespaces)
      } else {
        line = candidate
      }
    }
    lines.append(line)
    return lines.joined(separator: "\n")
  }
}
