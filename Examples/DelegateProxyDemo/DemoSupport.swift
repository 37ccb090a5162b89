// Small helpers the scenarios share: numbered steps, indented details, per-queue
// transcripts and queue names that code can check at run time.

import Dispatch
import Synchronization

/// Numbers a scenario's steps ("1. …", "2. …") as it prints them.
final class Steps {
  private var number = 0

  /// Prints the next numbered step.
  func next(_ text: String) {
    number += 1
    print("\(number). \(text)")
  }
}

/// Prints a detail line under the current step (`level` 1 is the step's own indentation).
func say(_ text: String, level: Int = 1) {
  print(String(repeating: "   ", count: level) + text)
}

/// Lines written from several threads and printed later, in the order they were written.
final class Transcript: Sendable {
  private let lines = Mutex<[String]>([])

  /// Appends a line.
  func record(_ line: String) { lines.withLock { $0.append(line) } }

  /// Returns the lines written so far and forgets them.
  func take() -> [String] {
    lines.withLock { s in
      defer { s.removeAll() }
      return s
    }
  }
}

/// Dispatch queues whose label code running on them can read back, so a delegate can
/// state (truthfully) which queue it was called on.
enum QueueName {
  static let key = DispatchSpecificKey<String>()

  /// A serial queue labelled `label`, marked so ``current`` finds it.
  static func serialQueue(_ label: String) -> DispatchQueue {
    let queue = DispatchQueue(label: label)
    queue.setSpecific(key: key, value: label)
    return queue
  }

  /// The label of the marked queue the caller runs on, or "caller's thread".
  static var current: String { DispatchQueue.getSpecific(key: key) ?? "caller's thread" }
}

/// Waits — in the demo driver only, never inside a library call — until every block
/// already submitted to each queue has run, one queue after the other.
func drain(_ queues: [DispatchQueue]) {
  let group = DispatchGroup()
  for queue in queues {
    group.enter()
    queue.async { group.leave() }
    group.wait()
  }
}

/// `text` with every hexadecimal address (`0x…`) blanked, so printed descriptions are
/// the same on every run.
func withoutAddresses(_ text: String) -> String {
  var out = ""
  var rest = Substring(text)
  while let range = rest.firstRange(of: "0x") {
    out += rest[..<range.lowerBound]
    out += "0x…"
    rest = rest[range.upperBound...].drop { $0.isHexDigit }
  }
  return out + rest
}

/// A number with at most `digits` decimals and no trailing zeros ("1200", "0.25").
func decimal(_ value: Double, digits: Int = 2) -> String {
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  if rounded == rounded.rounded() { return String(Int(rounded)) }
  return String(rounded)
}
