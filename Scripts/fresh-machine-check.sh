#!/usr/bin/env bash
# Fails when the README's two commands (`swift run demo`, `swift test`) would need something
# a fresh machine of this project's kind lacks:
#
# - a system header that a C target (Sources/, Tests/, Examples/, CFFIShim/) includes with
#   <...> and whose Debian package is not in Scripts/fresh-machine-packages.txt, or that no
#   package, toolchain or target of ours provides (unless the include is guarded by
#   `__has_include(<that header>)`, as dp_ffi.h's alternatives are);
# - a library linked by name (Package.swift's .linkedLibrary, a module map's `link`) whose
#   lib<name>.so / lib<name>.a comes from a package not on the list.
#
# Benchmarks/ is its own package and installs what it needs, so it is not checked.
# Needs dpkg (Debian/Ubuntu); prints each problem and exits 1, or prints one "ok" line.
set -euo pipefail
cd "$(dirname "$0")/.."
list=Scripts/fresh-machine-packages.txt
dirs=(Sources Tests Examples CFFIShim)
multiarch=$(cc -print-multiarch 2>/dev/null || echo "$(uname -m)-linux-gnu")
resource=$(clang -print-resource-dir 2>/dev/null || true)
problems=0

on_list() { grep -qxF "$1" "$list"; }  # comment lines start with #, no package does
report() { echo "fresh-machine-check: $*"; problems=$((problems + 1)); }

# Headers our own targets provide (any include/ directory, or beside a module map).
own_header() {
  find "${dirs[@]}" -path "*/$1" -name "$(basename "$1")" -print -quit 2>/dev/null | grep -q .
}

# What each system file has to come from: "who|path" lines (who: a file and header, or a
# library), checked against dpkg in one query at the end.
needs=()

while IFS=: read -r file header; do
  found=""
  for base in /usr/include/"$multiarch" /usr/include /usr/local/include; do
    if [ -f "$base/$header" ]; then found="$base/$header"; break; fi
  done
  if [ -n "$found" ]; then needs+=("$file includes <$header>|$found"); continue; fi
  if [ -n "$resource" ] && [ -f "$resource/include/$header" ]; then continue; fi  # the compiler's
  if own_header "$header"; then continue; fi
  if grep -qF "__has_include(<$header>)" "$file"; then continue; fi  # an optional alternative
  report "$file includes <$header>, which is not on this machine (install it, then rerun)"
done < <(grep -rHoE '^\s*#\s*include\s*<[^>]+>' --include='*.c' --include='*.h' \
  --include='*.m' "${dirs[@]}" | sed -E 's/^([^:]+):.*<([^>]+)>.*/\1:\2/' | sort -u)

# Libraries linked by name: Package.swift's .linkedLibrary and module maps' `link`.
libs=$( (grep -oE 'linkedLibrary\("[^"]+"\)' Package.swift | sed -E 's/.*\("([^"]+)"\)/\1/'
  find "${dirs[@]}" -name module.modulemap -exec grep -hoE 'link "[^"]+"' {} + 2>/dev/null \
    | sed -E 's/link "([^"]+)"/\1/') | sort -u)
for lib in $libs; do
  found=""
  for base in /usr/lib/"$multiarch" /usr/lib /lib/"$multiarch" /usr/local/lib; do
    for f in "$base/lib$lib.so" "$base/lib$lib.a"; do
      if [ -e "$f" ]; then found=$f; break 2; fi
    done
  done
  if [ -z "$found" ]; then
    report "a target links $lib, but neither lib$lib.so nor lib$lib.a is on this machine"
  else
    needs+=("a target links $lib|$found")
  fi
done

# One dpkg query for every path ("package[:arch][, package]: path" lines).
if [ ${#needs[@]} -gt 0 ]; then
  owners=$(dpkg -S "${needs[@]#*|}" 2>/dev/null | grep -v '^diversion' || true)
  for need in "${needs[@]}"; do
    who=${need%%|*} path=${need#*|}
    pkg=$(printf '%s\n' "$owners" | awk -F': ' -v p="$path" '$2 == p { print $1; exit }' \
      | cut -d, -f1 | cut -d: -f1)
    if [ -z "$pkg" ]; then
      report "$who ($path), which no Debian package provides"
    elif ! on_list "$pkg"; then
      report "$who from $pkg, which a fresh machine does not have"
    fi
  done
fi

if [ "$problems" -gt 0 ]; then
  echo "fresh-machine-check: $problems problem(s); see Scripts/fresh-machine-packages.txt"
  exit 1
fi
echo "fresh-machine-check: ok (every header and linked library comes from a fresh machine's packages)"
