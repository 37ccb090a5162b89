import Foundation
import Testing

@testable import DelegateProxyRestateCore

@Suite("Writing the restatement")
struct RestatementWriterTests {
  func writer(_ parent: ForeignProtocol, spelling: String? = nil, bindings: [(String, String)] = [])
    -> RestatementWriter
  {
    RestatementWriter(
      parent: parent, parentSpelling: spelling ?? parent.name, bindings: bindings,
      userModule: "App", command: "swift package restate-delegate \(parent.name) --target App")
  }

  @Test("XMLParserDelegate: every requirement, the imports its types need, a class multicast")
  func xmlParserDelegate() throws {
    let parent = try FixtureGraphs.parent("XMLParserDelegate", in: "FoundationXML")
    let output = try writer(parent).write(over: nil)
    #expect(output.restated == 20)
    #expect(output.notes.isEmpty)
    let text = output.text
    #expect(text.contains("import DelegateProxy\nimport FoundationXML\nimport Foundation\n"))
    #expect(
      text.contains(
        "@Delegate(for: XMLParserDelegate.self)\nprotocol XMLParserDelegates: XMLParserDelegate {\n"
      ))
    #expect(text.contains("  func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data)\n"))
    // A declaration longer than 100 columns is broken at its parameters.
    #expect(
      text.contains(
        """
          func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
              qualifiedName qName: String?, attributes attributeDict: [String : String])

        """))
    #expect(text.split(separator: "\n").allSatisfy { $0.count <= 100 })
    // Every requirement of the graph is in the file, by signature.
    let file = RestatementFile(text: text, parentName: "XMLParserDelegate")
    #expect(DriftCheck.findings(parent: parent, file: file).isEmpty)
  }

  @Test("Re-running over its own output changes nothing")
  func idempotent() throws {
    let parent = try FixtureGraphs.parent("Events", in: "Shapes")
    let first = try writer(parent).write(over: nil)
    let second = try writer(parent).write(over: first.text)
    #expect(second.text == first.text)
    #expect(second.notes.isEmpty)
    #expect(second.missingDefaults == first.missingDefaults)
  }

  @Test("Every shape, inherited requirements included, written as the graph prints it")
  func shapes() throws {
    let parent = try FixtureGraphs.parent("Events", in: "Shapes")
    let output = try writer(parent).write(over: nil)
    let text = output.text
    #expect(output.restated == 18)
    for line in [
      "  func escaping(_ w: Widget, completion: @escaping (Int) -> Void)",
      "  func sendable(_ w: Widget, completion: @escaping @Sendable (Int?) -> Void)",
      "  func auto(_ w: Widget, message: @autoclosure () -> String)",
      "  func both(_ w: Widget, value: inout Double) async throws -> Bool",
      "  func generic<T>(_ w: Widget, value: T) where T : Equatable, T : Sendable",
      "  var name: String { get set }",
      "  subscript(key: String) -> Int? { get }",
      "  @available(*, deprecated, message: \"use plain\")\n  func old(_ w: Widget)",
      "  @MainActor func isolated(_ w: Widget)",
      "  func sending(_ w: Widget, value: sending Widget)",
      "  func baseEvent(_ w: Widget)",
    ] {
      #expect(text.contains(line + "\n"), "missing: \(line)")
    }
    #expect(!text.contains("import App"))
    #expect(text.contains("import Shapes\n"))
  }

  @Test(
    "A protocol that is not class-bound gets a value multicast; an associated type is bound by --bind"
  )
  func valueAndBinding() throws {
    let parent = try FixtureGraphs.parent("Tracks", in: "Shapes")
    let unbound = try writer(parent).write(over: nil)
    #expect(unbound.unbound.map(\.name) == ["Span"])
    #expect(
      unbound.unbound.first?.reason
        == "@Delegate cannot bind the associated type 'Span': it has no constraint; constrain it to one @Delegate protocol ('associatedtype Span: P'), and the multicast binds it to that protocol's multicast (PMulticast), gathering the members' answers into one"
    )
    let bound = try writer(parent, bindings: [("Span", "Spans")]).write(over: nil)
    #expect(bound.notes.isEmpty)
    #expect(bound.unbound.isEmpty)
    // `start() -> Span` answers the bound multicast's gathering; `any Span` has no empty value.
    #expect(bound.missingDefaults.map(\.declaration) == ["func anySpan() -> any Shapes.Span"])
    #expect(
      bound.text.contains(
        "@Delegate(for: Tracks.self)\nprotocol Trackses: Tracks where Span: Spans {"))
    #expect(bound.text.contains("  func start() -> Span\n  mutating func reset()\n"))
    // Shapes' protocol `Span`, not the associated type: the graph prints `any Span`.
    #expect(bound.text.contains("  func anySpan() -> any Shapes.Span\n"))

    let plain = try FixtureGraphs.graph(
      module: "M", protocol: "Sink", members: [("swift.method", "func log(_ line: String)")])
    var index = SymbolGraphIndex()
    index.add(plain)
    var sink = ForeignProtocol(try index.findProtocol(named: "Sink"), in: index)
    sink.isClassBound = false
    #expect(
      try writer(sink).write(over: nil).text.contains(
        "@Delegate(for: Sink.self, semantics: .value)\nprotocol Sinks: Sink {"))
  }

  @Test(
    "A rewrite keeps the file around the protocol, its line, and a changed member's @Default and comments"
  )
  func keepsWhatTheUserAdded() throws {
    let before = try FixtureGraphs.parent("Events", in: "Shapes")
    var text = try writer(before).write(over: nil).text
    text = text.replacingOccurrences(
      of: "protocol Eventses: Events {", with: "protocol Listeners: Events {")
    text = text.replacingOccurrences(
      of: "  func escaping(",
      with: "  /// Fans out the completion.\n  @Selector(\"esc:done:\")\n  func escaping(")
    text += "\nextension ListenersMulticast {}\n"
    let after = try FixtureGraphs.parent("Events", in: "ShapesDrift")
    let output = try writer(after).write(over: text)
    #expect(output.text.contains("protocol Listeners: Events {"))
    #expect(output.text.hasSuffix("\nextension ListenersMulticast {}\n"))
    #expect(
      output.text.contains(
        "  /// Fans out the completion.\n  @Selector(\"esc:done:\")\n  func escaping(_ w: Widget, completion: @escaping (Int64) -> Void)\n"
      ))
    #expect(output.text.contains("  func added(_ w: Widget, note: String)\n"))
    #expect(!output.text.contains("func main("))
    #expect(output.notes.contains("added: 'func added(_ w: Widget, note: String)'"))
    #expect(output.notes.contains { $0.hasPrefix("removed: 'func main(_ w: Widget) async'") })
    #expect(output.notes.contains { $0.hasPrefix("updated: ") && $0.contains("(Int64) -> Void") })
  }

  @Test("A requirement the macro refuses, without a default, fails naming it and the reason")
  func refused() throws {
    var index = SymbolGraphIndex()
    index.add(
      try FixtureGraphs.graph(
        module: "M", protocol: "Factory",
        members: [
          ("swift.method", "func make(_ parts: Int...) -> Int"),
          ("swift.init", "init(name: String)"),
        ]))
    let parent = ForeignProtocol(try index.findProtocol(named: "Factory"), in: index)
    #expect(
      throws: RestateError.refusedRequirement(
        protocolName: "Factory", declaration: "func make(_ parts: Int...) -> Int",
        reason:
          "parameter 'parts' of 'make(_:)' is variadic, which has no C form; pass a pointer and a count instead"
      )
    ) {
      try writer(parent).write(over: nil)
    }
  }

  @Test("A result with no empty value asks for @Default, and a kept @Default silences it")
  func needsDefault() throws {
    var index = SymbolGraphIndex()
    index.add(
      try FixtureGraphs.graph(
        module: "M", protocol: "Factory",
        members: [("swift.method", "func makeCounter(label: String) -> any CounterHandler")]))
    let parent = ForeignProtocol(try index.findProtocol(named: "Factory"), in: index)
    let first = try writer(parent).write(over: nil)
    #expect(
      first.missingDefaults == [
        .init(
          protocolName: "Factory",
          declaration: "func makeCounter(label: String) -> any CounterHandler",
          resultType: "any CounterHandler")
      ])
    let edited = first.text.replacingOccurrences(
      of: "  func makeCounter", with: "  @Default(noCounter())\n  func makeCounter")
    let second = try writer(parent).write(over: edited)
    #expect(second.notes.isEmpty)
    #expect(second.missingDefaults.isEmpty)
    #expect(second.text == edited)
  }

  @Test("Default names: plural of the protocol's")
  func names() {
    #expect(RestatementWriter.defaultName(for: "XMLParserDelegate") == "XMLParserDelegates")
    #expect(RestatementWriter.defaultName(for: "MetricsFactory") == "MetricsFactories")
    #expect(RestatementWriter.defaultName(for: "Tracing.Span") == "Spans")
    #expect(RestatementWriter.defaultName(for: "Events") == "Eventses")
  }
}

@Suite("What the symbol graph's text alone does not give")
struct RecoveredTests {
  @Test(
    "A result typed by another module's alias of a collection, or enum, gets the @Default the macro cannot derive"
  )
  func aliasDefaults() throws {
    let parent = try FixtureGraphs.parent("Tagged", in: "Shapes")
    let text = try RestatementWriter(parent: parent, parentSpelling: "Tagged", command: "test")
      .write(over: nil).text
    #expect(text.contains("  @Default([:])\n  var tags: Tags { get set }\n"))
    #expect(text.contains("  @Default([])\n  func names() -> Names\n"))
    #expect(text.contains("\n  func count() -> Int\n"))
    // An enum without payloads: its first case, what the macro answers for its own.
    #expect(text.contains("  @Default(Mode.off)\n  var mode: Mode { get }\n"))
  }
}

/// Overloads that would share a handle: the later ones are named explicitly, as the macro
/// asks (a handle never changes because another requirement was added).
@Suite("Overload names") struct OverloadNameWriterTests {
  @Test("A later overload gets its base name and its parameters' type names")
  func overloadNames() throws {
    let one = try #require(RestatementWriter.overloadName("func record(_ value: Double)"))
    #expect(one.handle == "recordDouble" && one.selector == "recordDouble:")
    let two = try #require(
      RestatementWriter.overloadName("func set(_ value: [Int], for key: String?)"))
    #expect(two.handle == "setIntString" && two.selector == "setIntString:for:")
    #expect(RestatementWriter.overloadName("var level: Int { get }") == nil)
  }
}
