// Timing and allocation counting for Compare.
//
// Time: each workload runs n messages per repetition, n chosen so that one repetition
// takes at least `minRepetitionNanoseconds`; the row's number is the median over the
// repetitions of (elapsed / n). Repetitions are taken in sweeps over all rows, so each
// row's repetitions are spread over the run and rows measured side by side share the
// same machine conditions.
//
// Allocations: package-benchmark's malloc interposer (ordo-one/malloc-interposer,
// linked into this executable) counts every malloc/calloc/realloc in the process while
// hooked. After timing, each workload sends n messages once more with counting on;
// allocs_per_message = mallocs / n.

import Foundation
import MallocInterposerSwift
import ProxyFixtures

struct Settings {
  var repetitions = 9
  var minRepetitionNanoseconds: UInt64 = 20_000_000
}

struct Measured {
  let workload: Workload
  let messagesPerRepetition: Int
  var samples: [Double] = []  // ns per message, one per repetition
  var allocsPerMessage: Double = .nan
  var freesPerMessage: Double = .nan

  var median: Double { Stats.median(samples) }
}

enum Stats {
  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
  }
}

enum Harness {
  /// How many messages make one repetition last at least `target` nanoseconds: grow n
  /// until a run takes an eighth of the target, extrapolate, then confirm with a full
  /// run (and scale up again if a noisy moment made the estimate short).
  static func calibrate(_ w: Workload, target: UInt64) -> Int {
    _ = w.run(8)  // warm up: caches, lazy set-up, first-call resolution
    var n = 1
    while true {
      let t = w.run(n)
      if t >= target / 8 || n >= 1 << 40 {
        n = max(1, Int((Double(target) * 1.15 * Double(n) / Double(max(t, 1))).rounded(.up)))
        break
      }
      n *= 4
    }
    for _ in 0..<3 {
      let t = w.run(n)
      if t >= target { break }
      n = Int((Double(n) * Double(target) * 1.15 / Double(max(t, 1))).rounded(.up))
    }
    return n
  }

  /// Times every workload: calibrates each, then sweeps over all of them once per
  /// repetition, so each row's repetitions are spread over the whole run and a noisy
  /// stretch on the machine spoils at most a repetition or two of any row (the median
  /// drops them). Then counts allocations.
  /// `afterSweep` runs after each sweep (Compare uses it to have its co-process drivers
  /// take their own sweeps then).
  static func measureAll(
    _ workloads: [Workload], _ settings: Settings, progress: (String) -> Void,
    afterSweep: () -> Void = {}
  ) -> [Measured] {
    for w in workloads {
      if let problem = w.check() {
        FileHandle.standardError.write(
          Data("Compare: \(w.name) sends the wrong answer — \(problem)\n".utf8))
        exit(1)
      }
    }
    progress(
      "calibrating \(workloads.count) rows (≥ \(settings.minRepetitionNanoseconds / 1_000_000) ms per repetition)"
    )
    var measured = workloads.map {
      Measured(
        workload: $0,
        messagesPerRepetition: calibrate($0, target: settings.minRepetitionNanoseconds))
    }
    for rep in 0..<settings.repetitions {
      progress("repetition \(rep + 1) of \(settings.repetitions)")
      for i in measured.indices {
        let n = measured[i].messagesPerRepetition
        let t = measured[i].workload.run(n)
        measured[i].samples.append(Double(t) / Double(n))
      }
      afterSweep()
    }
    progress("counting allocations")
    for i in measured.indices {
      (measured[i].allocsPerMessage, measured[i].freesPerMessage) = countAllocations(
        measured[i].workload, messages: measured[i].messagesPerRepetition)
    }
    return measured
  }

  /// Allocation calls and frees per message over `messages` messages, counted by the
  /// interposer.
  static func countAllocations(_ w: Workload, messages: Int) -> (allocs: Double, frees: Double) {
    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    _ = w.run(messages)
    MallocInterposerSwift.unhook()
    let stats = MallocInterposerSwift.getStatistics()
    return (
      Double(stats.mallocCount) / Double(messages), Double(stats.freeCount) / Double(messages)
    )
  }

  /// Whether the interposer sees this process's mallocs (it must be loaded before
  /// libc's malloc is bound). A known allocation is counted, or nothing is.
  static func interposerWorks() -> Bool {
    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    let p = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
    p.deallocate()
    MallocInterposerSwift.unhook()
    return MallocInterposerSwift.getStatistics().mallocCount >= 1
  }
}
