// Compare: the side-by-side benchmark of DelegateProxy's forwarding against a direct
// call, hand-written Swift closures, a naive libffi forwarder, (rows from the GNUstep
// driver) a real NSProxy and (rows from the peer drivers) the signal libraries a C or
// C++ programmer would put behind one callback, and — for the Swift multicast — what Swift
// programmers use instead (NotificationCenter, OpenCombine, closure lists, AsyncStream;
// SwiftPeerRows.swift). One process measures every row below;
// prints a table with ratios and writes results/latest.json.
//
//   swift run -c release Compare [--repetitions N] [--min-ms MS] [--output PATH]
//                                [--driver KEY=PATH | --driver-rows KEY=FILE]…
//                                [--driver-status KEY=TEXT]…
//                                [--swift-version TEXT] [--quick] [--only PREFIX,…]
//
// `bash run.sh` (one directory up from Sources) compiles the drivers (GNUstep/, Peers/)
// and passes them here; each runs as a co-process whose sweeps interleave with ours.
// See README.md.

import BenchmarkSupport
import Foundation
import ProxyFixtures

// MARK: Arguments

struct Options {
  var settings = Settings()
  var output: String?
  /// The drivers' executables, row files and run.sh's notes, by `DriverKind.key`.
  var drivers: [String: DriverSource] = [:]
  var swiftVersion: String?
  var command = "swift run -c release Compare"
  var quick = false
  /// Row-name prefixes to measure (all rows when empty); a partial run is never written
  /// to results/latest.json.
  var only: [String] = []
}

func parseOptions() -> Options {
  var o = Options()
  var args = CommandLine.arguments.dropFirst()
  func value(_ flag: String) -> String {
    guard let v = args.popFirst() else {
      FileHandle.standardError.write(Data("Compare: \(flag) needs a value\n".utf8))
      exit(2)
    }
    return v
  }
  /// `KEY=VALUE` for a known driver key.
  func driverValue(_ flag: String) -> (key: String, value: String) {
    let v = value(flag)
    let parts = v.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, DriverKind.named(parts[0]) != nil else {
      let keys = DriverKind.all.map(\.key).joined(separator: ", ")
      FileHandle.standardError.write(
        Data("Compare: \(flag) takes KEY=VALUE with KEY one of \(keys); got \(v)\n".utf8))
      exit(2)
    }
    return (parts[0], parts[1])
  }
  while let a = args.popFirst() {
    switch a {
    case "--repetitions": o.settings.repetitions = Int(value(a)) ?? 9
    case "--min-ms": o.settings.minRepetitionNanoseconds = UInt64((Double(value(a)) ?? 20) * 1e6)
    case "--output": o.output = value(a)
    case "--driver":
      let (key, path) = driverValue(a)
      o.drivers[key, default: DriverSource()].executable = path
    case "--driver-rows":
      let (key, file) = driverValue(a)
      o.drivers[key, default: DriverSource()].rowsFile = file
    case "--driver-status":
      let (key, text) = driverValue(a)
      o.drivers[key, default: DriverSource()].status = text
    // The GNUstep driver's options from before the peers: `--driver gnustep=PATH` etc.
    case "--gnustep-driver": o.drivers["gnustep", default: DriverSource()].executable = value(a)
    case "--gnustep-rows": o.drivers["gnustep", default: DriverSource()].rowsFile = value(a)
    case "--gnustep-status": o.drivers["gnustep", default: DriverSource()].status = value(a)
    case "--swift-version": o.swiftVersion = value(a)
    case "--command": o.command = value(a)
    case "--quick": o.quick = true
    case "--only": o.only = value(a).split(separator: ",").map(String.init)
    case "-h", "--help":
      print(
        """
        usage: Compare [--repetitions N (≥7, default 9)] [--min-ms MS (default 20)] [--output PATH]
                       [--driver KEY=PATH | --driver-rows KEY=FILE]… [--driver-status KEY=TEXT]…
                       [--swift-version TEXT] [--quick] [--only PREFIX,PREFIX…]
        KEY: \(DriverKind.all.map { "\($0.key) (\($0.rowName))" }.joined(separator: ", "))
        --only: measure only the rows whose names start with one of the prefixes (results/partial.json unless --output);
                drivers none of whose rows match are not run
        --driver: run a driver's executable alongside (GNUstep/driver.m, Peers/*), one sweep of its rows after each of ours
        --driver-rows: merge rows a driver printed earlier (one JSON object per line)
        --driver-status: run.sh's note on the driver, or "skipped: why" / "failed: why" when it was not built
        (--gnustep-driver, --gnustep-rows, --gnustep-status: the same for KEY gnustep)
        --quick: 7 repetitions of ≥2 ms, written to results/quick.json (smoke test, not for comparison)
        """)
      exit(0)
    default:
      FileHandle.standardError.write(Data("Compare: unknown argument \(a) (try --help)\n".utf8))
      exit(2)
    }
  }
  if o.quick {
    o.settings.repetitions = 7
    o.settings.minRepetitionNanoseconds = 2_000_000
  }
  if o.settings.repetitions < 7 {
    FileHandle.standardError.write(Data("Compare: --repetitions raised to 7 (the minimum)\n".utf8))
    o.settings.repetitions = 7
  }
  return o
}

/// Benchmarks/ (three levels above this file), where results/ lives.
let benchmarksDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

func log(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }

// MARK: Measure

let options = parseOptions()
let fanouts = RowCatalogue.fanouts
let stringFanouts = RowCatalogue.stringFanouts
let logFanouts = RowCatalogue.logFanouts
let signatures = BenchSignature.allCases

let problems = Fixtures.verify()
guard problems.isEmpty else {
  for p in problems { log("Compare: \(p)") }
  exit(1)
}
let countingAllocations = Harness.interposerWorks()
if !countingAllocations {
  log(
    "Compare: the malloc interposer is not counting in this process; allocs_per_message will be null"
  )
}

let machine = Machine.current(swiftVersion: options.swiftVersion)
log(
  "Compare: \(options.settings.repetitions) repetitions of ≥\(options.settings.minRepetitionNanoseconds / 1_000_000) ms per row; \(machine.cpu), \(machine.logicalCores) cores"
)

// Only the rows asked for are made (RowCatalogue.swift lists them all).
let workloads = RowCatalogue.rows(named: options.only).map { $0.made() }
// The drivers (GNUstep NSProxy, the signal-library peers), if given, each calibrate
// first (alone on the machine), then take a sweep of their rows after each of ours.
let drivers = DriverKind.all.map {
  DriverRun(kind: $0, source: options.drivers[$0.key] ?? DriverSource())
}
for d in drivers
where !options.only.isEmpty && !options.only.contains(where: { d.kind.rowName.hasPrefix($0) }) {
  d.deselect()
}
for d in drivers {
  d.start(
    minRepetitionMilliseconds: Double(options.settings.minRepetitionNanoseconds) / 1e6, log: log)
}

let started = Date()
let results = Harness.measureAll(workloads, options.settings, progress: { log("  " + $0) }) {
  for d in drivers { d.sweep(log: log) }
}
for d in drivers { d.finish(log: log) }
let elapsed = Date().timeIntervalSince(started)

let external = drivers.flatMap(\.rows)
let gnustepRun = drivers[0]

// MARK: Table

struct Cell {
  var ns: Double?
  var allocs: Double?
  var frees: Double?
}

@MainActor func lookup(_ name: String, _ encoding: String, _ fanout: Int) -> Cell {
  if let m = results.first(where: {
    $0.workload.name == name && $0.workload.encoding == encoding && $0.workload.fanout == fanout
  }) {
    return Cell(
      ns: m.median, allocs: countingAllocations ? m.allocsPerMessage : nil,
      frees: countingAllocations ? m.freesPerMessage : nil)
  }
  if let r = external.first(where: {
    $0.name == name && $0.signature == encoding && $0.fanout == fanout
  }) {
    return Cell(ns: r.ns_per_message, allocs: r.allocs_per_message, frees: r.frees_per_message)
  }
  return Cell()
}

func formatNs(_ x: Double?) -> String {
  guard let x, x.isFinite else { return "—" }
  if x < 10 { return String(format: "%.2f", x) }
  if x < 1000 { return String(format: "%.1f", x) }
  return String(format: "%.0f", x)
}

func formatRatio(_ a: Double?, _ b: Double?) -> String {
  guard let a, let b, a.isFinite, b.isFinite, b > 0 else { return "—" }
  return a / b < 10 ? String(format: "%.2f×", a / b) : String(format: "%.0f×", a / b)
}

/// Allocations per message; "*" when fewer frees than allocations were seen.
func formatAllocs(_ cell: Cell) -> String {
  guard let x = cell.allocs, x.isFinite else { return "—" }
  let text = x == x.rounded() ? String(format: "%.0f", x) : String(format: "%.2f", x)
  if let f = cell.frees, f.isFinite, f < x - 0.01 { return text + "*" }
  return text
}

func pad(_ s: String, _ width: Int, left: Bool = false) -> String {
  let n = s.count
  if n >= width { return s }
  let spaces = String(repeating: " ", count: width - n)
  return left ? s + spaces : spaces + s
}

/// The Swift-protocol rows' ratios at one signature and fan-out.
@MainActor func swiftRatio(_ sig: BenchSignature, _ fanout: Int) -> (
  overStrong: Double?, overWeak: Double?, overUnowned: Double?, strongSlotOverUnowned: Double?,
  strongMembersOverStrong: Double?, cOverDirect: Double?
) {
  func ns(_ kind: SwiftRowKind) -> Double? { lookup(kind.rawValue, sig.encoding, fanout).ns }
  func ratio(_ a: Double?, _ b: Double?) -> Double? {
    guard let a, let b, b > 0 else { return nil }
    return a / b
  }
  let proxy = ns(.protocolProxy)
  return (
    ratio(proxy, ns(.strongArray)), ratio(proxy, ns(.weakArray)), ratio(proxy, ns(.unownedArray)),
    ratio(ns(.protocolProxyStrongSlot), ns(.unownedArray)),
    ratio(ns(.protocolProxyStrongMembers), ns(.strongArray)),
    ratio(ns(.cToSwiftProxy), ns(.cToSwiftDirect))
  )
}

/// The String rows' ratios at one method and fan-out: swift_string_protocol_proxy over
/// the strong, weak and unowned loops, and (fan-out 1) over the delegator's weak slot
/// pointing straight at the delegate (issue 35's target: at most 1.5×).
@MainActor func swiftStringRatio(_ method: FeedMethod, _ fanout: Int) -> (
  overStrong: Double?, overWeak: Double?, overUnowned: Double?, overDirect: Double?
) {
  func ns(_ kind: SwiftStringRowKind) -> Double? {
    lookup(kind.rawValue, method.encoding, fanout).ns
  }
  func ratio(_ a: Double?, _ b: Double?) -> Double? {
    guard let a, let b, b > 0 else { return nil }
    return a / b
  }
  let proxy = ns(.protocolProxy)
  return (
    ratio(proxy, ns(.strongArray)), ratio(proxy, ns(.weakArray)), ratio(proxy, ns(.unownedArray)),
    ratio(proxy, ns(.weakDelegateDirect))
  )
}

/// The peer rows' ratios at one fan-out (feed(_:didReceive:)): each multicast row over
/// the peer it is set beside (below 1× means the multicast is faster).
@MainActor func swiftPeerRatios(_ fanout: Int) -> [(name: String, value: Double?)] {
  func ns(_ name: String) -> Double? { lookup(name, FeedMethod.didReceive.encoding, fanout).ns }
  func ratio(_ a: String, _ b: String) -> Double? {
    guard let a = ns(a), let b = ns(b), b > 0 else { return nil }
    return a / b
  }
  let proxy = SwiftStringRowKind.protocolProxy.rawValue
  let strong = SwiftPeerRowKind.protocolProxyStrongMembers.rawValue
  return [
    ("protocol_proxy_over_notificationcenter", ratio(proxy, "peer_notificationcenter")),
    ("protocol_proxy_over_opencombine_subject", ratio(proxy, "peer_opencombine_subject")),
    ("protocol_proxy_over_closures_weak", ratio(proxy, "swift_string_closures_weak")),
    ("protocol_proxy_over_closures", ratio(proxy, "swift_string_closures")),
    (
      "strong_slot_over_closures_weak",
      ratio(SwiftPeerRowKind.protocolProxyStrongSlot.rawValue, "swift_string_closures_weak")
    ),
    ("strong_members_over_closures", ratio(strong, "swift_string_closures")),
    ("strong_members_over_notificationcenter", ratio(strong, "peer_notificationcenter")),
    ("strong_members_over_opencombine_subject", ratio(strong, "peer_opencombine_subject")),
    (
      "messages_over_asyncstream",
      ratio(SwiftPeerRowKind.protocolProxyMessages.rawValue, "peer_asyncstream")
    ),
  ]
}

let kinds = RowKind.allCases.map(\.rawValue) + ["nsproxy_gnustep"]
let shortNames = ["direct", "closures", "naive_ffi", "proxy_c", "proxy_swift", "nsproxy"]
let ratioNames = ["proxy/direct", "proxy/naive_ffi", "nsproxy/proxy"]
let width = 12

var table = ""
table +=
  "ns per message (median of \(options.settings.repetitions) repetitions ≥ \(options.settings.minRepetitionNanoseconds / 1_000_000) ms each; one message = one send, whatever the fan-out)\n"
table +=
  "proxy = proxy_c (C caller → proxy's C entry); proxy: DelegateProxy.MulticastProxy (.lastResponder); each row's path is in the JSON\n"
for sig in signatures {
  table += "\n" + sig.encoding + "\n"
  table +=
    pad("fan-out", 8, left: true) + shortNames.map { pad($0, width) }.joined()
    + ratioNames.map { pad($0, 17) }.joined() + "\n"
  for fanout in fanouts {
    let cells = kinds.map { lookup($0, sig.encoding, fanout) }
    let proxy = cells[3].ns
    table += pad(String(fanout), 8, left: true) + cells.map { pad(formatNs($0.ns), width) }.joined()
    table +=
      pad(formatRatio(proxy, cells[0].ns), 17) + pad(formatRatio(proxy, cells[2].ns), 17)
      + pad(formatRatio(cells[5].ns, proxy), 17) + "\n"
  }
}
let r1000 = lookup("responders_3_of_1000", "q@:qd", 1000)
let r3 = lookup("responders_3_of_3", "q@:qd", 3)
table +=
  "\nresponders (q@:qd, C caller → proxy): 3 of 1000 members respond vs a proxy of only those 3\n"
table +=
  "  responders_3_of_1000 \(pad(formatNs(r1000.ns), 10)) ns   responders_3_of_3 \(pad(formatNs(r3.ns), 10)) ns   ratio \(formatRatio(r1000.ns, r3.ns))\n"

table +=
  "\nC callbacks (a C loop calling a library-shaped callback; proxy = CallbackAdapter → MulticastProxy route)\n"
table +=
  pad("shape / fan-out", 24, left: true) + pad("direct", width) + pad("proxy", width)
  + pad("proxy/direct", 14) + pad("allocs", 8) + "\n"
for shape in CallbackShape.allCases {
  for fanout in fanouts {
    let d = lookup(CallbackRowKind.direct.rawValue, shape.encoding, fanout)
    let p = lookup(CallbackRowKind.proxy.rawValue, shape.encoding, fanout)
    table +=
      pad("\(shape.encoding) ×\(fanout)", 24, left: true) + pad(formatNs(d.ns), width)
      + pad(formatNs(p.ns), width)
      + pad(formatRatio(p.ns, d.ns), 14) + pad(formatAllocs(p), 8) + "\n"
  }
}

// The peers: the same C loop calling one callback that emits a signal library's signal to
// N handlers doing the same work (Peers/); only fan-outs 1, 8 and 64.
let peerFanouts = [1, 8, 64]
let peerShort = ["gobject", "sigc", "boost"]
table +=
  "\nC callback peers (the same C loop calling one callback that emits a signal library's signal to N handlers; x/proxy = peer ÷ c_callback_proxy)\n"
table +=
  pad("shape / fan-out", 16, left: true) + pad("proxy", 10) + peerShort.map { pad($0, 10) }.joined()
  + peerShort.map { pad("\($0)/proxy", 15) }.joined() + pad("allocs g/s/b", 16) + "\n"
for shape in CallbackShape.allCases {
  for fanout in peerFanouts {
    let p = lookup(CallbackRowKind.proxy.rawValue, shape.encoding, fanout)
    let cells = DriverKind.peers.map { lookup($0.rowName, shape.encoding, fanout) }
    table +=
      pad("\(shape.encoding) ×\(fanout)", 16, left: true) + pad(formatNs(p.ns), 10)
      + cells.map { pad(formatNs($0.ns), 10) }.joined()
      + cells.map { pad(formatRatio($0.ns, p.ns), 15) }.joined()
      + pad(cells.map(formatAllocs).joined(separator: "/"), 16) + "\n"
  }
}

table +=
  "\nSwift protocols (@Delegate multicast, weak members, last responder; a Swift delegator or a C loop calling N plain Swift delegates)\n"
let swiftKinds = SwiftRowKind.allCases.map(\.rawValue)
table +=
  pad("sig / fan-out", 14, left: true)
  + swiftKinds.map { pad(String($0.dropFirst($0.hasPrefix("swift_") ? 6 : 0)), 27) }.joined() + "\n"
for sig in [BenchSignature.qd, .object] {
  for fanout in fanouts {
    table +=
      pad("\(sig.encoding) ×\(fanout)", 14, left: true)
      + swiftKinds.map { pad(formatNs(lookup($0, sig.encoding, fanout).ns), 27) }.joined() + "\n"
  }
}
table +=
  "ratios: protocol_proxy/strong_array, protocol_proxy/weak_array, protocol_proxy/unowned_array, strong_slot/unowned_array, strong_members/strong_array, c_to_swift_proxy/c_to_swift_direct\n"
for sig in [BenchSignature.qd, .object] {
  for fanout in fanouts {
    let r = swiftRatio(sig, fanout)
    table +=
      pad("\(sig.encoding) ×\(fanout)", 14, left: true)
      + [
        r.overStrong, r.overWeak, r.overUnowned, r.strongSlotOverUnowned, r.strongMembersOverStrong,
        r.cOverDirect,
      ].map { pad(formatRatio($0, 1), 10) }.joined() + "\n"
  }
}

table +=
  "\nSwift protocols, String arguments (@Delegate multicast, weak members; didReceive: a heap String to every delegate; titleFor: first non-nil, the last delegate's row asked, so every loop walks the whole list)\n"
let stringKinds = SwiftStringRowKind.allCases.map(\.rawValue)
table +=
  pad("sig / fan-out", 22, left: true)
  + stringKinds.map { pad(String($0.dropFirst("swift_string_".count)), 22) }.joined()
  + ["proxy/strong", "proxy/weak", "proxy/unowned", "proxy/direct"].map { pad($0, 15) }.joined()
  + pad("allocs s/w/u/p/d", 18) + "\n"
for method in FeedMethod.allCases {
  for fanout in stringFanouts {
    let cells = stringKinds.map { lookup($0, method.encoding, fanout) }
    let r = swiftStringRatio(method, fanout)
    table +=
      pad("\(method.encoding) ×\(fanout)", 22, left: true)
      + cells.map { pad(formatNs($0.ns), 22) }.joined()
      + [r.overStrong, r.overWeak, r.overUnowned, r.overDirect].map { pad(formatRatio($0, 1), 15) }
      .joined()
      + pad(cells.map(formatAllocs).joined(separator: "/"), 18) + "\n"
  }
}

table +=
  "\nSwift peers (v@:@@ (String) didReceive, same workload; proxy = swift_string_protocol_proxy through a delegator's weak slot, strong_slot = the same through a strong reference, strong = its members held strongly, through a strong reference; messages = N consumers of messages(_:), asyncstream = an AsyncStream per consumer, timed until every consumer has the message)\n"
let peerColumns: [(String, String)] = [
  ("proxy", SwiftStringRowKind.protocolProxy.rawValue),
  ("strong_slot", SwiftPeerRowKind.protocolProxyStrongSlot.rawValue),
  ("strong", SwiftPeerRowKind.protocolProxyStrongMembers.rawValue),
  ("unowned", SwiftStringRowKind.unownedArray.rawValue),
  ("closures", SwiftPeerRowKind.closures.rawValue),
  ("closures_weak", SwiftPeerRowKind.closuresWeak.rawValue),
  ("notifications", SwiftPeerRowKind.notificationCenter.rawValue),
  ("opencombine", SwiftPeerRowKind.openCombineSubject.rawValue),
  ("messages", SwiftPeerRowKind.protocolProxyMessages.rawValue),
  ("asyncstream", SwiftPeerRowKind.asyncStream.rawValue),
]
table +=
  pad("fan-out", 8, left: true) + peerColumns.map { pad($0.0, 14) }.joined() + "\n"
for fanout in stringFanouts {
  let cells = peerColumns.map { lookup($0.1, FeedMethod.didReceive.encoding, fanout) }
  table +=
    pad(String(fanout), 8, left: true) + cells.map { pad(formatNs($0.ns), 14) }.joined() + "\n"
}
table += "allocations per message\n"
for fanout in stringFanouts {
  let cells = peerColumns.map { lookup($0.1, FeedMethod.didReceive.encoding, fanout) }
  table +=
    pad(String(fanout), 8, left: true) + cells.map { pad(formatAllocs($0), 14) }.joined() + "\n"
}
table += "ratios\n"
for fanout in stringFanouts {
  table +=
    pad(String(fanout), 8, left: true)
    + swiftPeerRatios(fanout).map { "  \($0.name) \(formatRatio($0.value, 1))" }.joined() + "\n"
}

let logEncoding = "log(event:) (swift-log, struct handlers)"
/// swift_log_multicast over swift_log_multiplex at one fan-out (below 1× the multicast is faster).
@MainActor func swiftLogRatio(_ fanout: Int) -> Double? {
  guard let a = lookup(SwiftLogRowKind.multicast.rawValue, logEncoding, fanout).ns,
    let b = lookup(SwiftLogRowKind.multiplex.rawValue, logEncoding, fanout).ns, b > 0
  else { return nil }
  return a / b
}
table +=
  "\nswift-log (a log line at an enabled level, two metadata values, to N struct handlers; multiplex = MultiplexLogHandler, multicast = a @Delegate(for: LogHandler.self) value multicast)\n"
table +=
  pad("fan-out", 8, left: true)
  + ["multiplex", "multicast", "multicast/multiplex", "allocs mx/mc"].map { pad($0, 21) }.joined()
  + "\n"
for fanout in logFanouts {
  let cells = SwiftLogRowKind.allCases.map { lookup($0.rawValue, logEncoding, fanout) }
  table +=
    pad(String(fanout), 8, left: true) + cells.map { pad(formatNs($0.ns), 21) }.joined()
    + pad(formatRatio(swiftLogRatio(fanout), 1), 21)
    + pad(cells.map(formatAllocs).joined(separator: "/"), 21) + "\n"
}

let metadataEncoding = "var l = logger; l[metadataKey:] = …; l.info (swift-log)"
table +=
  "\nswift-log per request (var l = logger; l[metadataKey: \"request-id\"] = \"\\(i)\"; l.info(\"handled\"); contended: two other threads log through logger)\n"
table +=
  pad("fan-out", 8, left: true)
  + ["", "multiplex", "multicast", "multicast/multiplex", "allocs mx/mc"].map { pad($0, 21) }
  .joined() + "\n"
for contended in [false, true] {
  for fanout in logFanouts {
    let kinds: [SwiftLogMetadataRowKind] =
      contended ? [.multiplexContended, .multicastContended] : [.multiplex, .multicast]
    let cells = kinds.map { lookup($0.rawValue, metadataEncoding, fanout) }
    table +=
      pad(String(fanout), 8, left: true) + pad(contended ? "contended" : "single", 21)
      + cells.map { pad(formatNs($0.ns), 21) }.joined()
      + pad(formatRatio(cells[1].ns, cells[0].ns), 21)
      + pad(cells.map(formatAllocs).joined(separator: "/"), 21) + "\n"
  }
}

table += "\nallocations per message"
table +=
  countingAllocations
  ? " (malloc calls counted by ordo-one/malloc-interposer; GNUstep and peers: the drivers' own malloc counters)\n"
  : " (not counted: interposer inactive)\n"
table += pad("sig / fan-out", 36, left: true) + shortNames.map { pad($0, width) }.joined() + "\n"
for sig in signatures {
  for fanout in fanouts {
    let cells = kinds.map { lookup($0, sig.encoding, fanout) }
    table +=
      pad("\(sig.encoding) ×\(fanout)", 36, left: true)
      + cells.map { pad(formatAllocs($0), width) }.joined() + "\n"
  }
}
table +=
  pad("responders_3_of_1000 / 3_of_3", 36, left: true) + pad(formatAllocs(r1000), width)
  + pad(formatAllocs(r3), width) + "\n"
table += "* fewer frees than allocations while counting: memory kept (or leaked) per message\n"
table += "\n" + drivers.map(\.summary).joined(separator: "\n") + "\n"
print(table)
print("measured in \(String(format: "%.1f", elapsed)) s; sink \(bs_sink_value() & 0xff)")

// MARK: latest.json

var rows: [JSON] = []
for m in results {
  var fields: [(String, JSON)] = [
    ("name", .string(m.workload.name)),
    ("signature", .string(m.workload.encoding)),
    ("fanout", .int(m.workload.fanout)),
    ("ns_per_message", .measured(m.median)),
    ("allocs_per_message", countingAllocations ? .measured(m.allocsPerMessage) : .null),
    ("frees_per_message", countingAllocations ? .measured(m.freesPerMessage) : .null),
    ("path", .string(m.workload.path)),
    ("median_of", .int(m.samples.count)),
    ("messages_per_repetition", .int(m.messagesPerRepetition)),
    ("repetitions", .array(m.samples.map { .measured($0) })),
  ]
  if m.workload.responders != m.workload.fanout {
    fields.append(("responders", .int(m.workload.responders)))
  }
  rows.append(.object(fields))
}
for d in drivers {
  for r in d.rows {
    var fields: [(String, JSON)] = [
      ("name", .string(r.name)),
      ("signature", .string(r.signature)),
      ("fanout", .int(r.fanout)),
      ("ns_per_message", .measured(r.ns_per_message)),
      ("allocs_per_message", r.allocs_per_message.map { .measured($0) } ?? .null),
      ("frees_per_message", r.frees_per_message.map { .measured($0) } ?? .null),
      ("path", .string(r.path ?? d.kind.defaultPath)),
    ]
    if let n = r.median_of { fields.append(("median_of", .int(n))) }
    if let n = r.messages_per_repetition { fields.append(("messages_per_repetition", .int(n))) }
    if let s = r.repetitions { fields.append(("repetitions", .array(s.map { .measured($0) }))) }
    rows.append(.object(fields))
  }
}

var ratios: [JSON] = []
for sig in signatures {
  for fanout in fanouts {
    let d = lookup("direct", sig.encoding, fanout).ns
    let n = lookup("naive_ffi", sig.encoding, fanout).ns
    let p = lookup("proxy_c", sig.encoding, fanout).ns
    let ns = lookup("nsproxy_gnustep", sig.encoding, fanout).ns
    func ratio(_ a: Double?, _ b: Double?) -> JSON {
      guard let a, let b, b > 0 else { return .null }
      return .measured(a / b)
    }
    ratios.append(
      .object([
        ("signature", .string(sig.encoding)), ("fanout", .int(fanout)),
        ("proxy_over_direct", ratio(p, d)), ("proxy_over_naive_ffi", ratio(p, n)),
        ("nsproxy_over_proxy", ratio(ns, p)),
      ]))
  }
}

var callbackRatios: [JSON] = []
for shape in CallbackShape.allCases {
  for fanout in fanouts {
    let d = lookup(CallbackRowKind.direct.rawValue, shape.encoding, fanout).ns
    let p = lookup(CallbackRowKind.proxy.rawValue, shape.encoding, fanout).ns
    callbackRatios.append(
      .object([
        ("signature", .string(shape.encoding)), ("fanout", .int(fanout)),
        ("proxy_over_direct", d.flatMap { d in p.map { .measured($0 / d) } } ?? .null),
      ]))
  }
}

var peerRatios: [JSON] = []
for shape in CallbackShape.allCases {
  for fanout in peerFanouts {
    let p = lookup(CallbackRowKind.proxy.rawValue, shape.encoding, fanout).ns
    var fields: [(String, JSON)] = [
      ("signature", .string(shape.encoding)), ("fanout", .int(fanout)),
    ]
    for peer in DriverKind.peers {
      let x = lookup(peer.rowName, shape.encoding, fanout).ns
      let ratio: JSON = x.flatMap { x in p.map { JSON.measured(x / $0) } } ?? .null
      fields.append(("\(peer.rowName.dropFirst("peer_".count))_over_proxy", ratio))
    }
    peerRatios.append(.object(fields))
  }
}

var swiftRatios: [JSON] = []
for sig in [BenchSignature.qd, .object] {
  for fanout in fanouts {
    let r = swiftRatio(sig, fanout)
    func json(_ x: Double?) -> JSON { x.map { .measured($0) } ?? .null }
    swiftRatios.append(
      .object([
        ("signature", .string(sig.encoding)), ("fanout", .int(fanout)),
        ("protocol_proxy_over_strong_array", json(r.overStrong)),
        ("protocol_proxy_over_weak_array", json(r.overWeak)),
        ("protocol_proxy_over_unowned_array", json(r.overUnowned)),
        ("strong_slot_over_unowned_array", json(r.strongSlotOverUnowned)),
        ("strong_members_over_strong_array", json(r.strongMembersOverStrong)),
        ("c_to_swift_proxy_over_direct", json(r.cOverDirect)),
      ]))
  }
}

var swiftStringRatios: [JSON] = []
for method in FeedMethod.allCases {
  for fanout in stringFanouts {
    let r = swiftStringRatio(method, fanout)
    func json(_ x: Double?) -> JSON { x.map { .measured($0) } ?? .null }
    swiftStringRatios.append(
      .object([
        ("signature", .string(method.encoding)), ("fanout", .int(fanout)),
        ("protocol_proxy_over_strong_array", json(r.overStrong)),
        ("protocol_proxy_over_weak_array", json(r.overWeak)),
        ("protocol_proxy_over_unowned_array", json(r.overUnowned)),
        ("protocol_proxy_over_weak_delegate_direct", json(r.overDirect)),
      ]))
  }
}

var swiftPeerRatioRows: [JSON] = []
for fanout in stringFanouts {
  var fields: [(String, JSON)] = [
    ("signature", .string(FeedMethod.didReceive.encoding)), ("fanout", .int(fanout)),
  ]
  for r in swiftPeerRatios(fanout) {
    fields.append((r.name, r.value.map { .measured($0) } ?? .null))
  }
  swiftPeerRatioRows.append(.object(fields))
}

var swiftLogRatioRows: [JSON] = []
for fanout in logFanouts {
  swiftLogRatioRows.append(
    .object([
      ("signature", .string(logEncoding)), ("fanout", .int(fanout)),
      ("multicast_over_multiplex", swiftLogRatio(fanout).map { .measured($0) } ?? .null),
    ]))
}

let formatter = ISO8601DateFormatter()
let document = JSON.object([
  (
    "machine",
    .object([
      ("cpu", .string(machine.cpu)), ("cores", .int(machine.logicalCores)),
      ("arch", .string(machine.hostArchitecture)),
      ("kernel", .string(machine.kernel)), ("swift", .string(machine.swift)),
    ])
  ),
  ("rows", .array(rows)),
  ("generated_at", .string(formatter.string(from: Date()))),
  ("command", .string(options.command)),
  (
    "method",
    .object([
      ("median_of", .int(options.settings.repetitions)),
      ("min_repetition_ms", .number(Double(options.settings.minRepetitionNanoseconds) / 1e6)),
      (
        "clock",
        .string(
          "CLOCK_MONOTONIC around each repetition's loop; ns_per_message = median over repetitions of elapsed / messages"
        )
      ),
      (
        "sweeps",
        .string(
          "repetitions are taken in sweeps over all rows (GNUstep and peer rows: each driver takes one sweep of its rows after each Compare sweep)"
        )
      ),
      (
        "message",
        .string(
          "one send to the proxy (one pass over the N targets for direct and swift_closures), whatever the fan-out"
        )
      ),
      (
        "allocations",
        .string(
          countingAllocations
            ? "allocation calls (malloc, calloc, realloc, …) and frees counted by ordo-one/malloc-interposer over one repetition's messages, divided by messages; GNUstep and peer rows: the drivers' own malloc/calloc/realloc/free counters, same method"
            : "not counted: the malloc interposer was not active")
      ),
      (
        "proxy",
        .string(
          "DelegateProxy.MulticastProxy, policy .lastResponder (Benchmarks/Sources/ProxyFixtures/ProxySeam.swift)"
        )
      ),
      ("quick", .bool(options.quick)),
    ])
  ),
  ("gnustep", .object(gnustepRun.status)),
  (
    "peers",
    .object(
      drivers.filter { $0.kind.key != DriverKind.gnustep.key }.map {
        ($0.kind.key, .object($0.status))
      })
  ),
  ("ratios", .array(ratios)),
  ("callback_ratios", .array(callbackRatios)),
  ("peer_ratios", .array(peerRatios)),
  ("swift_ratios", .array(swiftRatios)),
  ("swift_string_ratios", .array(swiftStringRatios)),
  ("swift_peer_ratios", .array(swiftPeerRatioRows)),
  ("swift_log_ratios", .array(swiftLogRatioRows)),
])

let outputURL =
  options.output.map { URL(fileURLWithPath: $0) }
  ?? benchmarksDirectory.appendingPathComponent("results").appendingPathComponent(
    !options.only.isEmpty ? "partial.json" : options.quick ? "quick.json" : "latest.json")
do {
  try FileManager.default.createDirectory(
    at: outputURL.deletingLastPathComponent(), withIntermediateDirectories: true)
  try (document.render() + "\n").write(to: outputURL, atomically: true, encoding: .utf8)
  print("wrote \(outputURL.path)")
} catch {
  log("Compare: could not write \(outputURL.path): \(error)")
  exit(1)
}
