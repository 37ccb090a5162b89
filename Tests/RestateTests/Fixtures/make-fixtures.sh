#!/usr/bin/env bash
# Regenerates the symbol graphs RestateTests reads (run from anywhere; needs the toolchain's
# swift-symbolgraph-extract): Shapes/ and ShapesDrift/ from Sources/, and FoundationXML/,
# the toolchain's FoundationXML graph cut down to XMLParserDelegate (the whole is 900 KB).
set -euo pipefail
cd "$(dirname "$0")"
triple="$(uname -m)-unknown-linux-gnu"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for variant in Shapes ShapesDrift; do
  mkdir -p "$work/$variant" "$variant"
  swiftc -parse-as-library -emit-module -module-name Shapes "Sources/$variant.swift" \
    -o "$work/$variant/Shapes.swiftmodule"
  swift-symbolgraph-extract -module-name Shapes -I "$work/$variant" -target "$triple" \
    -output-dir "$work/$variant" -minimum-access-level public
  python3 Sources/trim.py "$work/$variant/Shapes.symbols.json" "$variant/Shapes.symbols.json" ""
done
mkdir -p FoundationXML
swift-symbolgraph-extract -module-name FoundationXML -target "$triple" -output-dir "$work" \
  -minimum-access-level public
python3 Sources/trim.py "$work/FoundationXML.symbols.json" FoundationXML/FoundationXML.symbols.json \
  XMLParserDelegate
