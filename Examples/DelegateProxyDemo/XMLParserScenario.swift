// A delegate protocol you don't own: Foundation's XMLParser, whose one `weak var delegate:
// XMLParserDelegate?` slot the app fills with a multicast of an outline printer and a
// counter; a logger is then injected into that slot beside what is already there. The
// delegates are plain classes conforming to XMLParserDelegate; the document ships with
// the demo (Resources/library.xml).

import DelegateProxy
import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The XMLParserDelegate methods the app fans out; the ones not restated keep Foundation's
/// defaults (the compiler checks each line against the real requirement).
@Delegate(for: XMLParserDelegate.self)
protocol DocumentEvents: XMLParserDelegate {
  func parserDidStartDocument(_ parser: XMLParser)
  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String])
  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?)
  func parser(_ parser: XMLParser, foundCharacters string: String)
  func parserDidEndDocument(_ parser: XMLParser)
}

/// Prints the document as an indented outline while it is parsed: containers on their
/// own line with their attributes, leaves with their text.
final class OutlinePrinter: XMLParserDelegate {
  private var open: [(name: String, attributes: String, printed: Bool)] = []
  private var text = ""

  private func printPending() {
    guard let last = open.last, !last.printed else { return }
    say(String(repeating: "  ", count: open.count - 1) + last.name + last.attributes, level: 2)
    open[open.count - 1].printed = true
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String]
  ) {
    printPending()
    let attributes = attributeDict.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    open.append(
      (
        elementName, attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]",
        false
      ))
    text = ""
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?
  ) {
    guard let element = open.popLast() else { return }
    let content = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if !element.printed {
      let indent = String(repeating: "  ", count: open.count)
      say(
        indent + element.name + element.attributes + (content.isEmpty ? "" : ": \(content)"),
        level: 2)
    }
    text = ""
  }
}

/// Counts elements by name and the characters of text; knows nothing of the outline.
final class ElementCounter: XMLParserDelegate {
  private(set) var elements: [String: Int] = [:]
  private(set) var textCharacters = 0

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String]
  ) { elements[elementName, default: 0] += 1 }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    textCharacters += string.trimmingCharacters(in: .whitespacesAndNewlines).count
  }
}

/// Logs where the document starts and ends (line numbers from the parser).
final class ParseLogger: XMLParserDelegate {
  private(set) var entries: [String] = []

  func parserDidStartDocument(_ parser: XMLParser) {
    entries.append("document starts (line \(parser.lineNumber))")
  }
  func parserDidEndDocument(_ parser: XMLParser) {
    entries.append("document ends (line \(parser.lineNumber))")
  }
}

/// The document shipped with the demo, from the executable's resource bundle.
func libraryDocument() throws -> (data: Data, name: String) {
  guard let url = Bundle.module.url(forResource: "library", withExtension: "xml") else {
    throw XMLDemoError.missingResource("library.xml")
  }
  return (try Data(contentsOf: url), url.lastPathComponent)
}

/// What the scenario can fail with.
enum XMLDemoError: Error, CustomStringConvertible {
  /// A file the demo ships with is not in its resource bundle.
  case missingResource(String)
  /// The parser stopped with an error.
  case parseFailed(String)

  var description: String {
    switch self {
    case .missingResource(let name): "resource \(name) not found in the demo's bundle"
    case .parseFailed(let reason): "XMLParser failed: \(reason)"
    }
  }
}

func xmlParser() throws {
  let steps = Steps()
  let document = try libraryDocument()
  let parser = XMLParser(data: document.data)

  steps.next("The app fans the parser's events out to an outline printer and a counter")
  let outline = OutlinePrinter()
  let counter = ElementCounter()
  let events = DocumentEventsMulticast()
  events.add(outline)
  events.add(counter)
  parser.delegate = events
  say("DocumentEventsMulticast is an XMLParserDelegate: parser.delegate = events")

  steps.next("A logger is injected into the parser's delegate slot, beside what is there")
  let logger = ParseLogger()
  let injection = DocumentEventsMulticast.inject(logger, into: parser, at: \.delegate)
  say("parser.delegate is now a multicast of the app's multicast, then the logger")

  steps.next("The parser reads \(document.name) (\(document.data.count) bytes); the outline:")
  guard parser.parse() else {
    throw XMLDemoError.parseFailed(parser.parserError.map { "\($0)" } ?? "unknown error")
  }

  steps.next("The counter's summary")
  for (name, count) in counter.elements.sorted(by: { $0.key < $1.key }) {
    say("\(name): \(count)")
  }
  say("text: \(counter.textCharacters) characters")

  steps.next("The logger's entries")
  for entry in logger.entries { say(entry) }

  steps.next("The injection is removed: the app's multicast is the parser's delegate again")
  injection.remove()
  say("parser.delegate === events: \(parser.delegate === events)")
}
