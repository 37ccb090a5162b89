// swift-tools-version: 6.1
// The libFuzzer target for the type-encoding parser and the signature builder. Its own
// package so that ordinary builds never see -sanitize=fuzzer. Run ./run.sh.

import PackageDescription

let package = Package(
  name: "DelegateProxyFuzz",
  dependencies: [.package(name: "DelegateProxy", path: "..")],
  targets: [
    .executableTarget(
      name: "EncodingFuzzer",
      dependencies: [.product(name: "MessageRuntime", package: "DelegateProxy")]
    )
  ],
  swiftLanguageModes: [.v6]
)
