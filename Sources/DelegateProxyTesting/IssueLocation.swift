import Testing

#if canImport(XCTest)
  import XCTest
#endif

/// The test line a double reports a failure at, kept in the form both test libraries take:
/// Swift Testing's `Issue.record` takes a `SourceLocation`, XCTest's `XCTFail` only a
/// `StaticString` file path — which a `String` cannot become — so the public entry points
/// take the caller's `#fileID`, `#filePath`, `#line` and `#column`, as XCTest's own
/// assertions do, and keep them here.
package struct IssueLocation: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// The same line as Swift Testing names it.
  var sourceLocation: SourceLocation {
    SourceLocation(
      fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
  }

  /// Records `message` as a failure of the running test at this line: a Swift Testing
  /// issue inside a Swift Testing test, else an XCTest failure (XCTest ignores it when no
  /// XCTest test is running either, as it ignores any `XCTFail` outside a test).
  func record(_ message: String) {
    #if canImport(XCTest)
      if Test.current == nil {
        XCTFail(message, file: filePath, line: line)
        return
      }
    #endif
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  }
}
