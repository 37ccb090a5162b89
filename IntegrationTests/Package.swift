// swift-tools-version: 6.1
// Integration tests of DelegateProxy against real Swift packages (GRDB, swift-log,
// swift-metrics, swift-distributed-tracing): a package of its own, so the library's
// users never resolve these. Run with `swift test` in this folder (`.ci/run` does).

import PackageDescription

// A path dependency's identity is its directory's name (lowercased), which depends on
// where the repository was cloned; work it out instead of hard-coding "delegateproxy".
let rootIdentity =
  Context.packageDirectory
  .split(separator: "/").dropLast().last.map { $0.lowercased() } ?? "delegateproxy"

let package = Package(
  name: "DelegateProxyIntegrationTests",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(path: ".."),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
  ],
  targets: [
    // What the differential tests share: the seeded generator.
    .target(name: "IntegrationSupport", path: "Tests/IntegrationSupport"),
    // GRDB's TransactionObserver: one registration, several observers (an audit trail
    // and a guard that vetoes a commit).
    .testTarget(
      name: "GRDBIntegrationTests",
      dependencies: [
        .product(name: "DelegateProxy", package: rootIdentity),
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    // swift-log's LogHandler: a @Delegate multicast against MultiplexLogHandler.
    .testTarget(
      name: "SwiftLogIntegrationTests",
      dependencies: [
        "IntegrationSupport",
        .product(name: "DelegateProxy", package: rootIdentity),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // swift-metrics' MetricsFactory and handler protocols: @Delegate multicasts against
    // MultiplexMetricsHandler, each factory handed its own handlers back on destroy.
    .testTarget(
      name: "SwiftMetricsIntegrationTests",
      dependencies: [
        "IntegrationSupport",
        .product(name: "DelegateProxy", package: rootIdentity),
        .product(name: "CoreMetrics", package: "swift-metrics"),
      ]
    ),
    // swift-distributed-tracing: Instrument (generic inject/extract) against
    // MultiplexInstrument, and a multicast Tracer whose Span is the multicast of its
    // members' spans (swift-distributed-tracing #232).
    .testTarget(
      name: "SwiftTracingIntegrationTests",
      dependencies: [
        "IntegrationSupport",
        .product(name: "DelegateProxy", package: rootIdentity),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "Instrumentation", package: "swift-distributed-tracing"),
        .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
      ]
    ),
    // The drift fixture's dependency (Scripts/restate.sh swaps in Scripts/restate/Feed-v2.swift).
    .target(name: "RestateFeed", path: "Tests/RestateFeed"),
    // Protocols restated by `swift package restate-delegate` (the files it wrote, unedited;
    // Scripts/restate.sh writes them again and compares), each run through a multicast.
    .testTarget(
      name: "RestatedProtocolTests",
      dependencies: [
        "RestateFeed",
        .product(name: "DelegateProxy", package: rootIdentity),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "CoreMetrics", package: "swift-metrics"),
        .product(name: "Instrumentation", package: "swift-distributed-tracing"),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
      ]
    ),
    // The seeded generator's protocols as a module the user does not own (plain public
    // protocols; Scripts/restate.sh has the generator write them into Parents.swift), and
    // the target `restate-delegate` writes their restatements into, which the script
    // compares with the generator's hand restatements (Scripts/compare-restatements.py);
    // RestateFeed is there for the command's error "a protocol of that name in two modules".
    .target(name: "GeneratedParents", path: "Tests/GeneratedParents"),
    .target(
      name: "RestatedGenerated",
      dependencies: [
        "GeneratedParents", "RestateFeed", .product(name: "DelegateProxy", package: rootIdentity),
      ],
      path: "Tests/RestatedGenerated"
    ),
    // Seeded random @Delegate protocols, each checked call by call against a hand-written
    // fan-out (Scripts/generate-protocols.py writes Generated.swift).
    .testTarget(
      name: "GeneratedProtocolTests",
      dependencies: [.product(name: "DelegateProxy", package: rootIdentity)]
    ),
  ],
  swiftLanguageModes: [.v6]
)
