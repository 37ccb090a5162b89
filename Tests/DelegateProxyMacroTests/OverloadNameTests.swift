import SwiftSyntax
import SwiftSyntaxBuilder
import Testing

@testable import DelegateProxyMacroSupport

/// The names an overloaded method's handle adds: one identifier for any type spelling.
@Suite struct OverloadNameTests {
  /// Type as written → its name.
  @Test(
    arguments: [
      ("Int64", "Int64"),
      ("Double", "Double"),
      ("Int64?", "OptionalInt64"),
      ("Optional<Int64>", "OptionalInt64"),
      ("Int64!", "OptionalInt64"),
      ("[String]", "ArrayString"),
      ("Array<String>", "ArrayString"),
      ("[String]?", "OptionalArrayString"),
      ("[String: Int]", "DictionaryStringInt"),
      ("Swift.Int64", "SwiftInt64"),
      ("Swift.Result<Int, any Error>", "SwiftResultIntError"),
      ("Outer.Inner<T>.Leaf", "OuterInnerTLeaf"),
      ("any CounterHandler", "CounterHandler"),
      ("(Int, Bool)", "TupleIntBool"),
      ("(label: Int, other: Bool)", "TupleIntBool"),
      ("(Int)", "Int"),
      ("()", "Void"),
      ("@escaping (Int) -> Void", "FunctionIntVoid"),
      ("@Sendable () async throws -> [Int]", "FunctionArrayInt"),
      ("inout Int", "InoutInt"),
      ("Int.Type", "IntType"),
      ("(any P).Protocol", "PProtocol"),
      ("A & B", "AAndB"),
      ("`Type`", "Type"),
      ("lowercase", "Lowercase"),
    ])
  func name(_ spelled: String, _ expected: String) {
    let type = TypeSyntax(stringLiteral: spelled)
    #expect(OverloadName.name(of: type) == expected)
    // A name continues a handle: letters, digits and underscores only.
    #expect(expected.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" })
  }

  #if canImport(SwiftSyntax601)
    /// A value generic's argument is part of the name. swift-syntax 601 is the first to
    /// parse one (`3` in `InlineArray<3, Int>`); 600 reads it as a malformed type.
    @Test func valueGenericArgument() {
      #expect(
        OverloadName.name(of: TypeSyntax(stringLiteral: "InlineArray<3, Int>")) == "InlineArray3Int"
      )
    }
  #endif
}
