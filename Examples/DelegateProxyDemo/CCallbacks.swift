// A real C library's callbacks fanned out to three Swift handlers: expat (libexpat1-dev)
// parses a feed and calls its start-element, end-element and character-data handlers
// with ONE userData pointer, first. CallbackAdapters give expat function pointers of its
// own handler types and the context to register; each call reaches every handler behind
// a MulticastProxy.

import DelegateProxy
import DelegateProxyCExpat
import MessageRuntime
import Synchronization

/// expat's three callbacks, as messages (the context removed).
enum FeedMessages {
  /// `void (*)(void *userData, const XML_Char *name, const XML_Char **atts)`.
  static let start = Message<
    Void, UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?
  >(
    "parserDidStartElement:attributes:")
  /// `void (*)(void *userData, const XML_Char *name)`.
  static let end = Message<Void, UnsafePointer<CChar>?>("parserDidEndElement:")
  /// `void (*)(void *userData, const XML_Char *s, int len)` — text, not NUL-terminated.
  static let text = Message<Void, UnsafePointer<CChar>?, Int32>("parserFoundCharacters:length:")
}

private func string(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }

private func string(_ p: UnsafePointer<CChar>?, count: Int32) -> String {
  guard let p, count > 0 else { return "" }
  return p.withMemoryRebound(to: UInt8.self, capacity: Int(count)) {
    String(decoding: UnsafeBufferPointer(start: $0, count: Int(count)), as: UTF8.self)
  }
}

/// Prints the document's outline.
final class Outline: RuntimeObject, @unchecked Sendable {
  // @unchecked Sendable: `depth` is a Mutex.
  let depth = Mutex(0)

  override init(class runtimeClass: RuntimeClass = .root) {
    super.init(class: runtimeClass)
    try! setMethod(FeedMessages.start) { receiver, name, atts in
      let me = receiver as! Outline
      var attributes = ""
      var i = 0
      while let key = atts?[i], let value = atts?[i + 1] {
        attributes += " \(string(key))=\"\(string(value))\""
        i += 2
      }
      let d = me.depth.withLock { d in
        defer { d += 1 }
        return d
      }
      say("← Outline: \(String(repeating: "  ", count: d))<\(string(name))\(attributes)>", level: 2)
    }
    try! setMethod(FeedMessages.end) { receiver, _ in
      (receiver as! Outline).depth.withLock { $0 -= 1 }
    }
  }
}

/// Counts words in the text.
final class WordCounter: RuntimeObject, @unchecked Sendable {
  // @unchecked Sendable: `words` is a Mutex.
  let words = Mutex(0)

  override init(class runtimeClass: RuntimeClass = .root) {
    super.init(class: runtimeClass)
    try! setMethod(FeedMessages.text) { receiver, s, length in
      let n = string(s, count: length).split(whereSeparator: { $0 == " " || $0 == "\n" }).count
      guard n > 0 else { return }
      let total = (receiver as! WordCounter).words.withLock {
        $0 += n
        return $0
      }
      say("← WordCounter: +\(n) word\(n == 1 ? "" : "s") (\(total))", level: 2)
    }
  }
}

/// Collects the `href` of every `<link>`, and says when an entry ends.
final class LinkCollector: RuntimeObject, @unchecked Sendable {
  // @unchecked Sendable: `links` is a Mutex.
  let links = Mutex<[String]>([])

  override init(class runtimeClass: RuntimeClass = .root) {
    super.init(class: runtimeClass)
    try! setMethod(FeedMessages.start) { receiver, name, atts in
      guard string(name) == "link" else { return }
      var i = 0
      while let key = atts?[i], let value = atts?[i + 1] {
        if string(key) == "href" {
          (receiver as! LinkCollector).links.withLock { $0.append(string(value)) }
          say("← LinkCollector: \(string(value))", level: 2)
        }
        i += 2
      }
    }
    try! setMethod(FeedMessages.end) { _, name in
      if string(name) == "entry" { say("← LinkCollector: entry done", level: 2) }
    }
  }
}

/// The `c-callbacks` scenario.
func cCallbacks() throws {
  let steps = Steps()
  let m = FeedMessages.self

  steps.next("expat (a real C library) has one userData and one handler per event, context first")
  say(
    "XML_StartElementHandler  void (*)(void *userData, const XML_Char *name, const XML_Char **atts)"
  )
  say("XML_EndElementHandler    void (*)(void *userData, const XML_Char *name)")
  say("XML_CharacterDataHandler void (*)(void *userData, const XML_Char *s, int len)")
  say(
    "imp(for:) would not fit: its functions take (self, _cmd, …) — the element name would land in _cmd"
  )

  steps.next("Three Swift handlers behind one MulticastProxy")
  let outline = Outline()
  let counter = WordCounter()
  let collector = LinkCollector()
  let proxy = try MulticastProxy(delegates: [outline, counter, collector])
  for line in withoutAddresses(proxy.description).split(separator: "\n") { say(String(line)) }

  steps.next("CallbackAdapters: expat's own function types, one shared context (context first)")
  let start = try CallbackAdapter(for: m.start, context: .first, receiver: proxy)
  let end = try CallbackAdapter(
    for: m.end, context: .first, receiver: proxy, sharingContextWith: start)
  let text = try CallbackAdapter(
    for: m.text, context: .first, receiver: proxy, sharingContextWith: start)
  for adapter in [start, end, text] {
    say(
      "\(adapter.callback.encoding) → \(adapter.selector.name) — \(adapter.path) entry; proxy route: \(proxy.fastPath(for: adapter.selector).map { "\($0)" } ?? "general")"
    )
  }
  say("the context identifies the proxy; each function pointer, the message")

  guard let parser = XML_ParserCreate(nil) else { throw DemoError.expat("XML_ParserCreate failed") }
  defer { XML_ParserFree(parser) }
  XML_SetUserData(parser, start.context)
  XML_SetElementHandler(
    parser, try start.function(as: XML_StartElementHandler.self),
    try end.function(as: XML_EndElementHandler.self))
  XML_SetCharacterDataHandler(parser, try text.function(as: XML_CharacterDataHandler.self))

  steps.next("expat parses a feed: every event reaches the handlers that implement it, in order")
  let feed = """
    <feed><entry><title>Multicast delegates on Linux</title><link href="https://example.org/1"/></entry>\
    <entry><title>Callbacks with context</title><link href="https://example.org/2"/></entry></feed>
    """
  let status = feed.withCString { XML_Parse(parser, $0, Int32(feed.utf8.count), 1) }
  guard status == XML_STATUS_OK else {
    throw DemoError.expat(string(XML_ErrorString(XML_GetErrorCode(parser))))
  }
  say(
    "expat: done; \(counter.words.withLock { $0 }) words, links \(collector.links.withLock { $0 })")

  steps.next("The adapters keep the proxy alive; expat may call them as long as they live")
  say(
    "a call after an adapter is released stops the process with a message naming it — never freed memory"
  )
  withExtendedLifetime((outline, counter, collector, start, end, text)) {}
}

enum DemoError: Error, CustomStringConvertible {
  case expat(String)
  var description: String {
    switch self {
    case .expat(let message): "expat: \(message)"
    }
  }
}
