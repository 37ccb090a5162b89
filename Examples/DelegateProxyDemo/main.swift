// `swift run demo` runs every scenario; `swift run demo NAME` runs one.

import Glibc

let scenarios: [(name: String, summary: String, run: () throws -> Void)] = [
  ("runtime-tour", "a class, a message, a forwarding proxy and a C caller", runtimeTour),
  (
    "table-data-source", "a table view's data source split across two objects (AIMultiDelegate)",
    tableDataSource
  ),
  (
    "map-clustering",
    "a clustering plugin as the outer layer of a map view's delegate (LBDelegateMatrioska)",
    mapClustering
  ),
  (
    "secondary-scroll-delegate",
    "a controller injects a secondary delegate into a web view's scroll view (secondaryDelegate)",
    secondaryScrollDelegate
  ),
  (
    "xmpp-stream", "a stream broadcasting to listeners on their own queues (GCDMulticastDelegate)",
    xmppStream
  ),
  (
    "xml-parser",
    "Foundation's XMLParser: events fanned out to two delegates, a logger injected into its slot",
    xmlParser
  ),
  (
    "c-callbacks", "expat (a real C library) calling three Swift handlers through CallbackAdapters",
    cCallbacks
  ),
]

let requested = CommandLine.arguments.dropFirst().first
let selected = scenarios.filter { requested == nil || $0.name == requested }
if selected.isEmpty {
  print("unknown scenario \"\(requested!)\"; available:")
  for s in scenarios { print("  \(s.name) — \(s.summary)") }
  exit(2)
}
for scenario in selected {
  print("== \(scenario.name): \(scenario.summary) ==")
  do { try scenario.run() } catch {
    print("error: \(error)")
    exit(1)
  }
  print()
}
