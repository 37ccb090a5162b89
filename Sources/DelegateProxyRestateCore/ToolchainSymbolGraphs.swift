import Foundation

/// Symbol graphs of the toolchain's own modules (Foundation, FoundationXML, …), written by
/// its `swift-symbolgraph-extract`: the modules no package target builds.
enum ToolchainSymbolGraphs {
  /// The triple of the machine the command runs on.
  static var hostTriple: String {
    #if arch(x86_64)
      let arch = "x86_64"
    #elseif arch(arm64)
      let arch = "aarch64"
    #else
      let arch = "unknown"
    #endif
    #if os(Linux)
      return "\(arch)-unknown-linux-gnu"
    #elseif os(macOS)
      return "\(arch == "aarch64" ? "arm64" : arch)-apple-macosx13.0"
    #else
      return "\(arch)-unknown-unknown"
    #endif
  }

  /// Extracts each module's public symbols into a new temporary directory and returns it.
  /// A module the toolchain lacks (FoundationXML on macOS is part of Foundation) is skipped.
  static func extract(modules: [String], tool: String, triple: String?) throws -> String {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent(
        "restate-delegate-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var extracted = 0
    var failures: [String] = []
    for module in modules {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: tool)
      process.arguments = [
        "-module-name", module, "-target", triple ?? hostTriple, "-output-dir", directory.path,
        "-minimum-access-level", "public",
      ]
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardError = pipe
      try process.run()
      let output = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      if process.terminationStatus == 0 {
        extracted += 1
      } else {
        failures.append("\(module): \(String(decoding: output, as: UTF8.self))")
      }
    }
    if extracted == 0 {
      throw RestateError.extractionFailed(
        module: modules.joined(separator: ", "), output: failures.joined(separator: "\n"))
    }
    return directory.path
  }
}
