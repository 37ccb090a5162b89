// CallgrindRows: one Swift-protocol, String, Swift-peer, value or swift-log row at one fan-out, for valgrind --tool=callgrind
// (Benchmarks/callgrind-swift.sh). Wall-clock time on a shared machine varies from run to
// run; instruction counts do not, so fixed costs of a few instructions can be compared.
//
//   CallgrindRows ROW FANOUT MESSAGES [METHOD]
//
// METHOD: `didReceive` (default) or `titleFor` for the String rows; `q@:qd` (default) or
// `v@:@` for the other Swift-protocol rows (swift_unowned_array, swift_protocol_proxy, …);
// a signature's encoding for the proxy's rows (proxy_c, …; default q@:qd); `start`
// (default) or `write` for the C callback rows (c_callback_proxy, c_callback_direct).
//
// Checks one message, warms up, then sends MESSAGES messages inside `measured`, the only
// function the script collects in: instructions per message = its inclusive count / MESSAGES.

import Foundation
import ProxyFixtures

/// The messages callgrind counts (collection is toggled on entering this function).
@inline(never) func measured(_ workload: Workload, _ messages: Int) -> UInt64 {
  workload.run(messages)
}

let arguments = CommandLine.arguments
guard (4...5).contains(arguments.count), let fanout = Int(arguments[2]),
  let messages = Int(arguments[3])
else {
  FileHandle.standardError.write(Data("usage: CallgrindRows ROW FANOUT MESSAGES [METHOD]\n".utf8))
  exit(2)
}
let name = arguments[1]
let method = arguments.count == 5 ? arguments[4] : nil
let workload: Workload
if let kind = SwiftStringRowKind(rawValue: name) {
  workload = Workload.swiftString(
    kind, method == "titleFor" ? .titleFor : .didReceive, fanout: fanout)
} else if let kind = SwiftPeerRowKind(rawValue: name) {
  workload = Workload.swiftPeer(kind, fanout: fanout)
} else if let kind = SwiftValueRowKind(rawValue: name) {
  workload = Workload.swiftValue(kind, fanout: fanout)
} else if let kind = SwiftLogMetadataRowKind(rawValue: name) {
  workload = Workload.swiftLogMetadata(kind, fanout: fanout)
} else if let kind = SwiftLogRowKind(rawValue: name) {
  workload = Workload.swiftLog(kind, fanout: fanout)
} else if let kind = RowKind(rawValue: name) {
  // proxy_c and the other rows of the proxy: METHOD is the signature's encoding (q@:qd
  // by default).
  guard
    let signature = method.map({ m in BenchSignature.allCases.first { $0.encoding == m } })
      ?? .qd
  else {
    FileHandle.standardError.write(Data("CallgrindRows: no signature \(method!)\n".utf8))
    exit(2)
  }
  workload = Workload.make(kind, signature, fanout: fanout)
} else if let kind = CallbackRowKind(rawValue: name) {
  // METHOD: `write` (libcurl's shape) or `start` (expat's, the default).
  workload = Workload.callback(kind, method == "write" ? .write : .startElement, fanout: fanout)
} else if let kind = SwiftRowKind(rawValue: name) {
  workload = Workload.swift(kind, method == "v@:@" ? .object : .qd, fanout: fanout)
} else {
  FileHandle.standardError.write(Data("CallgrindRows: no Swift row named \(name)\n".utf8))
  exit(2)
}
if let problem = workload.check() {
  FileHandle.standardError.write(Data("CallgrindRows: \(problem)\n".utf8))
  exit(1)
}
_ = workload.run(1000)  // warm up: lazy set-up, first-call resolution
_ = measured(workload, messages)
print("\(name) ×\(fanout) \(method ?? ""): \(messages) messages")
