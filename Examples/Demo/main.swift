// `swift run demo` runs every scenario; `swift run demo NAME` runs one.

let scenarios: [(name: String, summary: String, run: () throws -> Void)] = [
  ("runtime-tour", "a class, a message, a forwarding proxy and a C caller", runtimeTour)
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

import Glibc
