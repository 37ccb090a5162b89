import DelegateProxy
import DelegateProxyTesting
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

// A test double standing in for a Foundation delegate: XMLParser, a real delegator,
// talks to a DelegateDouble through the stand-in of a `@Delegate(for:)` multicast.

@Delegate(for: XMLParserDelegate.self, cFace: true)
protocol ParsingEvents: XMLParserDelegate {
  override func parserDidStartDocument(_ parser: XMLParser)
  override func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String])
  override func parserDidEndDocument(_ parser: XMLParser)
}

@Suite("A double for a delegate protocol you don't own")
struct ForeignProtocolDoubleTests {
  @Test func anXMLParserTalksToADoubleThroughItsStandIn() throws {
    let double = try SwiftDelegateDouble(ParsingEventsMulticast.self)
    let parser = XMLParser(data: Data("<list><item n='1'/><item n='2'/></list>".utf8))
    let standIn = double.delegate
    parser.delegate = standIn
    #expect(parser.parse())
    double.verify(\.parserDidStartDocument, called: .once) { $0 === parser }
    double.verify(\.parserDidStartElementNamespaceURIQualifiedNameAttributes, called: .exactly(3))
    double.verify(\.parserDidEndDocument, called: .once)
    // The calls are recorded with the parameters' Swift names and values.
    let calls = double.calls(to: \.parserDidStartElementNamespaceURIQualifiedNameAttributes)
    #expect(calls.map(\.1) == ["list", "item", "item"])
    #expect(calls.map(\.4) == [[:], ["n": "1"], ["n": "2"]])
    #expect(
      double.recordedCalls(to: \.parserDidStartElementNamespaceURIQualifiedNameAttributes)
        .map { $0.arguments[1].name } == ["elementName", "elementName", "elementName"])
  }
}
