import SwiftDiagnostics
import SwiftSyntax

/// One error `@Delegate` reports on a protocol, as `swift package restate-delegate` relays
/// it: the macro's own words, so the command and the macro cannot disagree.
package struct DelegateRefusal: Sendable, Equatable {
  /// The index, in the protocol's body, of the member it is on; nil for the protocol's own
  /// clauses.
  package var member: Int?
  /// The kind of problem (`effect`, `associatedType`, `noZeroAnswer`…).
  package var id: String
  /// What the macro says.
  package var message: String
}

/// What `@Delegate` refuses in a protocol: the model the macro expands, read by the restate
/// command on the restatement it is about to write.
package enum DelegateRefusals {
  /// Every error the macro reports on `declaration` (which carries `@Delegate`), in the
  /// model's order; empty when the macro would expand it.
  package static func refusals(of declaration: ProtocolDeclSyntax) -> [DelegateRefusal] {
    let attribute = declaration.attributes.lazy.compactMap { $0.as(AttributeSyntax.self) }
      .first { $0.attributeName.trimmedDescription == "Delegate" }
    guard let attribute else { return [] }
    let model = DelegateProtocolModel(declaration: declaration, attribute: attribute)
    let members = declaration.memberBlock.members.map(\.id)
    return model.diagnostics.map { diagnostic in
      let item = sequence(first: diagnostic.node, next: \.parent).first {
        $0.is(MemberBlockItemSyntax.self)
      }
      return DelegateRefusal(
        member: item.flatMap { members.firstIndex(of: $0.id) },
        id: (diagnostic.diagMessage as? DelegateDiagnostic)?.id ?? "",
        message: diagnostic.message)
    }
  }
}
