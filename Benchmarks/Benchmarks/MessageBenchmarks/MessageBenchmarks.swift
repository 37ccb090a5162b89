// The Compare rows as package-benchmark benchmarks: wall-clock time and malloc counts
// per message, with package-benchmark's own statistics, baselines and thresholds.
//
//   cd Benchmarks && swift package benchmark                      # everything
//   cd Benchmarks && swift package benchmark --filter 'proxy_c'   # one row kind
//
// One benchmark iteration sends 1,000 messages (scalingFactor .kilo), so the per-
// iteration figures package-benchmark prints scaled are per message. The GNUstep row
// lives in GNUstep/ and is only in `run.sh`'s comparison.

import Benchmark
import ProxyFixtures

/// Makes a workload the first time a benchmark runs, so registering every row
/// builds nothing.
final class LazyWorkload: @unchecked Sendable {
  private let make: () -> Workload
  private var made: Workload?
  init(_ make: @escaping () -> Workload) { self.make = make }
  var workload: Workload {
    if let made { return made }
    let w = make()
    _ = w.run(16)  // first-call resolution and caches, outside any measurement
    made = w
    return w
  }
}

func register(_ name: String, _ lazy: LazyWorkload) {
  Benchmark(name) { benchmark in
    let workload = lazy.workload
    let messages = benchmark.scaledIterations.count
    benchmark.startMeasurement()
    let ns = workload.run(messages)
    benchmark.stopMeasurement()
    blackHole(ns)
  }
}

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal],
    warmupIterations: 3,
    scalingFactor: .kilo,
    maxDuration: .milliseconds(400),
    maxIterations: 1_000
  )

  _ = Fixtures.verify()
  // Every Compare row (RowCatalogue.swift), each made the first time it runs.
  for row in RowCatalogue.all {
    register(row.label, LazyWorkload { row.made() })
  }
}
