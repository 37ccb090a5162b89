import DelegateProxy
import DelegateProxyCCallbackSupport
import DelegateProxyTestSupport
import Glibc
import MessageRuntime
import Testing

/// expat (context first) calling adapters whose receiver is a multicast proxy of three
/// handlers.
@Suite("expat callbacks (context first)") struct ExpatCallbackTests {
  // void (*)(void *userData, const XML_Char *name, const XML_Char **atts)
  static let start = Message<
    Void, UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?
  >(
    "xmlStartElement:attributes:")
  // void (*)(void *userData, const XML_Char *name)
  static let end = Message<Void, UnsafePointer<CChar>?>("xmlEndElement:")
  // void (*)(void *userData, const XML_Char *s, int len)
  static let characters = Message<Void, UnsafePointer<CChar>?, Int32>("xmlCharacters:length:")

  static let document = """
    <?xml version="1.0"?>
    <feed lang="en"><entry id="1">Hello</entry><entry id="2">World</entry></feed>
    """

  /// A handler that logs every event with its name.
  func handler(_ name: String, log: CallLog) throws -> RuntimeObject {
    let h = RuntimeObject()
    try h.setMethod(Self.start) { _, element, atts in
      var attributes: [String] = []
      var i = 0
      while let key = atts?[i], let value = atts?[i + 1] {
        attributes.append("\(text(key))=\(text(value))")
        i += 2
      }
      log.append("\(name) <\(text(element))\(attributes.map { " " + $0 }.joined())>")
    }
    try h.setMethod(Self.end) { _, element in log.append("\(name) </\(text(element))>") }
    try h.setMethod(Self.characters) { _, s, length in
      log.append("\(name) \"\(text(s, count: Int(length)))\"")
    }
    return h
  }

  @Test func parsesADocumentIntoThreeHandlersInOrder() throws {
    let log = CallLog()
    let handlers = try ["a", "b", "c"].map { try handler($0, log: log) }
    let proxy = try MulticastProxy(delegates: handlers)
    // expat passes ONE userData to every handler: the three adapters share a context,
    // and each function pointer says which message it is.
    let start = try CallbackAdapter(for: Self.start, context: .first, receiver: proxy)
    let end = try CallbackAdapter(
      for: Self.end, context: .first, receiver: proxy, sharingContextWith: start)
    let characters = try CallbackAdapter(
      for: Self.characters, context: .first, receiver: proxy, sharingContextWith: start)
    #expect(start.context == end.context && end.context == characters.context)
    #expect(start.path == .registers && end.path == .registers && characters.path == .registers)

    let parser = try #require(XML_ParserCreate(nil))
    defer { XML_ParserFree(parser) }
    XML_SetUserData(parser, start.context)
    XML_SetElementHandler(
      parser, try start.function(as: XML_StartElementHandler.self),
      try end.function(as: XML_EndElementHandler.self))
    XML_SetCharacterDataHandler(parser, try characters.function(as: XML_CharacterDataHandler.self))
    let status = Self.document.withCString { XML_Parse(parser, $0, Int32(strlen($0)), 1) }
    #expect(status == XML_STATUS_OK)

    let events = [
      "<feed lang=en>", "<entry id=1>", "\"Hello\"", "</entry>", "<entry id=2>", "\"World\"",
      "</entry>", "</feed>",
    ]
    let expected = events.flatMap { event in ["a", "b", "c"].map { "\($0) \(event)" } }
    #expect(log.entries == expected)
  }

  @Test func aHandlerAddedLaterIsHeard() throws {
    let log = CallLog()
    let first = try handler("a", log: log)  // the proxy holds its delegates weakly
    let proxy = try MulticastProxy(delegates: [first])
    let start = try CallbackAdapter(for: Self.start, context: .first, receiver: proxy)
    let parser = try #require(XML_ParserCreate(nil))
    defer { XML_ParserFree(parser) }
    XML_SetUserData(parser, start.context)
    XML_SetStartElementHandler(parser, try start.function(as: XML_StartElementHandler.self))
    _ = "<r>".withCString { XML_Parse(parser, $0, 3, 0) }
    let late = try handler("late", log: log)
    try proxy.add(late)
    _ = "<s/></r>".withCString { XML_Parse(parser, $0, 8, 1) }
    #expect(log.entries == ["a <r>", "a <s>", "late <s>"])
    withExtendedLifetime((first, late)) {}
  }
}
