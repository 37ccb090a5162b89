import DelegateProxy
import DelegateProxyTesting
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

// A test double standing in for a Foundation delegate: XMLParser, a real delegator,
// talks to a DelegateDouble through the stand-in of a `@Delegate(for:)` multicast.

@Delegate(for: XMLParserDelegate.self)
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
    let double = try DelegateDouble(ParsingEventsMulticast.self)
    let parser = XMLParser(data: Data("<list><item n='1'/><item n='2'/></list>".utf8))
    let standIn = double.delegate(as: ParsingEventsMulticast.self)
    parser.delegate = standIn
    #expect(parser.parse())
    double.verify("parserDidStartDocument:", called: .once)
    double.verify(
      "parser:didStartElement:namespaceURI:qualifiedName:attributes:", called: .exactly(3))
    double.verify("parserDidEndDocument:", called: .once)
    // The calls are recorded with the parameters' Swift names and values.
    let calls = double.calls(to: "parser:didStartElement:namespaceURI:qualifiedName:attributes:")
    #expect(calls.map { $0.arguments[1].name } == ["elementName", "elementName", "elementName"])
    #expect(try calls.map { try $0.swiftArgument(1, as: String.self) } == ["list", "item", "item"])
    #expect(
      try calls.map { try $0.swiftArgument(4, as: [String: String].self) } == [
        [:], ["n": "1"], ["n": "2"],
      ])
  }
}
