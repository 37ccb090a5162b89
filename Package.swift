// swift-tools-version: 6.1
// DelegateProxy: Cocoa-style dynamic delegate proxies (NSProxy, forwardInvocation:,
// NSInvocation, multicast delegates) for platforms without an Objective-C runtime.
//
// Supported platforms: Linux (glibc) on x86-64 and AArch64. SwiftPM's `platforms:` names
// only Apple systems, so this is stated here and in the README: x86-64 runs every suite;
// on AArch64 the C layer is tested under qemu (Scripts/aarch64.sh). Other systems build
// with fallbacks (libffi for register replay, fences for membarrier) but are untested.

// Target names: every product's target is named as the product (MessageRuntime,
// DelegateProxy, CMessageRuntime, DelegateProxyTesting). Every other target's name starts
// with "DelegateProxy" (DelegateProxyCCore, DelegateProxyCFFIShim, DelegateProxyRuntimeCore,
// DelegateProxyMacros, DelegateProxyCExpat,
// DelegateProxyMacroSupport, DelegateProxyCDemoSupport, DelegateProxyDemo, DelegateProxyCTestSupport,
// DelegateProxyTestSupport, DelegateProxyCCallbackSupport, DelegateProxyForeignFixtures): SwiftPM wants target names
// unique across a package graph, so a generic name of ours (CExpat, TestSupport) would
// collide with a user's. Test targets keep plain names: SwiftPM does not count a
// dependency's test targets. Scripts/user-package-check.sh builds a user package that has
// the generic names. (The C runtime's directory is still CFFIShim/; its libffi-free half is CFFIShim/Core/.)

import CompilerPluginSupport
import PackageDescription

let package = Package(
  name: "DelegateProxy",
  products: [
    .library(name: "MessageRuntime", targets: ["MessageRuntime"]),
    .library(name: "DelegateProxy", targets: ["DelegateProxy"]),
    // The runtime's C API for C targets: dp_runtime.h (from CFFIShim) and
    // dp_message_runtime.h (the functions MessageRuntime implements). See the README.
    .library(name: "CMessageRuntime", targets: ["CMessageRuntime"]),
    // Test doubles for users' test targets: recording, stubbed, verified delegates and
    // signature-driven delivery checks (Swift Testing).
    .library(name: "DelegateProxyTesting", targets: ["DelegateProxyTesting"]),
    .executable(name: "demo", targets: ["DelegateProxyDemo"]),
    // `swift package restate-delegate P --target T`: writes the @Delegate(for: P.self)
    // protocol restating every requirement of a protocol you don't own, or checks it.
    .plugin(name: "DelegateProxyRestatePlugin", targets: ["DelegateProxyRestatePlugin"]),
  ],
  dependencies: [
    .package(url: "https://github.com/swiftlang/swift-syntax.git", "600.0.0"..<"604.0.0"),
    // `swift package generate-documentation` (every DocC catalog); no target uses it.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // C without libffi: the runtime's C-visible structures (selectors, object handles,
    // method caches), read sections and grace periods, per-thread state, the Swift
    // runtime's reference counts. What the @Delegate product's C comes to.
    .target(
      name: "DelegateProxyCCore",
      path: "CFFIShim/Core",
      publicHeadersPath: "include"
    ),
    // C over libffi: the libffi surface Swift needs and the few hot paths that must be C
    // (register replay, route and callback entries, Swift receivers' static entries).
    .target(
      name: "DelegateProxyCFFIShim",
      dependencies: ["DelegateProxyCCore"],
      path: "CFFIShim",
      exclude: ["Core"],
      publicHeadersPath: "include",
      // dp_layout.h: Core's private record layout, which the route and replay loops read.
      cSettings: [.headerSearchPath("Core")],
      linkerSettings: [.linkedLibrary("ffi")]
    ),
    // The runtime's libffi-free Swift core: selectors, type encodings and layouts, IMPs,
    // locks, read sections (Quiescence), unowned references. MessageRuntime re-exports it.
    .target(
      name: "DelegateProxyRuntimeCore",
      dependencies: ["DelegateProxyCCore"]
    ),
    .target(
      name: "MessageRuntime",
      dependencies: ["DelegateProxyRuntimeCore", "DelegateProxyCFFIShim"]
    ),
    // C declarations of the C API that MessageRuntime implements in Swift (@_cdecl):
    // a C target that calls them depends on this, which links MessageRuntime.
    .target(
      name: "CMessageRuntime",
      dependencies: ["DelegateProxyCFFIShim", "MessageRuntime"]
    ),
    // Multicast delegate proxies, return policies, queues, injection, observers.
    .target(
      name: "DelegateProxy",
      dependencies: ["MessageRuntime", "DelegateProxyMacros"]
    ),
    // The compiler plugin behind @Delegate: turns a Swift protocol into a multicast delegate.
    .macro(
      name: "DelegateProxyMacros",
      dependencies: [
        "DelegateProxyMacroSupport",
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
      ],
      path: "Sources/DelegateProxyMacros"
    ),
    // What @Delegate reads, refuses and generates, apart from the compiler: the macro
    // expands it, and the restate command relays its refusals word for word (no product;
    // built for the host, as the macro and the command's tool are).
    .target(
      name: "DelegateProxyMacroSupport",
      dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
      ]
    ),
    // The restatement writer: reads symbol graphs, writes, rewrites and checks the
    // @Delegate(for:) protocol (unit-tested by RestateTests; SwiftParser reads the file).
    .target(
      name: "DelegateProxyRestateCore",
      dependencies: [
        "DelegateProxyMacroSupport",
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
      ]
    ),
    // The tool the plugin runs (plugins cannot parse symbol graphs themselves).
    .executableTarget(
      name: "DelegateProxyRestate",
      dependencies: ["DelegateProxyRestateCore"]
    ),
    // `swift package restate-delegate`: hands the tool the symbol graphs of the target's
    // dependencies (SwiftPM's) and the toolchain's swift-symbolgraph-extract.
    .plugin(
      name: "DelegateProxyRestatePlugin",
      capability: .command(
        intent: .custom(
          verb: "restate-delegate",
          description:
            "Write or check the @Delegate(for:) protocol restating every requirement of a protocol"
        ),
        permissions: [
          .writeToPackageDirectory(
            reason: "writes the @Delegate(for:) protocol into the target's sources")
        ]
      ),
      dependencies: ["DelegateProxyRestate"]
    ),
    // Recording doubles, stubs, verification and signature-driven invocation tests, for
    // test targets. Uses only the public API of the modules below, and Swift Testing.
    .target(
      name: "DelegateProxyTesting",
      dependencies: ["DelegateProxy", "MessageRuntime"]
    ),
    .target(
      name: "DelegateProxyCDemoSupport",
      dependencies: ["CMessageRuntime"],
      path: "Examples/DelegateProxyCDemoSupport"
    ),
    // expat, the real C library the c-callbacks demo parses with (libexpat1-dev).
    .systemLibrary(
      name: "DelegateProxyCExpat",
      path: "Examples/DelegateProxyCExpat",
      pkgConfig: "expat",
      providers: [.apt(["libexpat1-dev"])]
    ),
    .executableTarget(
      name: "DelegateProxyDemo",
      dependencies: [
        "MessageRuntime", "DelegateProxy", "DelegateProxyCDemoSupport", "DelegateProxyCExpat",
      ],
      path: "Examples/DelegateProxyDemo",
      // The document `demo xml-parser` parses (read through Bundle.module).
      resources: [.copy("Resources/library.xml")]
    ),
    // C structs and recording IMPs the tests compare the runtime against.
    .target(
      name: "DelegateProxyCTestSupport",
      dependencies: ["CMessageRuntime"],
      path: "Tests/DelegateProxyCTestSupport",
      // BlocksFromC.c makes blocks by hand: it names the blocks runtime's block classes
      // (Swift's toolchain ships libBlocksRuntime; libdispatch uses it).
      linkerSettings: [.linkedLibrary("BlocksRuntime", .when(platforms: [.linux]))]
    ),
    // Helpers and fixtures every test target shares: threads, unique class names, the
    // thread-safe call log, the sensor fixtures (a @Delegate protocol and its listeners).
    .target(
      name: "DelegateProxyTestSupport",
      dependencies: ["MessageRuntime", "DelegateProxy"],
      path: "Tests/DelegateProxyTestSupport"
    ),
    // A delegator and its delegate protocols (one refining the other) declared as a
    // dependency's would be: a module that does not know DelegateProxy (ForeignModuleTests).
    .target(
      name: "DelegateProxyForeignFixtures",
      path: "Tests/DelegateProxyForeignFixtures"
    ),
    .testTarget(
      name: "MessageRuntimeTests",
      // DelegateProxy: the random-signature suite also sends each signature through a
      // MulticastProxy (its C routes and its forwarding path).
      dependencies: [
        "MessageRuntime", "DelegateProxyCTestSupport", "DelegateProxy", "CMessageRuntime",
        "DelegateProxyTestSupport",
        "DelegateProxyTesting",
      ]
    ),
    // The doubles' own tests, their failure messages included; C callers from
    // DelegateProxyCTestSupport and real C libraries from DelegateProxyCCallbackSupport.
    .testTarget(
      name: "DelegateProxyTestingTests",
      dependencies: [
        "DelegateProxyTesting", "DelegateProxy", "MessageRuntime", "DelegateProxyCCallbackSupport",
        "DelegateProxyCTestSupport", "DelegateProxyTestSupport",
      ]
    ),
    // README.md's and the DocC articles' Swift code blocks, compiled and (where they can) run.
    .testTarget(
      name: "ReadmeTests",
      dependencies: [
        "DelegateProxy", "MessageRuntime", "DelegateProxyCExpat", "DelegateProxyTesting",
      ]
    ),
    .testTarget(
      name: "DelegateProxyTests",
      // DelegateProxyCTestSupport: C callers of Swift multicasts' IMPs (SwiftProtocolCFaceTests).
      dependencies: [
        "DelegateProxy", "MessageRuntime", "CMessageRuntime", "DelegateProxyTestSupport",
        "DelegateProxyCTestSupport", "DelegateProxyForeignFixtures", "DelegateProxyTesting",
      ]
    ),
    // Expansion tests of the @Delegate macro and its diagnostics.
    .testTarget(
      name: "DelegateProxyMacroTests",
      dependencies: [
        "DelegateProxyMacros", "DelegateProxyMacroSupport",
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
      ]
    ),
    // Real C libraries calling CallbackAdapter function pointers: expat, SQLite (linked;
    // libexpat1-dev, libsqlite3-dev) and libcurl (libcurl4's libcurl.so.4, loaded with dlopen
    // at run time, so no curl headers are needed; see DelegateProxyCCallbackSupport.h).
    .target(
      name: "DelegateProxyCCallbackSupport",
      path: "Tests/DelegateProxyCCallbackSupport",
      linkerSettings: [
        // dl: dlopen lives in libdl before glibc 2.34 (a stub library after).
        .linkedLibrary("expat"), .linkedLibrary("sqlite3"), .linkedLibrary("dl"),
      ]
    ),
    // The restatement writer against committed symbol graphs (Fixtures/; see its README).
    // The macro itself expands each refused shape (RefusalWordingTests), so the test compares
    // the command's reason with what the macro says.
    .testTarget(
      name: "RestateTests",
      dependencies: [
        "DelegateProxyRestateCore", "DelegateProxyMacros",
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
      ],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(
      name: "CCallbackTests",
      dependencies: [
        "DelegateProxy", "MessageRuntime", "DelegateProxyCCallbackSupport",
        "DelegateProxyTestSupport",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
