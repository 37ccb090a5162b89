// A C library with a one-slot callback table (one target, one function pointer per
// event), fanned out to three Swift handlers: the slot gets the proxy's handle and the
// proxy's C function pointers, and every call the C code makes reaches all three.

import CDemoSupport
import DelegateProxy
import MessageRuntime

/// The C library's callbacks, as messages (`self` and `_cmd` first, as the C table calls them).
enum TransferMessages {
  /// `void on_progress(id, SEL, double fraction, const char *label)`: `v@:d*`.
  static let progress = Message<Void, Double, UnsafePointer<CChar>?>("transferDidProgress:label:")
  /// `bool should_continue(id, SEL, int64_t bytes_done)`: `B@:q`.
  static let shouldContinue = Message<Bool, Int64>("transferShouldContinue:")

  static let delegateProtocol = RuntimeProtocol(
    name: "TransferDelegate",
    requirements: [
      .init(progress.selector, progress.signature, required: true),
      .init(shouldContinue.selector, shouldContinue.signature, required: true),
    ])
}

/// Draws a progress bar; never asks to stop.
final class ProgressBar: RuntimeObject, @unchecked Sendable {
  static func makeClass() throws -> RuntimeClass {
    let m = TransferMessages.self
    let cls = try RuntimeClass(name: "ProgressBar")
    try cls.addMethod(m.progress) { _, fraction, _ in
      let filled = Int(fraction * 10)
      let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 10 - filled)
      say("← ProgressBar: [\(bar)] \(Int((fraction * 100).rounded()))%", level: 2)
    }
    try cls.addMethod(m.shouldContinue) { _, _ in
      say("← ProgressBar: continue? yes (cancel not pressed)", level: 2)
      return true
    }
    return cls
  }
}

/// Logs each step; never asks to stop.
final class TransferLog: RuntimeObject, @unchecked Sendable {
  static func makeClass() throws -> RuntimeClass {
    let m = TransferMessages.self
    let cls = try RuntimeClass(name: "TransferLog")
    try cls.addMethod(m.progress) { _, fraction, label in
      let name = label.map { String(cString: $0) } ?? "?"
      say("← TransferLog: \(name) at \(decimal(fraction))", level: 2)
    }
    try cls.addMethod(m.shouldContinue) { _, _ in
      say("← TransferLog: continue? yes", level: 2)
      return true
    }
    return cls
  }
}

/// Stops any transfer that would go over a data quota.
final class QuotaGuard: RuntimeObject, @unchecked Sendable {
  let quota: Int64

  init(class runtimeClass: RuntimeClass, quota: Int64) {
    self.quota = quota
    super.init(class: runtimeClass)
  }

  static func makeClass() throws -> RuntimeClass {
    let m = TransferMessages.self
    let cls = try RuntimeClass(name: "QuotaGuard")
    try cls.addMethod(m.progress) { _, _, _ in
      say("← QuotaGuard: noted", level: 2)
    }
    try cls.addMethod(m.shouldContinue) { receiver, bytes in
      let quota = (receiver as! QuotaGuard).quota
      let ok = bytes <= quota
      say("← QuotaGuard: continue? \(ok ? "yes" : "NO") (\(bytes) bytes, quota \(quota))", level: 2)
      return ok
    }
    return cls
  }
}

/// The `c-callbacks` scenario: a C callback table filled with a proxy's handle and C
/// function pointers.
func cCallbacks() throws {
  let steps = Steps()
  let m = TransferMessages.self

  steps.next("libtransfer (C) has ONE callback slot per event: a target, a selector, a function")
  say("on_progress      \(m.progress.selector.name)  \(m.progress.signature.encoding)")
  say("should_continue  \(m.shouldContinue.selector.name)  \(m.shouldContinue.signature.encoding)")

  steps.next(
    "Three Swift handlers behind one MulticastProxy; should_continue folds with .reduce(.allTrue)")
  let bar = ProgressBar(class: try ProgressBar.makeClass())
  let log = TransferLog(class: try TransferLog.makeClass())
  let quota = QuotaGuard(class: try QuotaGuard.makeClass(), quota: 25_000)
  let proxy = try MulticastProxy(delegates: [bar, log, quota], protocol: m.delegateProtocol)
  proxy.setPolicy(.reduce(.allTrue), for: m.shouldContinue.selector)
  for line in withoutAddresses(proxy.description).split(separator: "\n") { say(String(line)) }

  steps.next("The slot gets the proxy's handle and the proxy's C function pointers (imp(for:))")
  let progressIMP = try proxy.imp(for: m.progress.selector)
  let shouldContinueIMP = try proxy.imp(for: m.shouldContinue.selector)
  var callbacks = cdemo_transfer_callbacks(
    target: proxy.cObject,
    progress_sel: m.progress.selector.cSelector,
    on_progress: progressIMP.unsafeCast(to: cdemo_progress_fn.self),
    should_continue_sel: m.shouldContinue.selector.cSelector,
    should_continue: shouldContinueIMP.unsafeCast(to: cdemo_should_continue_fn.self))
  func describePaths() {
    for selector in [m.progress.selector, m.shouldContinue.selector] {
      let path = proxy.fastPath(for: selector).map {
        "C fast path (\($0): the caller's registers replayed to each handler)"
      }
      say("\(selector.name) → \(path ?? "general path (forwardInvocation)")")
    }
  }
  describePaths()
  say("C calls them as plain functions; the proxy is found from self, its handlers from _cmd")

  steps.next("A small transfer, within the quota: every C call reaches all three handlers")
  let small = cdemo_transfer_run("notes.txt", 2_000, 1_000, &callbacks)
  say("C returned \(small) bytes")

  steps.next("A big transfer: the quota guard answers NO, so allTrue is false and the C loop stops")
  let big = cdemo_transfer_run("movie.iso", 40_000, 10_000, &callbacks)
  say("C returned \(big) bytes")

  steps.next("An observer makes the proxy leave the fast path; C keeps the same pointers")
  let observation = proxy.observe(m.progress) { fraction, _ in
    say("observer: saw transferDidProgress: \(decimal(fraction)) after the handlers", level: 2)
  }
  describePaths()
  _ = cdemo_transfer_run("memo.txt", 500, 500, &callbacks)
  observation.cancel()
  say("observer cancelled:")
  describePaths()

  withExtendedLifetime((bar, log, quota, proxy)) {}
}
