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
#     default answering; the command runs again, `--check` passes, and the members hear it;
#  3. the seeded generator's protocols (seed $SEED, else 1) as a module (GeneratedParents),
#     restated by one run of the command into RestatedGenerated and compared with the
#     generator's hand restatements requirement by requirement
#     (Scripts/compare-restatements.py); then a copy with one requirement dropped and one
#     type changed, which the comparison must fail; the generator's refused shapes, which
#     the command must refuse (its reason printed) or write into a file that does not
#     build, and whose hand restatements the macro must refuse (its reason printed);
#  4. the command's --help and errors through the plugin: not found, a name two modules
#     declare, not a protocol, a requirement the macro refuses (in the macro's words), an
#     unbound associated type and a missing @Default (written; exits 5 and 4), and what
#     --check says of those two.
# Everything is put back on exit. Arguments name the sections to run (default: all):
#   Scripts/restate.sh generated errors
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
generated=Tests/RestatedGenerated
seed=${SEED:-1}
trap 'rm -rf "$dir"; cp -R "$backup/tests" "$dir"; cp "$backup/Feed.swift" Tests/RestateFeed/Feed.swift; rm -rf "$backup"
  rm -f Tests/GeneratedParents/Parents.swift; find "$generated" -name "*.swift" ! -name Placeholder.swift -delete' EXIT

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

# 1. Each restatement written again by the command, unedited, and checked.
section_restated() {
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
}

# 2. The drift fixture.
section_drift() {
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
}

# The generator's protocols as GeneratedParents (for sections 3 and 4), and its hand
# restatements in $backup/Hand.swift.
write_parents() {
  [ -f Tests/GeneratedParents/Parents.swift ] && return
  python3 Scripts/generate-protocols.py --seed "$seed" --count 200 --parents "$backup"
  cp "$backup/Parents.swift" Tests/GeneratedParents/Parents.swift
  # A second `FeedDelegate` (RestateFeed declares one): the ambiguous name of section 4.
  printf '\n/// The name RestateFeed declares too.\npublic protocol FeedDelegate: AnyObject {}\n' \
    >> Tests/GeneratedParents/Parents.swift
}

# 3. The generator's protocols, restated and compared with its hand restatements.
section_generated() {
  echo "restate: the generator's 200 protocols (seed $seed; rerun: SEED=$seed IntegrationTests/Scripts/restate.sh generated)"
  write_parents
  mapfile -t names < <(grep -oE '^public protocol Gen[0-9]+' "$backup/Parents.swift" | cut -d' ' -f3)
  started=$(date +%s)
  # GenPoint, a struct, has no empty value: its results need the generator's @Default
  # answer (GenMode's first case the command finds; the others have empty values).
  if ! swift package --allow-writing-to-package-directory restate-delegate "${names[@]}" \
    --default 'GenPoint=GenPoint(x: 0, y: 0)' \
    --target RestatedGenerated > /tmp/dp-restate-generated.log 2>&1; then
    cat /tmp/dp-restate-generated.log
    echo "restate: the command failed on the generated protocols"
    exit 1
  fi
  echo "restate: ${#names[@]} protocols restated in one run, $(($(date +%s) - started)) s" \
    "($(grep -c "requirements\? of GeneratedParents" /tmp/dp-restate-generated.log) files written)"
  python3 Scripts/compare-restatements.py "$backup/Hand.swift" "$generated"

  # The comparison must be able to fail: a copy with Gen1's last requirement dropped and
  # Gen2's first `Int` made `Int32`.
  broken="$backup/broken"
  mkdir "$broken"
  cp "$generated"/Gen*.swift "$broken/"
  python3 - "$broken" <<'PY'
import re, sys
d = sys.argv[1]
text = open(f"{d}/Gen1s.swift").read()
body_end = text.rindex("\n}")
last = [m.start() for m in re.finditer(r"\n  (?=\S)", text[:body_end])][-1]
open(f"{d}/Gen1s.swift", "w").write(text[:last] + text[body_end:])
text = open(f"{d}/Gen2s.swift").read()
open(f"{d}/Gen2s.swift", "w").write(re.sub(r"\bInt\b", "Int32", text, count=1))
PY
  if python3 Scripts/compare-restatements.py "$backup/Hand.swift" "$broken" > /tmp/dp-restate-broken.log; then
    echo "restate: the comparison passed a restatement with a requirement dropped and one changed"
    exit 1
  fi
  grep -A3 MISMATCH /tmp/dp-restate-broken.log
  grep -q "Gen1 (Gen1s.swift): MISMATCH" /tmp/dp-restate-broken.log
  grep -q "Gen2 (Gen2s.swift): MISMATCH" /tmp/dp-restate-broken.log
  tail -1 /tmp/dp-restate-broken.log
  find "$generated" -name "Gen*.swift" -delete

  echo "restate: the generator's refused shapes as protocols of the module"
  mapfile -t refused < <(grep -oE '^public protocol Refused[0-9]+' "$backup/Parents.swift" | cut -d' ' -f3)
  if swift package --allow-writing-to-package-directory restate-delegate "${refused[@]}" \
    --target RestatedGenerated > /tmp/dp-restate-refused.log 2>&1; then
    cat /tmp/dp-restate-refused.log
    echo "restate: the command wrote every refused shape"
    exit 1
  fi
  # What the command wrote, and the generator's hand restatements of the same shapes: one
  # build, which must fail in each (compare-restatements.py --refused reads both logs).
  cp "$backup/HandRefused.swift" "$generated/"
  if swift build --target RestatedGenerated > /tmp/dp-restate-refused-build.log 2>&1; then
    echo "restate: the refused shapes the command wrote and their hand restatements compiled"
    exit 1
  fi
  python3 Scripts/compare-restatements.py --refused "$backup/Parents.swift" \
    "$generated/HandRefused.swift" /tmp/dp-restate-refused.log /tmp/dp-restate-refused-build.log
  find "$generated" -name "*Refused*.swift" -delete
}

# 4. --help and the errors, through the plugin.
section_errors() {
  echo "restate: --help and the errors, through the plugin"
  write_parents
  expect_failure() {  # expect_failure <message> <command arguments>...
    local message=$1
    shift
    if restate_in RestatedGenerated "$@" > /tmp/dp-restate-error.log 2>&1; then
      cat /tmp/dp-restate-error.log
      echo "restate: '$*' succeeded"
      exit 1
    fi
    if ! grep -qF -- "$message" /tmp/dp-restate-error.log; then
      cat /tmp/dp-restate-error.log
      echo "restate: '$*' did not say: $message"
      exit 1
    fi
    echo "  - $*: $(grep -m1 -F -- "$message" /tmp/dp-restate-error.log)"
  }
  restate_in() {
    local target=$1
    shift
    swift package --allow-writing-to-package-directory restate-delegate "$@" --target "$target"
  }
  swift package --allow-writing-to-package-directory restate-delegate --help > /tmp/dp-restate-help.log 2>&1
  for expected in "USAGE: swift package --allow-writing-to-package-directory restate-delegate" "--check" \
    "--bind <A=B>"; do
    grep -qF -- "$expected" /tmp/dp-restate-help.log || { cat /tmp/dp-restate-help.log; echo "restate: --help lacks $expected"; exit 1; }
  done
  echo "  - --help: $(grep -c . /tmp/dp-restate-help.log) lines, USAGE and every option"
  expect_failure "error: protocol 'NoSuchDelegate' not found in the symbol graphs of" NoSuchDelegate
  expect_failure "error: 'FeedDelegate' names a protocol in several modules (GeneratedParents.FeedDelegate, RestateFeed.FeedDelegate)" FeedDelegate
  expect_failure "error: 'GenPoint' is a struct, not a protocol" GenPoint
  # The macro's reason, word for word (RefusalWordingTests compares every shape).
  expect_failure "which @Delegate cannot forward: parameter 'a' of 'probe(_:)' is variadic, which has no C form; pass a pointer and a count instead" Refused2
  expect_failure "error: Refused5 requires 'func probe(_ a: Probe)', which @Delegate cannot forward: @Delegate cannot bind the associated type 'Probe': 'probe' takes it as a parameter" Refused5
  # Written, but not compilable until bound (exit 5) or given a @Default (exit 4); --check
  # names what is missing.
  expect_failure "error: Refused4's associated type 'Probe' is not bound: @Delegate cannot bind the associated type 'Probe': it has no constraint;" Refused4
  expect_failure "(@Delegate cannot bind the associated type 'Probe': it has no constraint;" Refused4 --check
  expect_failure "re-run the command with --bind Probe=P, P a @Delegate protocol restating its constraint" Refused4 --check
  expect_failure "pass --default 'Any=<expression>'" Refused13
  expect_failure "error: needs @Default: Refused13.probe(_:): 'func probe(_ a:" Refused13 --check
  expect_failure "with the --default options named above to update the file" Refused13 --check
  find "$generated" -name "Refused*.swift" -delete
}

# The sections named (restated drift generated errors), or all of them.
for section in "${@:-restated drift generated errors}"; do
  for name in $section; do "section_$name"; done
done
echo "restate: passed: ${*:-restated drift generated errors}"
