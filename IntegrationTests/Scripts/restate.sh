#!/usr/bin/env bash
# `swift package restate-delegate`, end to end, on this package (run.sh calls it after the
# package is built):
#  1. each committed restatement in Tests/RestatedProtocolTests is deleted and written again
#     by the command: the new file must be the committed one byte for byte (so what the tests
#     build and run is the command's output, unedited), and `--check` must pass; the ones
#     that needed an edit (a `@Default` the macro cannot derive) are rewritten in place
#     instead, which must keep the edit and change nothing;
#  2. the drift fixture: Tests/RestateFeed gains a requirement with a default
#     (Scripts/restate/Feed-v2.swift); `--check` must fail naming it, the tests show the
#     default answering; the command runs again, `--check` passes, and the members hear it.
# Everything is put back on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
target=RestatedProtocolTests
dir=Tests/$target
# protocol:file, the restatements the command wrote.
restated=(
  "XMLParserDelegate:XMLParserDelegates.swift"
  "FeedDelegate:FeedDelegates.swift"
  "FileManagerDelegate:FileManagerDelegates.swift"
  "StreamDelegate:StreamDelegates.swift"
  "LogHandler:LogHandlers.swift"
  "CounterHandler:CounterHandlers.swift"
  "TransactionObserver:TransactionObservers.swift"
  "Instrument:Instruments.swift"
  "FloatingPointCounterHandler:FloatingPointCounterHandlers.swift"
  "RecorderHandler:RecorderHandlers.swift"
  "MeterHandler:MeterHandlers.swift"
  "TimerHandler:TimerHandlers.swift"
)
# protocol:file:options, the restatements the command wrote and the user then edited.
edited=(
  "MetricsFactory:MetricsFactories.swift:"
  "Tracing.Span:Spans.swift:"
  "Tracer:Tracers.swift:--bind Span=Spans"
)
backup=$(mktemp -d)
cp -R "$dir" "$backup/tests"
cp Tests/RestateFeed/Feed.swift "$backup/Feed.swift"
trap 'rm -rf "$dir"; cp -R "$backup/tests" "$dir"; cp "$backup/Feed.swift" Tests/RestateFeed/Feed.swift; rm -rf "$backup"' EXIT

restate() {
  swift package --allow-writing-to-package-directory restate-delegate "$@" --target "$target"
}

build() {
  if ! swift build --build-tests > /tmp/dp-restate-build.log 2>&1; then
    grep -E "error:" /tmp/dp-restate-build.log | sort -u
    echo "restate: the package does not build (/tmp/dp-restate-build.log)"
    exit 1
  fi
}

for entry in "${restated[@]}"; do
  IFS=: read -r protocol file options <<< "$entry"
  rm "$dir/$file"
  # shellcheck disable=SC2086
  restate "$protocol" $options
  if ! cmp -s "$dir/$file" "$backup/tests/$file"; then
    echo "restate: the command's $file differs from the committed one:"
    diff "$backup/tests/$file" "$dir/$file" || true
    exit 1
  fi
  restate "$protocol" --check
done

for entry in "${edited[@]}"; do
  IFS=: read -r protocol file options <<< "$entry"
  # shellcheck disable=SC2086
  restate "$protocol" $options
  if ! cmp -s "$dir/$file" "$backup/tests/$file"; then
    echo "restate: rewriting $file in place changed it:"
    diff "$backup/tests/$file" "$dir/$file" || true
    exit 1
  fi
  restate "$protocol" --check
done

echo "restate: the drift fixture (FeedDelegate gains feed(_:didRetract:), with a default)"
cp Scripts/restate/Feed-v2.swift Tests/RestateFeed/Feed.swift
if restate FeedDelegate --check > /tmp/dp-restate-check.log 2>&1; then
  cat /tmp/dp-restate-check.log
  echo "restate: --check passed on a restatement out of step"
  exit 1
fi
cat /tmp/dp-restate-check.log
grep -q "not forwarded: FeedDelegate.feed(_:didRetract:)" /tmp/dp-restate-check.log
build
DP_DRIFT=default swift test --skip-build --filter DriftTests
restate FeedDelegate
restate FeedDelegate --check
grep -q "func feed(_ feed: Feed, didRetract item: String)" "$dir/FeedDelegates.swift"
build
DP_DRIFT=members swift test --skip-build --filter DriftTests
echo "restate: every restatement written by the command, checked, and the drift caught"
