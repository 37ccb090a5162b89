import DelegateProxy
import DelegateProxyCCallbackSupport
import DelegateProxyTesting
import MessageRuntime
import Testing

/// C callers reach doubles as they reach any delegate: a real C library through a
/// callback adapter, C code through `imp(for:)`.
@Suite struct CCallerTests {
  /// expat's callbacks, as messages (context first: `void *userData` is removed).
  static let parserSignatures: KeyValuePairs<String, String> = [
    "parserDidStartElement:attributes:": "v@:*^*",
    "parserDidEndElement:": "v@:*",
    "parserFoundCharacters:length:": "v@:*i",
  ]

  @Test func expatReachesAStrictDoubleWithTheRightArguments() throws {
    let double = try DelegateDouble(signatures: Self.parserSignatures, mode: .strict)
    // A strict double fails every call it has no stub for: these say "expected".
    for selector in ["parserDidStartElement:attributes:", "parserDidEndElement:"] {
      try double.stub(Selector(selector), .perform { _ in })
    }
    let start = try CallbackAdapter(
      CallbackSignature(
        returnType: .void, arguments: [.pointer(.void), .cString, .pointer(.cString)]),
      context: .first, receiver: double, selector: "parserDidStartElement:attributes:")
    let end = try CallbackAdapter(
      CallbackSignature(returnType: .void, arguments: [.pointer(.void), .cString]),
      context: .first, receiver: double, selector: "parserDidEndElement:", sharingContextWith: start
    )

    let parser = try #require(XML_ParserCreate(nil))
    defer { XML_ParserFree(parser) }
    XML_SetUserData(parser, start.context)
    XML_SetElementHandler(
      parser, try start.function(as: XML_StartElementHandler.self),
      try end.function(as: XML_EndElementHandler.self))
    let document = #"<feed lang="en"><entry/></feed>"#
    #expect(XML_Parse(parser, document, Int32(document.utf8.count), 1) == XML_STATUS_OK)

    double.verify("parserDidStartElement:attributes:", called: .exactly(2))
    double.verify("parserDidStartElement:attributes:", called: .once, with: ["feed", .any])
    double.verify("parserDidEndElement:", called: .once, with: ["entry"])
    double.verifyInOrder([
      "parserDidStartElement:attributes:", "parserDidEndElement:", "parserDidEndElement:",
    ])
    #expect(
      double.calls.map(\.description) == [
        #"parserDidStartElement:attributes:("feed", "# + double.calls[0].arguments[1].text + ")",
        #"parserDidStartElement:attributes:("entry", "# + double.calls[1].arguments[1].text + ")",
        #"parserDidEndElement:("entry")"#,
        #"parserDidEndElement:("feed")"#,
      ])
  }

  @Test func expatCharactersWithoutAStubFailAStrictDouble() throws {
    let double = try DelegateDouble(signatures: Self.parserSignatures, mode: .strict)
    let characters = try CallbackAdapter(
      CallbackSignature(returnType: .void, arguments: [.pointer(.void), .cString, .int]),
      context: .first, receiver: double, selector: "parserFoundCharacters:length:")
    let parser = try #require(XML_ParserCreate(nil))
    defer { XML_ParserFree(parser) }
    XML_SetUserData(parser, characters.context)
    XML_SetCharacterDataHandler(parser, try characters.function(as: XML_CharacterDataHandler.self))
    let messages = failureMessages {
      _ = XML_Parse(parser, "<a>hi</a>", 9, 1)
    }
    #expect(messages.count == 1)
    // expat's character data is not NUL-terminated: the length says where it ends.
    let message = try #require(messages.first)
    #expect(message.hasPrefix("Unexpected call parserFoundCharacters:length:(\"hi"))
    #expect(
      message.contains(", 2) to strict DelegateDouble <signatures> (strict): no stub answers it"))
  }

  @Test func cCodeCallsTheDoublesIMP() throws {
    let double = try DelegateDouble(tableDataSource)
    try double.stub("tableView:numberOfRowsInSection:", with: [.any, 1], .returning(4))
    let imp = try double.imp(for: "tableView:numberOfRowsInSection:")
    typealias Rows = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, Int) -> Int
    let rows = imp.unsafeCast(to: Rows.self)
    let selector = Selector("tableView:numberOfRowsInSection:")
    #expect(rows(double.rawValue, selector.rawValue, nil, 1) == 4)
    #expect(rows(double.rawValue, selector.rawValue, nil, 2) == 0)
    double.verify(selector, called: .exactly(2))
    double.verify(selector, called: .once, with: [nil, 2])
  }
}
