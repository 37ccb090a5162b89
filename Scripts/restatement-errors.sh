#!/usr/bin/env bash
# What the compiler says when a method restated in a `@Delegate(for:)` protocol is wrong.
# Type-checks small files against the built DelegateProxy module and @Delegate plugin
# (`swift build` first) and prints, per case, the exit status and the first error with its
# location — the user's line, or a line of the macro's expansion — then every diagnostic.
#
#   Scripts/restatement-errors.sh             # uses .build/debug
#   DP_BUILD_DIR=.build/release Scripts/...   # another build directory
#
# Every case must fail to type-check; the script exits 1 if one does not (or if the
# control case, a correct restatement, does not type-check).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$root" && cd "${DP_BUILD_DIR:-.build/debug}" && pwd -P)
plugin="$build/DelegateProxyMacros-tool"
modulemap=$(ls "$build"/DelegateProxyCFFIShim.build/module.modulemap 2>/dev/null || true)
coremap=$(ls "$build"/DelegateProxyCCore.build/module.modulemap 2>/dev/null || true)
for needed in "$build/Modules/DelegateProxy.swiftmodule" "$plugin" "$modulemap" "$coremap"; do
  if [ ! -e "$needed" ]; then
    echo "missing $needed: run 'swift build' first" >&2
    exit 2
  fi
done
work=$(mktemp -d /tmp/dp-restatement.XXXXXX)
trap 'rm -rf "$work"' EXIT

typecheck() {
  swiftc -typecheck -swift-version 6 -I "$build/Modules" \
    -Xcc -fmodule-map-file="$modulemap" -Xcc -I"$root/CFFIShim/include" \
    -Xcc -fmodule-map-file="$coremap" -Xcc -I"$root/CFFIShim/Core/include" \
    -load-plugin-executable "$plugin#DelegateProxyMacros" "$1"
}

header='import DelegateProxy
import Foundation
#if canImport(FoundationXML)
  import FoundationXML
#endif
'

# name | expectation | body (the lines after the imports)
cases=(
  "correct restatement (control)|passes|@Delegate(for: XMLParserDelegate.self)
protocol ParserEvents: XMLParserDelegate {
  func parser(_ parser: XMLParser, foundCharacters string: String)
}"
  "typo in a label (foundCharacter)|fails|@Delegate(for: XMLParserDelegate.self)
protocol ParserEvents: XMLParserDelegate {
  func parser(_ parser: XMLParser, foundCharacter string: String)
}"
  "wrong parameter type (Substring for String)|fails|@Delegate(for: XMLParserDelegate.self)
protocol ParserEvents: XMLParserDelegate {
  func parser(_ parser: XMLParser, foundCharacters string: Substring)
}"
  "a method the protocol does not have|fails|@Delegate(for: XMLParserDelegate.self)
protocol ParserEvents: XMLParserDelegate {
  func parserDidPause(_ parser: XMLParser)
}"
  "wrong result type (Bool for Void)|fails|@Delegate(for: XMLParserDelegate.self)
protocol ParserEvents: XMLParserDelegate {
  func parserDidEndDocument(_ parser: XMLParser) -> Bool
}"
  "a required method without a default not restated (FileManagerDelegate)|fails|@Delegate(for: FileManagerDelegate.self)
protocol FileEvents: FileManagerDelegate {
  func fileManager(_ fileManager: FileManager, shouldRemoveItemAt URL: URL) -> Bool
}"
  "correct restatement marked override (control)|passes|@Delegate(for: XMLParserDelegate.self)
protocol ParserEvents: XMLParserDelegate {
  override func parser(_ parser: XMLParser, foundCharacters string: String)
}"
  "override: typo in a label (foundCharacter)|fails|@Delegate(for: XMLParserDelegate.self)
protocol ParserEvents: XMLParserDelegate {
  override func parser(_ parser: XMLParser, foundCharacter string: String)
}"
  "override: wrong parameter type (Substring for String)|fails|@Delegate(for: XMLParserDelegate.self)
protocol ParserEvents: XMLParserDelegate {
  override func parser(_ parser: XMLParser, foundCharacters string: Substring)
}"
  "override: a method the protocol does not have|fails|@Delegate(for: XMLParserDelegate.self)
protocol ParserEvents: XMLParserDelegate {
  override func parserDidPause(_ parser: XMLParser)
}"
  "@Optional on a restated method|fails|@Delegate(for: XMLParserDelegate.self)
protocol ParserEvents: XMLParserDelegate {
  @Optional func parser(_ parser: XMLParser, foundCharacters string: String)
}"
)

status=0
n=0
for entry in "${cases[@]}"; do
  n=$((n + 1))
  name=${entry%%|*}
  rest=${entry#*|}
  expected=${rest%%|*}
  body=${rest#*|}
  file="$work/case$n.swift"
  printf '%s\n%s\n' "$header" "$body" >"$file"
  echo "== $n. $name (expected: $expected)"
  set +e
  output=$(typecheck "$file" 2>&1)
  code=$?
  set -e
  echo "exit status: $code"
  if [ "$expected" = passes ]; then
    [ $code -eq 0 ] || status=1
  else
    [ $code -ne 0 ] || status=1
    first=$(printf '%s\n' "$output" | awk '/error:/ { print; exit }')
    echo "first error: ${first/#$work\//}"
    errors=$(printf '%s\n' "$output" | grep -cE '^[^ ].*error:' || true)
    notes=$(printf '%s\n' "$output" | grep -cE '^[^ ].*note:' || true)
    echo "top-level errors: $errors, notes: $notes"
    echo "errors on the case's own lines:"
    printf '%s\n' "$output" | awk -v f="$file" 'index($0, f ":") == 1 && /error:/' | sed "s|$work/||"
    echo "--- diagnostics (case file lines: imports 1-5, then the protocol from line 7):"
    printf '%s\n' "$output" | awk '/^[^ ].*(error|warning|note):/ && n++ < 12' | sed "s|$work/||"
  fi
  echo
done
exit $status
