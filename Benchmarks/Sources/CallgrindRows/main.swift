// CallgrindRows: one String or Swift-peer row at one fan-out, for valgrind --tool=callgrind
// (Benchmarks/callgrind-swift.sh). Wall-clock time on a shared machine varies from run to
// run; instruction counts do not, so fixed costs of a few instructions can be compared.
//
//   CallgrindRows ROW FANOUT MESSAGES
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
guard arguments.count == 4, let fanout = Int(arguments[2]), let messages = Int(arguments[3]) else {
  FileHandle.standardError.write(Data("usage: CallgrindRows ROW FANOUT MESSAGES\n".utf8))
  exit(2)
}
let name = arguments[1]
let workload: Workload
if let kind = SwiftStringRowKind(rawValue: name) {
  workload = Workload.swiftString(kind, .didReceive, fanout: fanout)
} else if let kind = SwiftPeerRowKind(rawValue: name) {
  workload = Workload.swiftPeer(kind, fanout: fanout)
} else {
  FileHandle.standardError.write(Data("CallgrindRows: no String or peer row named \(name)\n".utf8))
  exit(2)
}
if let problem = workload.check() {
  FileHandle.standardError.write(Data("CallgrindRows: \(problem)\n".utf8))
  exit(1)
}
_ = workload.run(1000)  // warm up: lazy set-up, first-call resolution
_ = measured(workload, messages)
print("\(name) ×\(fanout): \(messages) messages")
