# The benchmark comparison, in one command (see Benchmarks/README.md):
#
#   bash Benchmarks/run.sh [--quick] [--repetitions N] [--min-ms MS] [--no-gnustep] [--no-peers] [--no-install]
#
# 1. Drivers measured outside Compare's process, each made ready the same way: its
#    Debian packages are installed with apt-get when missing (and allowed), then it is
#    compiled. If that cannot be done its rows are skipped, and the output and
#    results/latest.json say why.
#    - GNUstep NSProxy row: gobjc, gnustep-make, libgnustep-base-dev; GNUstep/ compiled
#      with gnustep-config's flags.
#    - Signal-library peers (Peers/): GObject (libglib2.0-dev), libsigc++
#      (libsigc++-3.0-dev, else libsigc++-2.0-dev) and Boost.Signals2 (libboost-dev),
#      compiled with pkg-config's flags.
# 2. `swift run -c release Compare`: one process measuring every other row. It runs each
#    driver (one process per driver) alongside as a co-process, one sweep of the
#    driver's rows after each sweep of its own, merges them, prints the table and writes
#    results/latest.json.
set -euo pipefail
cd "$(dirname "$0")"

repetitions=9
min_ms=20
quick=0
gnustep=1
peers=1
install=1
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; repetitions=7; min_ms=2 ;;
    --repetitions) repetitions="$2"; shift ;;
    --min-ms) min_ms="$2"; shift ;;
    --no-gnustep) gnustep=0 ;;
    --no-peers) peers=0 ;;
    --no-install) install=0 ;;
    -h|--help) sed -n '2,17p' run.sh; exit 0 ;;  # run.sh: we are in its directory now
    *) echo "run.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

out_dir=.build/gnustep
peers_dir=.build/peers
mkdir -p "$out_dir" "$peers_dir" results
apt_updated=0

# Whether this run may install packages: allowed, root, and a Debian-like system.
can_install() {
  [ "$install" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1
}

# apt_install LOG PACKAGE…: installs the packages with apt-get (apt-get update first,
# once per run), its output to LOG; fails when it could not.
apt_install() {
  local log="$1"
  shift
  can_install || return 1
  export DEBIAN_FRONTEND=noninteractive
  if [ "$apt_updated" = 0 ]; then
    apt-get update -qq >>"$log" 2>&1 || return 1
    apt_updated=1
  fi
  apt-get install -y -qq "$@" >>"$log" 2>&1
}

# not_installed WHAT LOG PACKAGES: why a driver whose packages are still missing after
# an install attempt is skipped.
not_installed() {
  if [ "$install" = 0 ]; then
    echo "skipped: $1 not installed (--no-install)"
  elif [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "skipped: $1 not installed and apt-get not usable here (needs root and Debian/Ubuntu)"
  else
    echo "skipped: apt-get install -y $3 failed (see Benchmarks/$2)"
  fi
}

# ensure WHAT CHECK LOG PACKAGE…: runs CHECK; if it fails, installs the packages and
# runs it again. Sets `missing` to nothing when the driver's tools are there, else to why
# not. (Not run in a subshell, so apt-get update stays once per run.)
missing=""
ensure() {
  local what="$1" check="$2" log="$3"
  shift 3
  missing=""
  "$check" && return 0
  if can_install; then
    echo "run.sh: $what missing; installing $* with apt-get" >&2
    apt_install "$log" "$@" || echo "run.sh: apt-get install $* failed (log: Benchmarks/$log)" >&2
  fi
  "$check" || missing=$(not_installed "$what" "$log" "$*")
}

# MARK: GNUstep NSProxy

# True when an Objective-C compiler and GNUstep Base's headers and tool are present.
have_gnustep() {
  command -v gnustep-config >/dev/null 2>&1 || return 1
  command -v gcc >/dev/null 2>&1 || return 1
  [ -x "$(gcc -print-prog-name=cc1obj 2>/dev/null)" ] || return 1
  [ -f "$(gnustep-config --variable=GNUSTEP_SYSTEM_HEADERS 2>/dev/null)/Foundation/Foundation.h" ] \
    || [ -f /usr/include/GNUstep/Foundation/Foundation.h ] || return 1
}

gnustep_status=""
if [ "$gnustep" = 0 ]; then
  gnustep_status="skipped: --no-gnustep"
else
  ensure "gobjc / libgnustep-base-dev" have_gnustep "$out_dir/apt.log" gobjc gnustep-make libgnustep-base-dev
  gnustep_status="$missing"
fi

driver=""
if [ -z "$gnustep_status" ]; then
  # gnustep-config's flags, minus dependency-file output and debug info.
  objc_flags=$(gnustep-config --objc-flags | sed -e 's/-MMD//g' -e 's/-MP//g' -e 's/-g\b//g')
  echo "run.sh: compiling the GNUstep NSProxy driver" >&2
  # shellcheck disable=SC2086
  if gcc -std=gnu11 $objc_flags -O2 -o "$out_dir/nsproxy-bench" \
       GNUstep/driver.m GNUstep/MulticastProxy.m GNUstep/BenchDelegate.m \
       DriverSupport/DriverCounters.c \
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

# MARK: Signal-library peers

have_gobject() {
  command -v gcc >/dev/null 2>&1 && command -v pkg-config >/dev/null 2>&1 \
    && pkg-config --exists gobject-2.0
}
sigc_module() {
  pkg-config --exists sigc++-3.0 2>/dev/null && { echo sigc++-3.0; return; }
  pkg-config --exists sigc++-2.0 2>/dev/null && echo sigc++-2.0
}
have_sigc() {
  command -v g++ >/dev/null 2>&1 && command -v pkg-config >/dev/null 2>&1 && [ -n "$(sigc_module)" ]
}
# Debian 11 and older have only libsigc++ 2.0: install that when 3.0 cannot be had.
ensure_sigc() {
  ensure "libsigc++" have_sigc "$peers_dir/apt.log" g++ pkg-config libsigc++-3.0-dev
  if [ -n "$missing" ] && can_install; then
    ensure "libsigc++" have_sigc "$peers_dir/apt.log" g++ pkg-config libsigc++-2.0-dev
  fi
}
have_boost_signals2() {
  command -v g++ >/dev/null 2>&1 \
    && echo '#include <boost/signals2/signal.hpp>' | g++ -x c++ -E - >/dev/null 2>&1
}

# compile_peer KEY COMPILER SOURCE FLAGS…: compiles one peer with the shared driver
# loop (-O2, as the C targets); prints the executable's path, or nothing (log kept).
compile_peer() {
  local key="$1" compiler="$2" source="$3"
  shift 3
  if "$compiler" -O2 -o "$peers_dir/peer-$key" "$source" "$peers_dir/PeerDriver.o" \
       "$peers_dir/DriverCounters.o" "$@" \
       2>"$peers_dir/$key.compile.log"; then
    echo "$PWD/$peers_dir/peer-$key"
  else
    cat "$peers_dir/$key.compile.log" >&2
  fi
}

peer_args=()
# add_peer KEY LABEL STATUS EXECUTABLE NOTE: the Compare arguments for one peer, and a line.
add_peer() {
  local key="$1" label="$2" status="$3" executable="$4" note="$5"
  if [ -z "$status" ] && [ -z "$executable" ]; then
    status="failed: the $label driver did not compile (see Benchmarks/$peers_dir/$key.compile.log)"
  fi
  if [ -n "$executable" ]; then
    echo "run.sh: $label rows: measured by Compare's co-process ($note)" >&2
    peer_args+=(--driver "$key=$executable" --driver-status "$key=$note")
  else
    echo "run.sh: $label rows: $status" >&2
    peer_args+=(--driver-status "$key=$status")
  fi
}

if [ "$peers" = 0 ]; then
  for key in gobject sigc boost_signals2; do peer_args+=(--driver-status "$key=skipped: --no-peers"); done
  echo "run.sh: signal-library peer rows: skipped (--no-peers)" >&2
else
  ensure "libglib2.0-dev (GObject)" have_gobject "$peers_dir/apt.log" gcc pkg-config libglib2.0-dev
  gobject_status="$missing"
  ensure_sigc
  sigc_status="$missing"
  ensure "libboost-dev (Boost.Signals2)" have_boost_signals2 "$peers_dir/apt.log" g++ libboost-dev
  boost_status="$missing"
  echo "run.sh: compiling the signal-library peer drivers" >&2
  peer_driver_ok=0
  if gcc -std=gnu11 -O2 -c -o "$peers_dir/PeerDriver.o" Peers/PeerDriver.c 2>"$peers_dir/driver.compile.log" \
     && gcc -std=gnu11 -O2 -c -o "$peers_dir/DriverCounters.o" DriverSupport/DriverCounters.c \
       2>>"$peers_dir/driver.compile.log"; then
    peer_driver_ok=1
  else
    cat "$peers_dir/driver.compile.log" >&2
  fi
  why_driver="failed: Peers/PeerDriver.c did not compile (see Benchmarks/$peers_dir/driver.compile.log)"

  executable=""
  note=""
  if [ -z "$gobject_status" ]; then
    if [ "$peer_driver_ok" = 1 ]; then
      # shellcheck disable=SC2046
      executable=$(compile_peer gobject gcc Peers/GObjectSignal.c -std=gnu11 \
        $(pkg-config --cflags --libs gobject-2.0))
      note="GObject $(pkg-config --modversion gobject-2.0), gcc $(gcc -dumpfullversion)"
    else
      gobject_status="$why_driver"
    fi
  fi
  add_peer gobject "GObject signal" "$gobject_status" "$executable" "$note"

  executable=""
  note=""
  if [ -z "$sigc_status" ]; then
    if [ "$peer_driver_ok" = 1 ]; then
      module=$(sigc_module)
      # shellcheck disable=SC2046
      executable=$(compile_peer sigc g++ Peers/SigcSignal.cpp -std=c++17 $(pkg-config --cflags --libs "$module"))
      note="libsigc++ $(pkg-config --modversion "$module"), g++ $(g++ -dumpfullversion)"
    else
      sigc_status="$why_driver"
    fi
  fi
  add_peer sigc "libsigc++" "$sigc_status" "$executable" "$note"

  executable=""
  note=""
  if [ -z "$boost_status" ]; then
    if [ "$peer_driver_ok" = 1 ]; then
      executable=$(compile_peer boost_signals2 g++ Peers/BoostSignals2.cpp -std=c++17 -pthread)
      boost_version=$(printf '#include <boost/version.hpp>\nBOOST_LIB_VERSION\n' | g++ -x c++ -E -P - 2>/dev/null \
        | tail -n1 | tr -d '"' | tr _ .)
      note="Boost ${boost_version:-?} (header-only Signals2), g++ $(g++ -dumpfullversion)"
    else
      boost_status="$why_driver"
    fi
  fi
  add_peer boost_signals2 "Boost.Signals2" "$boost_status" "$executable" "$note"
fi

args=(--repetitions "$repetitions" --min-ms "$min_ms" --gnustep-status "$gnustep_status"
      --swift-version "$(swift --version 2>&1 | grep -m1 'Swift version' || echo unknown)"
      --command "bash Benchmarks/run.sh")
[ -n "$driver" ] && args+=(--gnustep-driver "$driver")
args+=("${peer_args[@]}")
[ "$quick" = 1 ] && args+=(--quick)

swift run -c release Compare "${args[@]}"
