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

/// Makes a workload the first time a benchmark runs, so registering 152 benchmarks
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
  for sig in BenchSignature.allCases {
    for fanout in [1, 2, 4, 8, 64] {
      for kind in RowKind.allCases {
        register("\(kind.rawValue) \(sig.encoding) x\(fanout)", LazyWorkload { Workload.make(kind, sig, fanout: fanout) })
      }
    }
  }
  register("responders_3_of_1000 q@:qd", LazyWorkload { Workload.responders(members: 1000) })
  register("responders_3_of_3 q@:qd", LazyWorkload { Workload.responders(members: 3) })
}
