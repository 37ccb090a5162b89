import DelegateProxyMacros
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macros under test, by the names the attributes use.
var delegateMacroSpecs: [String: MacroSpec] {
  [
    "Delegate": MacroSpec(type: DelegateMacro.self),
    "Optional": MacroSpec(type: OptionalMacro.self),
    "Selector": MacroSpec(type: SelectorMacro.self),
    "Default": MacroSpec(type: DefaultMacro.self),
    "Handle": MacroSpec(type: HandleMacro.self),
  ]
}

/// swift-syntax's `assertMacroExpansion` with its failures recorded as Swift Testing issues
/// at the caller's source location.
func assertDelegateExpansion(
  _ source: String,
  expandedSource: String,
  diagnostics: [DiagnosticSpec] = [],
  fixedSource: String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  assertMacroExpansion(
    source,
    expandedSource: expandedAtThisSwiftSyntax(expandedSource),
    diagnostics: diagnostics,
    macroSpecs: delegateMacroSpecs,
    fixedSource: fixedSource,
    indentationWidth: .spaces(2),
    failureHandler: { failure in
      Issue.record(
        Comment(rawValue: failure.message),
        sourceLocation: SourceLocation(
          fileID: failure.location.fileID,
          filePath: failure.location.filePath,
          line: failure.location.line,
          column: failure.location.column
        )
      )
    },
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
}

/// `expanded` as this swift-syntax's test context expands it. swift-syntax 600's
/// `BasicMacroExpansionContext` cannot locate a node inside the detached declaration it
/// hands the macro (only the declaration itself; 601 looks the node's root up, swift-syntax
/// pull request 2792), so there the macro writes none of its `#sourceLocation` lines. The
/// compiler's context locates such nodes in 600 too, so only the tests see the difference.
func expandedAtThisSwiftSyntax(_ expanded: String) -> String {
  #if canImport(SwiftSyntax601)
    return expanded
  #else
    return expanded.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.drop(while: { $0 == " " }).hasPrefix("#sourceLocation") }
      .joined(separator: "\n")
  #endif
}
