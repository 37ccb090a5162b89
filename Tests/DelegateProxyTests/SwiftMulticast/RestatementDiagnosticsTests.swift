import DelegateProxyTestSupport
import Foundation
import Testing

// What the compiler says when a method restated in a `@Delegate(for:)` protocol is wrong:
// each case is a small file type-checked by swiftc against the DelegateProxy module and
// the @Delegate plugin this test run was built with (found beside the test executable).
// Scripts/restatement-errors.sh prints the same cases' diagnostics in full.

/// The build products `swiftc` needs to type-check a file that uses `@Delegate`.
struct BuiltModules {
  /// The build directory (`.build/<triple>/debug`).
  let directory: URL

  /// Finds them beside the running test executable; nil (with the reason) if absent.
  static func find() -> Result<BuiltModules, LookupError> {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = executable.deletingLastPathComponent()
    // The test executable may sit inside a bundle directory (Foo.xctest/…): walk up.
    for _ in 0..<4 {
      let modules = BuiltModules(directory: directory)
      if modules.missing.isEmpty { return .success(modules) }
      directory = directory.deletingLastPathComponent()
    }
    return .failure(
      LookupError(
        executable: executable.path,
        missing: BuiltModules(directory: executable.deletingLastPathComponent()).missing))
  }

  /// Why the build products were not found.
  struct LookupError: Error, CustomStringConvertible {
    let executable: String
    let missing: [String]
    var description: String {
      "no build products beside \(executable): missing \(missing.joined(separator: ", "))"
    }
  }

  var plugin: URL { directory.appendingPathComponent("DelegateProxyMacros-tool") }
  var modulesDirectory: URL { directory.appendingPathComponent("Modules") }
  var shimModuleMap: URL {
    directory.appendingPathComponent("DelegateProxyCFFIShim.build/module.modulemap")
  }
  var coreModuleMap: URL {
    directory.appendingPathComponent("DelegateProxyCCore.build/module.modulemap")
  }
  var missing: [String] {
    [
      modulesDirectory.appendingPathComponent("DelegateProxy.swiftmodule"), plugin, shimModuleMap,
      coreModuleMap,
    ]
    .filter { !FileManager.default.fileExists(atPath: $0.path) }.map(\.lastPathComponent)
  }

  /// Type-checks `source` (the imports are added); returns swiftc's exit status and its
  /// diagnostics with the temporary file's path shortened to `case.swift`.
  func typecheck(_ source: String) throws -> (status: Int32, diagnostics: [String]) {
    let (status, text) = try typecheckText(source)
    // Only the diagnostics' first lines (not the source excerpts swiftc draws under them).
    let diagnostics = text.split(separator: "\n").map(String.init).filter {
      !$0.hasPrefix(" ") && ($0.contains("error:") || $0.contains("note:"))
    }
    return (status, diagnostics)
  }

  /// Type-checks `source` as ``typecheck(_:)`` does; returns swiftc's whole output, the
  /// source excerpts included (where it draws a macro's notes and Fix-Its).
  func typecheckText(_ source: String) throws -> (status: Int32, text: String) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("dp-restatement-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("case.swift")
    let header = """
      import DelegateProxy
      import Foundation
      #if canImport(FoundationXML)
        import FoundationXML
      #endif

      """
    try Data((header + source + "\n").utf8).write(to: file)
    let shimHeaders = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../CFFIShim/include").standardized.path
    let coreHeaders = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../CFFIShim/Core/include").standardized.path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "swiftc", "-typecheck", "-swift-version", "6", "-I", modulesDirectory.path,
      "-Xcc", "-fmodule-map-file=\(shimModuleMap.path)", "-Xcc", "-I\(shimHeaders)",
      "-Xcc", "-fmodule-map-file=\(coreModuleMap.path)", "-Xcc", "-I\(coreHeaders)",
      "-load-plugin-executable", "\(plugin.path)#DelegateProxyMacros", file.path,
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
      .replacingOccurrences(of: file.path, with: "case.swift")
    return (process.terminationStatus, text)
  }
}

/// A protocol that restates one XMLParserDelegate method as `line` (line 8 of the case's
/// file: the imports take lines 1–5, the protocol starts on line 6).
func parserEvents(_ line: String) -> String {
  """
  @Delegate(for: XMLParserDelegate.self)
  protocol ParserEvents: XMLParserDelegate {
    \(line)
  }
  """
}

@Suite(
  "What the compiler says about a wrong restatement", .tags(.compiler),
  .enabled(if: TestSelection.runs("compiler")))
struct RestatementDiagnosticsTests {
  let modules: BuiltModules

  init() throws { modules = try BuiltModules.find().get() }

  @Test func aCorrectRestatementTypeChecksWithOrWithoutOverride() throws {
    let plain = try modules.typecheck(
      parserEvents("func parser(_ parser: XMLParser, foundCharacters string: String)"))
    #expect(plain.status == 0, "\(plain.diagnostics)")
    let marked = try modules.typecheck(
      parserEvents("override func parser(_ parser: XMLParser, foundCharacters string: String)"))
    #expect(marked.status == 0, "\(marked.diagnostics)")
  }

  @Test func withoutOverrideAWrongRestatementFailsInTheExpansion() throws {
    // The restated method is a new requirement of the user's protocol as far as Swift
    // is concerned; what fails is the generated call to the foreign one. The error is in
    // the macro's expansion, anchored by a note at the protocol's closing brace (line 9).
    let typo = try modules.typecheck(
      parserEvents("func parser(_ parser: XMLParser, foundCharacter string: String)"))
    #expect(typo.status != 0)
    #expect(typo.diagnostics.first?.hasPrefix("macro expansion @Delegate:") == true)
    #expect(
      typo.diagnostics.first?.hasSuffix(
        "error: no exact matches in call to instance method 'parser'") == true)
    #expect(typo.diagnostics.contains("`- case.swift:9:2: note: expanded code originates here"))
    #expect(typo.diagnostics.contains { $0.contains("expected: '(_:foundCharacters:)'") })
    #expect(!typo.diagnostics.contains { $0.hasPrefix("case.swift:8:") })

    let wrongType = try modules.typecheck(
      parserEvents("func parser(_ parser: XMLParser, foundCharacters string: Substring)"))
    #expect(wrongType.status != 0)
    #expect(
      wrongType.diagnostics.first?.hasSuffix(
        "error: cannot convert value of type 'Substring' to expected argument type 'String'")
        == true)

    let unknown = try modules.typecheck(parserEvents("func parserDidPause(_ parser: XMLParser)"))
    #expect(unknown.status != 0)
    #expect(
      unknown.diagnostics.first?.hasSuffix(
        "error: value of type 'any XMLParserDelegate' has no member 'parserDidPause'") == true)
  }

  @Test func withOverrideTheErrorIsOnTheUsersLine() throws {
    // `override` on a restated requirement asks Swift to check that it restates one of
    // the parent protocol's: a typo, a wrong type or an unknown method is then an error
    // on the user's own line (8), beside the expansion's.
    for line in [
      "override func parser(_ parser: XMLParser, foundCharacter string: String)",
      "override func parser(_ parser: XMLParser, foundCharacters string: Substring)",
      "override func parserDidPause(_ parser: XMLParser)",
      "override func parserDidEndDocument(_ parser: XMLParser) -> Bool",
    ] {
      let result = try modules.typecheck(parserEvents(line))
      #expect(result.status != 0)
      #expect(
        result.diagnostics.contains(
          "case.swift:8:17: error: method does not override any method from its parent protocol"),
        "\(line): \(result.diagnostics)")
    }
  }

  @Test func aRequiredMethodNotRestatedIsANonConformanceWithANotePerMissingMethod() throws {
    // FileManagerDelegate on Linux has no default implementations: restating one of its
    // sixteen methods leaves fifteen that the generated types do not have.
    let result = try modules.typecheck(
      """
      @Delegate(for: FileManagerDelegate.self)
      protocol FileEvents: FileManagerDelegate {
        func fileManager(_ fileManager: FileManager, shouldRemoveItemAt URL: URL) -> Bool
      }
      """)
    #expect(result.status != 0)
    // No C face asked for: no stand-in, so the multicast's is the one non-conformance.
    #expect(!result.diagnostics.contains { $0.contains("StandIn") })
    #expect(
      result.diagnostics.contains {
        $0.hasSuffix(
          "error: type 'FileEventsMulticast' does not conform to protocol 'FileManagerDelegate'")
      })
    #expect(
      result.diagnostics.contains {
        $0.hasSuffix(
          "note: protocol requires function 'fileManager(_:shouldCopyItemAtPath:toPath:)' with type '(FileManager, String, String) -> Bool'"
        )
      })
    // The restated one is not among the missing.
    #expect(!result.diagnostics.contains { $0.contains("'fileManager(_:shouldRemoveItemAt:)'") })
  }

  @Test func optionalOnARestatedMethodIsTheMacrosErrorOnTheUsersLine() throws {
    let result = try modules.typecheck(
      parserEvents("@Optional func parser(_ parser: XMLParser, foundCharacters string: String)"))
    #expect(result.status != 0)
    #expect(
      result.diagnostics == [
        "case.swift:8:18: error: 'parser(_:foundCharacters:)' is a method of 'XMLParserDelegate', whose own declaration says whether it is optional (a default implementation); remove @Optional (from macro 'Delegate')"
      ])
  }
}
