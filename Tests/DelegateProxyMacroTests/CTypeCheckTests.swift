import SwiftSyntax
import SwiftSyntaxBuilder
import Testing

@testable import DelegateProxyMacroSupport

/// Which parameter and result types `@Delegate` refuses from their spelling alone: only
/// what certainly has no C form. Named types it cannot see are left to the runtime.
@Suite struct CTypeCheckTests {
  @Test(arguments: [
    ("() -> Void", "a function type"),
    ("@escaping (Int32) -> Bool", "a function type"),
    ("(Int32, Double)", "a tuple type"),
    ("()", "an empty tuple type"),
    ("[Int32]", "an array type"),
    ("Array<Int32>", "an array type"),
    ("[String: Int]", "a dictionary type"),
    ("Dictionary<String, Int>", "a dictionary type"),
    ("Set<Int>", "a set type"),
    ("String", "type 'String'"),
    ("Swift.String", "type 'String'"),
    ("Character", "type 'Character'"),
    ("Substring", "type 'Substring'"),
    ("Any", "type 'Any'"),
    ("Self", "type 'Self'"),
    ("Int?", "type 'Int?' (C has no optional value types)"),
    ("Double!", "type 'Double?' (C has no optional value types)"),
    ("Optional<Bool>", "type 'Bool?' (C has no optional value types)"),
    ("String?", "an optional of type 'String'"),
    ("((Int32) -> Void)?", "an optional of a function type"),
    ("(String)", "type 'String'"),
  ])
  func refused(type: String, problem: String) {
    #expect(CTypeCheck.problem(with: TypeSyntax(stringLiteral: type)) == problem)
  }

  @Test(arguments: [
    "Int32", "Double", "Bool", "UInt8", "Sensor", "Reading", "Sensor?", "Module.Sensor",
    "UnsafeMutableRawPointer?", "UnsafePointer<CChar>", "OpaquePointer", "AnyObject",
    "any AnyObject", "(any SensorDelegate)?", "(Int32)", "Void", "Array", "String.Index",
  ])
  func accepted(type: String) {
    #expect(CTypeCheck.problem(with: TypeSyntax(stringLiteral: type)) == nil)
  }

  /// `()` is `Void` as a result.
  @Test func emptyTupleResult() {
    #expect(CTypeCheck.problem(with: TypeSyntax(stringLiteral: "()"), isResult: true) == nil)
  }
}
