import Foundation
import DelegateProxyTestSupport
import Testing

// What the compiler says when a `@Delegate` protocol refines a protocol that is not
// `@Delegate` without restating it (swiftc against this build, as in
// RestatementDiagnosticsTests). The case's file: the imports take lines 1–5.

@Suite(
  "What the compiler says about a parent that is not @Delegate", .tags(.compiler),
  .enabled(if: TestSelection.runs("compiler")))
struct ForeignParentDiagnosticsTests {
  let modules: BuiltModules

  init() throws { modules = try BuiltModules.find().get() }

  static let legacy = """
    protocol LegacyEvents: AnyObject {
      func legacyDidFinish(_ id: Int)
    }

    """

  @Test func aParentThatIsNotDelegateIsAnErrorOnTheUsersLineNamingIt() throws {
    // The protocol line is line 10: the imports (1–5), LegacyEvents (6–8), a blank, @Delegate.
    let result = try modules.typecheck(
      Self.legacy + """
        @Delegate
        protocol FetchEvents: LegacyEvents {
          func fetch(_ id: Int, didWrite bytes: Int)
        }
        """)
    #expect(result.status != 0)
    let onTheLine = result.diagnostics.filter { $0.hasPrefix("case.swift:10:") }
    #expect(
      onTheLine.contains { $0.hasSuffix("error: cannot find type 'LegacyEventsMulticast' in scope") },
      "\(result.diagnostics)")
    #expect(
      onTheLine.contains {
        $0.hasSuffix("error: type 'FetchEventsMulticast' does not conform to protocol 'LegacyEvents'")
      })
    // (swiftc's excerpt under it also notes, at LegacyEvents' requirement, "protocol
    // requires function 'legacyDidFinish' with type '(Int) -> ()'": the method to restate.)
    // The first error is the user's line's.
    #expect(result.diagnostics.first?.hasPrefix("case.swift:10:") == true)
  }

  @Test func restatingTheParentAndNamingItCompiles() throws {
    let result = try modules.typecheck(
      Self.legacy + """
        @Delegate
        protocol TransferEvents: AnyObject {
          func transferDidStart(_ id: Int)
        }

        @Delegate(restating: LegacyEvents.self)
        protocol FetchEvents: TransferEvents, LegacyEvents {
          func legacyDidFinish(_ id: Int)
          func fetch(_ id: Int, didWrite bytes: Int)
        }

        func use(_ events: FetchEventsMulticast) {
          events.setPolicy(.lastResponder, for: \\.transferDidStart)
          events.setPolicy(.lastResponder, for: \\.legacyDidFinish)
          let legacy: any LegacyEvents = events
          legacy.legacyDidFinish(1)
        }
        """)
    #expect(result.status == 0, "\(result.diagnostics)")
  }
}
