import SwiftSyntax

/// Decides, from a type's spelling alone, whether it certainly has no C ABI form.
///
/// Only what is certain is reported: function and tuple types, Swift collections,
/// `String`, `Character`, `Substring`, `Any`, `AnyHashable`, `Self`, and optionals of
/// Swift value types (C has no nullable `int`). A named type the macro cannot see (a
/// struct, a class, a C type) is left to the runtime, which checks it when the protocol
/// is declared.
enum CTypeCheck {
  /// Swift value types whose optional has no C form.
  static let knownValueTypes: Set<String> = [
    "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
    "Float", "Float16", "Float32", "Float64", "Float80", "Double", "Bool", "String",
    "Character", "Substring",
  ]

  /// Swift types with no C form at all.
  static let nonCTypes: Set<String> = ["String", "Character", "Substring", "Any", "AnyHashable"]

  /// Why `type` has no C ABI form, as what the type is ("a function type", "type
  /// 'String'"), or `nil` if the macro cannot tell. `isResult` accepts `()` as `Void`.
  static func problem(with type: TypeSyntax, isResult: Bool = false) -> String? {
    if let attributed = type.as(AttributedTypeSyntax.self) {
      return problem(with: attributed.baseType, isResult: isResult)
    }
    if type.is(FunctionTypeSyntax.self) {
      return "a function type"
    }
    if let tuple = type.as(TupleTypeSyntax.self) {
      if tuple.elements.isEmpty {
        return isResult ? nil : "an empty tuple type"
      }
      if tuple.elements.count == 1, let only = tuple.elements.first, only.firstName == nil {
        return problem(with: only.type, isResult: isResult)
      }
      return "a tuple type"
    }
    if type.is(ArrayTypeSyntax.self) {
      return "an array type"
    }
    if type.is(DictionaryTypeSyntax.self) {
      return "a dictionary type"
    }
    if let optional = type.as(OptionalTypeSyntax.self) {
      return optionalProblem(wrapped: optional.wrappedType)
    }
    if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return optionalProblem(wrapped: optional.wrappedType)
    }
    guard let (name, arguments) = nameAndArguments(of: type) else { return nil }
    switch name {
    case "Self":
      return "type 'Self'"
    case "Array", "ContiguousArray", "ArraySlice":
      return arguments == nil ? nil : "an array type"
    case "Dictionary":
      return arguments == nil ? nil : "a dictionary type"
    case "Set":
      return arguments == nil ? nil : "a set type"
    case "Optional":
      if let wrapped = arguments?.first {
        return optionalProblem(wrapped: wrapped)
      }
      return nil
    default:
      if arguments == nil, nonCTypes.contains(name) {
        return "type '\(name)'"
      }
      return nil
    }
  }

  /// The problem with an optional whose wrapped type is `wrapped`.
  private static func optionalProblem(wrapped: TypeSyntax) -> String? {
    if let inner = problem(with: wrapped) {
      return "an optional of \(inner)"
    }
    if let (name, arguments) = nameAndArguments(of: wrapped), arguments == nil,
      knownValueTypes.contains(name)
    {
      return "type '\(wrapped.trimmedDescription)?' (C has no optional value types)"
    }
    return nil
  }

  /// A named type's last name component and its generic arguments, for `Name`,
  /// `Name<Args>` and `Swift.Name`.
  private static func nameAndArguments(of type: TypeSyntax) -> (String, [TypeSyntax]?)? {
    if let identifier = type.as(IdentifierTypeSyntax.self) {
      return (identifier.name.text, genericArguments(identifier.genericArgumentClause))
    }
    if let member = type.as(MemberTypeSyntax.self),
      member.baseType.as(IdentifierTypeSyntax.self)?.name.text == "Swift"
    {
      return (member.name.text, genericArguments(member.genericArgumentClause))
    }
    return nil
  }

  /// The types among a generic argument clause's arguments, or `nil` if there is no clause.
  private static func genericArguments(_ clause: GenericArgumentClauseSyntax?) -> [TypeSyntax]? {
    guard let clause else { return nil }
    return clause.arguments.compactMap(\.typeArgument)
  }
}
