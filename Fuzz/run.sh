#!/usr/bin/env bash
# Fuzzes the type-encoding parser and signature builder with libFuzzer (+ AddressSanitizer).
# Usage: Fuzz/run.sh [seconds] [--keep]   (default 600). Starts from the committed corpus
# (Fuzz/corpus); prints libFuzzer's summary; exits non-zero on a crash, a leak or a
# timeout, leaving the reproducer in Fuzz/artifacts/. --keep merges the inputs that reached
# new coverage into Fuzz/corpus (libFuzzer's -merge=1), to be committed: what a run finds
# is kept for the next. .ci/run runs it for a minute without --keep.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seconds="${1:-600}"
keep=0
[ "${2:-}" = "--keep" ] && keep=1
cd "$here"
swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
  --scratch-path "$here/.build" 2>&1 | tail -1
work="$(mktemp -d)"
cp corpus/* "$work/"
mkdir -p artifacts
LSAN_OPTIONS="suppressions=$here/../Tests/lsan-suppressions.txt" "$here/.build/release/EncodingFuzzer" "$work" -max_total_time="$seconds" -timeout=5 \
  -rss_limit_mb=4096 -artifact_prefix="$here/artifacts/" -print_final_stats=1 2>&1 |
  tee "$work.log" | grep -E "stat::|Done|ERROR|SUMMARY|crash|timeout|leak" || true
status=0
grep -qE "ERROR: libFuzzer|ERROR: AddressSanitizer|ERROR: LeakSanitizer|SUMMARY: libFuzzer" "$work.log" && status=1
rm -f "$work.log"
if [ "$status" -eq 0 ] && [ "$keep" -eq 1 ]; then
  before=$(ls corpus | wc -l)
  "$here/.build/release/EncodingFuzzer" -merge=1 corpus "$work" >/dev/null 2>&1
  echo "corpus: $before → $(ls corpus | wc -l) inputs"
fi
rm -rf "$work"
exit "$status"
