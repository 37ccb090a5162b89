import DelegateProxy
import Foundation
import MessageRuntime

/// Sample values of the common Swift types that have no C form — strings, optionals,
/// collections, Foundation values — for ``DeliveryCheck``: each travels in a runtime
/// message as a ``SwiftValueObject``, so the check can send boundary and random values of
/// a `@Delegate` protocol's `String`, `String?`, `[String]`, `URL`… parameters and compare
/// what arrives as Swift values. A method with a parameter of a Swift type not listed here
/// (your own enums and structs) is skipped, and the check prints which.
enum SwiftSampleValues {
  /// The samples of the type named `name` (as `String(reflecting:)` writes it), boundary
  /// values first; nil for a type not listed.
  static func samples(forTypeNamed name: String) -> [Any]? {
    table.first { $0.name == name }?.samples
  }

  /// The samples by type, boundary values first. Keyed by the name the runtime gives the
  /// type (Foundation's value types are `FoundationEssentials.URL` and so on on Linux).
  private static var table: [(name: String, samples: [Any])] {
    [
      entry(
        String.self, ["", "a", "héllo 👋 — a string longer than fifteen bytes", "\0nul inside"]),
      entry(String?.self, [nil, "", "x", "naïve ☕︎ — long enough to live on the heap"]),
      entry(Int?.self, [nil, 0, -1, .max, .min]),
      entry(Double?.self, [nil, 0, -0.5, .infinity]),
      entry(Bool?.self, [nil, true, false]),
      entry([String].self, [[], ["a"], ["x", "", "zoë"]]),
      entry([Int].self, [[], [0], [.min, .max, -1]]),
      entry([String: String].self, [[:], ["k": "v"], ["": "", "ü": "é"]]),
      entry([String: Int].self, [[:], ["k": 1], ["a": .min, "b": .max]]),
      entry(Set<String>.self, [[], ["a"], ["x", "y", ""]]),
      entry(
        URL.self,
        [
          URL(string: "file:///")!, URL(string: "https://example.org/a/b?c=d#e")!,
          URL(fileURLWithPath: "/tmp/with space/é.txt"),
        ]),
      entry(Data.self, [Data(), Data([0]), Data((0...255).map { UInt8($0) })]),
      entry(
        Date.self,
        [
          Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1.5),
          Date(timeIntervalSinceReferenceDate: 1e9),
        ]),
    ]
  }

  private static func entry<T>(_ type: T.Type, _ samples: [T]) -> (name: String, samples: [Any]) {
    (String(reflecting: type), samples)
  }

  /// Whether two values sent as Swift values are the same: their reflections agree (every
  /// listed type prints all of its value).
  static func same(_ a: Any, _ b: Any) -> Bool {
    String(reflecting: a) == String(reflecting: b)
  }
}
