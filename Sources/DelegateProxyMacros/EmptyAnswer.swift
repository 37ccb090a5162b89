import SwiftSyntax

/// What a value-returning requirement answers when no delegate answers it and the
/// protocol declares no `@Default`: the result type's empty value, decided from its
/// spelling — `nil`, `false`, `0`, `""`, `[]`, `[:]`, a tuple of such — or, for a named
/// type the macro cannot see into, `__NoAnswer.zero(T.self)`, which compiles only for a
/// bitwise-copyable type (all-zero bytes: a C struct's zero) and otherwise fails with a
/// message asking for `@Default`.
enum EmptyAnswer {
  /// Number types whose empty value is `0`.
  static let numberNames: Set<String> = CEntryShape.scalarNames.subtracting(["Bool", "CBool"])
    .union(["CGFloat", "Float16", "Float80", "Decimal"])

  /// The expression, or why the type certainly has no empty value.
  static func expression(for type: TypeSyntax) -> Result<String, Problem> {
    if let attributed = type.as(AttributedTypeSyntax.self) {
      return expression(for: attributed.baseType)
    }
    if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return .success("nil")
    }
    if type.is(FunctionTypeSyntax.self) { return .failure(Problem(text: "a closure")) }
    if let someOrAny = type.as(SomeOrAnyTypeSyntax.self) {
      return .failure(Problem(text: "'\(someOrAny.trimmedDescription)'"))
    }
    if type.is(ArrayTypeSyntax.self) { return .success("[]") }
    if type.is(DictionaryTypeSyntax.self) { return .success("[:]") }
    if let tuple = type.as(TupleTypeSyntax.self) {
      var parts: [String] = []
      for element in tuple.elements {
        switch expression(for: element.type) {
        case .success(let text):
          parts.append(element.firstName.map { "\($0.text): \(text)" } ?? text)
        case .failure(let problem):
          return .failure(Problem(text: "a tuple holding \(problem.text)"))
        }
      }
      return .success(
        parts.count == 1 && tuple.elements.first?.firstName == nil
          ? parts[0] : "(" + parts.joined(separator: ", ") + ")")
    }
    let name: String?
    if let identifier = type.as(IdentifierTypeSyntax.self) {
      name = identifier.genericArgumentClause == nil ? identifier.name.text : nil
      if let generic = identifier.genericArgumentClause, generic.arguments.count > 0 {
        switch identifier.name.text {
        case "Optional": return .success("nil")
        case "Array", "ContiguousArray", "Set": return .success("[]")
        case "Dictionary": return .success("[:]")
        default: break
        }
      }
    } else if let member = type.as(MemberTypeSyntax.self),
      member.baseType.as(IdentifierTypeSyntax.self)?.name.text == "Swift"
    {
      if member.name.text == "Optional" { return .success("nil") }
      name = member.genericArgumentClause == nil ? member.name.text : nil
    } else {
      name = nil
    }
    switch name {
    case "Bool"?, "CBool"?: return .success("false")
    case "String"?, "Substring"?: return .success("\"\"")
    case let n? where numberNames.contains(n): return .success("0")
    case "AnyObject"?, "Any"?: return .failure(Problem(text: "'\(name!)'"))
    default:
      return .success("__NoAnswer.zero(\(MulticastGenerator.metatype(type.trimmedDescription)))")
    }
  }

  /// Why a type has no empty value.
  struct Problem: Error {
    let text: String
  }
}
