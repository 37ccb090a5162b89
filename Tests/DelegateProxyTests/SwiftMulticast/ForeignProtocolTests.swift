import DelegateProxy
import Foundation
import MessageRuntime
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

// Multicasting a delegate protocol declared elsewhere: Foundation's XMLParserDelegate,
// driven by a real XMLParser on a real document. The delegates are plain classes that
// conform to XMLParserDelegate — no new conformance, no wrapper.

@Delegate(for: XMLParserDelegate.self)
protocol ParserEvents: XMLParserDelegate {
  func parserDidStartDocument(_ parser: XMLParser)
  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String])
  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?)
  func parser(_ parser: XMLParser, foundCharacters string: String)
  func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?)
    -> Data?
  func parserDidEndDocument(_ parser: XMLParser)
}

/// Prints an indented outline of the elements (into `lines`).
final class OutlinePrinter: XMLParserDelegate {
  var lines: [String] = []
  private var depth = 0
  private var text = ""
  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String]
  ) {
    let attributes = attributeDict.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    lines.append(
      String(repeating: "  ", count: depth) + elementName
        + (attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]"))
    depth += 1
    text = ""
  }
  func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?
  ) {
    depth -= 1
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if !trimmed.isEmpty {
      lines.append(String(repeating: "  ", count: depth + 1) + "\"\(trimmed)\"")
    }
    text = ""
  }
}

/// Counts elements and characters; knows nothing of the outline.
final class ElementCounter: XMLParserDelegate {
  var elements: [String: Int] = [:]
  var characters = 0
  var finished = false
  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String]
  ) { elements[elementName, default: 0] += 1 }
  func parser(_ parser: XMLParser, foundCharacters string: String) { characters += string.count }
  func parserDidEndDocument(_ parser: XMLParser) { finished = true }
}

/// Logs the document's start and end only.
final class ParseLogger: XMLParserDelegate {
  var events: [String] = []
  func parserDidStartDocument(_ parser: XMLParser) { events.append("start") }
  func parserDidEndDocument(_ parser: XMLParser) { events.append("end") }
}

let catalogue = """
  <?xml version="1.0"?>
  <catalogue>
    <book id="b1"><title>Dune</title><year>1965</year></book>
    <book id="b2"><title>Solaris</title></book>
  </catalogue>
  """

@Suite("Delegate protocols you don't own")
struct ForeignProtocolTests {
  /// A parser of the catalogue whose delegate is a multicast of an outline printer and
  /// a counter.
  func parserWithOutlineAndCounter() throws -> (
    XMLParser, ParserEventsMulticast, OutlinePrinter, ElementCounter
  ) {
    let parser = XMLParser(data: Data(catalogue.utf8))
    let outline = OutlinePrinter()
    let counter = ElementCounter()
    let events = ParserEventsMulticast()
    events.add(outline)
    events.add(counter)
    parser.delegate = events
    return (parser, events, outline, counter)
  }

  @Test func anXMLParsersEventsReachEveryDelegateOfTheMulticast() throws {
    let (parser, events, outline, counter) = try parserWithOutlineAndCounter()
    #expect(parser.parse())
    #expect(
      outline.lines == [
        "catalogue", "  book [id=b1]", "    title", "      \"Dune\"", "    year", "      \"1965\"",
        "  book [id=b2]", "    title", "      \"Solaris\"",
      ])
    #expect(counter.elements == ["catalogue": 1, "book": 2, "title": 2, "year": 1])
    #expect(counter.characters > 0)
    #expect(counter.finished)
    withExtendedLifetime(events) {}  // the parser's slot is weak
  }

  @Test func threeDelegatesOneInjectedAfterTheParsersDelegateWasSet() throws {
    // The parser's delegate, set first: a multicast of two.
    let (parser, events, outline, counter) = try parserWithOutlineAndCounter()
    let logger = ParseLogger()
    let injection = ParserEventsMulticast.inject(logger, into: parser, at: \.delegate)
    #expect(parser.parse())
    #expect(outline.lines.first == "catalogue" && outline.lines.count == 9)
    #expect(counter.elements == ["catalogue": 1, "book": 2, "title": 2, "year": 1])
    #expect(logger.events == ["start", "end"])
    injection.remove()
    #expect(parser.delegate === events)
    withExtendedLifetime((outline, counter)) {}
  }

  @Test func aLoggerInjectedBesideTheParsersOwnDelegateHearsTheDocument() throws {
    let parser = XMLParser(data: Data(catalogue.utf8))
    let counter = ElementCounter()
    parser.delegate = counter  // set by code we do not control
    let logger = ParseLogger()
    let injection = ParserEventsMulticast.inject(logger, into: parser, at: \.delegate)
    #expect(parser.parse())
    #expect(counter.finished)
    #expect(counter.elements["book"] == 2)
    #expect(logger.events == ["start", "end"])
    // The delegator's owner sets its primary again; the logger stays.
    let second = ElementCounter()
    injection.setPrimary(second)
    let again = XMLParser(data: Data(catalogue.utf8))
    again.delegate = injection.multicast
    #expect(again.parse())
    #expect(second.elements["title"] == 2)
    #expect(logger.events == ["start", "end", "start", "end"])
    injection.remove()
    #expect(parser.delegate === second)  // the primary it was given last
  }

  @Test func policiesObserversAndDefaultsWorkOnTheForeignProtocol() throws {
    let parser = XMLParser(data: Data(catalogue.utf8))
    let events = ParserEventsMulticast()
    let counter = ElementCounter()
    events.add(counter)
    // No delegate implements resolveExternalEntityName: the protocol's own default runs
    // (nil); an empty multicast answers nil too (no @Default declared).
    #expect(events.parser(parser, resolveExternalEntityName: "e", systemID: nil) == nil)
    let titles = Lock<[String]>([])
    let watching = events.observe(\.parserDidStartElementNamespaceURIQualifiedNameAttributes) {
      _, name, _, _, _ in titles.withLock { $0.append(name) }
    }
    parser.delegate = events
    #expect(parser.parse())
    watching.cancel()
    #expect(titles.withLock { $0 }.filter { $0 == "book" }.count == 2)
    #expect(ParserEventsMulticast.delegateProtocol.name == "XMLParserDelegate")
    #expect(events.count == 1)
  }
}

// FileManagerDelegate: on Linux (Swift 6.3's FoundationEssentials) the protocol has no
// default implementations at all, for any class: every conforming class implements its
// sixteen methods, so the multicast restates all sixteen (the compiler lists what is
// missing) and fans every one out.

@Delegate(for: FileManagerDelegate.self)
protocol FileEvents: FileManagerDelegate {
  func fileManager(
    _ fileManager: FileManager, shouldCopyItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    copyingItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool
  func fileManager(_ fileManager: FileManager, shouldCopyItemAt srcURL: URL, to dstURL: URL) -> Bool
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    copyingItemAt srcURL: URL, to dstURL: URL
  ) -> Bool
  func fileManager(
    _ fileManager: FileManager, shouldMoveItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    movingItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool
  func fileManager(_ fileManager: FileManager, shouldMoveItemAt srcURL: URL, to dstURL: URL) -> Bool
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    movingItemAt srcURL: URL, to dstURL: URL
  ) -> Bool
  func fileManager(
    _ fileManager: FileManager, shouldLinkItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    linkingItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool
  func fileManager(_ fileManager: FileManager, shouldLinkItemAt srcURL: URL, to dstURL: URL) -> Bool
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    linkingItemAt srcURL: URL, to dstURL: URL
  ) -> Bool
  func fileManager(_ fileManager: FileManager, shouldRemoveItemAtPath path: String) -> Bool
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    removingItemAtPath path: String
  ) -> Bool
  func fileManager(_ fileManager: FileManager, shouldRemoveItemAt URL: URL) -> Bool
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    removingItemAt URL: URL
  ) -> Bool
}

/// What a FileManagerDelegate on Linux writes once: every decision, here "go ahead" and
/// "stop at errors", with the copy and removal decisions in one place each.
class FileDecisions: FileManagerDelegate, @unchecked Sendable {
  // @unchecked Sendable: subclasses keep their state in Locks.
  func shouldCopy(_ source: URL) -> Bool { true }
  func shouldRemove(_ item: URL) -> Bool { true }
  func fileManager(
    _ fileManager: FileManager, shouldCopyItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool { shouldCopy(URL(fileURLWithPath: srcPath)) }
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    copyingItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool { false }
  func fileManager(_ fileManager: FileManager, shouldCopyItemAt srcURL: URL, to dstURL: URL) -> Bool
  { shouldCopy(srcURL) }
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    copyingItemAt srcURL: URL, to dstURL: URL
  ) -> Bool { false }
  func fileManager(
    _ fileManager: FileManager, shouldMoveItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool { true }
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    movingItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool { false }
  func fileManager(_ fileManager: FileManager, shouldMoveItemAt srcURL: URL, to dstURL: URL) -> Bool
  { true }
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    movingItemAt srcURL: URL, to dstURL: URL
  ) -> Bool { false }
  func fileManager(
    _ fileManager: FileManager, shouldLinkItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool { true }
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    linkingItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool { false }
  func fileManager(_ fileManager: FileManager, shouldLinkItemAt srcURL: URL, to dstURL: URL) -> Bool
  { true }
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    linkingItemAt srcURL: URL, to dstURL: URL
  ) -> Bool { false }
  func fileManager(_ fileManager: FileManager, shouldRemoveItemAtPath path: String) -> Bool {
    shouldRemove(URL(fileURLWithPath: path))
  }
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    removingItemAtPath path: String
  ) -> Bool { false }
  func fileManager(_ fileManager: FileManager, shouldRemoveItemAt URL: URL) -> Bool {
    shouldRemove(URL)
  }
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    removingItemAt URL: URL
  ) -> Bool { false }
}

/// Refuses to copy or remove anything named like `secret`.
final class SecretKeeper: FileDecisions, @unchecked Sendable {
  let asked = Lock<[String]>([])
  override func shouldCopy(_ source: URL) -> Bool {
    asked.withLock { $0.append("copy \(source.lastPathComponent)") }
    return !source.lastPathComponent.contains("secret")
  }
  override func shouldRemove(_ item: URL) -> Bool {
    asked.withLock { $0.append("remove \(item.lastPathComponent)") }
    return !item.lastPathComponent.contains("secret")
  }
}

/// Allows everything but the one file it keeps; records what it was asked.
final class Auditor: FileDecisions, @unchecked Sendable {
  let keep: String
  let asked = Lock<[String]>([])
  init(keep: String) { self.keep = keep }
  override func shouldCopy(_ source: URL) -> Bool {
    asked.withLock { $0.append("copy \(source.lastPathComponent)") }
    return source.lastPathComponent != keep
  }
}

@Suite("FileManagerDelegate through a multicast")
struct FileManagerDelegateTests {
  @Test func twoDelegatesVetoACopyAndARemovalTogether() throws {
    let fm = FileManager()
    let root = fm.temporaryDirectory.appendingPathComponent("dp-\(UUID().uuidString)")
    let source = root.appendingPathComponent("source")
    try fm.createDirectory(at: source, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    for name in ["notes.txt", "secret.txt", "draft.txt"] {
      try Data(name.utf8).write(to: source.appendingPathComponent(name))
    }
    let keeper = SecretKeeper()
    let auditor = Auditor(keep: "draft.txt")
    let events = FileEventsMulticast()
    events.add(keeper)
    events.add(auditor)
    events.setPolicy(.reduce(.allTrue), for: \.fileManagerShouldCopyItemAtTo)
    events.setPolicy(.reduce(.allTrue), for: \.fileManagerShouldCopyItemAtPathToPath)
    events.setPolicy(.reduce(.allTrue), for: \.fileManagerShouldRemoveItemAt)
    events.setPolicy(.reduce(.allTrue), for: \.fileManagerShouldRemoveItemAtPath)
    fm.delegate = events
    let copy = root.appendingPathComponent("copy")
    try fm.copyItem(at: source, to: copy)
    #expect(try fm.contentsOfDirectory(atPath: copy.path).sorted() == ["notes.txt"])
    // Both were asked about the files, in member order; each vetoed one.
    #expect(keeper.asked.withLock { $0 }.contains("copy secret.txt"))
    #expect(auditor.asked.withLock { $0 }.contains("copy draft.txt"))
    // A removal: the keeper refuses the secret, the auditor (the base's "yes") agrees to
    // everything; all true keeps the secret.
    try fm.removeItem(at: source.appendingPathComponent("secret.txt"))
    #expect(fm.fileExists(atPath: source.appendingPathComponent("secret.txt").path))
    try fm.removeItem(at: source.appendingPathComponent("notes.txt"))
    #expect(!fm.fileExists(atPath: source.appendingPathComponent("notes.txt").path))
    #expect(keeper.asked.withLock { $0 }.contains("remove secret.txt"))
  }

  @Test func anEmptyMulticastAnswersTheTypesEmptyValue() {
    let events = FileEventsMulticast()
    let url = URL(fileURLWithPath: "/tmp/x")
    // No @Default declared: false — copying nothing, which is why a real multicast
    // declares what its delegator should do without delegates (see README).
    #expect(events.fileManager(FileManager.default, shouldRemoveItemAt: url) == false)
  }
}
