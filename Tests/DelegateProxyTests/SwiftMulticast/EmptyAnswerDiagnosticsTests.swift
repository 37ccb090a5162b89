import DelegateProxyTestSupport
import Foundation
import Testing

// What the compiler says about a value-returning requirement nobody answers and whose
// result type has no undisputed empty value, and about two requirements that would share
// a handle (swiftc against this build, as in TypedPolicyDiagnosticsTests). The case's
// file: the imports take lines 1–5, so `@Delegate` is line 6, the protocol line 7 and its
// first requirement line 8.

@Suite(
  "What the compiler says about empty answers and shared names", .tags(.compiler),
  .enabled(if: TestSelection.runs("compiler")))
struct EmptyAnswerDiagnosticsTests {
  let modules: BuiltModules

  init() throws { modules = try BuiltModules.find().get() }

  /// A protocol whose line 8 is `requirement`, then the declarations it uses.
  static func downloader(_ requirement: String, uses: String = "") -> String {
    """
    @Delegate
    protocol DownloaderDelegate: AnyObject {
      \(requirement)
      func downloaderDidFinish(_ id: Int)
    }
    \(uses)
    """
  }

  static let decision = "enum Decision { case allow, deny }"

  /// The errors' first lines.
  static func errors(_ diagnostics: [String]) -> [String] {
    diagnostics.filter { $0.contains("error:") }
  }

  @Test func aUserEnumWithoutDefaultIsOneErrorOnTheRequirementsLineNamingItsType() throws {
    for (requirement, uses, type) in [
      (
        "func downloader(_ id: Int, decisionFor url: String) -> Decision", Self.decision, "Decision"
      ),
      // Public types too (the old all-zero answer became a different error for those).
      (
        "func downloader(_ id: Int, decisionFor url: String) -> Decision",
        "public enum Decision { case allow, deny }", "Decision"
      ),
      (
        "func downloader(_ id: Int, payloadFor url: String) -> Payload",
        "enum Payload { case none, some(Int) }", "Payload"
      ),
      (
        "func downloader(_ id: Int, limitsFor url: String) -> Limits",
        "struct Limits { var bytes = 0 }", "Limits"
      ),
      ("var decision: Decision { get }", Self.decision, "Decision"),
    ] {
      let result = try modules.typecheck(Self.downloader(requirement, uses: uses))
      #expect(result.status != 0)
      let errors = Self.errors(result.diagnostics)
      #expect(errors.count == 1, "\(requirement): \(result.diagnostics)")
      let swiftName =
        requirement.hasPrefix("var")
        ? "decision"
        : requirement.contains("payload")
          ? "downloader(_:payloadFor:)"
          : requirement.contains("limits")
            ? "downloader(_:limitsFor:)" : "downloader(_:decisionFor:)"
      #expect(
        errors.first?.hasPrefix("case.swift:8:") == true
          && errors.first?.contains(
            "is unavailable: '\(swiftName)' answers '\(type)', which has no empty value to answer when no delegate answers (only optionals, Bool, numbers, strings and collections have one, through typealiases too); declare the answer with @Default(…) on '\(swiftName)'"
          ) == true,
        "\(requirement): \(result.diagnostics)")
    }
  }

  @Test func withDefaultTheEnumCompiles() throws {
    let result = try modules.typecheck(
      Self.downloader(
        "@Default(Decision.deny) func downloader(_ id: Int, decisionFor url: String) -> Decision",
        uses: Self.decision))
    #expect(result.status == 0, "\(result.diagnostics)")
  }

  @Test func aDefaultOfTheWrongTypeIsOneErrorOnTheRequirementsLine() throws {
    let result = try modules.typecheck(
      Self.downloader(
        "@Default(\"allow\") func downloader(_ id: Int, decisionFor url: String) -> Decision",
        uses: Self.decision))
    #expect(result.status != 0)
    let errors = Self.errors(result.diagnostics)
    #expect(errors.count == 1, "\(result.diagnostics)")
    #expect(
      errors.first?.hasPrefix("case.swift:8:") == true
        && errors.first?.hasSuffix(
          "error: cannot convert return expression of type 'String' to return type 'Decision'")
          == true,
      "\(result.diagnostics)")
  }

  @Test func typealiasesOfStandardTypesHaveTheirEmptyValues() throws {
    // `Logger.Metadata` is a typealias of a dictionary; the macro cannot see it, the type
    // checker can.
    let result = try modules.typecheck(
      Self.downloader(
        "func downloader(_ id: Int, metadataFor url: String) -> Logger.Metadata",
        uses: """
          enum Logger {
            typealias Metadata = [String: String]
            typealias Level = Int32
          }
          typealias Names = Set<String>
          typealias Reply = String?
          @Delegate
          protocol AliasDelegate: AnyObject {
            func level() -> Logger.Level
            func names() -> Names
            func reply() -> Reply
            var flags: [Logger.Level] { get }
          }
          """))
    #expect(result.status == 0, "\(result.diagnostics)")
  }

  @Test func typesThatCertainlyHaveNoEmptyValueAreRefusedByTheMacroWithAFixIt() throws {
    for (requirement, what) in [
      (
        "func downloader(_ id: Int, bufferFor url: String) -> UnsafeRawPointer",
        "the pointer 'UnsafeRawPointer'"
      ),
      ("func downloader(_ id: Int, rangeFor url: String) -> (Int, Int)", "the tuple '(Int, Int)'"),
      ("func downloader(_ id: Int, taskFor url: String) -> any Sendable", "'any Sendable'"),
    ] {
      let result = try modules.typecheck(Self.downloader(requirement))
      #expect(result.status != 0)
      let errors = Self.errors(result.diagnostics)
      #expect(errors.count == 1, "\(requirement): \(result.diagnostics)")
      #expect(
        errors.first?.hasPrefix("case.swift:8:") == true
          && errors.first?.contains("answers \(what), which has no empty value") == true,
        "\(requirement): \(result.diagnostics)")
      let text = try modules.typecheckText(Self.downloader(requirement)).text
      #expect(text.contains("`- note: insert '@Default(<#value#>)'"), "\(text)")
    }
  }

  @Test func anOverloadThatWouldShareAHandleIsAnErrorOnItsLine() throws {
    // Adding `record(_: String)` beside `record(_: Int64)` renames nothing: the new one
    // (line 9) is asked for names.
    let result = try modules.typecheck(
      Self.downloader("func record(_ value: Int64)\n  func record(_ value: String)"))
    #expect(result.status != 0)
    let errors = Self.errors(result.diagnostics)
    #expect(errors.count == 1, "\(result.diagnostics)")
    #expect(
      errors.first?.hasPrefix("case.swift:9:") == true
        && errors.first?.contains(
          "error: 'record(_:)' would have the handle '\\.record' and the selector 'record:', which another overload of it declared before it already has; name this one's with @Handle(\"…\") and @Selector(\"…\")"
        ) == true, "\(result.diagnostics)")
    // The note and the Fix-It, drawn under the excerpt.
    let text = try modules.typecheckText(
      Self.downloader("func record(_ value: Int64)\n  func record(_ value: String)")
    ).text
    #expect(text.contains("`- note: 'record(_:)' declared here"), "\(text)")
    #expect(
      text.contains("`- note: insert '@Handle(\"recordString\") @Selector(\"recordString:\")'"),
      "\(text)")
  }

  @Test func namedOverloadsCompileAndTheFirstKeepsItsName() throws {
    let result = try modules.typecheck(
      Self.downloader(
        "func record(_ value: Int64)\n  @Handle(\"recordString\") @Selector(\"recordString:\") func record(_ value: String)",
        uses: """
          func configure(_ downloads: DownloaderDelegateMulticast) {
            downloads.setPolicy(.firstResponder, for: \\.record)
            downloads.setPolicy(.firstResponder, for: \\.recordString)
          }
          """))
    #expect(result.status == 0, "\(result.diagnostics)")
  }
}
