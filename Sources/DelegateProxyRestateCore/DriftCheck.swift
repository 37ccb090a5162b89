import Foundation
import SwiftSyntax

/// `--check`: compares a restating protocol with the requirements its parent has now.
public enum DriftCheck {
  /// One way the restatement is out of step, as the command prints it.
  public struct Finding: Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: String, Sendable {
      /// The parent requires it; the restating protocol does not list it.
      case notForwarded = "not forwarded"
      /// Restated with a signature the parent no longer has.
      case changed
      /// Restated, but the parent does not require it.
      case notRequired = "not required"
      /// An associated type with no `where` clause binding it.
      case unbound
      /// Restated without the `@Default` its result needs (no empty value): the file does
      /// not compile.
      case needsDefault = "needs @Default"
    }

    /// What is wrong.
    public var kind: Kind
    /// The parent's requirement (or the restated member, for `notRequired`).
    public var requirement: String
    /// The details.
    public var detail: String

    /// `not forwarded: XMLParserDelegate.parser(_:foundComment:): …`.
    public var description: String { "\(kind.rawValue): \(requirement): \(detail)" }
  }

  /// Every finding, in the parent's order; empty when the restatement is in step.
  public static func findings(parent: ForeignProtocol, file: RestatementFile) -> [Finding] {
    let modules = Set(
      parent.requirements.flatMap(\.typeModules) + parent.requirements.map(\.module) + ["Swift"])
    let members = file.members
    let signatures = members.map { $0.signature(modules: modules) }
    var used = Array(repeating: false, count: members.count)
    var pending: [(Requirement, RequirementSignature?)] = []
    var findings: [Finding] = []
    let bound = Set(
      file.whereRequirements.compactMap { requirement in
        requirement.split(separator: ":").first.map { String($0).trimmingTrailingWhitespace }
      })
    let arguments = file.delegateArguments
    let refusal = Refusal(
      parentSpelling: arguments.parent ?? parent.name,
      restatingName: file.restatingName ?? RestatementWriter.defaultName(for: parent.name),
      semantics: arguments.semantics,
      requirements: parent.requirements, bound: RestatementWriter.bound([], file.whereRequirements))
    // The @Default each requirement needs: what the command, run without --default, says.
    let writer = RestatementWriter(parent: parent, parentSpelling: parent.name, command: "")

    for (requirementIndex, requirement) in parent.requirements.enumerated() {
      if requirement.kind == .associatedType {
        if !bound.contains(requirement.title) {
          findings.append(
            Finding(
              kind: .unbound, requirement: "\(requirement.protocolName).\(requirement.title)",
              detail:
                "'\(requirement.declaration)' has no 'where \(requirement.title): …' binding it"
                + (refusal.unbound[requirement.title].map {
                  " (\($0)); re-run the command with --bind \(requirement.title)=P, P a @Delegate protocol restating its constraint"
                } ?? "")))
        }
        continue
      }
      if requirement.availability.contains(where: { $0.contains("unavailable") }) { continue }
      if refusal.reasons[requirementIndex] != nil && requirement.hasDefault { continue }
      let signature = RequirementSignature(text: requirement.declaration, modules: modules)
      if let index = signatures.indices.first(where: {
        !used[$0] && signatures[$0]?.key == signature?.key
      }) {
        used[index] = true
        if !members[index].keptPrefix.contains("@Default"),
          let missing = writer.defaultAnswer(for: requirement).missing
        {
          findings.append(
            Finding(
              kind: .needsDefault, requirement: "\(requirement.protocolName).\(requirement.title)",
              detail: "'\(requirement.declaration)' is restated without @Default, \(missing.reason)"
            ))
        }
      } else {
        pending.append((requirement, signature))
      }
    }
    for (requirement, signature) in pending {
      let name = "\(requirement.protocolName).\(requirement.title)"
      if let index = signatures.indices.first(where: {
        !used[$0] && signatures[$0]?.identity == signature?.identity
      }) {
        used[index] = true
        findings.append(
          Finding(
            kind: .changed, requirement: name,
            detail:
              "\(requirement.protocolName) now requires '\(requirement.declaration)'; restated as '\(Self.signatureText(members[index]))'"
          ))
      } else {
        let missing = writer.defaultAnswer(for: requirement).missing
        findings.append(
          Finding(
            kind: .notForwarded, requirement: name,
            detail: "'\(requirement.declaration)'"
              + (requirement.hasDefault
                ? " (its default implementation answers instead of the members)" : "")
              + (missing.map {
                "; it needs @Default too, \($0.reason)"
              } ?? "")))
      }
    }
    for index in members.indices where !used[index] && signatures[index] != nil {
      findings.append(
        Finding(
          kind: .notRequired, requirement: signatures[index]!.identity,
          detail:
            "'\(Self.signatureText(members[index]))' is restated, but \(parent.name) does not require it"
        ))
    }
    return findings
  }

  /// A member's declaration without its comments and attributes, on one line.
  static func signatureText(_ member: RestatementFile.Member) -> String {
    var decl = member.item.decl
    if var function = decl.as(FunctionDeclSyntax.self) {
      function.attributes = []
      decl = DeclSyntax(function)
    } else if var variable = decl.as(VariableDeclSyntax.self) {
      variable.attributes = []
      decl = DeclSyntax(variable)
    } else if var subscriptDecl = decl.as(SubscriptDeclSyntax.self) {
      subscriptDecl.attributes = []
      decl = DeclSyntax(subscriptDecl)
    }
    return decl.trimmedDescription.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
      .replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
  }
}
