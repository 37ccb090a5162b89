#!/usr/bin/env bash
# The full random-signature run: 10,000 seeded signatures (DP_SIGNATURE_COUNT to change),
# each compared across direct ffi_call, Invocation, forwarding, register replay and a
# MulticastProxy with three delegates (its C route and its forwarding path).
#
#   Scripts/signatures.sh                          # 10,000 signatures, the default seed
#   DP_SIGNATURE_SEED=0x1234 Scripts/signatures.sh # another seed
#   Scripts/signatures.sh --scratch-path .build-x  # extra arguments go to `swift test`
#
# Prints the number of signatures checked; exits nonzero if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."

export DP_SIGNATURE_COUNT="${DP_SIGNATURE_COUNT:-10000}"
log="$(mktemp -t dp-signatures.XXXXXX)"
trap 'rm -f "$log"' EXIT

start=$(date +%s)
status=0
swift test --filter RandomSignature "$@" >"$log" 2>&1 || status=$?
elapsed=$(($(date +%s) - start))

# Failures (with their replay line), then the suite's own totals.
grep -E "^(✘|↳ .*DP_SIGNATURE_SEED)" "$log" | head -40 || true
summary=$(grep -E "^random signatures: " "$log" || true)
if [ -z "$summary" ]; then
  tail -40 "$log"
  echo "signatures: no summary line (build or test failure), exit status $status" >&2
  exit $((status == 0 ? 1 : status))
fi
echo "$summary"
echo "signatures: DP_SIGNATURE_COUNT=$DP_SIGNATURE_COUNT, ${elapsed}s including the build, swift test exit status $status"
exit "$status"
