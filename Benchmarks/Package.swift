// swift-tools-version: 6.1
// Benchmarks for DelegateProxy: its own package, so the library's users never resolve
// the benchmark harness. Run everything with `bash Benchmarks/run.sh` (see README.md).

import PackageDescription

// A path dependency's identity is its directory's name (lowercased), which depends on
// where the repository was cloned; work it out instead of hard-coding "delegateproxy".
let rootIdentity = Context.packageDirectory
  .split(separator: "/").dropLast().last.map { $0.lowercased() } ?? "delegateproxy"

let package = Package(
  name: "DelegateProxyBenchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(path: ".."),
    .package(
      url: "https://github.com/ordo-one/package-benchmark.git", from: "1.38.1",
      traits: ["MallocInterposer"]),
    // The allocation counter package-benchmark itself uses; Compare reads it directly.
    .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.6.1"),
    // PassthroughSubject for the Combine peer row (Combine itself is Apple-only).
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    // MultiplexLogHandler, the hand-written multiplexer the swift_log rows compare with.
    .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
  ],
  targets: [
    // C: delegate IMPs for the five signatures, direct loops, the naive libffi
    // forwarder and the C caller loop. Timed in C with CLOCK_MONOTONIC.
    .target(
      name: "BenchmarkSupport",
      linkerSettings: [.linkedLibrary("ffi")]
    ),
    // Swift fixtures shared by Compare and the package-benchmark suite: typed
    // messages, delegate classes and the proxy seam (`makeProxy`).
    .target(
      name: "ProxyFixtures",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "MessageRuntime", package: rootIdentity),
        .product(name: "DelegateProxy", package: rootIdentity),
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The side-by-side comparison: one process, every row, median of repetitions.
    .executableTarget(
      name: "Compare",
      dependencies: [
        "BenchmarkSupport", "ProxyFixtures",
        .product(name: "MessageRuntime", package: rootIdentity),
        .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
      ]
    ),
    // One Swift-protocol, String or peer row for valgrind --tool=callgrind (callgrind-swift.sh).
    .executableTarget(
      name: "CallgrindRows",
      dependencies: ["ProxyFixtures"]
    ),
    // Issue #33's table, re-measured: how long each change or call takes while a delegate
    // runs elsewhere, and whether it returns at all (NeverWaitTable/main.swift).
    .executableTarget(
      name: "NeverWaitTable",
      dependencies: [.product(name: "DelegateProxy", package: rootIdentity)]
    ),
    // The same rows as package-benchmark benchmarks (`swift package benchmark`).
    .executableTarget(
      name: "MessageBenchmarks",
      dependencies: [
        "BenchmarkSupport", "ProxyFixtures",
        .product(name: "MessageRuntime", package: rootIdentity),
        .product(name: "Benchmark", package: "package-benchmark"),
      ],
      path: "Benchmarks/MessageBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
