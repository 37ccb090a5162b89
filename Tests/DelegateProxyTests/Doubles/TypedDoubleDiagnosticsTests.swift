import Foundation
import DelegateProxyTestSupport
import Testing

// A typed double of a `@Delegate` protocol is checked by the compiler: a misspelt method,
// a condition over the wrong argument types or an answer of the wrong type does not
// compile. Each case is type-checked by swiftc against the modules this test run was
// built with (see RestatementDiagnosticsTests' BuiltModules).

/// A `@Delegate` protocol and a test function using a typed double of it, with `body` as
/// the function's last lines (line 19 onwards of the case's file).
func typedDoubleCase(_ body: String) -> String {
  """
  import DelegateProxyTesting; import Testing
  final class Sensor {}
  struct Reading { var celsius: Double }
  @Delegate
  protocol SensorDelegate: AnyObject {
    func sensor(_ sensor: Sensor, didRead reading: Reading)
    func sensorShouldStart(_ sensor: Sensor) -> Bool
  }
  func check() throws {
    let double = try SwiftDelegateDouble(SensorDelegateMulticast.self)
    double.stub(\\.sensorShouldStart, .returning(true))
    double.stub(\\.sensorShouldStart) { sensor in true }
    double.verify(\\.sensorDidRead, called: .once) { sensor, reading in reading.celsius == 21.5 }
    let readings: [(Sensor, Reading)] = double.calls(to: \\.sensorDidRead)
    _ = readings
  \(body)
  }
  """
}

@Suite("What the compiler says about a typed double", .tags(.compiler), .enabled(if: TestSelection.runs("compiler")))
struct TypedDoubleDiagnosticsTests {
  let modules: BuiltModules

  init() throws { modules = try BuiltModules.find().get() }

  @Test func theTypedAPITypeChecks() throws {
    let result = try modules.typecheck(typedDoubleCase(""))
    #expect(result.status == 0, "\(result.diagnostics)")
  }

  @Test func aMisspeltMethodOrAWrongTypeDoesNotCompile() throws {
    // The case's lines: 6 of imports, 15 of the case's own; the body starts on line 21.
    let result = try modules.typecheck(
      typedDoubleCase(
        """
          double.stub(\\.sensorShoudStart, .returning(true))
          double.stub(\\.sensorShouldStart, .returning(1))
          double.verify(\\.sensorDidRead) { (sensor: Sensor, reading: Double) in true }
          double.verify(\\.sensorDidRead) { sensor, reading in reading.celsius == "21.5" }
          let wrong: [(Sensor, Double)] = double.calls(to: \\.sensorDidRead)
        """))
    #expect(result.status != 0)
    let errors = result.diagnostics.filter { $0.hasPrefix("case.swift:") && $0.contains("error:") }
    func line(_ n: Int) -> [String] { errors.filter { $0.hasPrefix("case.swift:\(n):") } }
    // The misspelt handle: no member of that name, so no key path (the double's selector
    // API is the other overload the compiler names).
    #expect(
      line(21).contains { $0.contains("cannot infer key path type from context") }, "\(errors)")
    #expect(
      line(22).contains { $0.contains("integer literal value '1' cannot be used as a boolean") },
      "\(errors)")
    #expect(
      line(23).contains {
        $0.contains(
          "cannot convert value of type '(Sensor, Double) -> Bool' to expected argument type '((Sensor, Reading)) -> Bool'"
        )
      }, "\(errors)")
    #expect(!line(24).isEmpty, "\(errors)")  // a Double compared with a String
    #expect(
      line(25).contains {
        $0.contains("cannot assign value of type '[(Sensor, Reading)]' to type '[(Sensor, Double)]'")
      }, "\(errors)")
    #expect(errors.allSatisfy { (21...25).contains(Int($0.split(separator: ":")[1]) ?? 0) }, "\(errors)")
  }
}
