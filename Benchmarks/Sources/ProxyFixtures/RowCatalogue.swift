// Every row this process can measure, named before it is made: the one list Compare
// measures and the package-benchmark suite registers, so the two cannot drift apart and
// neither builds a row it was told to skip.

/// One row at one fan-out, not yet made.
public struct RowSpec: Sendable {
  /// The row's name (`proxy_swift`, `swift_log_multicast`, …), as the made workload has it.
  public let name: String
  /// The encoding (or signature description) the row measures, as the workload has it.
  public let encoding: String
  /// How many delegates the row calls per message.
  public let fanout: Int
  /// Makes the row's workload (its delegates, proxies and loop).
  public let make: @Sendable () -> Workload

  /// `name encoding xFANOUT`: the package-benchmark name.
  public var label: String { "\(name) \(encoding) x\(fanout)" }
}

/// The rows, in the order Compare measures and prints them.
public enum RowCatalogue {
  /// The fan-outs of the runtime, Swift-protocol and callback rows.
  public static let fanouts = [1, 2, 4, 8, 64]
  /// The fan-outs of the String and peer rows (2: most delegate slots hold one or two).
  public static let stringFanouts = [1, 2, 8, 64]
  /// The fan-outs of the swift-log rows.
  public static let logFanouts = [1, 2, 8]

  /// Every row.
  public static var all: [RowSpec] {
    var rows: [RowSpec] = []
    func add(
      _ name: String, _ encoding: String, _ fanout: Int, _ make: @escaping @Sendable () -> Workload
    ) {
      rows.append(RowSpec(name: name, encoding: encoding, fanout: fanout, make: make))
    }
    for sig in BenchSignature.allCases {
      for fanout in fanouts {
        for kind in RowKind.allCases {
          add(kind.rawValue, sig.encoding, fanout) { .make(kind, sig, fanout: fanout) }
        }
      }
    }
    for members in [1000, 3] {
      add("responders_3_of_\(members)", BenchSignature.qd.encoding, members) {
        .responders(members: members)
      }
    }
    // Swift protocols: hand-written loops and a @Delegate multicast (SwiftProtocolRows.swift).
    for sig in [BenchSignature.qd, .object] {
      for fanout in fanouts {
        for kind in SwiftRowKind.allCases {
          add(kind.rawValue, sig.encoding, fanout) { .swift(kind, sig, fanout: fanout) }
        }
      }
    }
    // Swift protocols with String arguments (SwiftStringRows.swift).
    for method in FeedMethod.allCases {
      for fanout in stringFanouts {
        for kind in SwiftStringRowKind.allCases where kind.measures(fanout: fanout) {
          add(kind.rawValue, method.encoding, fanout) { .swiftString(kind, method, fanout: fanout) }
        }
      }
    }
    // What Swift programmers use instead, on the didReceive workload (SwiftPeerRows.swift).
    for fanout in stringFanouts {
      for kind in SwiftPeerRowKind.allCases {
        add(kind.rawValue, FeedMethod.didReceive.encoding, fanout) {
          .swiftPeer(kind, fanout: fanout)
        }
      }
    }
    // swift-log: MultiplexLogHandler against a @Delegate value multicast (SwiftLogRows.swift).
    for fanout in logFanouts {
      for kind in SwiftLogRowKind.allCases {
        add(kind.rawValue, SwiftLogRows.encoding, fanout) { .swiftLog(kind, fanout: fanout) }
      }
    }
    // swift-log's per-request metadata write on a copy of a shared logger
    // (SwiftLogMetadataRows.swift).
    for fanout in logFanouts {
      for kind in SwiftLogMetadataRowKind.allCases {
        add(kind.rawValue, SwiftLogMetadataRows.encoding, fanout) {
          .swiftLogMetadata(kind, fanout: fanout)
        }
      }
    }
    // Membership changes while delegates run elsewhere (MembershipChangeRows.swift).
    for kind in MembershipChangeRowKind.allCases {
      add(MembershipChangeRowKind.name, kind.rawValue, 1) { .membershipChange(kind) }
    }
    // C callbacks of a library's own shape (context first / last) through a CallbackAdapter.
    for shape in CallbackShape.allCases {
      for fanout in fanouts {
        for kind in CallbackRowKind.allCases {
          add(kind.rawValue, shape.encoding, fanout) { .callback(kind, shape, fanout: fanout) }
        }
      }
    }
    return rows
  }

  /// The rows whose name starts with one of `prefixes` (all rows when it is empty).
  public static func rows(named prefixes: [String]) -> [RowSpec] {
    prefixes.isEmpty ? all : all.filter { spec in prefixes.contains { spec.name.hasPrefix($0) } }
  }
}

extension RowSpec {
  /// Makes the workload and checks it is the row this spec names (a catalogue entry out
  /// of step with its factory stops here rather than mislabelling a measurement).
  public func made() -> Workload {
    let w = make()
    precondition(
      w.name == name && w.encoding == encoding && w.fanout == fanout,
      "RowCatalogue: \(label) made \(w.name) \(w.encoding) x\(w.fanout)")
    return w
  }
}
