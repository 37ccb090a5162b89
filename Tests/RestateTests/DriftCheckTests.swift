import DelegateProxyRestateCore
import Foundation
import Testing

@Suite("--check: a restatement out of step with its protocol")
struct DriftCheckTests {
  /// What the command writes for `Events` (`answer(_:) -> Widget` answered with
  /// `--default`: a class has no empty value, and --check names a missing @Default).
  func written(_ fixture: String) throws -> String {
    let parent = try FixtureGraphs.parent("Events", in: fixture)
    return try RestatementWriter(
      parent: parent, parentSpelling: "Events", command: "test", defaults: ["Widget": "Widget()"]
    )
    .write(over: nil).text
  }

  @Test("The dependency gained, changed and dropped requirements: each is named")
  func drifted() throws {
    let file = RestatementFile(text: try written("Shapes"), parentName: "Events")
    let parent = try FixtureGraphs.parent("Events", in: "ShapesDrift")
    let findings = DriftCheck.findings(parent: parent, file: file)
    #expect(
      findings.map(\.description) == [
        "not forwarded: Events.added(_:note:): 'func added(_ w: Widget, note: String)' (its default implementation answers instead of the members)",
        "changed: Events.escaping(_:completion:): Events now requires 'func escaping(_ w: Widget, completion: @escaping (Int64) -> Void)'; restated as 'func escaping(_ w: Widget, completion: @escaping (Int) -> Void)'",
        "not required: func main(_:): 'func main(_ w: Widget) async' is restated, but Events does not require it",
      ])
  }

  @Test("After a rewrite the check passes")
  func rewritten() throws {
    let parent = try FixtureGraphs.parent("Events", in: "ShapesDrift")
    let rewritten = try RestatementWriter(parent: parent, parentSpelling: "Events", command: "test")
      .write(over: try written("Shapes")).text
    #expect(
      DriftCheck.findings(
        parent: parent, file: RestatementFile(text: rewritten, parentName: "Events")
      ).isEmpty)
  }

  @Test("A hand restatement that spells types differently still matches")
  func equivalentSpellings() throws {
    let parent = try FixtureGraphs.parent("Events", in: "Shapes")
    var text = try written("Shapes")
    // Other parameter names, a module qualifier, inline generic constraints, `-> Void`.
    text = text.replacingOccurrences(
      of: "func plain(_ w: Widget, didChange value: Int)",
      with: "func plain(_ widget: Shapes.Widget, didChange newValue: Swift.Int) -> Void")
    text = text.replacingOccurrences(
      of: "func generic<T>(_ w: Widget, value: T) where T : Equatable, T : Sendable",
      with: "func generic<T: Equatable & Sendable>(_ w: Widget, value: T)")
    #expect(
      DriftCheck.findings(parent: parent, file: RestatementFile(text: text, parentName: "Events"))
        .isEmpty)
  }

  @Test("A hand restatement that lists only some requirements: the rest are not forwarded")
  func partial() throws {
    let parent = try FixtureGraphs.parent("XMLParserDelegate", in: "FoundationXML")
    let text = """
      import DelegateProxy
      import FoundationXML

      @Delegate(for: XMLParserDelegate.self)
      protocol ParserEvents: XMLParserDelegate {
        func parser(_ parser: XMLParser, foundCharacters string: String)
        func parserDidEndDocument(_ parser: XMLParser)
      }
      """
    let findings = DriftCheck.findings(
      parent: parent, file: RestatementFile(text: text, parentName: "XMLParserDelegate"))
    #expect(findings.count == 18)
    #expect(findings.allSatisfy { $0.kind == .notForwarded })
    #expect(findings.contains { $0.requirement == "XMLParserDelegate.parser(_:foundComment:)" })
  }

  @Test("An associated type without a where clause is unbound")
  func unbound() throws {
    let parent = try FixtureGraphs.parent("Tracks", in: "Shapes")
    let text =
      "@Delegate(for: Tracks.self)\nprotocol T: Tracks {\n  func start() -> Span\n  mutating func reset()\n  @Default(Nothing())\n  func anySpan() -> any Span\n}\n"
    let findings = DriftCheck.findings(
      parent: parent, file: RestatementFile(text: text, parentName: "Tracks"))
    #expect(findings.map(\.kind) == [.unbound])
    // The macro's reason, and the option to pass.
    #expect(
      findings.first?.description
        == "unbound: Tracks.Span: 'associatedtype Span : AnyObject' has no 'where Span: …' binding it (@Delegate cannot bind the associated type 'Span': it has no constraint; constrain it to one @Delegate protocol ('associatedtype Span: P'), and the multicast binds it to that protocol's multicast (PMulticast), gathering the members' answers into one); re-run the command with --bind Span=P, P a @Delegate protocol restating its constraint"
    )
    let bound = text.replacingOccurrences(of: "T: Tracks {", with: "T: Tracks where Span: Spans {")
    #expect(
      DriftCheck.findings(parent: parent, file: RestatementFile(text: bound, parentName: "Tracks"))
        .isEmpty)
  }
}
