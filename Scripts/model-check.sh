#!/usr/bin/env bash
# Model-checks the read-section protocol — domains, named members, deferred reclamation,
# scoped waits (Model/grace_period.pml, see Model/README.md) — with spin: every property,
# exhaustively, in both barrier modes (fence, membarrier); then each bug variant and the
# open finding, which must be caught. Exits non-zero on any violation of the model as it
# stands, on an incomplete search, on a bug variant that passes, or when dp_quiesce's C
# code lacks a step the model names.
#
#   Scripts/model-check.sh            # everything (about two minutes on 2 cores)
#   MODEL_CHECK_LONG=1 Scripts/…      # also: the dispatch liveness runs under weak fairness
#                                     # (pan -f; same verdict: see README) and the proposed
#                                     # fix of the open membarrier finding (about 3 min more)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
model=$root/Model/grace_period.pml

if ! command -v spin >/dev/null 2>&1 || ! command -v gcc >/dev/null 2>&1; then
  echo "model-check: installing spin (and gcc)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq spin gcc
fi

work=$(mktemp -d /tmp/model-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp "$model" "$work/grace_period.pml"
cd "$work"

# pan's limits: a depth bound far above the deepest path (a few hundred steps), a memory
# bound that fails the run rather than the machine, and a hash table big enough for the
# largest run (≈16M states).
DEPTH=200000
MEMLIM=6144
HASH=25
failures=0
summary=()

# What marks a search as cut short: pan says so in one of these ways.
incomplete_pattern='Search not completed|max search depth too small|reached -DMEMLIM bound|out of memory|pan: resizing hashtable'

field() {  # field NAME FILE: one number from pan's report
  case $1 in
    states) sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$2" | head -1 ;;
    memory) sed -n 's/^ *\([0-9.]*\).*total actual memory usage.*/\1/p' "$2" | head -1 ;;
    time) sed -n 's/^pan: elapsed time \([0-9.e+]*\) seconds.*/\1/p' "$2" | head -1 ;;
    errors) sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$2" | head -1 ;;
    depth) sed -n 's/.*depth reached \([0-9]*\).*/\1/p' "$2" | head -1 ;;
  esac
}

# run NAME KIND EXPECT DEFINES...
#   KIND: safety (assertions, invalid end states) | liveness (LTL `done`, acceptance cycles)
#         | liveness-fair (the same under weak fairness)
#   EXPECT: pass | violation
run() {
  local name=$1 kind=$2 expect=$3
  shift 3
  local defs=("$@") log="$work/$name.log"
  rm -f pan pan.* grace_period.pml.trail
  if ! spin "${defs[@]}" -a grace_period.pml >"$log.spin" 2>&1; then
    cat "$log.spin"
    echo "FAIL  $name: spin could not generate the verifier"
    failures=$((failures + 1))
    return
  fi
  # Bug variants stop early and the adapter's runs are tiny: a quick compile beats a fast
  # verifier there.
  local opt=-O2
  if [ "$expect" = violation ]; then opt=-O0; fi
  case $name in adapter-*) opt=-O0 ;; esac
  local cflags=($opt -w -DMEMLIM=$MEMLIM) args=(-m$DEPTH -w$HASH)
  case $kind in
    safety)
      cflags+=(-DSAFETY -DNOCLAIM)
      # A violation's shortest trail comes from a breadth-first search.
      if [ "$expect" = violation ]; then cflags+=(-DBFS); else cflags+=(-DCOLLAPSE); fi
      ;;
    liveness) cflags+=(-DCOLLAPSE -DNFAIR=3); args+=(-a -N done) ;;
    liveness-fair) cflags+=(-DCOLLAPSE -DNFAIR=3); args+=(-a -f -N done) ;;
  esac
  gcc "${cflags[@]}" -o pan pan.c
  local start end
  start=$(date +%s.%N)
  ./pan "${args[@]}" >"$log" 2>&1 || true
  end=$(date +%s.%N)
  local errors states memory seconds depth wall
  errors=$(field errors "$log")
  states=$(field states "$log")
  memory=$(field memory "$log")
  seconds=$(field time "$log")
  depth=$(field depth "$log")
  wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  local what="${kind} ${defs[*]:-(fence)}"
  local stats="states ${states:-?}, memory ${memory:-?} MB, depth ${depth:-?}, pan ${seconds:-?} s (wall ${wall} s)"
  if [ -z "$errors" ]; then
    cat "$log"
    echo "FAIL  $name [$what]: no report from pan"
    failures=$((failures + 1))
  elif [ "$expect" = pass ]; then
    if [ "$errors" != 0 ]; then
      grep -m3 -E 'assertion violated|invalid end state|acceptance cycle' "$log" || true
      spin "${defs[@]}" -t -p grace_period.pml 2>&1 | tail -40 || true
      echo "FAIL  $name [$what]: $errors error(s); $stats"
      failures=$((failures + 1))
    elif grep -qE "$incomplete_pattern" "$log"; then
      grep -E "$incomplete_pattern" "$log"
      echo "FAIL  $name [$what]: search incomplete; $stats"
      failures=$((failures + 1))
    else
      echo "ok    $name [$what]: $stats"
    fi
  else
    if [ "$errors" = 0 ]; then
      echo "FAIL  $name [$what]: the bug variant passed — the model no longer catches it; $stats"
      failures=$((failures + 1))
    else
      local trail=?
      if [ -f grace_period.pml.trail ]; then
        trail=$(grep -cv '^-' grace_period.pml.trail || true)
      fi
      local kind_of
      kind_of=$(grep -m1 -oE 'assertion violated .*\(at depth|invalid end state|acceptance cycle' "$log" |
        sed 's/ (at depth$//' || true)
      echo "ok    $name [$what]: caught — ${kind_of:-violation}; trail $trail steps; $stats"
    fi
  fi
  summary+=("$name")
}

long=${MODEL_CHECK_LONG:-${MODEL_CHECK_FAIR:-0}}

echo "== the model as the code stands (every run must pass)"
for mode in fence membarrier; do
  flag=()
  if [ $mode = membarrier ]; then flag=(-DMEMBARRIER); fi
  run "dispatch-safety-$mode" safety pass "${flag[@]}"
  if [ "$long" = 1 ]; then
    run "dispatch-liveness-$mode" liveness-fair pass "${flag[@]}"
  else
    run "dispatch-liveness-$mode" liveness pass "${flag[@]}"
  fi
  run "adapter-safety-$mode" safety pass -DADAPTER "${flag[@]}"
  run "adapter-liveness-$mode" liveness-fair pass -DADAPTER "${flag[@]}"
done

echo "== bug variants (every run must find a violation)"
# A writer that waits for readers inside user code: the old dp_synchronize in remove
# (B, of X or of an unrelated Y, waits for the lock the remover holds, or never returns).
run bug-writer-waits-fence safety violation -DBUG_WRITER_WAITS
# The same with B never blocking forever: the shortest trail is the lock cycle itself.
run bug-writer-waits-lock-cycle safety violation -DBUG_WRITER_WAITS -DNO_FOREVER
# The scoped wait widened to the member's multicast (B waits for the remover's lock), or
# waiting for the caller's own call (a member removing itself with the waiting form).
run bug-wait-domain safety violation -DBUG_WAIT_DOMAIN -DNO_FOREVER
run bug-wait-self safety violation -DBUG_WAIT_SELF
# Reclamation that frees a table a dispatch still reads.
run bug-reclaim-skip-self safety violation -DBUG_RECLAIM_SKIP_SELF
run bug-reclaim-epoch-strict safety violation -DBUG_RECLAIM_EPOCH_STRICT
run bug-reclaim-no-snapshot-fence safety violation -DBUG_RECLAIM_NO_SNAPSHOT
run bug-reclaim-no-snapshot-membarrier safety violation -DBUG_RECLAIM_NO_SNAPSHOT -DMEMBARRIER
run bug-wrong-domain safety violation -DBUG_WRONG_DOMAIN
# Domains ignored (every open section holds everything): safe, but a delegate of Y that
# never returns keeps X's table forever.
run bug-reclaim-any-domain liveness violation -DBUG_RECLAIM_ANY_DOMAIN
# Orderings.
run bug-no-reader-fence safety violation -DBUG_NO_READER_FENCE
# The member named without a fence (dp_read_calling), and a member wait that trusts a
# local fence: in fence mode, and for a section entered before a failed membarrier (its
# later members named after the switch, a scan after the settling pause).
run bug-member-wait-no-pause-fence safety violation -DBUG_MEMBER_WAIT_NO_PAUSE
run bug-member-wait-no-pause-mb-fail safety violation -DBUG_MEMBER_WAIT_NO_PAUSE -DMEMBARRIER \
  -DMB_FAIL -DFIX_MB_SETTLE
run bug-calling-after-check safety violation -DBUG_CALLING_AFTER_CHECK -DMEMBARRIER
run bug-local-barrier safety violation -DBUG_LOCAL_BARRIER -DMEMBARRIER
run bug-adapter-no-domain-wait safety violation -DADAPTER -DBUG_ADAPTER_NO_DOMAIN_WAIT

echo "== a membarrier that fails after registration (Model/README.md, finding 3, fixed)"
# A section entered before the switch to fences relied on membarrier: scans are trusted
# again only once the failing thread's pause is over (dp_quiesce.c: mb_failed_at). The
# code as it was (no pause) must be caught.
run membarrier-switch-settled safety pass -DMEMBARRIER -DMB_FAIL -DFIX_MB_SETTLE
run bug-membarrier-switch-unsettled safety violation -DMEMBARRIER -DMB_FAIL
if [ "$long" = 1 ]; then
  run membarrier-switch-settled-liveness liveness pass -DMEMBARRIER -DMB_FAIL -DFIX_MB_SETTLE
fi

echo "== a multicast deallocated after the removal (Model/README.md, finding 4: dp_domain_closing)"
# Without a C face every reader of X's domain holds X, so its deinit frees its members'
# nodes at once; with one, its routes read them without holding X and they are retired.
run closing-safety-fence safety pass -DCLOSING
run closing-safety-membarrier safety pass -DCLOSING -DMEMBARRIER
run bug-closing-with-cface safety violation -DCLOSING -DBUG_CLOSING_WITH_CFACE

echo "== the model's steps in dp_quiesce's code"
# Every Q_ step the model takes must be named in dp_quiesce's comments, where the code
# takes it: a step missing there is a step the code does not take.
steps=$(grep -oE '/\* Q_[A-Z_]+' "$model" | sed 's|/\* ||' | sort -u)
for step in $steps; do
  if ! grep -qw "$step" "$root"/CFFIShim/Core/dp_quiesce.c "$root"/CFFIShim/Core/include/dp_quiesce*.h; then
    echo "FAIL  step $step: not in CFFIShim/Core/dp_quiesce.c or its headers"
    failures=$((failures + 1))
  fi
done
echo "checked $(echo "$steps" | wc -w) steps"

if [ $failures -ne 0 ]; then
  echo "model-check: $failures failure(s)"
  exit 1
fi
echo "model-check: all ${#summary[@]} runs as expected"
