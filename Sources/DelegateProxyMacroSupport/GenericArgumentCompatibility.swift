import SwiftSyntax

// A generic argument across the swift-syntax versions Package.swift admits: from 601 on,
// `GenericArgumentSyntax.argument` is a type or an expression (value generics:
// `Vector<3, Int>`); in 600 it is always a type.
extension GenericArgumentSyntax {
  /// The argument when it is a type; nil for a value generic's argument.
  var typeArgument: TypeSyntax? {
    #if canImport(SwiftSyntax601)
      if case .type(let type) = argument { return type }
      return nil
    #else
      return argument
    #endif
  }

  /// The argument when it is a value (a value generic's `3`); nil for a type, and always
  /// nil before swift-syntax 601, which parses no value arguments.
  var valueArgument: ExprSyntax? {
    #if canImport(SwiftSyntax601)
      if case .expr(let expression) = argument { return expression }
    #endif
    return nil
  }
}
