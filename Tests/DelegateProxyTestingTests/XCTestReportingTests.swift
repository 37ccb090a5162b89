import DelegateProxy
import DelegateProxyTestSupport
import DelegateProxyTesting
import MessageRuntime
import XCTest

/// Under XCTest a double's failures are XCTest failures at the test's own line, as under
/// Swift Testing they are issues: a verification that fails, and a strict double's
/// unexpected call, which is kept until the next verification (a call can reach a double
/// on any thread, and only the verification's line is the test's).
final class XCTestReportingTests: XCTestCase {
  /// The failures XCTest was asked to record while `capturing` is set, kept instead of
  /// failing this test (XCTest routes `XCTFail` through `recordFailure`).
  private var captured: [(description: String, file: String, line: Int)] = []
  private var capturing = false

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    if capturing {
      captured.append((description, filePath, lineNumber))
    } else {
      super.recordFailure(
        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
  }

  private func capture(_ body: () throws -> Void) rethrows {
    capturing = true
    defer { capturing = false }
    try body()
  }

  func testAStrictDoublesUnexpectedCallFailsAtTheVerificationsLine() throws {
    let double = try DelegateDouble(tableDataSource, mode: .strict)
    _ = try TableMessages.rows.send(to: double, TableView(), 7)
    XCTAssertTrue(captured.isEmpty, "nothing is reported before the test verifies")
    let line = #line + 1
    capture { double.verifyNoUnexpectedCalls() }
    XCTAssertEqual(captured.count, 1)
    XCTAssertEqual(captured.first?.file, #filePath)
    XCTAssertEqual(captured.first?.line, line)
    XCTAssertTrue(
      captured.first?.description.contains("Unexpected call tableView:numberOfRowsInSection:")
        == true, captured.first?.description ?? "")
  }

  func testAFailingVerificationOfATypedDoubleFailsAtItsLine() throws {
    let double = try SwiftDelegateDouble(SensorDelegateMulticast.self)
    double.stub(\.sensorShouldStart, .returning(true))
    let sampler = SensorSampler()
    sampler.delegate = double.delegate
    sampler.sample(20)
    let line = #line + 1
    capture { double.verify(\.sensorDidRead, called: .twice) }
    XCTAssertEqual(captured.map(\.line), [line])
    XCTAssertEqual(captured.first?.file, #filePath)
    XCTAssertTrue(
      captured.first?.description.contains(
        "Expected sensor(_:didRead:) to be called exactly twice") == true,
      captured.first?.description ?? "")
  }

  func testAPassingVerificationRecordsNothing() throws {
    let double = try DelegateDouble(tableDataSource)
    _ = try TableMessages.rows.send(to: double, TableView(), 3)
    capture {
      XCTAssertTrue(double.verify("tableView:numberOfRowsInSection:", called: .exactly(1)))
    }
    XCTAssertTrue(captured.isEmpty, captured.map(\.description).joined(separator: "\n"))
  }
}
