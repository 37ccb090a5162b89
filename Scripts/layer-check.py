#!/usr/bin/env python3
"""Checks that the folders of Sources/DelegateProxy depend on each other one way.

The layers, bottom first, are listed in Scripts/layers.txt (one folder a line; "." is the module folder itself).
A file may use what its own folder and the folders below it declare; a name declared in a
folder above it is a violation. Names are the types, protocols, type aliases and top-level
functions a folder declares (and the members its extensions add to types declared
elsewhere are checked as the extension's folder). Comments and string literals are
ignored. Exit status 1 and one line per violation: file:line, the name, the folder that
declares it.

Usage: Scripts/layer-check.py [--graph]   (--graph prints the folder dependencies found)
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "DelegateProxy")
DECL = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|open|"
    r"indirect|nonisolated|@usableFromInline|@frozen)\s+)*"
    r"(?:class|struct|enum|protocol|actor|typealias|func)\s+([A-Za-z_]\w*)")
IDENT = re.compile(r"[A-Za-z_]\w*")


def strip(text):
    """Removes comments and string literals, keeping line breaks."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def main():
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "layers.txt")) as f:
        lines = [l.split("#")[0].split() for l in f]
    lines = [l for l in lines if l]
    # Folders on one line are one layer.
    rank = {name: i for i, line in enumerate(lines) for name in line}
    layers = [name for line in lines for name in line]
    files = {}
    for folder in layers:
        # "." is the module's own folder: the files at its top level.
        path = os.path.join(ROOT, folder)
        if not os.path.isdir(path):
            print(f"layer-check: {folder} is listed in LAYERS but is not a folder")
            return 1
        for name in sorted(os.listdir(path)):
            if name.endswith(".swift"):
                with open(os.path.join(path, name)) as f:
                    files[folder + "/" + name] = strip(f.read())
    unlisted = [d for d in os.listdir(ROOT)
                if os.path.isdir(os.path.join(ROOT, d)) and not d.endswith(".docc") and d not in rank]
    loose = [f for f in os.listdir(ROOT) if f.endswith(".swift") and "." not in rank]
    if unlisted or loose:
        print(f"layer-check: not in a listed layer: {', '.join(sorted(unlisted + loose))}")
        return 1
    declared = {}
    for path, text in files.items():
        folder = path.rsplit("/", 1)[0]
        for line in text.splitlines():
            m = DECL.match(line)
            # Only top-level declarations: a nested type is reached through its outer type,
            # and a method's name says nothing on its own (many types share `call`).
            if m and not line[:1].isspace():
                declared.setdefault(m.group(1), set()).add(folder)
    # A name declared in several folders (an overload, a common method name) says nothing
    # about direction.
    owner = {k: next(iter(v)) for k, v in declared.items() if len(v) == 1}
    violations, edges = [], {}
    for path, text in files.items():
        folder = path.rsplit("/", 1)[0]
        for number, line in enumerate(text.splitlines(), 1):
            for ident in set(IDENT.findall(line)):
                home = owner.get(ident)
                if home is None or home == folder:
                    continue
                edges.setdefault(folder, set()).add(home)
                if rank[home] > rank[folder]:
                    violations.append(f"{path}:{number}: uses {ident}, declared in {home}/ (a layer above {folder}/)")
    if "--graph" in sys.argv:
        for folder in layers:
            print(f"{folder} -> {', '.join(sorted(edges.get(folder, ())))}")
    for v in violations:
        print("layer-check:", v)
    if violations:
        order = " < ".join("+".join(line) for line in lines)
        print(f"layer-check: {len(violations)} uses reach up a layer (order: {order})")
        return 1
    print(f"layer-check: {len(files)} files in {len(lines)} layers, every use points down or across")
    return 0


if __name__ == "__main__":
    sys.exit(main())
