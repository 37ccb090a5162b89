#!/usr/bin/env bash
# Concurrency stress (Tests/DelegateProxyTests/Stress/StressTests.swift): 8 threads sending to one
# MulticastProxy — through its C route and from Swift — while 2 threads add, remove and
# deallocate delegates. Fails on any call to a delegate after its `remove` returned or
# after its deinit began, and on any message a stable delegate did not receive.
#
#   Scripts/stress.sh            # both runs below
#   Scripts/stress.sh release    # DP_STRESS_MESSAGES (default 1,000,000), release build
#   Scripts/stress.sh thread     # DP_STRESS_TSAN_MESSAGES (default 100,000), ThreadSanitizer
#
# Build directories: $DP_SCRATCH (default .build) for release, $DP_SCRATCH-tsan for
# ThreadSanitizer (the one Scripts/sanitize.sh uses).
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-all}"
scratch="${DP_SCRATCH:-.build}"
status=0

run() {  # name, messages, swift test arguments...
  local name="$1" messages="$2"
  shift 2
  local log start elapsed rc=0
  log="$(mktemp -t dp-stress.XXXXXX)"
  start=$(date +%s)
  DP_STRESS_MESSAGES="$messages" swift test --filter StressTests "$@" >"$log" 2>&1 || rc=$?
  elapsed=$(($(date +%s) - start))
  grep -E "^(stress: |✘|WARNING: ThreadSanitizer|SUMMARY: )" "$log" || tail -40 "$log"
  echo "stress ($name): ${elapsed}s including the build, exit status $rc"
  rm -f "$log"
  if [ "$rc" -ne 0 ]; then status=$rc; fi
}

case "$mode" in
  release | all) run release "${DP_STRESS_MESSAGES:-1000000}" -c release --scratch-path "$scratch" ;;&
  thread | all)
    TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0 second_deadlock_stack=1}" \
      run thread "${DP_STRESS_TSAN_MESSAGES:-100000}" --sanitize=thread --scratch-path "$scratch-tsan"
    ;;
  release) ;;
  *)
    echo "usage: $0 [release|thread|all]" >&2
    exit 2
    ;;
esac
exit "$status"
