import Foundation
import SwiftParser
import SwiftSyntax

/// Which result types have an empty value nobody would dispute — what a requirement without
/// `@Default` answers when no delegate answers — and the result type of a requirement's text.
///
/// This mirrors the `@Delegate` macro's rule (Sources/DelegateProxyMacroSupport/EmptyAnswer.swift,
/// with the conformances to `__DelegateEmptyAnswer` in
/// Sources/DelegateProxy/SwiftProtocols/DelegateEmptyAnswer.swift): optionals (`nil`),
/// `Bool` (`false`), the standard numbers (`0`), `String`/`Substring` (`""`), arrays, sets
/// and dictionaries (`[]`, `[:]`). Change one, change the other. Anything else needs
/// `@Default`, which the command writes from `--default TYPE=EXPRESSION`.
enum EmptyValue {
  /// The standard number types, whose empty value is `0`.
  static let numberNames: Set<String> = [
    "Int", "Int8", "Int16", "Int32", "Int64", "Int128", "UInt", "UInt8", "UInt16", "UInt32",
    "UInt64", "UInt128", "Float", "Float16", "Float32", "Float64", "Float80", "Double",
    "CGFloat", "Decimal", "CInt", "CUnsignedInt", "CShort", "CUnsignedShort", "CLong",
    "CUnsignedLong", "CLongLong", "CUnsignedLongLong", "CChar", "CSignedChar", "CUnsignedChar",
    "CFloat", "CDouble",
  ]

  /// The empty value of a type spelled `text` (`nil`, `false`, `0`, `""`, `[]`, `[:]`), or nil
  /// when it has no undisputed one.
  static func literal(for text: String) -> String? {
    let source = Parser.parse(source: "let _: \(text)")
    guard
      let binding = source.statements.first?.item.as(VariableDeclSyntax.self)?.bindings.first,
      let type = binding.typeAnnotation?.type
    else { return nil }
    return literal(for: type)
  }

  /// The empty value of `type`, or nil when it has no undisputed one.
  static func literal(for type: TypeSyntax) -> String? {
    if let attributed = type.as(AttributedTypeSyntax.self) {
      return literal(for: attributed.baseType)
    }
    if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return "nil"
    }
    if type.is(ArrayTypeSyntax.self) { return "[]" }
    if type.is(DictionaryTypeSyntax.self) { return "[:]" }
    if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1,
      let only = tuple.elements.first, only.firstName == nil
    {
      return literal(for: only.type)  // `(T)` is `T`
    }
    var name: String?
    var generic = false
    if let identifier = type.as(IdentifierTypeSyntax.self) {
      name = identifier.name.text
      generic = identifier.genericArgumentClause.map { !$0.arguments.isEmpty } ?? false
    } else if let member = type.as(MemberTypeSyntax.self),
      member.baseType.as(IdentifierTypeSyntax.self)?.name.text == "Swift"
    {
      name = member.name.text
      generic = member.genericArgumentClause.map { !$0.arguments.isEmpty } ?? false
    }
    switch (name, generic) {
    case ("Optional"?, true): return "nil"
    case ("Array"?, true), ("ContiguousArray"?, true), ("ArraySlice"?, true), ("Set"?, true):
      return "[]"
    case ("Dictionary"?, true): return "[:]"
    case ("Bool"?, false), ("CBool"?, false): return "false"
    case ("String"?, false), ("Substring"?, false): return "\"\""
    case (let n?, false) where numberNames.contains(n): return "0"
    default: return nil
    }
  }

  /// The result type of a requirement's declaration, as written (`GenPoint` in
  /// `func f() -> GenPoint`, `var p: GenPoint { get }`, `subscript(i: Int) -> GenPoint
  /// { get }`); nil when it returns nothing (`Void`, `()`, no arrow).
  static func resultType(of declaration: String) -> TypeSyntax? {
    let source = Parser.parse(source: "protocol __P {\n\(declaration)\n}")
    guard
      let member = source.statements.first?.item.as(ProtocolDeclSyntax.self)?.memberBlock
        .members.first?.decl
    else { return nil }
    var type: TypeSyntax?
    if let function = member.as(FunctionDeclSyntax.self) {
      type = function.signature.returnClause?.type
    } else if let variable = member.as(VariableDeclSyntax.self) {
      type = variable.bindings.first?.typeAnnotation?.type
    } else if let subscriptDecl = member.as(SubscriptDeclSyntax.self) {
      type = subscriptDecl.returnClause.type
    }
    guard let type else { return nil }
    let text = type.trimmedDescription
    if text == "Void" || text == "Swift.Void" || text == "()" { return nil }
    return type
  }

  /// `--default` keys as the options spell them compared with a result type: trimmed, and
  /// `Self.` dropped (the restatement writes associated types without it).
  static func key(_ type: String) -> String {
    let trimmed = type.trimmingCharacters(in: .whitespaces)
    return trimmed.hasPrefix("Self.") ? String(trimmed.dropFirst(5)) : trimmed
  }
}
