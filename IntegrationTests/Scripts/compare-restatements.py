#!/usr/bin/env python3
"""Compares the restatements `swift package restate-delegate` wrote with the generator's hand
restatements (generate-protocols.py --parents), requirement by requirement.

    compare-restatements.py HAND.swift DIR     # DIR: the files the command wrote
    compare-restatements.py --refused PARENTS.swift HANDREFUSED.swift COMMAND.log BUILD.log

Both sides are parsed the same way: each `@Delegate(for: P.self …) protocol …: P { … }`, its
requirements (a declaration with its attributes, over one or more lines). A requirement is
keyed by its kind, name and labels, and compared by its signature with spellings that mean
the same thing made equal (whitespace, `T : P`, module qualifiers, `Optional<T>`, generic
constraints in the angle brackets or the `where` clause, `&` compositions). Attributes are not
compared: `@Default` holds a value the parent protocol does not have (the command keeps one
the user adds), and `@Handle`/`@Selector` name a handle. The multicast's semantics (value or
reference) is compared. Prints one line per protocol and every mismatch; exits 1 on any.

With --refused: each refused shape (a protocol `RefusedN` of PARENTS, its shape in the
comment above it) must be refused by the command (its error in COMMAND.log, with its reason)
or written and then fail to build, and its hand restatement (`RefusedNHand`) must fail to
build; BUILD.log is the one build of both. A reason the command relays from the macro (a
refused requirement, an unbound associated type) must be the macro's error on the hand
restatement, word for word. Prints each shape with both reasons.
"""
import glob
import re
import sys

HEAD = re.compile(r"@Delegate\(for: ([\w.]+)\.self(, semantics: \.(\w+))?\)\s*\nprotocol (\w+): [\w.]+[^{]*\{\n")
KEYWORDS = ("func ", "mutating func ", "var ", "subscript", "associatedtype ", "@MainActor func ")


def protocols(text):
    """{parent: (semantics, [(attributes, declaration)])}"""
    found = {}
    for match in HEAD.finditer(text):
        body = text[match.end():text.index("\n}", match.end())]
        requirements, attributes, current = [], [], None
        for line in body.split("\n"):
            stripped = line.strip()
            if not stripped or stripped.startswith("//"):
                continue
            indent = len(line) - len(line.lstrip())
            if indent > 2 and current is not None:
                current[1] += " " + stripped  # a wrapped declaration's continuation
                continue
            attrs, rest = split_attributes(stripped)
            if not rest:
                attributes += attrs
                continue
            current = [attributes + attrs, rest]
            attributes = []
            requirements.append(current)
        parent = match.group(1).split(".")[-1]
        found[parent] = (match.group(3) or "reference", [(a, d) for a, d in requirements])
    return found


def split_attributes(text):
    """Leading `@Name` or `@Name(…)` attributes (not `@escaping`, a type's), and the rest."""
    attrs = []
    while text.startswith("@") and not text.startswith(("@escaping", "@Sendable")):
        m = re.match(r"@\w+", text)
        end = m.end()
        if end < len(text) and text[end] == "(":
            depth = 0
            for i in range(end, len(text)):
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                if depth == 0:
                    end = i + 1
                    break
        name = text[:end]
        if name == "@MainActor":
            break  # isolation: part of the signature
        attrs.append(name)
        text = text[end:].strip()
    return attrs, text


def top_level_split(text, sep=","):
    parts, depth, current = [], 0, ""
    for i, c in enumerate(text):
        if c in "([<":
            depth += 1
        elif c in ")]" or (c == ">" and text[i - 1] != "-"):
            depth -= 1
        if c == sep and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += c
    if current.strip():
        parts.append(current.strip())
    return parts


def spelling(text):
    """A type's or a declaration's text with equivalent spellings made equal."""
    text = re.sub(r"\b(Swift|GeneratedParents)\.", "", text)
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s*:\s*", ": ", text)
    text = re.sub(r"\(\s+", "(", text)
    text = re.sub(r"\s+\)", ")", text)
    while True:
        m = re.search(r"\bOptional<", text)
        if not m:
            break
        depth, i = 1, m.end()
        while depth:
            depth += {"<": 1, ">": -1}.get(text[i], 0)
            i += 1
        text = text[:m.start()] + text[m.end():i - 1] + "?" + text[i:]
    return text.strip()


def constraints(clause):
    """`T: A & B, C.Element == Int` → {"T: A", "T: B", "C.Element == Int"}."""
    out = set()
    for part in top_level_split(clause):
        if "==" in part:
            out.add(spelling(part))
            continue
        if ":" in part:
            name, bound = part.split(":", 1)
            for b in bound.split("&"):
                out.add(f"{name.strip()}: {spelling(b)}")
    return out


def canonical(declaration):
    """(key, signature): the key names the requirement (kind, name, labels)."""
    text = spelling(declaration)
    where = set()
    m = re.search(r" where (.*?)( \{.*\})?$", text)
    if m:
        where = constraints(m.group(1))
        text = text[:m.start()] + (m.group(2) or "")
    generics = []
    g = re.match(r"((?:@MainActor )?(?:mutating )?func \w+|subscript)<([^()]*)>", text)
    if g:
        for param in top_level_split(g.group(2)):
            name = param.split(":")[0].strip()
            generics.append(name)
            if ":" in param:
                where |= constraints(param)
        text = text[:g.end(1)] + "<" + ", ".join(generics) + ">" + text[g.end():]
    if re.match(r"(?:@MainActor )?(?:mutating )?func |subscript", text):
        name = re.match(r"(?:@MainActor )?(?:mutating )?(func \w+|subscript)", text).group(1)
        params = text[text.index("("):]
        depth = 0
        for i, c in enumerate(params):
            depth += {"(": 1, ")": -1}.get(c, 0)
            if depth == 0:
                params = params[1:i]
                break
        labels = [p.split(":")[0].split()[0] for p in top_level_split(params)]
        key = f"{name}({''.join(label + ':' for label in labels)})"
    else:
        key = " ".join(text.split(":")[0].split()[:2])
    signature = text + (" where " + ", ".join(sorted(where)) if where else "")
    return key, signature


def build_error(log, file, start, end, protocol):
    """The first error on lines start…end of `file`, else the first naming `protocol`'s
    multicast (in the macro's expansion)."""
    for line in log:
        m = re.search(re.escape("/" + file) + r":(\d+):\d+: error: (.*)", line)
        if m and start <= int(m.group(1)) <= end:
            return m.group(2).replace(" (from macro 'Delegate')", "")
    for line in log:
        if "error: " in line and f"'{protocol}Multicast" in line:
            return line.split("error: ", 1)[1].strip()
    return None


def refused(parents_path, hand_path, command_log, build_log):
    parents = open(parents_path).read().split("\n")
    shapes = []  # (name, shape)
    for n, line in enumerate(parents):
        m = re.match(r"public protocol (Refused\d+)", line)
        if m:
            shapes.append((m.group(1), parents[n - 1].replace("// refused: ", "")))
    hand = open(hand_path).read().split("\n")
    blocks = {}  # name → (first line, last line), 1-based
    for n, line in enumerate(hand, 1):
        m = re.match(r"protocol (Refused\d+)Hand:", line)
        if m:
            end = next(k for k in range(n, len(hand) + 1) if hand[k - 1] == "}")
            blocks[m.group(1)] = (n - 1, end)
    command = open(command_log).read().split("\n")
    log = open(build_log).read().split("\n")
    failures = 0
    for name, shape in shapes:
        # The macro's reason, which the command relays word for word (its own model).
        said = next((l.split("cannot forward: ", 1)[1] for l in command
                     if l.startswith(f"error: {name} requires ")), None)
        # An associated type left unbound: written, named with the macro's reason and --bind.
        said = said or next((l.split("is not bound: ", 1)[1].split("; in a restatement ", 1)[0]
                             for l in command if f": error: {name}'s associated type " in l), None)
        relayed = said is not None
        # A result with no empty value: written, named with the --default to pass.
        said = said or next(("its result " + l.split("whose result ", 1)[1]
                             for l in command if f": error: {name} requires " in l), None)
        if said is not None:
            command_side = f"the command refuses: {said}"
        else:
            error = build_error(log, f"{name}s.swift", 1, 10_000, f"{name}s")
            command_side = f"the command writes it, whose build fails: {error}" if error else None
        start, end = blocks.get(name, (0, -1))
        macro = build_error(log, hand_path.split("/")[-1], start, end, f"{name}Hand")
        print(f"  - {shape} ({name}):")
        print(f"      {command_side or 'NOT REFUSED: the command wrote it and it built'}")
        print(f"      the macro, on the hand restatement: {macro or 'NOT REFUSED: it built'}")
        differs = relayed and macro is not None and said != macro
        if differs:
            print("      NOT THE MACRO'S WORDS: the command's reason differs from the macro's")
        failures += command_side is None or macro is None or differs
    print(f"restate: {len(shapes) - failures} of {len(shapes)} refused shapes refused by the command"
          " and by the macro on the hand restatement")
    return 1 if failures else 0


def main():
    if sys.argv[1] == "--refused":
        return refused(*sys.argv[2:6])
    hand_path, directory = sys.argv[1], sys.argv[2]
    hand = protocols(open(hand_path).read())
    written = {}
    for path in sorted(glob.glob(f"{directory}/*.swift")):
        for parent, found in protocols(open(path).read()).items():
            written[parent] = (path.split("/")[-1], found)
    failures = 0
    total = 0
    for parent in sorted(hand, key=lambda p: int(re.sub(r"\D", "", p) or 0)):
        semantics, requirements = hand[parent]
        if parent not in written:
            print(f"  {parent}: MISMATCH: the command wrote no restatement of it")
            failures += 1
            continue
        file, (w_semantics, w_requirements) = written[parent]
        want = dict(canonical(d) for _, d in requirements)
        got = dict(canonical(d) for _, d in w_requirements)
        problems = []
        if semantics != w_semantics:
            problems.append(f"semantics: hand .{semantics}, command .{w_semantics}")
        for key in want:
            if key not in got:
                problems.append(f"not restated by the command: {want[key]}")
            elif got[key] != want[key]:
                problems.append(f"{key}: hand '{want[key]}', command '{got[key]}'")
        for key in got:
            if key not in want:
                problems.append(f"restated by the command only: {got[key]}")
        defaults = sum(1 for attrs, _ in requirements if any(a.startswith("@Default") for a in attrs))
        total += len(want)
        if problems:
            failures += 1
            print(f"  {parent} ({file}): MISMATCH, {len(problems)} of {len(want)} requirements:")
            for problem in problems:
                print(f"    - {problem}")
        else:
            print(f"  {parent} ({file}): {len(want)} requirements match, .{semantics}"
                  + (f" (hand @Default on {defaults})" if defaults else ""))
    print(f"restate: {len(hand) - failures} of {len(hand)} generated protocols restated by the command"
          f" as by hand ({total} requirements compared); {failures} mismatched")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
