#!/usr/bin/env bash
# The C layer (register replay, routes, callback entries, grace periods) on both ABIs it
# claims.
#
#   Scripts/aarch64.sh
#
# Builds CFFIShim's C sources with the test driver Tests/CABI/abi_test.c, no Swift:
#   - natively (x86-64 System V), and runs it;
#   - with Debian's aarch64-linux-gnu-gcc, linked statically against libffi for arm64,
#     and runs it under qemu-aarch64 (AArch64 AAPCS64).
# Needs gcc-aarch64-linux-gnu, qemu-user and libffi-dev:arm64 (Debian multiarch; .ci/run
# installs them). Each build runs at -O0 and -O2. Exits non-zero if any check fails.
# About 20 s on this project's 2-core machine, builds included.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${DP_SCRATCH:-.build}/abi"
mkdir -p "$out"
sources=(CFFIShim/*.c CFFIShim/Core/*.c Tests/CABI/abi_test.c)
flags=(-std=gnu11 -Wall -Wextra -Wno-unused-parameter -pthread -ICFFIShim/include -ICFFIShim -ICFFIShim/Core/include -ICFFIShim/Core)
native_cc="${CC:-cc}"
cross_cc=aarch64-linux-gnu-gcc
status=0
start=$(date +%s)

run() {  # label, command...
  local label="$1"
  shift
  echo "== $label"
  if ! "$@"; then
    echo "== $label: FAILED"
    status=1
  fi
}

for opt in -O0 -O2; do
  run "build x86-64 $opt" "$native_cc" "${flags[@]}" "$opt" "${sources[@]}" -lffi -o "$out/abi_test-x86_64$opt"
  run "x86-64 $opt" "$out/abi_test-x86_64$opt"
  run "build aarch64 $opt" "$cross_cc" "${flags[@]}" "$opt" "${sources[@]}" -static -lffi \
    -o "$out/abi_test-aarch64$opt"
  run "aarch64 (qemu) $opt" qemu-aarch64 "$out/abi_test-aarch64$opt"
done
echo "aarch64.sh: $(($(date +%s) - start))s, exit status $status"
exit "$status"
