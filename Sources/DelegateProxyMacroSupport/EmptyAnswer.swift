import SwiftSyntax

/// What a value-returning requirement answers when no delegate answers it and the
/// protocol declares no `@Default`: an empty value only for a type whose empty value nobody
/// would dispute — optionals (`nil`), `Bool` (`false`), the standard numbers (`0`),
/// `String`/`Substring` (`""`) and collections (`[]`, `[:]`).
///
/// The macro spells it for a standard spelling it recognises. A name it cannot see into
/// (`Decision`, `Logger.Metadata`) is left to the type checker: the answer is
/// `__NoAnswer.empty(T.self)`, and the protocol's extension gets a check of `T`, reported
/// at the requirement's line (see `EmptyAnswerCheck`), which compiles only if `T` conforms
/// to `__DelegateEmptyAnswer` (a typealias of a dictionary does; a user's enum does not).
/// A spelling that certainly has none (a tuple, a closure, a pointer, `any P`) is refused
/// by the macro itself, with a Fix-It inserting `@Default`.
enum EmptyAnswer {
  /// Number types whose empty value is `0`.
  static let numberNames: Set<String> = CEntryShape.scalarNames.subtracting(["Bool", "CBool"])
    .union(["CGFloat", "Float16", "Float80", "Decimal", "Int128", "UInt128"])

  /// Pointer types: a null non-optional pointer is no value.
  static let pointerNames: Set<String> = [
    "UnsafePointer", "UnsafeMutablePointer", "UnsafeRawPointer", "UnsafeMutableRawPointer",
    "OpaquePointer", "UnsafeBufferPointer", "UnsafeMutableBufferPointer",
    "UnsafeRawBufferPointer", "UnsafeMutableRawBufferPointer", "Unmanaged",
    "AutoreleasingUnsafeMutablePointer",
  ]

  /// An empty answer: its expression, and whether the type checker must confirm it.
  struct Answer {
    /// The expression.
    var text: String
    /// Whether the type is a name the macro cannot see into, whose empty value the
    /// protocol's extension checks (`EmptyAnswerCheck`).
    var isChecked = false
  }

  /// The answer, or why the type certainly has none. `genericParameters`: the names of the
  /// method's generic parameters, which have none.
  static func answer(for type: TypeSyntax, genericParameters: Set<String> = []) -> Result<
    Answer, Problem
  > {
    if let attributed = type.as(AttributedTypeSyntax.self) {
      return answer(for: attributed.baseType, genericParameters: genericParameters)
    }
    if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return .success(Answer(text: "nil"))
    }
    if type.is(FunctionTypeSyntax.self) { return .failure(Problem(text: "a closure")) }
    if let someOrAny = type.as(SomeOrAnyTypeSyntax.self) {
      return .failure(Problem(text: "'\(someOrAny.trimmedDescription)'"))
    }
    if type.is(ArrayTypeSyntax.self) { return .success(Answer(text: "[]")) }
    if type.is(DictionaryTypeSyntax.self) { return .success(Answer(text: "[:]")) }
    if let tuple = type.as(TupleTypeSyntax.self) {
      // `(T)` is `T`; a tuple's empty value would be one of its elements' choosing.
      if tuple.elements.count == 1, let only = tuple.elements.first, only.firstName == nil {
        return answer(for: only.type, genericParameters: genericParameters)
      }
      return .failure(Problem(text: "the tuple '\(tuple.trimmedDescription)'"))
    }
    if type.is(CompositionTypeSyntax.self) || type.is(MetatypeTypeSyntax.self) {
      return .failure(Problem(text: "'\(type.trimmedDescription)'"))
    }
    var name: String? = nil
    var isGeneric = false
    if let identifier = type.as(IdentifierTypeSyntax.self) {
      name = identifier.name.text
      isGeneric = identifier.genericArgumentClause.map { !$0.arguments.isEmpty } ?? false
    } else if let member = type.as(MemberTypeSyntax.self),
      member.baseType.as(IdentifierTypeSyntax.self)?.name.text == "Swift"
    {
      name = member.name.text
      isGeneric = member.genericArgumentClause.map { !$0.arguments.isEmpty } ?? false
    }
    switch (name, isGeneric) {
    case ("Optional"?, true): return .success(Answer(text: "nil"))
    case ("Array"?, true), ("ContiguousArray"?, true), ("Set"?, true):
      return .success(Answer(text: "[]"))
    case ("Dictionary"?, true): return .success(Answer(text: "[:]"))
    case ("Bool"?, false), ("CBool"?, false): return .success(Answer(text: "false"))
    case ("String"?, false), ("Substring"?, false): return .success(Answer(text: "\"\""))
    case (let n?, false) where numberNames.contains(n): return .success(Answer(text: "0"))
    case ("AnyObject"?, _), ("Any"?, _): return .failure(Problem(text: "'\(name!)'"))
    case (let n?, _) where pointerNames.contains(n):
      return .failure(Problem(text: "the pointer '\(type.trimmedDescription)'"))
    default: break
    }
    if let first = firstName(of: type), genericParameters.contains(first) {
      return .failure(Problem(text: "the generic parameter '\(type.trimmedDescription)'"))
    }
    return .success(
      Answer(
        text: "__NoAnswer.empty(\(MulticastGenerator.metatype(type.trimmedDescription)))",
        isChecked: true))
  }

  /// The first name of a type's spelling: `Logger` in `Logger.Metadata`.
  private static func firstName(of type: TypeSyntax) -> String? {
    if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
    if let member = type.as(MemberTypeSyntax.self) { return firstName(of: member.baseType) }
    return nil
  }

  /// Why a type has no empty value.
  struct Problem: Error {
    let text: String
  }
}
