import Foundation
import Testing

@testable import DelegateProxyRestateCore

/// `--default TYPE=EXPRESSION`, and the requirements that need it: a result type with no
/// undisputed empty value is answered with `@Default`, or named with the option to pass.
@Suite("--default: the @Default a result type with no empty value needs")
struct DefaultOptionTests {
  /// A protocol with results of every kind: structs and enums the macro has no empty value
  /// for, and types with an undisputed one.
  func parent() throws -> ForeignProtocol {
    var index = SymbolGraphIndex()
    index.add(
      try FixtureGraphs.graph(
        module: "M", protocol: "Geometry",
        members: [
          ("swift.method", "func origin() -> GenPoint"),
          ("swift.property", "var corner: GenPoint { get }"),
          ("swift.subscript", "subscript(index: Int) -> GenPoint { get }"),
          ("swift.method", "func decide(_ request: String) async throws -> Decision"),
          ("swift.method", "func other() -> Other"),
          ("swift.method", "func count() -> Int"),
          ("swift.method", "func flag() -> Swift.Bool"),
          ("swift.method", "func maybe() -> GenPoint?"),
          ("swift.property", "var tags: [String : Int] { get }"),
          ("swift.method", "func points() -> Set<GenPoint>"),
          ("swift.method", "func label() -> Substring"),
          ("swift.method", "func nothing() -> Void"),
          ("swift.method", "func moved(to point: GenPoint)"),
        ]))
    return ForeignProtocol(try index.findProtocol(named: "Geometry"), in: index)
  }

  func writer(_ parent: ForeignProtocol, defaults: [String: String]) -> RestatementWriter {
    RestatementWriter(
      parent: parent, parentSpelling: "Geometry", userModule: "App", command: "test",
      defaults: defaults)
  }

  @Test("--default writes @Default on each method, property and subscript of that result type")
  func written() throws {
    let output = try writer(
      try parent(), defaults: ["GenPoint": "GenPoint(x: 0, y: 0)", " Decision ": ".deny"]
    ).write(over: nil)
    let text = output.text
    #expect(text.contains("  @Default(GenPoint(x: 0, y: 0))\n  func origin() -> GenPoint\n"))
    #expect(text.contains("  @Default(GenPoint(x: 0, y: 0))\n  var corner: GenPoint { get }\n"))
    #expect(
      text.contains(
        "  @Default(GenPoint(x: 0, y: 0))\n  subscript(index: Int) -> GenPoint { get }\n"))
    #expect(
      text.contains(
        "  @Default(.deny)\n  func decide(_ request: String) async throws -> Decision\n"))
    // Optionals, numbers, Bool, strings and collections have an empty value: nothing written.
    #expect(text.components(separatedBy: "@Default(").count == 5)
    for line in [
      "func count() -> Int", "func flag() -> Swift.Bool", "func maybe() -> GenPoint?",
      "var tags: [String : Int] { get }", "func points() -> Set<GenPoint>",
      "func label() -> Substring", "func nothing() -> Void", "func moved(to point: GenPoint)",
    ] {
      #expect(text.contains("\n  \(line)\n"), "\(line) should have no @Default")
    }
    // `Other` was given no answer: the only one missing.
    #expect(
      output.missingDefaults == [
        .init(protocolName: "Geometry", declaration: "func other() -> Other", resultType: "Other")
      ])
  }

  @Test("Each requirement without an answer is named, with the option to pass")
  func missing() throws {
    let output = try writer(try parent(), defaults: [:]).write(over: nil)
    #expect(
      output.missingDefaults.map(\.declaration) == [
        "func origin() -> GenPoint", "var corner: GenPoint { get }",
        "subscript(index: Int) -> GenPoint { get }",
        "func decide(_ request: String) async throws -> Decision", "func other() -> Other",
      ])
    #expect(
      output.missingDefaults[3].description
        == "Geometry requires 'func decide(_ request: String) async throws -> Decision', whose result 'Decision' has no empty value for @Delegate to answer when no delegate answers: pass --default 'Decision=<expression>' (or add @Default(<expression>) above it)"
    )
    // The file is written all the same: re-running with the option completes it, and a
    // @Default written once is kept without the option.
    let completed = try writer(
      try parent(),
      defaults: ["GenPoint": "GenPoint(x: 0, y: 0)", "Decision": ".deny", "Other": "Other()"]
    ).write(over: output.text)
    #expect(completed.missingDefaults.isEmpty)
    #expect(completed.notes.isEmpty)
    #expect(completed.text.components(separatedBy: "@Default(").count == 6)
    let again = try writer(try parent(), defaults: [:]).write(over: completed.text)
    #expect(again.missingDefaults.isEmpty)
    #expect(again.text == completed.text)
  }

  @Test("--check names each requirement restated without the @Default it needs, with the option")
  func checked() throws {
    let parent = try parent()
    let written = try writer(parent, defaults: ["GenPoint": "GenPoint(x: 0, y: 0)"])
      .write(over: nil)
    var findings = DriftCheck.findings(
      parent: parent, file: RestatementFile(text: written.text, parentName: "Geometry"))
    #expect(findings.map(\.kind) == [.needsDefault, .needsDefault])
    #expect(findings.map(\.requirement) == ["Geometry.m3", "Geometry.m4"])
    #expect(
      findings[1].description
        == "needs @Default: Geometry.m4: 'func other() -> Other' is restated without @Default, whose result 'Other' has no empty value for @Delegate to answer when no delegate answers: pass --default 'Other=<expression>' (or add @Default(<expression>) above it)"
    )
    // A requirement not restated at all says it needs one too.
    let dropped = written.text.replacingOccurrences(of: "  func other() -> Other\n", with: "")
    findings = DriftCheck.findings(
      parent: parent, file: RestatementFile(text: dropped, parentName: "Geometry"))
    #expect(
      findings.last?.description
        == "not forwarded: Geometry.m4: 'func other() -> Other'; it needs @Default too, whose result 'Other' has no empty value for @Delegate to answer when no delegate answers: pass --default 'Other=<expression>' (or add @Default(<expression>) above it)"
    )
    // Completed: in step.
    let completed = try writer(parent, defaults: ["Decision": ".deny", "Other": "Other()"])
      .write(over: written.text)
    #expect(
      DriftCheck.findings(
        parent: parent, file: RestatementFile(text: completed.text, parentName: "Geometry")
      ).isEmpty)
  }

  @Test("A subscript's enum result gets the enum's first case, as a property's does")
  func subscriptEnum() throws {
    let subscriptFragments =
      #"[{"kind":"keyword","spelling":"subscript"},{"kind":"text","spelling":"(slot a: Int) -> "},"#
      + #"{"kind":"typeIdentifier","spelling":"Mode","preciseIdentifier":"s:M4ModeO"},"#
      + #"{"kind":"text","spelling":" { get set }"}]"#
    let caseSymbols = ["off", "on"].map { name in
      #"{"kind":{"identifier":"swift.enum.case"},"identifier":{"precise":"s:M4ModeO\#(name)"},"pathComponents":["Mode","\#(name)"],"declarationFragments":[{"kind":"keyword","spelling":"case \#(name)"}]}"#
    }
    let json = """
      {"module":{"name":"M"},"symbols":[
      {"kind":{"identifier":"swift.protocol"},"identifier":{"precise":"s:M5SlotsP"},"pathComponents":["Slots"],"declarationFragments":[{"kind":"keyword","spelling":"protocol Slots : AnyObject"}]},
      {"kind":{"identifier":"swift.subscript"},"identifier":{"precise":"s:M5SlotsP1s"},"pathComponents":["Slots","subscript(slot:)"],"declarationFragments":\(subscriptFragments)},
      {"kind":{"identifier":"swift.enum"},"identifier":{"precise":"s:M4ModeO"},"pathComponents":["Mode"],"declarationFragments":[{"kind":"keyword","spelling":"enum Mode"}]},
      \(caseSymbols.joined(separator: ","))],
      "relationships":[
      {"kind":"requirementOf","source":"s:M5SlotsP1s","target":"s:M5SlotsP"},
      {"kind":"memberOf","source":"s:M4ModeOoff","target":"s:M4ModeO"},
      {"kind":"memberOf","source":"s:M4ModeOon","target":"s:M4ModeO"}]}
      """
    var index = SymbolGraphIndex()
    index.add(try FixtureGraphs.graph(json))
    let parent = ForeignProtocol(try index.findProtocol(named: "Slots"), in: index)
    let output = try RestatementWriter(parent: parent, parentSpelling: "Slots", command: "test")
      .write(over: nil)
    #expect(output.missingDefaults.isEmpty)
    #expect(
      output.text.contains("  @Default(Mode.off)\n  subscript(slot a: Int) -> Mode { get set }\n"))
  }

  @Test("Which spellings have an undisputed empty value (the macro's rule)")
  func undisputed() {
    for (type, empty) in [
      ("Int", "0"), ("Swift.Double", "0"), ("CGFloat", "0"), ("Bool", "false"),
      ("String", "\"\""), ("Substring", "\"\""), ("[Int]", "[]"), ("[String : Int]", "[:]"),
      ("Set<Int>", "[]"), ("Dictionary<String, Int>", "[:]"), ("Array<Int>", "[]"),
      ("GenPoint?", "nil"), ("Optional<GenPoint>", "nil"), ("(Int)", "0"),
    ] {
      #expect(EmptyValue.literal(for: type) == empty, "\(type)")
    }
    for type in [
      "GenPoint", "Decision", "Logger.Metadata", "any P", "some P", "Any", "AnyObject",
      "(Int) -> Void", "(Int, Int)", "UnsafeRawPointer", "Set", "Int.Stride",
    ] {
      #expect(EmptyValue.literal(for: type) == nil, "\(type)")
    }
  }

  @Test("The command: --default parsed, a missing one is exit 4 with its line, the file written")
  func command() throws {
    let options = try RestateOptions.parse([
      "P", "--default", "GenPoint=GenPoint(x: 0, y: 0)", "--default", "Decision = .deny",
    ])
    #expect(options.defaults == ["GenPoint": "GenPoint(x: 0, y: 0)", "Decision": ".deny"])
    #expect(options.protocolNames == ["P"])
    for bad in ["GenPoint", "=.deny", "Decision="] {
      #expect(
        throws: RestateError.usage(
          "--default takes TYPE=EXPRESSION (--default 'GenPoint=GenPoint(x: 0, y: 0)'), not '\(bad)'"
        )
      ) { try RestateOptions.parse(["P", "--default", bad]) }
    }
    #expect(RestateOptions.help.contains("--default <TYPE=EXPRESSION>"))

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "restate-default-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let arguments = [
      "Events", "--symbol-graph-dir", FixtureGraphs.directory("Shapes"), "--target-directory",
      directory, "--module", "App",
    ]
    final class Printed { var lines: [String] = [] }
    let printed = Printed()
    let status = RestateCommand(options: try RestateOptions.parse(arguments)) {
      printed.lines.append($0)
    }.run()
    #expect(status == .needsDefault)
    #expect(status.rawValue == 4)
    #expect(
      printed.lines.contains(
        "\(directory)/Eventses.swift: error: Events requires 'func answer(_ w: Widget) -> Widget', whose result 'Widget' has no empty value for @Delegate to answer when no delegate answers: pass --default 'Widget=<expression>' (or add @Default(<expression>) above it)"
      ))
    #expect(
      printed.lines.last
        == "1 requirement of Events needs @Default; re-run with the --default options above (the file does not compile until then)"
    )
    #expect(FileManager.default.fileExists(atPath: "\(directory)/Eventses.swift"))
  }
}
