#!/usr/bin/env bash
# Instructions per callback call of the C-callback rows (c_callback_direct and
# c_callback_proxy, both shapes), counted by callgrind: a deterministic number to decide
# on when wall-clock timings are noisy. route_start is the same fan-out sent as a message
# to the route's own entry (no callback in front); floor_write the curl shape through a
# hand-written fan-out loop with no read section, release check or lookup (the reference
# in callbacks.c).
#
#   Scripts/callgrind-callbacks.sh [fanout…]   (default: 1 2 4 8 64)
#
# Builds CFFIShim's C sources with Benchmarks/Callgrind/callbacks.c (no Swift) with the
# toolchain's clang and SwiftPM's release flags (-O2 -fPIC -fno-omit-frame-pointer), and runs
# each fan-out under
# valgrind --tool=callgrind, counting each measured loop's inclusive instructions.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${DP_SCRATCH:-.build}/callgrind"
mkdir -p "$out"
cc="${CC:-clang}"
"$cc" -std=gnu11 -O2 -fPIC -fno-omit-frame-pointer -pthread -ICFFIShim/include -ICFFIShim -ICFFIShim/Core/include -ICFFIShim/Core CFFIShim/*.c CFFIShim/Core/*.c \
  Benchmarks/Callgrind/callbacks.c -lffi -o "$out/callbacks"
iterations=20000
fanouts=("$@")
[ ${#fanouts[@]} -gt 0 ] || fanouts=(1 2 4 8 64)
printf '%-8s %14s %14s %14s %14s %14s %14s\n' fanout direct_start proxy_start direct_write \
  proxy_write route_start floor_write
for n in "${fanouts[@]}"; do
  row=()
  for fn in direct_start proxy_start direct_write proxy_write route_start floor_write; do
    file="$out/callgrind.$n.$fn"
    valgrind --tool=callgrind --callgrind-out-file="$file" --collect-atstart=no \
      --toggle-collect="$fn" "$out/callbacks" "$n" "$iterations" >/dev/null 2>&1
    total=$(grep -m1 '^summary:' "$file" | awk '{print $2}')
    row+=("$(awk -v t="$total" -v i="$iterations" 'BEGIN { printf "%.1f", t / i }')")
  done
  printf '%-8s %14s %14s %14s %14s %14s %14s\n' "$n" "${row[@]}"
done
