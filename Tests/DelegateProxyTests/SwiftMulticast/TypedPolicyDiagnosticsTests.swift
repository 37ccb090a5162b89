import DelegateProxyTestSupport
import Testing

/// A reducer or policy of the wrong type for a method is a compile error, not a run-time
/// one: each case is type-checked by swiftc against this run's DelegateProxy module and
/// @Delegate plugin (see `BuiltModules` in RestatementDiagnosticsTests.swift).
@Suite("Typed policies: a mismatch does not compile", .tags(.compiler), .enabled(if: TestSelection.runs("compiler")))
struct TypedPolicyDiagnosticsTests {
  let modules: BuiltModules

  init() throws { modules = try BuiltModules.find().get() }

  /// The protocol every case uses: a `Bool`, a `Double`, a `String` and an optional result.
  static func source(_ line: String) -> String {
    """
    @Delegate
    protocol GaugeDelegate: AnyObject {
      func gaugeShouldStart(_ id: Int) -> Bool
      func gauge(_ id: Int, levelFor channel: Int) -> Double
      func gaugeTitle(_ id: Int) -> String
      func gauge(_ id: Int, noteFor channel: Int) -> String?
    }
    func configure(_ gauges: GaugeDelegateMulticast) {
      \(line)
    }
    """
  }

  @Test(arguments: [
    "gauges.setPolicy(.reduce(.allTrue), for: \\.gaugeShouldStart)",
    "gauges.setPolicy(.reduce(.first), for: \\.gaugeLevelFor)",
    "gauges.setPolicy(.reduce(.collect { $0.max() ?? 0 }), for: \\.gaugeLevelFor)",
    "gauges.setPolicy(.reduce(.firstNonNil), for: \\.gaugeNoteFor)",
    "gauges.setPolicy(.reduce(.fold(initial: \"\", +)), for: \\.gaugeTitle)",
  ])
  func aReducerOfTheMethodsResultTypeCompiles(_ line: String) throws {
    let result = try modules.typecheck(Self.source(line))
    #expect(result.status == 0, "\(result.diagnostics)")
  }

  @Test(arguments: [
    "gauges.setPolicy(.reduce(.allTrue), for: \\.gaugeLevelFor)",  // a truth rule on a Double
    "gauges.setPolicy(.reduce(.firstNonNil), for: \\.gaugeTitle)",  // first non-nil of a String
    "gauges.setPolicy(.reduce(.fold(initial: 0, +)), for: \\.gaugeTitle)",  // an Int fold
    "gauges.setPolicy(.reduce(.collect(Int?.self) { $0.first ?? nil }), for: \\.gaugeNoteFor)",
  ])
  func aReducerOfAnotherTypeDoesNotCompile(_ line: String) throws {
    let result = try modules.typecheck(Self.source(line))
    #expect(result.status != 0)
    #expect(result.diagnostics.contains { $0.hasPrefix("case.swift:14:") && $0.contains("error:") })
  }

  @Test func aMisspeltHandleDoesNotCompile() throws {
    // The handle is spelled from the Swift name, not the selector (`gauge:levelFor:`).
    let result = try modules.typecheck(
      Self.source("gauges.setPolicy(.firstResponder, for: \\.gaugeWithLevelFor)"))
    #expect(result.status != 0)
    #expect(result.diagnostics.contains { $0.contains("gaugeWithLevelFor") })
  }
}
