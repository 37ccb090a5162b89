import DelegateProxyRestateCore
import Testing

@Suite("Finding the protocol in symbol graphs")
struct SymbolGraphIndexTests {
  @Test("XMLParserDelegate: 20 requirements, each with a default implementation")
  func xmlParserDelegate() throws {
    let parent = try FixtureGraphs.parent("XMLParserDelegate", in: "FoundationXML")
    #expect(parent.module == "FoundationXML")
    #expect(parent.isClassBound)
    #expect(parent.requirements.count == 20)
    #expect(parent.requirements.allSatisfy { $0.hasDefault })
    #expect(
      parent.requirements.contains {
        $0.declaration
          == "func parser(_ parser: XMLParser, foundNotationDeclarationWithName name: String, publicID: String?, systemID: String?)"
      })
  }

  @Test("A parent's requirements come after the protocol's own, and only a default is marked")
  func inherited() throws {
    let parent = try FixtureGraphs.parent("Events", in: "Shapes")
    #expect(parent.requirements.last?.protocolName == "Base")
    #expect(parent.requirements.last?.title == "baseEvent(_:)")
    #expect(parent.requirements.filter(\.hasDefault).map(\.title) == ["plain(_:didChange:)"])
    #expect(parent.isClassBound)
  }

  @Test("Self. is taken off associated types; availability becomes attributes")
  func restatedText() throws {
    let tracks = try FixtureGraphs.parent("Tracks", in: "Shapes")
    #expect(tracks.requirements.map(\.declaration).contains("func start() -> Span"))
    #expect(!tracks.isClassBound)
    let events = try FixtureGraphs.parent("Events", in: "Shapes")
    let old = try #require(events.requirements.first { $0.title == "old(_:)" })
    #expect(old.availability == [#"@available(*, deprecated, message: "use plain")"#])
    let newer = try #require(events.requirements.first { $0.title == "newer(_:)" })
    #expect(newer.availability == ["@available(macOS, introduced: 13)"])
  }

  @Test("A qualified name finds the protocol; a wrong one is not found, naming the modules")
  func names() throws {
    let index = try FixtureGraphs.index("Shapes", "FoundationXML")
    #expect(try index.findProtocol(named: "Shapes.Events").module == "Shapes")
    #expect(
      throws: RestateError.protocolNotFound(name: "Eventz", searched: ["Shapes", "FoundationXML"])
    ) {
      try index.findProtocol(named: "Eventz")
    }
  }

  @Test("A class is not a protocol")
  func notAProtocol() throws {
    let index = try FixtureGraphs.index("Shapes")
    #expect(throws: RestateError.notAProtocol(name: "Widget", kind: "a class")) {
      try index.findProtocol(named: "Widget")
    }
  }

  @Test("Two modules' protocols of one name are ambiguous, each named qualified")
  func ambiguous() throws {
    var index = SymbolGraphIndex()
    index.add(try FixtureGraphs.graph(module: "Alpha", protocol: "Sink", members: []))
    index.add(try FixtureGraphs.graph(module: "Beta", protocol: "Sink", members: []))
    #expect(
      throws: RestateError.ambiguousName(name: "Sink", candidates: ["Alpha.Sink", "Beta.Sink"])
    ) {
      try index.findProtocol(named: "Sink")
    }
    #expect(try index.findProtocol(named: "Beta.Sink").module == "Beta")
  }

  @Test("A file that is not a symbol graph is a typed error naming it")
  func unreadable() throws {
    var index = SymbolGraphIndex()
    #expect(throws: RestateError.self) { try index.addFile("/nonexistent/x.symbols.json") }
    #expect(
      throws: RestateError.unreadableSymbolGraph(
        path: "/nonexistent", reason: "not a readable directory")
    ) {
      try index.addDirectory("/nonexistent")
    }
  }
}
