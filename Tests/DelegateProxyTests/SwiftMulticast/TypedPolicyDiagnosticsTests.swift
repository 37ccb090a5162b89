import DelegateProxyTestSupport
import Testing

/// A reducer or policy of the wrong type for a method is a compile error, not a run-time
/// one: each case is type-checked by swiftc against this run's DelegateProxy module and
/// @Delegate plugin (see `BuiltModules` in RestatementDiagnosticsTests.swift).
@Suite(
  "Typed policies: a mismatch does not compile", .tags(.compiler),
  .enabled(if: TestSelection.runs("compiler")))
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
    "gauges.setPolicy(.reduce(.firstAnswer), for: \\.gaugeLevelFor)",
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

  /// A built-in reducer whose type does not fit is one error, on the user's line, saying
  /// what the reducer needs and which reducers fit (not the constrained extensions').
  @Test(arguments: [
    (
      "gauges.setPolicy(.reduce(.allTrue), for: \\.gaugeLevelFor)",
      "'allTrue' is unavailable: .allTrue folds Bool answers, and this method does not answer Bool; for its result use .firstAnswer, .last, .collect { answers in … }, .fold(initial:_:), or .min/.max if it is Comparable"
    ),
    (
      "gauges.setPolicy(.reduce(.anyTrue), for: \\.gaugeTitle)",
      "'anyTrue' is unavailable: .anyTrue folds Bool answers, and this method does not answer Bool;"
    ),
    (
      "gauges.setPolicy(.reduce(.firstNonNil), for: \\.gaugeTitle)",
      "'firstNonNil' is unavailable: .firstNonNil picks the first answer that is not nil, and this method's result is not optional; use .firstAnswer (the first answer), .last, .collect { answers in … } or .fold(initial:_:)"
    ),
    (
      "gauges.setPolicy(.reduce(.min), for: \\.gaugeNoteFor)",
      "'min' is unavailable: .min compares the answers, and this method's result type is not Comparable; make it Comparable, or use .collect { answers in … } or .fold(initial:_:) to choose one"
    ),
    (
      "gauges.setPolicy(.reduce(.max), for: \\.gaugeNoteFor)",
      "'max' is unavailable: .max compares the answers, and this method's result type is not Comparable;"
    ),
  ])
  func aBuiltInReducerThatDoesNotFitSaysWhatFits(_ line: String, _ message: String) throws {
    let result = try modules.typecheck(Self.source(line))
    #expect(result.status != 0)
    let errors = result.diagnostics.filter { $0.contains("error:") }
    #expect(errors.count == 1, "\(result.diagnostics)")
    #expect(
      errors.first?.hasPrefix("case.swift:14:") == true && errors.first?.contains(message) == true,
      "\(result.diagnostics)")
  }

  @Test func aMisspeltHandleDoesNotCompile() throws {
    // The handle is spelled from the Swift name, not the selector (`gauge:levelFor:`).
    let result = try modules.typecheck(
      Self.source("gauges.setPolicy(.firstResponder, for: \\.gaugeWithLevelFor)"))
    #expect(result.status != 0)
    #expect(result.diagnostics.contains { $0.contains("gaugeWithLevelFor") })
  }
}
