#!/usr/bin/env bash
# Issue #35 item 1: a user package that depends only on the @Delegate product builds, tests
# and runs on a machine without libffi-dev, and its binary does not link libffi.
#
#   Scripts/no-libffi-check.sh             # builds in a temporary directory, then removes it
#   DP_USER_PACKAGE_KEEP=1 Scripts/...     # keeps the directory (printed) for a look
#   DP_SWIFT_ONLY_PRODUCT=…                # the @Delegate product (default DelegateProxy)
#   DP_SWIFT_ONLY_TESTING_PRODUCT=…        # the typed doubles' product (default DelegateProxyTesting)
#   DP_KEEP_LIBFFI=1 Scripts/...           # same package, libffi-dev left visible (to tell a
#                                          # failure of the user code from a libffi dependency)
#
# How libffi-dev is taken away: the build runs in a private mount namespace (`unshare -m`,
# as root) in which overlay file systems over /usr/include/x86_64-linux-gnu and
# /usr/lib/x86_64-linux-gnu hide exactly what libffi-dev installs — ffi.h, ffitarget.h,
# libffi.so, libffi.a, libffi_pic.a and pkgconfig/libffi.pc — with whiteouts. Nothing
# changes outside the namespace, so builds running beside this one keep their libffi, and
# nothing needs restoring. libffi.so.8 (the runtime package, libffi8) stays: swift-build
# itself links it, and `ldd` of the user's binary must not name it.
#
# The user package has its own build directory, so swift-syntax (for the macro) is built
# once more: several minutes on 2 busy cores.
set -euo pipefail
product=${DP_SWIFT_ONLY_PRODUCT:-DelegateProxy}
testing=${DP_SWIFT_ONLY_TESTING_PRODUCT:-DelegateProxyTesting}
arch_dir=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)

if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
  echo "no-libffi-check: needs root and mount namespaces (unshare -m) to hide libffi-dev" >&2
  exit 2
fi

. "$(dirname "$0")/user-package-common.sh"
user_package_start dp-no-libffi
mkdir -p Sources/SwiftOnlyApp Tests/SwiftOnlyAppTests

cat >Package.swift <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "SwiftOnlyUser",
  dependencies: [.package(name: "DelegateProxy", path: "DelegateProxy")],
  targets: [
    .target(
      name: "SwiftOnlyApp",
      dependencies: [.product(name: "$product", package: "DelegateProxy")]),
    .executableTarget(name: "swift-only-app", dependencies: ["SwiftOnlyApp"], path: "Sources/Main"),
    .testTarget(
      name: "SwiftOnlyAppTests",
      dependencies: [
        "SwiftOnlyApp", .product(name: "$testing", package: "DelegateProxy"),
      ]),
  ]
)
EOF
mkdir -p Sources/Main
# What a server user writes: one delegate slot, several listeners, a reduced answer, an
# observer, a listener on its own queue.
cat >Sources/SwiftOnlyApp/Downloads.swift <<'EOF'
import DelegateProxy
import Dispatch

@Delegate
public protocol DownloadDelegate: AnyObject {
  func downloadDidFinish(_ name: String, bytes: Int)
  @Optional func shouldStart(_ name: String) -> Bool
}

public final class Downloader {
  public weak var delegate: (any DownloadDelegate)?
  public init() {}
  public func run(_ name: String) -> Bool {
    guard delegate?.shouldStart(name) ?? true else { return false }
    delegate?.downloadDidFinish(name, bytes: name.utf8.count)
    return true
  }
}

public final class Tally: DownloadDelegate {
  public private(set) var bytes = 0
  public init() {}
  public func downloadDidFinish(_ name: String, bytes: Int) { self.bytes += bytes }
}

public final class Gate: DownloadDelegate {
  public init() {}
  public func downloadDidFinish(_ name: String, bytes: Int) {}
  public func shouldStart(_ name: String) -> Bool { !name.hasPrefix("x") }
}
EOF
cat >Sources/Main/main.swift <<'EOF'
import DelegateProxy
import SwiftOnlyApp

let downloader = Downloader()
let multicast = DownloadDelegateMulticast()
let tally = Tally()
let gate = Gate()
multicast.add(tally)
multicast.add(gate)
multicast.setPolicy(.reduce(.allTrue), for: \.shouldStart)
downloader.delegate = multicast
let started = [downloader.run("report.pdf"), downloader.run("x-blocked")]
precondition(started == [true, false], "the gate's answer decides: \(started)")
precondition(tally.bytes == 10, "the tally heard one finished download: \(tally.bytes)")
print("swift-only-app: ok (\(multicast.count) members, \(tally.bytes) bytes)")
EOF
cat >Tests/SwiftOnlyAppTests/DownloaderTests.swift <<'EOF'
import DelegateProxy
import SwiftOnlyApp
import Testing
EOF
echo "import $testing" >>Tests/SwiftOnlyAppTests/DownloaderTests.swift
cat >>Tests/SwiftOnlyAppTests/DownloaderTests.swift <<'EOF'

@Test func theDelegatorAsksBeforeItStarts() throws {
  let double = try SwiftDelegateDouble(DownloadDelegateMulticast.self)
  double.stub(\.shouldStart, .returning(false))
  let downloader = Downloader()
  downloader.delegate = double.delegate
  #expect(downloader.run("report.pdf") == false)
  double.verify(\.shouldStart, called: .once)
  double.verify(\.downloadDidFinish, called: .never)
}
EOF

# Everything below runs in the private mount namespace.
unshare -m --propagation private bash -s "$arch_dir" "${DP_KEEP_LIBFFI:-}" <<'EOF'
set -euo pipefail
arch_dir=$1
if [ -z "$2" ]; then
hide=$(mktemp -d /tmp/dp-no-libffi-hide.XXXXXX)
mount -t tmpfs tmpfs "$hide"
mkdir -p "$hide/inc/up" "$hide/inc/wk" "$hide/lib/up/pkgconfig" "$hide/lib/wk"
for f in ffi.h ffitarget.h; do mknod "$hide/inc/up/$f" c 0 0; done
for f in libffi.so libffi.a libffi_pic.a pkgconfig/libffi.pc; do mknod "$hide/lib/up/$f" c 0 0; done
mount -t overlay overlay \
  -o "lowerdir=/usr/include/$arch_dir,upperdir=$hide/inc/up,workdir=$hide/inc/wk" "/usr/include/$arch_dir"
mount -t overlay overlay \
  -o "lowerdir=/usr/lib/$arch_dir,upperdir=$hide/lib/up,workdir=$hide/lib/wk" "/usr/lib/$arch_dir"
# Prove libffi-dev is gone here before building anything.
for f in /usr/include/ffi.h "/usr/include/$arch_dir/ffi.h" "/usr/lib/$arch_dir/libffi.so" \
  "/usr/lib/$arch_dir/pkgconfig/libffi.pc"; do
  if [ -e "$f" ]; then echo "no-libffi-check: $f is still visible" >&2; exit 2; fi
done
if pkg-config --exists libffi 2>/dev/null; then
  echo "no-libffi-check: pkg-config still finds libffi" >&2; exit 2
fi
echo "no-libffi-check: libffi-dev hidden (ffi.h, libffi.so, libffi.pc absent)"
else
  echo "no-libffi-check: DP_KEEP_LIBFFI is set: libffi-dev stays visible"
fi
if ! swift build >/tmp/no-libffi-build.log 2>&1; then
  echo "no-libffi-check: the build failed without libffi-dev; its first errors:" >&2
  grep -E "error:" /tmp/no-libffi-build.log | sort -u | head -n 20 >&2
  exit 1
fi
tail -n 3 /tmp/no-libffi-build.log
binary=$(swift build --show-bin-path)/swift-only-app
"$binary"
echo "no-libffi-check: ldd $binary"
ldd "$binary" | sed 's/^/  /'
if ldd "$binary" | grep -q libffi; then
  echo "no-libffi-check: the binary links libffi" >&2; exit 1
fi
swift test 2>&1 | tail -n 5
EOF
echo "no-libffi-check: ok"
