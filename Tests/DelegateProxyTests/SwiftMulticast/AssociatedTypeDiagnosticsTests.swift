import DelegateProxyTestSupport
import Foundation
import Testing

// What the compiler says when an associated type is constrained to a protocol that is not
// `@Delegate`, whose multicast the binding names (swiftc against this build, as in
// ForeignParentDiagnosticsTests). The case's file: the imports take lines 1–5.

@Suite(
  "What the compiler says about an associated type bound to a protocol that is not @Delegate",
  .tags(.compiler), .enabled(if: TestSelection.runs("compiler")))
struct AssociatedTypeDiagnosticsTests {
  let modules: BuiltModules

  init() throws { modules = try BuiltModules.find().get() }

  @Test func aConstraintThatIsNotDelegateIsAnErrorOnTheUsersLine() throws {
    // The associatedtype is line 12: the imports (1–5), Ledger (6–8), a blank, @Delegate, the
    // protocol line, then it.
    let result = try modules.typecheck(
      """
      protocol Ledger: AnyObject {
        func post(_ amount: Int)
      }

      @Delegate
      protocol Bank: AnyObject {
        associatedtype Book: Ledger
        func open(named name: String) -> Book
      }
      """)
    #expect(result.status != 0)
    let onTheLine = result.diagnostics.filter { $0.hasPrefix("case.swift:12:") }
    #expect(
      onTheLine.contains { $0.hasSuffix("error: cannot find type 'LedgerMulticast' in scope") },
      "\(result.diagnostics)")
    #expect(result.diagnostics.first?.hasPrefix("case.swift:12:") == true, "\(result.diagnostics)")
  }

  @Test func aDelegateConstraintCompiles() throws {
    let result = try modules.typecheck(
      """
      @Delegate
      protocol Ledger: AnyObject {
        func post(_ amount: Int)
      }

      @Delegate
      protocol Bank: AnyObject {
        associatedtype Book: Ledger
        func open(named name: String) -> Book
      }

      func use(_ bank: BankMulticast) -> LedgerMulticast { bank.open(named: "main") }
      """)
    #expect(result.status == 0, "\(result.diagnostics)")
  }
}
