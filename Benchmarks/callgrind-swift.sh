#!/usr/bin/env bash
# Instructions per message of the Swift-protocol rows, String rows and Swift peers, counted
# by callgrind: repeatable where wall-clock medians on a shared machine are not, so a fixed
# cost of a few instructions can be seen and compared. An instruction count is not a time
# (an atomic read-modify-write is one instruction and costs ~20 cycles): set it beside the
# rows' medians from `bash run.sh`, never instead of them.
#
#   bash Benchmarks/callgrind-swift.sh [--messages N] [--fanouts "1 2"] [--method M] [ROW…]
#
# --method: `titleFor` for the String rows (default didReceive); `v@:@` for the other
# Swift-protocol rows (swift_unowned_array, swift_protocol_proxy, …; default q@:qd).
# Any row of CallgrindRows may be named: the Swift-protocol, String and peer rows, the value
# rows (swift_value_array, swift_value_multicast) and the swift-log rows
# (swift_log_multiplex, swift_log_multicast, swift_log_metadata_multiplex, swift_log_metadata_multicast).
# Default rows: swift_string_weak_delegate_direct (fan-out 1 only), swift_string_unowned_array,
# swift_string_strong_array, swift_string_closures, swift_string_closures_weak, swift_string_protocol_proxy,
# swift_string_protocol_proxy_strong_slot, swift_string_protocol_proxy_strong_members.
# Builds CallgrindRows (release), copies it without its debug information (valgrind 3.19
# cannot read DWARF 5), and runs each row and fan-out under
# valgrind --tool=callgrind, collecting only inside CallgrindRows' `measured`; the
# callgrind files stay in .build/callgrind-swift/ (callgrind_annotate reads them).
set -euo pipefail
cd "$(dirname "$0")"

messages=20000
fanouts="1 2 8"
method=""
rows=()
while [ $# -gt 0 ]; do
  case "$1" in
    --messages) messages="$2"; shift ;;
    --fanouts) fanouts="$2"; shift ;;
    --method) method="$2"; shift ;;
    -h|--help) sed -n '2,22p' callgrind-swift.sh; exit 0 ;;
    *) rows+=("$1") ;;
  esac
  shift
done
[ ${#rows[@]} -gt 0 ] || rows=(swift_string_weak_delegate_direct swift_string_unowned_array swift_string_strong_array
  swift_string_closures swift_string_closures_weak swift_string_protocol_proxy
  swift_string_protocol_proxy_strong_slot swift_string_protocol_proxy_strong_members)

swift build -c release --product CallgrindRows >&2
out=.build/callgrind-swift
mkdir -p "$out"
# valgrind 3.19 cannot read the DWARF 5 the toolchain writes: count on a copy without
# debug information (the symbol table, which callgrind names functions by, stays).
exe="$out/CallgrindRows"
objcopy --strip-debug "$(swift build -c release --show-bin-path)/CallgrindRows" "$exe"
printf '%-44s' row
for n in $fanouts; do printf '%12s' "×$n"; done
printf '\n'
for row in "${rows[@]}"; do
  printf '%-44s' "$row"
  for n in $fanouts; do
    # The weak slot pointing straight at a delegate holds one: fan-out 1 only.
    if [ "$row" = swift_string_weak_delegate_direct ] && [ "$n" != 1 ]; then
      printf '%12s' "—"
      continue
    fi
    file="$out/callgrind.$row${method:+.${method//[^A-Za-z]/}}.$n"
    valgrind --tool=callgrind --callgrind-out-file="$file" --collect-atstart=no \
      --toggle-collect='*CallgrindRows8measured*' "$exe" "$row" "$n" "$messages" $method >/dev/null 2>&1
    total=$(grep -m1 '^summary:' "$file" | awk '{print $2}')
    printf '%12s' "$(awk -v t="$total" -v m="$messages" 'BEGIN { printf "%.1f", t / m }')"
  done
  printf '\n'
done
