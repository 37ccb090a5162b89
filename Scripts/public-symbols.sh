#!/usr/bin/env bash
# Counts the public symbols of the library modules (DelegateProxyRuntimeCore, which
# MessageRuntime re-exports, MessageRuntime, DelegateProxy, DelegateProxyTesting): the
# symbols swift-symbolgraph-extract lists at minimum access level `public` (public and
# open) from the modules of a debug build, that are declared in the module's own source
# (so members of its extensions of other modules' types count, and what those types
# inherit from the standard library does not), each counted once by its precise
# identifier (USR). Enum cases count; `package` and `@usableFromInline internal`
# symbols do not.
#
#   Scripts/public-symbols.sh            # builds (debug) if needed, prints the counts
#   Scripts/public-symbols.sh --list     # also lists each module's symbols, sorted
#
# Run from the package root. Output: one line per module, `Module: N public symbols, M
# public declarations (goal G)`. The second figure is what issue #34's goal counts: the
# lines of the module's sources that declare something `public` or `open`, other than the
# `__`-prefixed entry points generated code calls (and `public import` lines).
set -euo pipefail
cd "$(dirname "$0")/.."

list=0
[[ "${1:-}" == "--list" ]] && list=1

swift build --target DelegateProxyTesting >/dev/null
bin="$(swift build --show-bin-path)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# The goal per module (issue #34 item 6).
goal() { case "$1" in DelegateProxyTesting) echo 120 ;; *) echo 200 ;; esac; }
declarations() {
  grep -rhE '^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*(public|open)\s' "Sources/$1" --include=*.swift |
    grep -vE '^\s*(@_exported\s+)?(public|package|internal) import' |
    grep -vcE '\b(func|var|let|class|struct|enum|typealias|protocol|actor|init|subscript|case)\s+__|\b__[A-Za-z]' || true
}

for module in DelegateProxyRuntimeCore MessageRuntime DelegateProxy DelegateProxyTesting; do
  mkdir -p "$out/$module"
  swift-symbolgraph-extract \
    -module-name "$module" \
    -target "$(uname -m)-unknown-linux-gnu" \
    -I "$bin/Modules" -I CFFIShim/include -I CFFIShim/Core/include \
    -Xcc -fmodule-map-file="$bin/DelegateProxyCFFIShim.build/module.modulemap" \
    -Xcc -fmodule-map-file="$bin/DelegateProxyCCore.build/module.modulemap" \
    -minimum-access-level public \
    -skip-synthesized-members \
    -output-dir "$out/$module" >/dev/null 2>&1
  # The module's own graph (Module.symbols.json); Module@Other.symbols.json holds its
  # extensions of other modules' types, counted too (they are its API).
  symbols="$(jq -r '.symbols[] | select(.accessLevel == "public" or .accessLevel == "open")
      | select(.location.uri != null)
      | "\(.identifier.precise) \(.kind.identifier) \(.pathComponents | join("."))"' \
      "$out/$module"/*.symbols.json | sort -u | cut -d" " -f2-)"
  echo "$module: $(printf '%s\n' "$symbols" | grep -c . || true) public symbols," \
    "$(declarations "$module") public declarations (goal $(goal "$module"))"
  if ((list)); then printf '%s\n' "$symbols" | sed 's/^/  /'; fi
done
