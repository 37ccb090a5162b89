import Foundation
import Testing

// The tags of the long-running suites. `swift test` has no tag filter, so each tagged suite
// also runs only while its tag is not listed in DP_SKIP_TAGS:
//   DP_SKIP_TAGS=stress,model,compiler swift test    # the quick suites only
//   swift test --filter 'Stress|Thread safety'        # one group, by suite name
extension Tag {
  /// Many threads or many messages for a long time: stress and concurrency suites.
  @Tag package static var stress: Self
  /// Model-based property tests: thousands of random operation sequences.
  @Tag package static var model: Self
  /// Tests that run the Swift compiler (swiftc) on a small file: slow, and they need the
  /// build products beside the test executable.
  @Tag package static var compiler: Self
}

/// Whether a tagged suite runs in this process.
package enum TestSelection {
  /// False when the comma-separated DP_SKIP_TAGS names `tag` (`stress`, `model`, `compiler`).
  package static func runs(_ tag: String) -> Bool {
    let skipped = ProcessInfo.processInfo.environment["DP_SKIP_TAGS"] ?? ""
    return !skipped.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == tag }
  }
}
