#!/usr/bin/env bash
# Why a @Delegate multicast cannot know, before a first call, whether a class implements
# an @Optional method (issue 17, item 7): prints, for a class that implements the
# requirement and one that inherits the protocol extension's default, the symbol each
# witness-table entry points to, in a debug and a release build. Both are a per-conformance
# thunk of the same form ("protocol witness for P.optionalOne() in conformance X"), so the
# table does not tell them apart; a final class has no vtable listing its methods, and the
# symbol names exist only in the binary's static symbol table (nm), not at run time.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/main.swift" <<'EOF'
import Foundation

protocol P: AnyObject {
  func required()
  func optionalOne()  // an @Optional requirement
}
extension P {
  func optionalOne() {}  // the default @Optional generates
}
final class Implements: P {
  func required() {}
  func optionalOne() { print("own") }
}
final class Inherits: P {
  func required() {}
}

// The executable's load address, to turn entries into file offsets for nm.
let maps = try! String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
let exe = try! FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
let base = UInt(maps.split(separator: "\n").first { $0.hasSuffix(exe) }!.split(separator: "-")[0], radix: 16)!
for (name, object) in [("Implements", Implements() as any P), ("Inherits", Inherits() as any P)] {
  // A class-bound existential is (object, witness table); entry 0 is the conformance.
  let table = unsafeBitCast(object, to: (UnsafeRawPointer, UnsafePointer<UnsafeRawPointer?>).self).1
  for slot in 1...2 {
    print(name, slot, String(UInt(bitPattern: table[slot]!) - base, radix: 16))
  }
}
EOF
for opt in -Onone -O; do
  swiftc "$opt" "$work/main.swift" -o "$work/w$opt"
  echo "== swiftc $opt"
  "$work/w$opt" | while read -r name slot offset; do
    symbol=$(nm "$work/w$opt" | awk -v o="$offset" '{a=$1; sub(/^0+/, "", a); if (a == o) print $3}' | head -1)
    echo "$name, entry $slot: $(swift demangle --simplified "$symbol")"
  done
done
