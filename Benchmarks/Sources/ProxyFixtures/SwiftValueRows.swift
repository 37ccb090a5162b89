// Value-member rows: what one `void` call with an Int costs to N struct delegates of a
// protocol that is not class-bound, through the loop Swift programmers write by hand (an
// array of the structs as the protocol's existential, as swift-log's MultiplexLogHandler
// holds its handlers) and through a @Delegate value multicast (a struct over a
// copy-on-write DelegateMulticast whose members are the same structs, held by value). Two
// conforming struct types are mixed (one alone lets the optimizer devirtualize the call).
// Each delegate writes through a pointer, so the call cannot be optimized away.

import BenchmarkSupport
import DelegateProxy

/// The delegate protocol of the value rows: not class-bound, so `@Delegate` makes a struct.
@Delegate
public protocol BenchValueSink {
  func record(_ value: Int)
}

struct ValueSinkA: BenchValueSink {
  let sink: UnsafeMutablePointer<Int>
  func record(_ value: Int) { sink.pointee &+= value }
}

struct ValueSinkB: BenchValueSink {
  let sink: UnsafeMutablePointer<Int>
  func record(_ value: Int) { sink.pointee &+= value &* 2 }
}

/// The value rows.
public enum SwiftValueRowKind: String, CaseIterable, Sendable {
  /// A hand-written loop over `[any BenchValueSink]` of structs.
  case valueArray = "swift_value_array"
  /// A `BenchValueSinkMulticast` (a value multicast) of the same structs.
  case valueMulticast = "swift_value_multicast"
}

/// Sink for the delegates' writes (read back only by the checks).
nonisolated(unsafe) private let valueSink: UnsafeMutablePointer<Int> = {
  // nonisolated(unsafe): the benchmark harness runs one row at a time on one thread.
  let p = UnsafeMutablePointer<Int>.allocate(capacity: 1)
  p.initialize(to: 0)
  return p
}()

/// Keeps a value multicast alive with the workload (the workload keeps objects).
final class ValueMulticastBox {
  let multicast: BenchValueSinkMulticast
  init(_ multicast: BenchValueSinkMulticast) { self.multicast = multicast }
}

/// The timed loops.
enum SwiftValueRows {
  @inline(never)
  static func array(_ sinks: [any BenchValueSink], _ n: Int) -> UInt64 {
    for i in 0..<n {
      for s in sinks { s.record(i) }
    }
    return UInt64(n)
  }

  @inline(never)
  static func multicast(_ multicast: BenchValueSinkMulticast, _ n: Int) -> UInt64 {
    for i in 0..<n { multicast.record(i) }
    return UInt64(n)
  }
}

extension Workload {
  /// The value row `kind` at `fanout` struct delegates.
  public static func swiftValue(_ kind: SwiftValueRowKind, fanout: Int) -> Workload {
    let sinks: [any BenchValueSink] = (0..<fanout).map { i in
      i % 2 == 0
        ? ValueSinkA(sink: valueSink) as any BenchValueSink : ValueSinkB(sink: valueSink)
    }
    // What record(1) adds to the sink: every delegate's share.
    let expected = (0..<fanout).reduce(0) { sum, i in sum + (i % 2 == 0 ? 1 : 2) }
    let run: (Int) -> UInt64
    let once: () -> Void
    var keep: [AnyObject] = []
    switch kind {
    case .valueArray:
      run = { n in SwiftValueRows.array(sinks, n) }
      once = { for s in sinks { s.record(1) } }
    case .valueMulticast:
      var multicast = BenchValueSinkMulticast()
      for s in sinks { multicast.add(s) }
      let box = ValueMulticastBox(multicast)
      keep.append(box)
      run = { n in SwiftValueRows.multicast(box.multicast, n) }
      once = { box.multicast.record(1) }
    }
    let check: () -> String? = {
      let before = valueSink.pointee
      once()
      let added = valueSink.pointee &- before
      return added == expected
        ? nil : "\(kind.rawValue): record(1) added \(added) to the sink, expected \(expected)"
    }
    return Workload(
      name: kind.rawValue, signature: .qd, fanout: fanout, responders: fanout,
      path: kind == .valueMulticast ? "swift-value-multicast" : "swift-loop",
      keepAlive: keep, check: check, encoding: "v@:q (struct members)", run: run)
  }
}
