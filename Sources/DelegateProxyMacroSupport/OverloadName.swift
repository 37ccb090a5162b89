import SwiftSyntax

/// The names the Fix-It suggests for a requirement overloaded by parameter type only
/// (`record(_: Double)` beside `record(_: Int64)`), which would share its handle and
/// selector with the other: its parameter types' names added to its handle
/// (`@Handle("recordDouble")`) and to its selector's first piece
/// (`@Selector("recordDouble:")`). Nothing is renamed without the user's say: adding a
/// requirement never changes another's handle or selector.
///
/// A type's name is an identifier for any spelling: each name in it capitalised, in order,
/// sugar spelled as the generic type it stands for and `any` dropped — `Int64?` →
/// `OptionalInt64`, `[String]` → `ArrayString`, `[String: Int]` → `DictionaryStringInt`,
/// `Swift.Result<Int, any Error>` → `SwiftResultIntError`, `(Int, Bool)` → `TupleIntBool`,
/// `() -> Void` → `FunctionVoid`, `inout Int` → `InoutInt`.
enum OverloadName {
  /// The names of `types`, one after the other: what an overloaded method's handle adds.
  static func suffix(for types: [TypeSyntax]) -> String {
    types.map { name(of: $0) }.joined()
  }

  /// The name of one type, a valid identifier continuation (see ``OverloadName``).
  static func name(of type: TypeSyntax) -> String {
    if let identifier = type.as(IdentifierTypeSyntax.self) {
      return word(identifier.name.text) + arguments(identifier.genericArgumentClause)
    }
    if let member = type.as(MemberTypeSyntax.self) {
      return name(of: member.baseType) + word(member.name.text)
        + arguments(member.genericArgumentClause)
    }
    if let optional = type.as(OptionalTypeSyntax.self) {
      return "Optional" + name(of: optional.wrappedType)
    }
    if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return "Optional" + name(of: optional.wrappedType)
    }
    if let array = type.as(ArrayTypeSyntax.self) {
      return "Array" + name(of: array.element)
    }
    if let dictionary = type.as(DictionaryTypeSyntax.self) {
      return "Dictionary" + name(of: dictionary.key) + name(of: dictionary.value)
    }
    if let tuple = type.as(TupleTypeSyntax.self) {
      if tuple.elements.isEmpty { return "Void" }
      if tuple.elements.count == 1, let only = tuple.elements.first, only.firstName == nil {
        return name(of: only.type)  // parentheses
      }
      return "Tuple" + tuple.elements.map { name(of: $0.type) }.joined()
    }
    if let function = type.as(FunctionTypeSyntax.self) {
      return "Function" + function.parameters.map { name(of: $0.type) }.joined()
        + name(of: function.returnClause.type)
    }
    if let attributed = type.as(AttributedTypeSyntax.self) {
      // Attributes (`@escaping`, `@Sendable`) change no overload; `inout` does.
      let isInout = attributed.specifiers.contains {
        $0.as(SimpleTypeSpecifierSyntax.self)?.specifier.tokenKind == .keyword(.inout)
      }
      return (isInout ? "Inout" : "") + name(of: attributed.baseType)
    }
    if let existential = type.as(SomeOrAnyTypeSyntax.self) {
      return name(of: existential.constraint)  // `any P` is `P`'s existential, as `P` is
    }
    if let composition = type.as(CompositionTypeSyntax.self) {
      return composition.elements.map { name(of: $0.type) }.joined(separator: "And")
    }
    if let metatype = type.as(MetatypeTypeSyntax.self) {
      return name(of: metatype.baseType) + word(metatype.metatypeSpecifier.text)
    }
    // Any other spelling: its names, in order.
    return type.tokens(viewMode: .sourceAccurate).filter { token in
      if case .identifier = token.tokenKind { return true }
      if case .keyword = token.tokenKind { return true }
      return false
    }.map { word($0.text) }.joined()
  }

  /// A name capitalised, without backticks: `` `Type` `` → `Type`, `int` → `Int`.
  private static func word(_ text: String) -> String {
    SelectorName.sentenceCase(text.filter { $0 != "`" })
  }

  /// The names of a generic argument list, or nothing.
  private static func arguments(_ clause: GenericArgumentClauseSyntax?) -> String {
    guard let clause else { return "" }
    return clause.arguments.map { argument in
      if let type = argument.typeArgument { return name(of: type) }
      // A value generic's argument (`Vector<3, Int>`): its digits and names.
      let tokens = argument.valueArgument?.tokens(viewMode: .sourceAccurate)
      return (tokens.map(Array.init) ?? []).filter {
        if case .identifier = $0.tokenKind { return true }
        if case .integerLiteral = $0.tokenKind { return true }
        return false
      }.map { word($0.text) }.joined()
    }.joined()
  }
}
