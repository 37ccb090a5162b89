import SwiftSyntax

/// How one parameter or result of a requirement travels in the `@convention(c)` function
/// `@Delegate` generates for C callers (`__CFaceFunction`), decided from the type's
/// spelling alone.
enum CEntryShape: Equatable {
  /// A C scalar Swift passes as itself (`Int`, `Double`, `Bool`, `CInt`, …).
  case scalar
  /// A pointer (raw, typed or opaque, optional or not): `void *` in the C function.
  case pointer
  /// A named type the macro cannot see into: `void *`, taken to be a class instance —
  /// the runtime checks that and serves the method through frames when it is not.
  case assumedObject

  /// Swift's C scalar types, and the C type aliases for them.
  static let scalarNames: Set<String> = [
    "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
    "Float", "Float32", "Double", "Float64", "Bool", "CBool", "CChar", "CSignedChar",
    "CUnsignedChar", "CShort", "CUnsignedShort", "CInt", "CUnsignedInt", "CLong",
    "CUnsignedLong", "CLongLong", "CUnsignedLongLong", "CFloat", "CDouble",
  ]

  /// Pointer types (their optionals are pointers too).
  static let pointerNames: Set<String> = [
    "UnsafeRawPointer", "UnsafeMutableRawPointer", "OpaquePointer", "UnsafePointer",
    "UnsafeMutablePointer",
  ]

  /// The shape of `type`, or nil when the generated C function cannot carry it (the
  /// method is then served through frames).
  static func of(_ type: TypeSyntax) -> CEntryShape? {
    if let attributed = type.as(AttributedTypeSyntax.self) {
      return attributed.specifiers.isEmpty && attributed.attributes.isEmpty
        ? of(attributed.baseType) : nil
    }
    if let optional = type.as(OptionalTypeSyntax.self) {
      return optionalShape(of: optional.wrappedType)
    }
    if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return optionalShape(of: optional.wrappedType)
    }
    guard let (name, hasArguments) = name(of: type) else { return nil }
    if scalarNames.contains(name) { return hasArguments ? nil : .scalar }
    if pointerNames.contains(name) { return .pointer }
    if name == "Optional" || name == "Self" || name == "Any" || name == "AnyObject" {
      return nil
    }
    return hasArguments ? nil : .assumedObject
  }

  /// An optional is `void *` when what it wraps is a pointer or a class instance.
  private static func optionalShape(of wrapped: TypeSyntax) -> CEntryShape? {
    switch of(wrapped) {
    case .pointer?: return .pointer
    case .assumedObject?: return .assumedObject
    case .scalar?, nil: return nil
    }
  }

  /// A named type's last component and whether it has generic arguments: `Name`,
  /// `Name<Args>`, `Module.Name`, `Outer.Inner`.
  private static func name(of type: TypeSyntax) -> (String, Bool)? {
    if let identifier = type.as(IdentifierTypeSyntax.self) {
      return (identifier.name.text, identifier.genericArgumentClause != nil)
    }
    if let member = type.as(MemberTypeSyntax.self) {
      return (member.name.text, member.genericArgumentClause != nil)
    }
    return nil
  }

  /// The type the `@convention(c)` function declares for a value of this shape.
  func cType(_ type: TypeSyntax) -> String {
    switch self {
    case .scalar: return type.trimmedDescription
    case .pointer, .assumedObject: return "UnsafeMutableRawPointer?"
    }
  }

  /// The Swift value of the C function's parameter `name` of declared type `type`.
  func argumentText(_ name: String, _ type: TypeSyntax) -> String {
    switch self {
    case .scalar: return name
    case .pointer, .assumedObject:
      return
        "__CFaceFunction.value(\(name), as: \(MulticastGenerator.metatype(type.trimmedDescription)))"
    }
  }

  /// The C result of the Swift call `call`.
  func resultText(_ call: String) -> String {
    switch self {
    case .scalar: return call
    case .pointer, .assumedObject: return "__CFaceFunction.raw(\(call))"
    }
  }
}
