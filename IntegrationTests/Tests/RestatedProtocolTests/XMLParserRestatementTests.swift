import DelegateProxy
import Foundation
import FoundationXML
import Testing

// XMLParserDelegates.swift is `swift package restate-delegate XMLParserDelegate --target
// RestatedProtocolTests`'s output, unedited (Scripts/restate.sh writes it again and compares).

/// Records the outline of a document: the classes a user already has.
final class OutlineRecorder: NSObject, XMLParserDelegate {
  var events: [String] = []

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
  ) {
    events.append("<\(elementName)>")
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?
  ) {
    events.append("</\(elementName)>")
  }

  func parserDidEndDocument(_ parser: XMLParser) { events.append("end") }
}

/// Counts text and comments: requirements a hand restatement of a few methods would drop.
final class TextCounter: NSObject, XMLParserDelegate {
  var characters = 0
  var comments: [String] = []
  var cdata = 0

  func parser(_ parser: XMLParser, foundCharacters string: String) { characters += string.count }
  func parser(_ parser: XMLParser, foundComment comment: String) { comments.append(comment) }
  func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { cdata += CDATABlock.count }
}

@Suite("XMLParserDelegate restated by the command")
struct XMLParserRestatementTests {
  @Test("A real XMLParser parse reaches both members, through every requirement they implement")
  func parse() throws {
    let document = Data(
      "<library><!-- shelf 1 --><book>Dune</book><book><![CDATA[Solaris]]></book></library>".utf8)
    let outline = OutlineRecorder()
    let counter = TextCounter()
    let events = XMLParserDelegatesMulticast()
    events.add(outline)
    events.add(counter)
    let parser = XMLParser(data: document)
    parser.delegate = events
    #expect(parser.parse())
    #expect(
      outline.events == [
        "<library>", "<book>", "</book>", "<book>", "</book>", "</library>", "end",
      ])
    #expect(counter.characters == 4)
    #expect(counter.comments == [" shelf 1 "])
    #expect(counter.cdata == 7)
  }
}
