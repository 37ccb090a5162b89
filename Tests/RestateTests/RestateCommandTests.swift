import DelegateProxyRestateCore
import Foundation
import Testing

@Suite("The command: options, files, exit statuses")
struct RestateCommandTests {
  /// Runs the command; returns its status and what it printed.
  func run(_ arguments: [String]) -> (RestateCommand.Status, [String]) {
    var printed: [String] = []
    let status: RestateCommand.Status
    do {
      let options = try RestateOptions.parse(arguments)
      let box = Printed()
      status = RestateCommand(options: options) { box.lines.append($0) }.run()
      printed = box.lines
    } catch {
      printed = ["error: \(error)"]
      status = .failure
    }
    return (status, printed)
  }

  /// What the command printed.
  final class Printed {
    var lines: [String] = []
  }

  func temporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "restate-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test("--help prints the usage")
  func help() {
    let (status, printed) = run(["--help"])
    #expect(status == .success)
    #expect(
      printed.joined().contains(
        "USAGE: swift package --allow-writing-to-package-directory restate-delegate"))
    #expect(printed.joined().contains("--check"))
  }

  @Test("Bad command lines are usage errors naming what is wrong")
  func usage() {
    #expect(throws: RestateError.usage("name the protocol to restate; see --help")) {
      try RestateOptions.parse([])
    }
    #expect(throws: RestateError.usage("unknown option '--frobnicate'; see --help")) {
      try RestateOptions.parse(["P", "--frobnicate"])
    }
    #expect(throws: RestateError.usage("--semantics takes 'value' or 'reference', not 'weak'")) {
      try RestateOptions.parse(["P", "--semantics", "weak"])
    }
    #expect(
      throws: RestateError.usage(
        "--output and --name name one file: give one protocol with them, not 2; see --help")
    ) {
      try RestateOptions.parse(["P", "--output", "P.swift", "Q"])
    }
    #expect(throws: RestateError.usage("--output needs a value; see --help")) {
      try RestateOptions.parse(["P", "--output"])
    }
  }

  @Test("Several protocols: each in its own file, one status for all (the worst)")
  func several() throws {
    let options = try RestateOptions.parse(["Events", "--check", "Base"])
    #expect(options.protocolNames == ["Events", "Base"])
    #expect(options.protocolName == "Events")

    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let shapes = ["--symbol-graph-dir", FixtureGraphs.directory("Shapes")]
    let target = ["--target-directory", directory, "--module", "App"]
    // `answer(_:) -> Widget`: a class has no empty value.
    var (status, printed) = run(
      ["Events", "Base", "--default", "Widget=Widget()"] + shapes + target)
    #expect(status == .success)
    #expect(printed.contains { $0.hasPrefix("\(directory)/Eventses.swift: 18 requirements") })
    #expect(printed.contains { $0.hasPrefix("\(directory)/Bases.swift: 1 requirement of") })
    (status, _) = run(["Events", "Base", "--check"] + shapes + target)
    #expect(status == .success)
    // One not found: its status wins (the plugin looks in more graphs), the others are done.
    (status, printed) = run(["Events", "Nothing", "Widget", "--check"] + shapes + target)
    #expect(status == .notFound)
    #expect(printed.first?.hasSuffix("forwards every requirement of Shapes's Events") == true)
    #expect(printed.contains { $0.hasPrefix("error: protocol 'Nothing' not found") })
    #expect(printed.contains { $0.hasPrefix("error: 'Widget' is a class") })
    (status, _) = run(["Events", "Widget", "--check"] + shapes + target)
    #expect(status == .failure)
  }

  @Test("Write, check, drift, rewrite: the statuses and messages of each")
  func cycle() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let shapes = ["--symbol-graph-dir", FixtureGraphs.directory("Shapes")]
    let drift = ["--symbol-graph-dir", FixtureGraphs.directory("ShapesDrift")]
    let target = ["--target-directory", directory, "--module", "App"]

    var (status, printed) = run(["Events", "--default", "Widget=Widget()"] + shapes + target)
    #expect(status == .success)
    #expect(
      printed.last
        == "\(directory)/Eventses.swift: 18 requirements of Shapes's Events restated, 32 lines")

    (status, printed) = run(["Events", "--check"] + shapes + target)
    #expect(status == .success)
    #expect(
      printed == [
        "\(directory)/Eventses.swift: Eventses forwards every requirement of Shapes's Events"
      ])

    (status, printed) = run(["Events", "--check"] + drift + target)
    #expect(status == .drift)
    #expect(printed.count == 4)
    #expect(
      printed[0].hasPrefix(
        "\(directory)/Eventses.swift: error: not forwarded: Events.added(_:note:)"))
    #expect(
      printed.last
        == "3 requirements out of step; run `swift package --allow-writing-to-package-directory restate-delegate Events --target App` to update the file"
    )

    // The rewrite finds the file that restates Events, whatever its name.
    try FileManager.default.moveItem(
      atPath: "\(directory)/Eventses.swift", toPath: "\(directory)/Listeners.swift")
    // The @Default written is kept: no --default needed again.
    (status, printed) = run(["Events"] + drift + target)
    #expect(status == .success)
    #expect(printed.last?.hasPrefix("\(directory)/Listeners.swift: 18 requirements") == true)
    (status, _) = run(["Events", "--check"] + drift + target)
    #expect(status == .success)
  }

  @Test("--check fails naming a requirement written without the @Default it needs, and the option")
  func checkMissingDefault() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let shapes = ["--symbol-graph-dir", FixtureGraphs.directory("Shapes")]
    let target = ["--target-directory", directory, "--module", "App"]
    var (status, printed) = run(["Events"] + shapes + target)
    #expect(status == .needsDefault)
    (status, printed) = run(["Events", "--check"] + shapes + target)
    #expect(status == .drift)
    #expect(
      printed == [
        "\(directory)/Eventses.swift: error: needs @Default: Events.answer(_:): 'func answer(_ w: Widget) -> Widget' is restated without @Default, whose result 'Widget' has no empty value for @Delegate to answer when no delegate answers: pass --default 'Widget=<expression>' (or add @Default(<expression>) above it)",
        "1 requirement out of step; run `swift package --allow-writing-to-package-directory restate-delegate Events --target App` with the --default options named above to update the file",
      ])
    (status, _) = run(["Events", "--default", "Widget=Widget()"] + shapes + target)
    #expect(status == .success)
    (status, _) = run(["Events", "--check"] + shapes + target)
    #expect(status == .success)
  }

  @Test(
    "An associated type left unbound: written, named with the macro's reason and --bind, exit 5")
  func unboundStatus() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let shapes = ["--symbol-graph-dir", FixtureGraphs.directory("Shapes")]
    let target = ["--target-directory", directory, "--module", "App"]
    let answer = ["--default", "any Shapes.Span=Nothing()"]
    var (status, printed) = run(["Tracks"] + answer + shapes + target)
    #expect(status == .needsBinding)
    #expect(
      printed.contains(
        "\(directory)/Trackses.swift: error: Tracks's associated type 'Span' is not bound: @Delegate cannot bind the associated type 'Span': it has no constraint; constrain it to one @Delegate protocol ('associatedtype Span: P'), and the multicast binds it to that protocol's multicast (PMulticast), gathering the members' answers into one; in a restatement that constraint is the 'where' clause: pass --bind Span=P, P a @Delegate protocol restating Span's constraint"
      ))
    #expect(FileManager.default.fileExists(atPath: "\(directory)/Trackses.swift"))
    (status, _) = run(["Tracks", "--check"] + shapes + target)
    #expect(status == .drift)
    // Re-run with --bind: the binding joins the protocol's line, the rest is kept.
    (status, printed) = run(["Tracks", "--bind", "Span=Spans"] + shapes + target)
    #expect(status == .success, "\(printed)")
    #expect(printed.contains("note: bound: Span: Spans"))
    let text = try String(contentsOfFile: "\(directory)/Trackses.swift", encoding: .utf8)
    #expect(text.contains("protocol Trackses: Tracks where Span: Spans {\n"))
    #expect(text.contains("  @Default(Nothing())\n  func anySpan() -> any Shapes.Span\n"))
    (status, _) = run(["Tracks", "--check"] + shapes + target)
    #expect(status == .success)
  }

  @Test("Errors: not found (its own status, for the plugin), not a protocol, no file to check")
  func errors() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let shapes = [
      "--symbol-graph-dir", FixtureGraphs.directory("Shapes"), "--target-directory", directory,
    ]
    var (status, printed) = run(["Nothing"] + shapes)
    #expect(status == .notFound)
    #expect(
      printed == [
        "error: protocol 'Nothing' not found in the symbol graphs of Shapes; check the spelling, or name the target that can see it with --target"
      ])
    (status, printed) = run(["Widget"] + shapes)
    #expect(status == .failure)
    #expect(
      printed == ["error: 'Widget' is a class, not a protocol: @Delegate(for:) restates protocols"])
    (status, printed) = run(["Events", "--check"] + shapes)
    #expect(status == .failure)
    #expect(
      printed == [
        "error: \(directory)/Eventses.swift has no '@Delegate(for: Events.self)' protocol; run the command without --check to write one"
      ])
  }
}
