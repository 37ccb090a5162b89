#!/usr/bin/env bash
# The benchmark comparison, in one command (see Benchmarks/README.md):
#
#   bash Benchmarks/run.sh [--quick] [--repetitions N] [--min-ms MS] [--no-gnustep] [--no-install]
#
# 1. GNUstep row: makes sure gobjc and libgnustep-base-dev are installed (installing
#    them with apt-get when missing and allowed) and compiles GNUstep/ with
#    gnustep-config's flags. If that cannot be done the rows are skipped, and the output
#    and results/latest.json say why.
# 2. `swift run -c release Compare`: one process measuring every other row. It runs the
#    GNUstep driver (one process for all its rows) alongside as a co-process, one sweep
#    of the NSProxy rows after each sweep of its own, merges them, prints the table and
#    writes results/latest.json.
set -euo pipefail
cd "$(dirname "$0")"

repetitions=9
min_ms=20
quick=0
gnustep=1
install=1
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; repetitions=7; min_ms=2 ;;
    --repetitions) repetitions="$2"; shift ;;
    --min-ms) min_ms="$2"; shift ;;
    --no-gnustep) gnustep=0 ;;
    --no-install) install=0 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

out_dir=.build/gnustep
mkdir -p "$out_dir" results
gnustep_status=""

# True when an Objective-C compiler and GNUstep Base's headers and tool are present.
have_gnustep() {
  command -v gnustep-config >/dev/null 2>&1 || return 1
  command -v gcc >/dev/null 2>&1 || return 1
  [ -x "$(gcc -print-prog-name=cc1obj 2>/dev/null)" ] || return 1
  [ -f "$(gnustep-config --variable=GNUSTEP_SYSTEM_HEADERS 2>/dev/null)/Foundation/Foundation.h" ] \
    || [ -f /usr/include/GNUstep/Foundation/Foundation.h ] || return 1
}

if [ "$gnustep" = 0 ]; then
  gnustep_status="skipped: --no-gnustep"
elif ! have_gnustep; then
  if [ "$install" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "run.sh: gobjc / libgnustep-base-dev missing; installing them with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    if ! { apt-get update -qq && apt-get install -y -qq gobjc gnustep-make libgnustep-base-dev; } >"$out_dir/apt.log" 2>&1; then
      echo "run.sh: apt-get install failed (log: Benchmarks/$out_dir/apt.log)" >&2
    fi
  fi
  if ! have_gnustep; then
    if [ "$install" = 0 ]; then
      gnustep_status="skipped: gobjc / libgnustep-base-dev not installed (--no-install)"
    elif [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
      gnustep_status="skipped: gobjc / libgnustep-base-dev not installed and apt-get not usable here (needs root and Debian/Ubuntu)"
    else
      gnustep_status="skipped: apt-get install -y gobjc gnustep-make libgnustep-base-dev failed (see Benchmarks/$out_dir/apt.log)"
    fi
  fi
fi

driver=""
if [ -z "$gnustep_status" ]; then
  # gnustep-config's flags, minus dependency-file output and debug info.
  objc_flags=$(gnustep-config --objc-flags | sed -e 's/-MMD//g' -e 's/-MP//g' -e 's/-g\b//g')
  echo "run.sh: compiling the GNUstep NSProxy driver" >&2
  # shellcheck disable=SC2086
  if gcc -std=gnu11 $objc_flags -O2 -o "$out_dir/nsproxy-bench" \
       GNUstep/driver.m GNUstep/MulticastProxy.m GNUstep/BenchDelegate.m \
       $(gnustep-config --base-libs) 2>"$out_dir/compile.log"; then
    driver="$PWD/$out_dir/nsproxy-bench"
    base_version=$(dpkg-query -W -f='${Version}' libgnustep-base-dev 2>/dev/null || echo "?")
    gnustep_status="gnustep-base $base_version, gcc $(gcc -dumpfullversion) (gobjc, GNU libobjc)"
  else
    cat "$out_dir/compile.log" >&2
    gnustep_status="failed: the GNUstep driver did not compile (see Benchmarks/$out_dir/compile.log)"
  fi
fi
if [ -n "$driver" ]; then
  echo "run.sh: GNUstep NSProxy rows: measured by Compare's co-process ($gnustep_status)" >&2
else
  echo "run.sh: GNUstep NSProxy rows: $gnustep_status" >&2
fi

args=(--repetitions "$repetitions" --min-ms "$min_ms" --gnustep-status "$gnustep_status"
      --swift-version "$(swift --version 2>&1 | grep -m1 'Swift version' || echo unknown)"
      --command "bash Benchmarks/run.sh")
[ -n "$driver" ] && args+=(--gnustep-driver "$driver")
[ "$quick" = 1 ] && args+=(--quick)

swift run -c release Compare "${args[@]}"
