import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that provides DelegateProxy's macros: `@Delegate`, the optional
/// requirement marker, `@Selector`, `@Handle` and `@Default`.
@main
struct DelegateProxyMacrosPlugin: CompilerPlugin {
  let providingMacros: [any Macro.Type] = [
    DelegateMacro.self,
    OptionalMacro.self,
    SelectorMacro.self,
    DefaultMacro.self,
    HandleMacro.self,
  ]
}
