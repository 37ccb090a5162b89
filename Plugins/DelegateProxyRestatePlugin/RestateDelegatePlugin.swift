import Foundation
import PackagePlugin

/// `swift package restate-delegate <Protocol> --target <T>`: collects the symbol graphs the
/// protocol may be declared in — the target's dependencies' (SwiftPM extracts them), the
/// toolchain's modules (its `swift-symbolgraph-extract`), then the target's own — and runs
/// the `DelegateProxyRestate` tool on them, which writes, rewrites or checks the file.
@main
struct RestateDelegatePlugin: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    let tool = try context.tool(named: "DelegateProxyRestate").url
    var extractor = ArgumentExtractor(arguments)
    let targetNames = extractor.extractOption(named: "target")
    let rest = extractor.remainingArguments
    if rest.contains("--help") || rest.contains("-h") {
      _ = try run(tool, ["--help"])
      return
    }
    guard targetNames.count == 1, let targetName = targetNames.first else {
      throw RestateFailure(
        message: "name the target the restatement belongs to: --target <target> (see --help)")
    }
    guard let target = try? context.package.targets(named: [targetName]).first else {
      throw RestateFailure(
        message: "no target '\(targetName)' in package '\(context.package.displayName)'")
    }
    guard let source = target as? SwiftSourceModuleTarget else {
      throw RestateFailure(message: "'\(targetName)' is not a Swift target")
    }

    var toolArguments =
      rest + [
        "--target-directory", source.directoryURL.path, "--module", source.name,
        "--command-line", (["swift package restate-delegate"] + arguments).joined(separator: " "),
      ]
    if let extract = try? context.tool(named: "swift-symbolgraph-extract").url {
      toolArguments += ["--symbolgraph-extract", extract.path]
    }
    // The dependencies first: the target's own graph needs the target to build, which a
    // restatement that fell out of step may prevent. Extracting a module's graph takes
    // seconds, so first only the modules whose sources declare the protocol, with what they
    // depend on (where its parents are); every module if that finds nothing.
    let names = Self.protocolNames(in: rest)
    let modules = Self.importable(from: source)
    let declaring = modules.filter { Self.declares(names, $0) }
    let likely = declaring.flatMap { [$0] + Self.importable(from: $0) }
      .reduce(into: [SwiftSourceModuleTarget]()) { list, module in
        if !list.contains(where: { $0.id == module.id }) { list.append(module) }
      }
    let likelyGraphs = graphs(of: likely)
    var status = try run(tool, toolArguments + likelyGraphs, final: false)
    if status == 3 && likely.count < modules.count {
      toolArguments += graphs(of: modules)
      status = try run(tool, toolArguments, final: false)
    } else {
      toolArguments += likelyGraphs
    }
    if status == 3 {
      // The target's own module: its graph needs it to build.
      do {
        let own = try packageManager.getSymbolGraph(
          for: source, options: .init(minimumAccessLevel: .internal))
        status = try run(tool, toolArguments + ["--symbol-graph-dir", own.directoryURL.path])
      } catch {
        print("note: no symbol graph for \(source.name) (it must build): \(error)")
        status = try run(tool, toolArguments)
      }
    }
    guard status == 0 else {
      throw RestateFailure(
        message: status == 1
          ? "the restatement is out of step with its protocol (above)"
          : status == 4
            ? "the restatement was written, but requirements above need --default TYPE=EXPRESSION"
            : "restate-delegate failed (above)")
    }
  }

  /// `--symbol-graph-dir` arguments for each module's public symbol graph (SwiftPM
  /// extracts it; a module it cannot extract is skipped, with a note).
  func graphs(of modules: [SwiftSourceModuleTarget]) -> [String] {
    var arguments: [String] = []
    for module in modules {
      do {
        let graph = try packageManager.getSymbolGraph(
          for: module, options: .init(minimumAccessLevel: .public))
        arguments += ["--symbol-graph-dir", graph.directoryURL.path]
      } catch {
        print("note: no symbol graph for \(module.name): \(error)")
      }
    }
    return arguments
  }

  /// The options of the tool that take a value (which is not a protocol's name).
  static let valueOptions: Set<String> = [
    "--output", "--name", "--semantics", "--bind", "--default", "--symbol-graph-dir",
    "--target-directory",
    "--module", "--symbolgraph-extract", "--toolchain-module", "--triple", "--command-line",
  ]

  /// The protocols named on the command line: the arguments that are neither options nor
  /// an option's value.
  static func protocolNames(in arguments: [String]) -> [String] {
    var names: [String] = []
    var index = arguments.startIndex
    while index < arguments.endIndex {
      let argument = arguments[index]
      if valueOptions.contains(argument) {
        index += 1
      } else if !argument.hasPrefix("-") {
        names.append(argument)
      }
      index += 1
    }
    return names
  }

  /// Whether one of the module's sources declares `protocol <last component of a name>`
  /// (one pattern for every name: each file is read once).
  static func declares(_ names: [String], _ module: SwiftSourceModuleTarget) -> Bool {
    let lasts = names.compactMap { $0.split(separator: ".").last.map(String.init) }
      .filter { !$0.isEmpty }.map(NSRegularExpression.escapedPattern(for:))
    guard !lasts.isEmpty else { return false }
    let pattern = "\\bprotocol\\s+(\(lasts.joined(separator: "|")))\\b"
    return module.sourceFiles(withSuffix: "swift").contains { file in
      guard let text = try? String(contentsOf: file.url, encoding: .utf8) else { return false }
      return text.range(of: pattern, options: .regularExpression) != nil
    }
  }

  /// The Swift library modules the target depends on, directly or not, in dependency
  /// order: not what a macro or a plugin depends on (swift-syntax), which the target's code
  /// cannot import.
  static func importable(from target: SwiftSourceModuleTarget) -> [SwiftSourceModuleTarget] {
    var seen: Set<String> = []
    var found: [SwiftSourceModuleTarget] = []
    func visit(_ dependencies: [TargetDependency]) {
      for dependency in dependencies {
        switch dependency {
        case .target(let target): add(target)
        case .product(let product): product.targets.forEach(add)
        @unknown default: break
        }
      }
    }
    func add(_ target: Target) {
      guard seen.insert(target.id).inserted else { return }
      if let module = target as? SwiftSourceModuleTarget {
        guard module.kind == .generic else { return }
        found.append(module)
      }
      visit(target.dependencies)
    }
    visit(target.dependencies)
    return found
  }

  /// Runs the tool, printing what it prints — unless it did not find the protocol and
  /// `final` is false (a later run looks in more modules) — and returns its exit status.
  func run(_ tool: URL, _ arguments: [String], final: Bool = true) throws -> Int32 {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: output, as: UTF8.self)
    if !text.isEmpty && (final || process.terminationStatus != 3) {
      print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
    }
    return process.terminationStatus
  }
}

/// A failure the command reports (its message is printed by SwiftPM).
struct RestateFailure: Error, CustomStringConvertible {
  /// The message.
  var message: String
  var description: String { message }
}
