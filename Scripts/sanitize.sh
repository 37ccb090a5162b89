#!/usr/bin/env bash
# The test suites under the sanitizers.
#
#   Scripts/sanitize.sh address   # every suite under AddressSanitizer, leaks included
#   Scripts/sanitize.sh thread    # every suite under ThreadSanitizer
#   Scripts/sanitize.sh [all]     # both
#
# address: `swift test --sanitize=address` with LeakSanitizer on and its documented
#   suppressions (Tests/lsan-suppressions.txt: tagged indirect-enum payloads, XCTest).
# thread: `swift test --sanitize=thread`, every suite (the stress test with
#   DP_STRESS_MESSAGES, default 100,000 here), with Tests/tsan-suppressions.txt if one
#   exists (none is needed today). Any report fails the run.
#
# On this 2-core machine each takes well under a minute once built (about 20 s of tests
# under ThreadSanitizer, 10 s under AddressSanitizer); each first build takes a few
# minutes.
#
# Each sanitizer builds in its own directory ($DP_SCRATCH-asan, $DP_SCRATCH-tsan; DP_SCRATCH
# defaults to .build), so they do not rebuild the normal build. Extra arguments go to
# every `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-all}"
[ $# -gt 0 ] && shift
scratch="${DP_SCRATCH:-.build}"
status=0

run() {  # name, swift test arguments...
  local name="$1"
  shift
  local log start elapsed rc=0
  log="$(mktemp -t dp-sanitize.XXXXXX)"
  start=$(date +%s)
  swift test "$@" >"$log" 2>&1 || rc=$?
  elapsed=$(($(date +%s) - start))
  # A sanitizer report anywhere fails the run, whatever the exit status says.
  if grep -qE "^(==[0-9]+==ERROR: |WARNING: ThreadSanitizer:|SUMMARY: (Address|Leak|Thread)Sanitizer)" "$log"; then
    grep -E -A30 "^(==[0-9]+==ERROR: |WARNING: ThreadSanitizer:)" "$log" | head -200
    grep -E "^SUMMARY: " "$log" | sort | uniq -c
    [ "$rc" -ne 0 ] || rc=1
  fi
  grep -E "^((✘|✔|━) Test run|✘ Test |Test Suite .All tests. (passed|failed)|stress: |random signatures: )" "$log" || tail -40 "$log"
  echo "sanitize ($name): ${elapsed}s including the build, exit status $rc"
  rm -f "$log"
  if [ "$rc" -ne 0 ]; then status=$rc; fi
}

address() {
  LSAN_OPTIONS="suppressions=$PWD/Tests/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
    ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
    run address --sanitize=address --scratch-path "$scratch-asan" "$@"
}

thread() {
  local options="halt_on_error=0:second_deadlock_stack=1"
  if [ -f Tests/tsan-suppressions.txt ]; then
    options="$options:suppressions=$PWD/Tests/tsan-suppressions.txt"
  fi
  DP_STRESS_MESSAGES="${DP_STRESS_MESSAGES:-100000}" \
    TSAN_OPTIONS="$options${TSAN_OPTIONS:+:$TSAN_OPTIONS}" \
    run thread --sanitize=thread --scratch-path "$scratch-tsan" "$@"
}

case "$mode" in
  address) address "$@" ;;
  thread) thread "$@" ;;
  all)
    address "$@"
    thread "$@"
    ;;
  *)
    echo "usage: $0 [address|thread|all] [swift test arguments]" >&2
    exit 2
    ;;
esac
exit "$status"
