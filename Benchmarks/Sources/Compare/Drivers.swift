// The drivers that measure rows outside Compare's process — the GNUstep NSProxy
// forwarder and the signal-library peers (GObject, libsigc++, Boost.Signals2) — and how
// one run of Compare uses each: as a co-process interleaving its sweeps with Compare's
// (CoProcessDriver.swift), from a file of rows it printed earlier, or not at all, with
// the reason run.sh gave.

import Foundation

/// A driver Compare knows.
struct DriverKind: Sendable {
  /// Its key on the command line (`--driver KEY=PATH`) and in latest.json's `peers`.
  let key: String
  /// The name of its rows.
  let rowName: String
  /// What the output calls it.
  let label: String
  /// Its source, for the JSON's `how`.
  let source: String
  /// The `path` of its rows when a row does not say.
  let defaultPath: String

  static let gnustep = DriverKind(
    key: "gnustep", rowName: "nsproxy_gnustep", label: "GNUstep NSProxy",
    source: "GNUstep/driver.m",
    defaultPath: "gnustep-nsproxy-forwardInvocation")
  /// The signal libraries a C or C++ programmer would put behind one library callback.
  static let peers: [DriverKind] = [
    DriverKind(
      key: "gobject", rowName: "peer_gobject_signal", label: "GObject signals",
      source: "Peers/GObjectSignal.c",
      defaultPath: "gobject-g_signal_emit+generic-marshaller"),
    DriverKind(
      key: "sigc", rowName: "peer_sigc", label: "libsigc++", source: "Peers/SigcSignal.cpp",
      defaultPath: "sigc-signal-emit+mem_fun"),
    DriverKind(
      key: "boost_signals2", rowName: "peer_boost_signals2", label: "Boost.Signals2",
      source: "Peers/BoostSignals2.cpp", defaultPath: "boost-signals2-call+bind+optional_last_value"
    ),
  ]
  static let all = [DriverKind.gnustep] + DriverKind.peers

  static func named(_ key: String) -> DriverKind? { all.first { $0.key == key } }
}

/// Where one driver's rows come from in this run, as the command line says.
struct DriverSource {
  /// Its executable, run as a co-process.
  var executable: String?
  /// A file of rows it printed earlier (one JSON object per line).
  var rowsFile: String?
  /// run.sh's word on it: a note on what was built ("glib 2.74.6, gcc 12.2.0"), or
  /// "skipped: why" / "failed: why" when it was not.
  var status: String?
}

/// One driver in one run of Compare: started before the sweeps, swept after each of
/// Compare's, asked for its rows at the end; any failure is kept and reported, never fatal.
final class DriverRun {
  let kind: DriverKind
  private let source: DriverSource
  private var process: CoProcessDriver?
  private var failure: String?
  private var deselected = false
  /// Its rows, once finished.
  private(set) var rows: [ExternalRow] = []

  init(kind: DriverKind, source: DriverSource) {
    self.kind = kind
    self.source = source
  }

  /// Leaves the driver out of a run restricted by `--only` to rows it does not measure.
  func deselect() { deselected = true }

  /// Starts the co-process (which checks and calibrates its rows alone on the machine),
  /// or reads the rows file.
  func start(minRepetitionMilliseconds: Double, log: (String) -> Void) {
    guard !deselected else { return }
    if let path = source.executable {
      log("  starting the \(kind.label) driver (checking and calibrating its rows)")
      do {
        process = try CoProcessDriver(
          path: path, minRepetitionMilliseconds: minRepetitionMilliseconds)
      } catch {
        failure = "\(error)"
        log("Compare: \(kind.label) driver: \(error)")
      }
    } else if let file = source.rowsFile {
      do {
        rows = try ExternalRow.read(file)
        if rows.isEmpty { log("Compare: \(file) held no \(kind.label) rows") }
      } catch {
        failure = "could not read \(file): \(error)"
        log("Compare: could not read \(kind.label) rows from \(file): \(error)")
      }
    }
  }

  /// One repetition of each of its rows (after one of Compare's sweeps).
  func sweep(log: (String) -> Void) {
    guard let p = process else { return }
    do { try p.sweep() } catch {
      failure = "\(error)"
      process = nil
      log("Compare: \(kind.label) driver: \(error)")
    }
  }

  /// Collects its rows and ends the co-process.
  func finish(log: (String) -> Void) {
    guard let p = process else { return }
    do { rows = try p.finish() } catch {
      failure = "\(error)"
      log("Compare: \(kind.label) driver: \(error)")
    }
    process = nil
  }

  /// Whether its rows are in this run.
  var measured: Bool { failure == nil && !rows.isEmpty }

  /// Its entry in latest.json: measured (how, run.sh's note) or why not.
  var status: [(String, JSON)] {
    var fields: [(String, JSON)]
    if deselected {
      fields = [("status", .string("skipped")), ("reason", .string("not selected by --only"))]
    } else if let failure {
      fields = [("status", .string("failed")), ("reason", .string(failure))]
    } else if source.executable != nil || source.rowsFile != nil {
      fields = [
        ("status", .string(rows.isEmpty ? "no rows" : "measured")), ("rows", .int(rows.count)),
      ]
      if rows.isEmpty { fields.append(("reason", .string("the driver reported no rows"))) }
      if source.executable != nil {
        fields.append(
          (
            "how",
            .string("\(kind.source) as a co-process: one sweep of its rows after each of Compare's")
          ))
      }
    } else {
      // run.sh says "skipped: why" or "failed: why".
      let text =
        source.status ?? "skipped: not run (bash Benchmarks/run.sh includes the \(kind.label) rows)"
      let parts = text.split(separator: ":", maxSplits: 1).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      fields =
        parts.count == 2 && ["skipped", "failed"].contains(parts[0])
        ? [("status", .string(parts[0])), ("reason", .string(parts[1]))]
        : [("status", .string("skipped")), ("reason", .string(text))]
    }
    if let note = source.status, !rows.isEmpty { fields.append(("note", .string(note))) }
    return fields
  }

  /// One line for the end of the table: measured, or NOT MEASURED and why.
  var summary: String {
    func text(_ key: String) -> String {
      if case .string(let s)? = status.first(where: { $0.0 == key })?.1 { return s }
      return "?"
    }
    if measured {
      let how =
        source.executable != nil
        ? "alongside (co-process, interleaved sweeps)" : "read from \(source.rowsFile ?? "?")"
      return "\(kind.label) rows: measured \(how)" + (source.status.map { "; \($0)" } ?? "")
    }
    return "\(kind.label) rows: NOT MEASURED (\(text("status")): \(text("reason")))"
  }
}
