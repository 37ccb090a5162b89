import SwiftSyntaxMacrosGenericTestSupport
import Testing

// What `@Delegate` generates for properties, subscripts and generic methods: a read and a
// write handle per property or subscript, the conformance's accessors through the engine's
// send and write, and generic methods through `__callEach`.

@Suite("@Delegate expansion: properties, subscripts and generic methods")
struct StateExpansionTests {
  @Test func aPropertyAndASubscript() {
    assertDelegateExpansion(
      """
      @Delegate
      protocol GaugeDelegate: AnyObject {
        var level: Int { get set }
        subscript(metadataKey _: String) -> String? { get }
      }
      """,
      expandedSource: #"""
        PLACEHOLDER
        """#
    )
  }

  @Test func aGenericMethod() {
    assertDelegateExpansion(
      """
      @Delegate
      protocol Instrument: AnyObject {
        func inject<Carrier>(_ context: String, into carrier: inout Carrier) where Carrier: Sendable
      }
      """,
      expandedSource: #"""
        PLACEHOLDER
        """#
    )
  }
}
