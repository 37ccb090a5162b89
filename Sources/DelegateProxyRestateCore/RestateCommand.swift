import Foundation

/// The command: finds the protocol, then writes, rewrites or checks its restatement.
public struct RestateCommand {
  /// The exit statuses.
  public enum Status: Int32, Sendable {
    /// Written, or in step.
    case success = 0
    /// `--check` found drift.
    case drift = 1
    /// A usage or input error.
    case failure = 2
    /// The protocol is in no graph given (the plugin then adds the target's own graph).
    case notFound = 3
    /// Written, but some requirement needs a `@Default` (`--default TYPE=EXPRESSION`)
    /// before the file compiles.
    case needsDefault = 4
    /// Written, but an associated type needs binding (`--bind A=B`) before the file
    /// compiles.
    case needsBinding = 5
  }

  /// The options.
  public var options: RestateOptions
  /// Where messages go (standard output in the tool).
  public var print: (String) -> Void

  /// A command.
  public init(options: RestateOptions, print: @escaping (String) -> Void) {
    self.options = options
    self.print = print
  }

  /// Runs the command: each protocol named, from symbol graphs read once. The status is
  /// the worst of theirs: not found (the plugin then looks in more graphs and runs them all
  /// again), else a failure, else drift.
  public func run() -> Status {
    if options.help {
      print(RestateOptions.help)
      return .success
    }
    var index = SymbolGraphIndex()
    do {
      for directory in options.symbolGraphDirectories { try index.addDirectory(directory) }
    } catch {
      return report(error)
    }
    let names = options.protocolNames.isEmpty ? [options.protocolName] : options.protocolNames
    var statuses: [Status] = []
    for name in names {
      var one = self
      one.options.protocolName = name
      do {
        statuses.append(try one.runChecked(&index))
      } catch {
        statuses.append(report(error))
      }
    }
    for worst in [Status.notFound, .failure, .needsDefault, .needsBinding, .drift]
    where statuses.contains(worst) {
      return worst
    }
    return .success
  }

  /// Prints the error; its status.
  func report(_ error: any Error) -> Status {
    print("error: \(error)")
    if case .protocolNotFound = error as? RestateError { return .notFound }
    return .failure
  }

  func runChecked(_ index: inout SymbolGraphIndex) throws -> Status {
    let entry: SymbolGraphIndex.Entry
    do {
      entry = try index.findProtocol(named: options.protocolName)
    } catch RestateError.protocolNotFound {
      // Extracted once: a later protocol of the same run finds them in the index.
      guard let extract = options.symbolGraphExtract,
        !index.modules.contains(where: options.toolchainModules.contains)
      else {
        throw RestateError.protocolNotFound(name: options.protocolName, searched: index.modules)
      }
      let directory = try ToolchainSymbolGraphs.extract(
        modules: options.toolchainModules, tool: extract, triple: options.triple)
      try index.addDirectory(directory)
      entry = try index.findProtocol(named: options.protocolName)
    }
    let parent = ForeignProtocol(entry, in: index)
    for missing in parent.missingParents {
      print(
        "warning: \(parent.name) refines \(missing), which no symbol graph holds: its requirements are not restated"
      )
    }
    let path = try outputPath(restating: options.protocolName)
    let existing = FileManager.default.contents(atPath: path).map {
      String(decoding: $0, as: UTF8.self)
    }

    if options.check {
      guard let existing else {
        throw RestateError.noRestatement(path: path, protocolName: options.protocolName)
      }
      let file = RestatementFile(text: existing, parentName: options.protocolName)
      guard file.hasRestatement else {
        throw RestateError.noRestatement(path: path, protocolName: options.protocolName)
      }
      let findings = DriftCheck.findings(parent: parent, file: file)
      if findings.isEmpty {
        print(
          "\(path): \(file.restatingName ?? "") forwards every requirement of \(parent.module)'s \(parent.name)"
        )
        return .success
      }
      for finding in findings { print("\(path): error: \(finding)") }
      let hint =
        findings.contains { $0.kind == .needsDefault || $0.detail.contains("--default") }
        ? " with the --default options named above" : ""
      print(
        "\(findings.count) requirement\(findings.count == 1 ? "" : "s") out of step; run `swift package --allow-writing-to-package-directory restate-delegate \(options.protocolName)\(options.commandTarget)`\(hint) to update the file"
      )
      return .drift
    }

    let writer = RestatementWriter(
      parent: parent, parentSpelling: options.protocolName, restatingName: options.name,
      semantics: options.semantics,
      bindings: options.bindings.map { binding in
        let parts = binding.split(separator: "=").map(String.init)
        return (parts[0], parts[1])
      }, userModule: options.module,
      command: options.commandLine ?? "swift package restate-delegate \(options.protocolName)",
      defaults: options.defaults)
    let output = try writer.write(over: existing)
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(output.text.utf8).write(to: URL(fileURLWithPath: path))
    for note in output.notes { print("note: \(note)") }
    print(
      "\(path): \(output.restated) requirement\(output.restated == 1 ? "" : "s") of \(parent.module)'s \(parent.name) restated, \(output.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1) lines"
    )
    // Written anyway: re-running with the options keeps everything else and adds each
    // @Default.
    for missing in output.missingDefaults { print("\(path): error: \(missing)") }
    if !output.missingDefaults.isEmpty {
      let count = output.missingDefaults.count
      print(
        "\(count) requirement\(count == 1 ? "" : "s") of \(parent.name) need\(count == 1 ? "s" : "") @Default; re-run with the --default options above (the file does not compile until then)"
      )
    }
    for unbound in output.unbound { print("\(path): error: \(unbound)") }
    if !output.unbound.isEmpty {
      print(
        "\(parent.name)'s associated types must be bound; re-run with the --bind options above (the file does not compile until then)"
      )
    }
    if !output.missingDefaults.isEmpty { return .needsDefault }
    if !output.unbound.isEmpty { return .needsBinding }
    return .success
  }

  /// `--output`, else the target directory's file that restates the protocol already, else
  /// `<target directory>/<Name>.swift`.
  func outputPath(restating name: String) throws -> String {
    if let output = options.output { return output }
    guard let directory = options.targetDirectory else {
      throw RestateError.usage("give --output <file> (or --target, through the package plugin)")
    }
    let last = name.split(separator: ".").last.map(String.init) ?? name
    if let enumerator = FileManager.default.enumerator(atPath: directory) {
      var candidates: [String] = []
      while let relative = enumerator.nextObject() as? String {
        guard relative.hasSuffix(".swift") else { continue }
        let path = (directory as NSString).appendingPathComponent(relative)
        guard let data = FileManager.default.contents(atPath: path) else { continue }
        let text = String(decoding: data, as: UTF8.self)
        guard
          text.contains("@Delegate(for: \(name).self") || text.contains(".\(last).self")
            || text.contains("(for: \(last).self")
        else { continue }
        if RestatementFile(text: text, parentName: name).hasRestatement { candidates.append(path) }
      }
      if let found = candidates.sorted().first { return found }
    }
    let file = (options.name ?? RestatementWriter.defaultName(for: name)) + ".swift"
    return (directory as NSString).appendingPathComponent(file)
  }
}

extension RestateOptions {
  /// ` --target T` when the module is known, for the messages' command lines.
  var commandTarget: String { module.map { " --target \($0)" } ?? "" }
}
