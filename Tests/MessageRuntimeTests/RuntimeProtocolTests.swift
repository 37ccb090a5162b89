import DelegateProxyTestSupport
import Testing

@testable import MessageRuntime

@Suite("Protocols") struct RuntimeProtocolTests {
  @Test func requiredOptionalAndInheritance() throws {
    let base = try RuntimeProtocol(
      name: uniqueClassName("ScrollViewDelegate"),
      optional: ["scrollViewDidScroll:": "v@:@"])
    let table = try RuntimeProtocol(
      name: uniqueClassName("TableViewDataSource"), inherits: [base],
      required: ["tableView:numberOfRowsInSection:": "q@:@q"],
      optional: ["tableView:heightForRowAtIndexPath:": "d@:@q"])
    #expect(RuntimeProtocol.named(table.name) === table)
    let rows = try #require(table.requirement(for: "tableView:numberOfRowsInSection:"))
    #expect(rows.isRequired && rows.signature.encoding == "q@:@q")
    let scroll = try #require(table.requirement(for: "scrollViewDidScroll:"))  // inherited
    #expect(!scroll.isRequired)
    #expect(table.allRequirements.count == 3)
    #expect(table.inherits(from: base) && !base.inherits(from: table))
  }

  @Test func conformanceThroughClassSuperclassAndInheritedProtocol() throws {
    let base = RuntimeProtocol(name: uniqueClassName("P"), requirements: [])
    let derived = RuntimeProtocol(name: uniqueClassName("Q"), inherits: [base], requirements: [])
    let superclass = try RuntimeClass(name: uniqueClassName("Super"))
    let subclass = try RuntimeClass(name: uniqueClassName("Sub"), superclass: superclass)
    superclass.addProtocol(derived)
    #expect(subclass.conforms(to: derived))
    #expect(subclass.conforms(to: base))  // derived inherits base
    let obj = RuntimeObject(class: subclass)
    #expect(obj.conforms(to: base))
    let plain = RuntimeObject()
    #expect(!plain.conforms(to: base))
    plain.addProtocol(base)  // per-object conformance
    #expect(plain.conforms(to: base))
  }

  @Test func missingRequiredMethods() throws {
    let proto = try RuntimeProtocol(
      name: uniqueClassName("DataSource"),
      required: ["numberOfItems": "q@:", "itemAt:": "@@:q"], optional: ["title": "*@:"])
    let cls = try RuntimeClass(name: uniqueClassName())
    #expect(
      Set(cls.missingRequiredMethods(of: proto)) == [
        Selector("numberOfItems"), Selector("itemAt:"),
      ])
    try cls.addMethod(Message<Int>("numberOfItems")) { _ in 0 }
    #expect(cls.missingRequiredMethods(of: proto) == [Selector("itemAt:")])
  }
}
