#!/usr/bin/env bash
# Builds a throwaway user package that depends on this one by path and has targets with the
# generic names a user's package is likely to have — CExpat and CSQLite (system libraries),
# CCurl and CFFIShim (C targets), TestSupport (a Swift target) — plus an executable and a
# test target that import DelegateProxy and use @Delegate. SwiftPM refuses a package graph
# in which two packages declare targets of the same name, so this fails if one of ours
# collides (see the naming note at the top of Package.swift).
#
#   Scripts/user-package-check.sh          # builds in a temporary directory, then removes it
#   DP_USER_PACKAGE_KEEP=1 Scripts/...     # keeps the directory (printed) for a look
#
# The user package has its own build directory, so swift-syntax (for the @Delegate macro)
# is built once more: 6 to 8.5 minutes measured on 2 shared, busy cores (load 9–11).
set -euo pipefail
. "$(dirname "$0")/user-package-common.sh"
user_package_start dp-user-package
mkdir -p Sources/CExpat Sources/CSQLite Sources/CCurl/include Sources/CFFIShim/include \
  Sources/TestSupport Sources/UserApp Tests/UserAppTests

cat >Package.swift <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "UserPackage",
  dependencies: [.package(name: "DelegateProxy", path: "DelegateProxy")],
  targets: [
    .systemLibrary(name: "CExpat", pkgConfig: "expat"),
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3"),
    .target(name: "CCurl"),
    .target(name: "CFFIShim"),
    .target(name: "TestSupport"),
    .executableTarget(
      name: "UserApp",
      dependencies: [
        "CExpat", "CSQLite", "CCurl", "CFFIShim", "TestSupport",
        .product(name: "DelegateProxy", package: "DelegateProxy"),
        .product(name: "MessageRuntime", package: "DelegateProxy"),
      ]),
    .testTarget(
      name: "UserAppTests",
      dependencies: [
        "TestSupport", .product(name: "DelegateProxy", package: "DelegateProxy"),
        .product(name: "DelegateProxyTesting", package: "DelegateProxy"),
      ]),
  ]
)
EOF
cat >Sources/CExpat/module.modulemap <<'EOF'
module CExpat [system] {
  header "shim.h"
  link "expat"
  export *
}
EOF
echo '#include <expat.h>' >Sources/CExpat/shim.h
cat >Sources/CSQLite/module.modulemap <<'EOF'
module CSQLite [system] {
  header "shim.h"
  link "sqlite3"
  export *
}
EOF
echo '#include <sqlite3.h>' >Sources/CSQLite/shim.h
echo 'int user_curl_answer(void);' >Sources/CCurl/include/CCurl.h
printf '#include "CCurl.h"\nint user_curl_answer(void) { return 42; }\n' >Sources/CCurl/CCurl.c
echo 'int user_ffi_answer(void);' >Sources/CFFIShim/include/CFFIShim.h
printf '#include "CFFIShim.h"\nint user_ffi_answer(void) { return 7; }\n' >Sources/CFFIShim/CFFIShim.c
echo 'public func userSupport() -> String { "user" }' >Sources/TestSupport/TestSupport.swift

cat >Sources/UserApp/main.swift <<'EOF'
import CCurl
import CExpat
import CFFIShim
import CSQLite
import DelegateProxy
import MessageRuntime
import TestSupport

@Delegate
protocol UserDelegate: AnyObject {
  func user(_ value: Int) -> Int
}

final class Twice: UserDelegate {
  func user(_ value: Int) -> Int { value * 2 }
}

let multicast = UserDelegateMulticast()
let delegate = Twice()
multicast.add(delegate)
let parser = XML_ParserCreate(nil)
XML_ParserFree(parser)
print(
  userSupport(), user_curl_answer(), user_ffi_answer(), multicast.user(21),
  String(cString: sqlite3_libversion()))
EOF
cat >Tests/UserAppTests/UserAppTests.swift <<'EOF'
import DelegateProxy
import DelegateProxyTesting
import MessageRuntime
import TestSupport
import Testing

@Test func theUsersOwnTestSupportAndDelegateProxyLiveTogether() throws {
  let proxy = try MulticastProxy(delegates: [])
  #expect(proxy.count == 0)
  #expect(userSupport() == "user")
}
EOF

start=$(date +%s)
if ! swift build --build-tests >build.log 2>&1; then
  cat build.log
  if grep -q "conflicting name" build.log; then
    echo "user-package-check: a target of ours has the same name as a user's target (above)"
  else
    echo "user-package-check: the user package did not build (above)"
  fi
  exit 1
fi
out=$(swift run --skip-build UserApp 2>&1 | tail -1)
if [[ "$out" != "user 42 7 42 "* ]]; then
  echo "user-package-check: UserApp printed \"$out\", expected \"user 42 7 42 <sqlite version>\""
  exit 1
fi
echo "user-package-check: ok — a user package with targets CExpat, CSQLite, CCurl, CFFIShim," \
  "TestSupport builds against DelegateProxy ($(($(date +%s) - start)) s; UserApp: $out)"
