#!/usr/bin/env bash
# The integration package, as .ci/run runs it:
#  1. the committed generated protocols are the generator's output for their seed;
#  2. build with no warnings from this package's code or what the macro generates in it;
#  3. every test (GRDB, swift-log, swift-metrics, swift-distributed-tracing, the generated
#     protocols of the committed seed);
#  4. the generated protocols again from a new seed (printed; rerun one with
#     `SEED=N IntegrationTests/run.sh`), then the committed file is put back;
#  5. the shapes the macro refuses: each must fail to compile with an error on its own
#     line, and the list is printed with the macro's reasons;
#  6. `swift package restate-delegate`: each restatement in Tests/RestatedProtocolTests
#     written again by the command, unedited, and `--check`; the drift fixture; the
#     generated protocols of step 4's seed restated by the command and compared with the
#     generator's hand restatements; the command's --help and errors (Scripts/restate.sh).
set -euo pipefail
cd "$(dirname "$0")"
generated=Tests/GeneratedProtocolTests/Generated.swift
count=200
fixed=1

python3 Scripts/generate-protocols.py --seed "$fixed" --count "$count" --out /tmp/dp-generated-fixed.swift
if ! cmp -s /tmp/dp-generated-fixed.swift "$generated"; then
  echo "integration: $generated is not the generator's output for seed $fixed; run:"
  echo "  python3 IntegrationTests/Scripts/generate-protocols.py --seed $fixed --count $count --out IntegrationTests/$generated"
  exit 1
fi

build_checked() {
  swift build --build-tests 2>&1 | tee /tmp/dp-integration-build.log
  local warnings
  warnings=$(grep -E "^$(pwd)/Tests/.*warning:|^macro expansion .*warning:" /tmp/dp-integration-build.log | sort -u || true)
  if [ -n "$warnings" ]; then
    echo "integration: warnings from the package's code or the macro's expansions:"
    echo "$warnings"
    exit 1
  fi
}

build_checked
swift test --skip-build

seed=${SEED:-$(( (RANDOM << 15) | RANDOM ))}
echo "integration: generated protocols from seed $seed (rerun: SEED=$seed IntegrationTests/run.sh)"
cp "$generated" /tmp/dp-generated-committed.swift
trap 'cp /tmp/dp-generated-committed.swift "$generated"; rm -f Tests/GeneratedProtocolTests/Refused.swift' EXIT
python3 Scripts/generate-protocols.py --seed "$seed" --count "$count" --out "$generated"
build_checked
swift test --skip-build --filter GeneratedProtocolTests

# The refused shapes: one compile, every error collected.
python3 Scripts/generate-protocols.py --seed "$seed" --refused Tests/GeneratedProtocolTests/Refused.swift \
  --count 0 --out "$generated"
if swift build --build-tests > /tmp/dp-refused.log 2>&1; then
  echo "integration: the refused shapes compiled; the generator's list of refusals is out of date"
  exit 1
fi
python3 Scripts/generate-protocols.py --check-refused /tmp/dp-refused.log \
  --refused Tests/GeneratedProtocolTests/Refused.swift

# The restatements the command writes, and its drift check, on the package as committed
# (the committed Generated.swift put back first).
cp /tmp/dp-generated-committed.swift "$generated"
rm -f Tests/GeneratedProtocolTests/Refused.swift
SEED=$seed Scripts/restate.sh
