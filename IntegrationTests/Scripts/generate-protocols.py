#!/usr/bin/env python3
"""Writes seeded random @Delegate protocols, each with conforming members and a
hand-written-style reference fan-out, and one test per protocol that sends the same calls
through the generated multicast and the reference and expects the same calls seen by each
member (arguments, order), the same answers and the same errors.

    generate-protocols.py --seed S --count N --out FILE
    generate-protocols.py --seed S --count N --parents DIR   # for Scripts/restate.sh

The protocols draw their parameter and result types from the families @Delegate supports
(numbers, Bool, String, optionals, arrays, dictionaries, a struct, an enum, a class, a
closure, inout), generic methods (with constraints, `where` clauses and `inout`, each
member called with the same generic arguments), and their effects (throws, async),
@Optional and @Default, policies
(last responder, first responder, all true / any true) and error policies (stop at first,
run all). The reference is what a programmer writes by hand: a loop over an array of
members with the documented rule. The same seed writes the same file.
"""
import argparse
import random
import re

# name, Swift type, literal(rng), member answer(k, salt) expression, empty value,
# usable as result
FAMILIES = [
    ("int", "Int", lambda r: str(r.randint(-50, 50)), "100 * k + {salt}", "0", True),
    ("double", "Double", lambda r: f"{r.randint(0, 99)}.5", "Double(k) + 0.25 * {salt}", "0", True),
    ("bool", "Bool", lambda r: r.choice(["true", "false"]), "(k + {salt}) % 2 == 0", "false", True),
    ("string", "String", lambda r: f'"s{r.randint(0, 999)}"', '"m\\(k)-{salt}"', '""', True),
    ("optstring", "String?", lambda r: r.choice(["nil", f'"o{r.randint(0, 9)}"']),
     'k % 2 == 1 ? nil : "m\\(k)"', "nil", True),
    ("ints", "[Int]", lambda r: "[" + ", ".join(str(r.randint(0, 9)) for _ in range(r.randint(0, 3))) + "]",
     "[k, {salt}]", "[]", True),
    ("dict", "[String: Int]", lambda r: f'["k{r.randint(0, 9)}": {r.randint(0, 9)}]', '["m\\(k)": {salt}]',
     "[:]", True),
    ("point", "GenPoint", lambda r: f"GenPoint(x: {r.randint(0, 9)}, y: {r.randint(0, 9)})",
     "GenPoint(x: k, y: {salt})", None, True),
    ("mode", "GenMode", lambda r: r.choice(["GenMode.fast", "GenMode.slow", "GenMode.off"]),
     "k % 2 == 0 ? GenMode.fast : GenMode.slow", None,
     True),
    ("token", "GenToken", lambda r: f'GenToken("t{r.randint(0, 9)}")', None, None, False),
    ("closure", "(Int) -> Int", lambda r: f"{{ $0 * {r.randint(2, 5)} }}", None, None, False),
]
PARAM_FAMILIES = FAMILIES
RESULT_FAMILIES = [f for f in FAMILIES if f[5]]
LABELS = ["with", "for", "at", "from", "using", "on", None]
VERBS = ["did", "will", "should", "wants", "handle", "note", "ask"]
NOUNS = ["Read", "Write", "Start", "Stop", "Change", "Load", "Save", "Move", "Fail", "Open"]


class Method:
    def __init__(self, r, index, used):
        while True:
            name = r.choice(VERBS) + r.choice(NOUNS) + str(index)
            if name not in used:
                used.add(name)
                break
        self.name = name
        self.params = []
        for p in range(r.randint(0, 3)):
            fam = r.choice(PARAM_FAMILIES)
            label = r.choice(LABELS) if p else None
            inout = fam[0] == "int" and r.random() < 0.2
            self.params.append((label, f"a{p}", fam, inout))
        self.is_async = r.random() < 0.25
        self.throws = r.random() < 0.3
        self.result = r.choice(RESULT_FAMILIES) if r.random() < 0.5 else None
        self.optional = r.random() < 0.2 and not any(p[3] for p in self.params)
        needs_default = self.result is not None and self.result[4] is None
        self.default = None
        if self.result is not None and (needs_default or r.random() < 0.3):
            self.default = self.result[2](r)
        self.salt = r.randint(1, 9)
        # The policy the test sets, for a value-returning method.
        self.policy = "last"
        if self.result is not None:
            choices = ["last", "last", "first"]
            if self.result[0] == "bool":
                choices += ["allTrue", "anyTrue"]
            self.policy = r.choice(choices)
        if self.policy in ("allTrue", "anyTrue"):
            # A reducer's answer for no responders is its own (true, false), not @Default.
            self.optional = False
            self.default = None
        self.error_policy = r.choice(["stop", "stop", "runAll"]) if self.throws else "stop"

    @property
    def handle(self):
        labels = [p[0] for p in self.params[1:] if p[0]]
        return self.name + "".join(l[0].upper() + l[1:] for l in labels)

    def signature(self):
        parts = []
        for label, name, fam, inout in self.params:
            typ = ("inout " if inout else "") + fam[1]
            if fam[0] == "closure" and self.is_async:
                # A non-escaping closure cannot be lent across suspensions: the macro
                # refuses it in an async method (the generator's refusal list says so).
                typ = "@escaping " + typ
            parts.append(f"{label or '_'} {name}: {typ}")
        effects = (" async" if self.is_async else "") + (" throws" if self.throws else "")
        result = f" -> {self.result[1]}" if self.result else ""
        return f"func {self.name}({', '.join(parts)}){effects}{result}"

    def call_arguments(self, values):
        out = []
        for (label, name, fam, inout), value in zip(self.params, values):
            v = f"&{value}" if inout else value
            out.append(f"{label}: {v}" if label else v)
        return ", ".join(out)

    def empty(self):
        if self.default is not None:
            return self.default
        return self.result[4]


class State:
    """A property (`{ get }` or `{ get set }`) or a subscript (`{ get set }`)."""

    def __init__(self, r, index, subscript):
        self.subscript = subscript
        self.name = f"slot" if subscript else f"value{index}"
        self.type = r.choice(RESULT_FAMILIES)
        self.settable = subscript or r.random() < 0.7
        self.salt = r.randint(1, 9)
        self.default = self.type[2](r) if self.type[4] is None else None
        choices = ["last", "last", "first"] + (["allTrue", "anyTrue"] if self.type[0] == "bool" else [])
        self.policy = r.choice(choices)

    @property
    def read_handle(self):
        return "subscriptSlot" if self.subscript else self.name

    def declaration(self):
        attrs = f"@Default({self.default}) " if self.default is not None else ""
        accessors = "{ get set }" if self.settable else "{ get }"
        if self.subscript:
            return f"{attrs}subscript(slot a: Int) -> {self.type[1]} {accessors}"
        return f"{attrs}var {self.name}: {self.type[1]} {accessors}"

    def empty(self):
        return self.default if self.default is not None else self.type[4]

    def member(self, k, value=False):
        if value:
            return self.value_member(k)
        initial = re.sub(r"\bk\b", "self.k", self.type[3].replace("{salt}", str(self.salt)))
        t = self.type[1]
        if self.subscript:
            lines = [f"  lazy var slots: [Int: {t}] = [:]",
                     f"  lazy var slotEmpty: {t} = {initial}",
                     f"  subscript(slot a: Int) -> {t} {{",
                     f'    get {{ log.record("m{k}[\\(a)]"); return slots[a] ?? slotEmpty }}',
                     f'    set {{ log.record("m{k}[\\(a)] = \\(String(describing: newValue))"); slots[a] = newValue }}',
                     "  }"]
        else:
            lines = [f"  lazy var {self.name}Store: {t} = {initial}",
                     f"  var {self.name}: {t} {{",
                     f'    get {{ log.record("m{k}.{self.name}"); return {self.name}Store }}']
            if self.settable:
                lines.append(f'    set {{ log.record("m{k}.{self.name} = \\(String(describing: newValue))"); {self.name}Store = newValue }}')
            lines.append("  }")
        return lines

    def value_member(self, k):
        """A struct member's storage and accessors: its initial value from a static
        function of `k` (a constant expression would warn in a struct's init)."""
        t = self.type[1]
        expr = self.type[3].replace("{salt}", str(self.salt))
        store = "slotEmpty" if self.subscript else f"{self.name}Store"
        lines = [f"  var {store}: {t} = Self.{store}Initial({k})",
                 f"  static func {store}Initial(_ k: Int) -> {t} {{ {expr} }}"]
        if self.subscript:
            lines += [f"  var slots: [Int: {t}] = [:]",
                      f"  subscript(slot a: Int) -> {t} {{",
                      f'    get {{ log.record("m{k}[\\(a)]"); return slots[a] ?? slotEmpty }}',
                      f'    set {{ log.record("m{k}[\\(a)] = \\(String(describing: newValue))"); slots[a] = newValue }}',
                      "  }"]
        else:
            lines += [f"  var {self.name}: {t} {{",
                      f'    get {{ log.record("m{k}.{self.name}"); return {store} }}']
            if self.settable:
                lines.append(f'    set {{ log.record("m{k}.{self.name} = \\(String(describing: newValue))"); {store} = newValue }}')
            lines.append("  }")
        return lines

    def reference(self, value=False):
        t = self.type[1]
        access = "member[slot: a]" if self.subscript else f"member.{self.name}"
        head = f"  subscript(slot a: Int) -> {t} {{" if self.subscript else f"  var {self.name}: {t} {{"
        lines = [head, "    get {"]
        if self.policy == "first":
            lines.append(f"      guard let member = members.first else {{ return {self.empty()} }}")
            lines.append(f"      return {access}")
        elif self.policy == "last":
            lines.append(f"      var answer: Optional<{t}> = nil")
            lines.append(f"      for member in members {{ answer = {access} }}")
            lines.append(f"      guard let answer else {{ return {self.empty()} }}")
            lines.append("      return answer")
        else:
            init, op = ("true", "&&") if self.policy == "allTrue" else ("false", "||")
            lines.append(f"      var answer = {init}")
            lines.append(f"      for member in members {{ let value = {access}; answer = value {op} answer }}")
            lines.append("      return answer")
        lines.append("    }")
        if self.settable and value:
            at = "members[index][slot: a]" if self.subscript else f"members[index].{self.name}"
            lines.append(f"    set {{ for index in members.indices {{ {at} = newValue }} }}")
        elif self.settable:
            lines.append(f"    set {{ for member in members {{ {access} = newValue }} }}")
        lines.append("  }")
        return lines


# Literals a generic method is called with: its generic parameter is inferred from each.
GENERIC_VALUES = [
    lambda r: str(r.randint(-9, 9)),
    lambda r: f'"g{r.randint(0, 99)}"',
    lambda r: f"GenPoint(x: {r.randint(0, 9)}, y: {r.randint(0, 9)})",
    lambda r: "[" + ", ".join(str(r.randint(0, 9)) for _ in range(r.randint(1, 3))) + "]",
    lambda r: r.choice(["GenMode.fast", "GenMode.off"]),
]


class GenericMethod:
    """A generic method requirement: forwarded to every member, in order, with the same
    generic arguments; no handle, so no policy: the last member's answer (nil, 0 or the
    `@Default` when there is no member), and the first error stops the call."""

    def __init__(self, r, index):
        self.shape = r.choice(["echo", "sum", "collect", "tagged"])
        self.name = {"echo": "echo", "sum": "sum", "collect": "collect", "tagged": "tagged"}[self.shape] + f"G{index}"
        self.is_async = r.random() < 0.25
        self.throws = r.random() < 0.3
        self.salt = r.randint(1, 9)
        self.default = f"{r.randint(-9, -1)}" if self.shape == "tagged" and r.random() < 0.5 else None

    def signature(self):
        effects = (" async" if self.is_async else "") + (" throws" if self.throws else "")
        if self.shape == "echo":
            return f"func {self.name}<T: Sendable>(_ value: T, tag: Int){effects} -> T?"
        if self.shape == "sum":
            return f"func {self.name}<C: Collection & Sendable>(_ items: C){effects} -> Int where C.Element == Int"
        if self.shape == "collect":
            return f"func {self.name}<T>(_ value: T, into seen: inout [String]){effects}"
        return f"func {self.name}<T: Sendable, U: Sendable>(_ first: T, and second: U){effects} -> Int"

    def declaration(self):
        return (f"@Default({self.default}) " if self.default is not None else "") + self.signature()

    def member(self, k):
        lines = [f"  {self.signature()} {{"]
        if self.shape == "echo":
            lines.append(f'    log.record("m{k}.{self.name}(\\(value), tag: \\(tag)) as \\(T.self)")')
        elif self.shape == "sum":
            lines.append(f'    log.record("m{k}.{self.name}(\\(items.count) items, sum \\(items.reduce(0, +))) as \\(C.self)")')
        elif self.shape == "collect":
            lines.append(f'    log.record("m{k}.{self.name}(\\(value), \\(seen)) as \\(T.self)")')
            lines.append(f'    seen.append("m{k}:\\(value)")')
        else:
            lines.append(f'    log.record("m{k}.{self.name}(\\(first), \\(second)) as \\(T.self), \\(U.self)")')
        if self.throws:
            lines.append(f'    if failing.contains("{self.name}") {{ throw GenError(member: {k}, method: "{self.name}") }}')
        if self.shape == "echo":
            lines.append("    return value")
        elif self.shape == "sum":
            lines.append(f"    return items.reduce(0, +) + {100 * k + self.salt}")
        elif self.shape == "tagged":
            lines.append(f"    return {10 * k + self.salt}")
        lines.append("  }")
        return lines

    def reference(self):
        call_args = {"echo": "value, tag: tag", "sum": "items", "collect": "value, into: &seen",
                     "tagged": "first, and: second"}[self.shape]
        marker = ("try " if self.throws else "") + ("await " if self.is_async else "")
        lines = [f"  {self.signature()} {{"]
        if self.shape == "collect":
            lines.append(f"    for member in members {{ {marker}member.{self.name}({call_args}) }}")
        else:
            typ = {"echo": "T?", "sum": "Int?", "tagged": "Int?"}[self.shape]
            empty = "nil" if self.shape == "echo" else (self.default if self.default is not None else "0")
            lines.append(f"    var answer: {typ} = nil")
            lines.append(f"    for member in members {{ answer = {marker}member.{self.name}({call_args}) }}")
            lines.append(f"    return answer ?? {empty}")
        lines.append("  }")
        return lines

    def test_call(self, r, target):
        """(declarations, the call's text as a String expression)."""
        marker = ("try " if self.throws else "") + ("await " if self.is_async else "")
        if self.shape == "echo":
            v = r.choice(GENERIC_VALUES)(r)
            return [], f"String(describing: {marker}{target}.{self.name}({v}, tag: {r.randint(0, 9)}))"
        if self.shape == "sum":
            v = "[" + ", ".join(str(r.randint(0, 9)) for _ in range(r.randint(0, 3))) + "]"
            coll = r.choice([v, f"Set({v})", f"{v}.reversed()"]) if v != "[]" else v
            if coll == "[]":
                coll = "[Int]()"
            return [], f"String(describing: {marker}{target}.{self.name}({coll}))"
        if self.shape == "collect":
            v = r.choice(GENERIC_VALUES)(r)
            return ["var seen: [String] = []"], f"{marker}{{ () {'async ' if self.is_async else ''}{'throws ' if self.throws else ''}-> String in {marker}{target}.{self.name}({v}, into: &seen); return seen.joined(separator: \",\") }}()"
        a, b = r.choice(GENERIC_VALUES)(r), r.choice(GENERIC_VALUES)(r)
        return [], f"String(describing: {marker}{target}.{self.name}({a}, and: {b}))"



def member_body(m, k):
    """A member's implementation: records its call, may throw, answers."""
    lines = []
    shown = []
    for label, name, fam, inout in m.params:
        if fam[0] == "closure":
            shown.append(f"\\({name}({k + 1}))")
        elif fam[0] == "token":
            shown.append(f"\\({name}.name)")
        else:
            shown.append(f"\\(String(describing: {name}))")
    lines.append(f'    log.record("m{k}.{m.name}({", ".join(shown)})")')
    for label, name, fam, inout in m.params:
        if inout:
            lines.append(f"    {name} += {k + 1}")
    if m.throws:
        lines.append(f'    if failing.contains("{m.name}") {{ throw GenError(member: {k}, method: "{m.name}") }}')
    if m.result:
        expr = m.result[3].replace("{salt}", str(m.salt))
        lines.append(f"    return {expr}")
    return "\n".join(lines)


def write(seed, count, parents=None):
    """The test file's text; `parents`, a list, also gets each protocol's
    (name, is a value protocol, [(attributes, requirement)]), for write_parents."""
    r = random.Random(seed)
    out = [f"// Generated by IntegrationTests/Scripts/generate-protocols.py --seed {seed} --count {count}.",
           "// Do not edit: run the script (or Scripts/generated-protocols.sh) instead.",
           "", "import DelegateProxy", "import Testing", ""]
    tests = []
    for pi in range(count):
        used = set()
        methods = [Method(r, i, used) for i in range(r.randint(1, 5))]
        nmembers = r.randint(2, 3)
        pname = f"Gen{pi}"
        # State requirements from a stream of their own (the methods stay as they were).
        rs = random.Random(seed * 1_000_003 + pi)
        states = [State(rs, i, False) for i in range(rs.randint(0, 2))]
        if rs.random() < 0.3:
            states.append(State(rs, 0, True))
        # About one protocol in three is not bound to classes: a struct multicast of
        # struct members, with a mutating requirement (its own stream again).
        rv = random.Random(seed * 7_919 + pi)
        value = rv.random() < 0.3
        # Generic methods, from a stream of their own.
        rg = random.Random(seed * 104_729 + pi)
        generics = [GenericMethod(rg, i) for i in range(rg.choice([0, 0, 1, 2]))]
        out.append(f"@Delegate")
        out.append(f"protocol {pname}{'' if value else ': AnyObject'} {{")
        if value:
            out.append(f"  mutating func bump(by step: Int) -> Int")
        for m in methods:
            attrs = ""
            if m.optional:
                attrs += "@Optional "
            if m.default is not None:
                attrs += f"@Default({m.default}) "
            out.append(f"  {attrs}{m.signature()}")
        for st in states:
            out.append(f"  {st.declaration()}")
        for g in generics:
            out.append(f"  {g.declaration()}")
        out.append("}")
        out.append("")
        if parents is not None:
            requirements = [("", "mutating func bump(by step: Int) -> Int")] if value else []
            for m in methods:
                # No @Optional: a restated requirement is one its parent requires (the
                # macro refuses @Optional there).
                attrs = f"@Default({m.default})" if m.default is not None else ""
                requirements.append((attrs, m.signature()))
            for st in states:
                attrs = f"@Default({st.default})" if st.default is not None else ""
                requirements.append((attrs, st.declaration()[len(attrs):].strip()))
            for g in generics:
                attrs = f"@Default({g.default})" if g.default is not None else ""
                requirements.append((attrs, g.signature()))
            parents.append((pname, value, requirements))
        # Which members implement each optional method.
        implements = {}
        for m in methods:
            if m.optional:
                implements[m.name] = [k for k in range(nmembers) if r.random() < 0.6]
            else:
                implements[m.name] = list(range(nmembers))
        for k in range(nmembers):
            out.append(f"{'struct' if value else 'final class'} {pname}Member{k}: {pname}, GenMember {{")
            out.append(f"  let k = {k}")
            if value:
                out.append("  var total = 0")
                out.append("  mutating func bump(by step: Int) -> Int {")
                out.append(f'    log.record("m{k}.bump(\\(step)) from \\(total)")')
                out.append(f"    total += step + {k}")
                out.append("    return total")
                out.append("  }")
            out.append("  let log: GenLog")
            out.append("  let failing: Set<String>")
            names = sorted(m.name for m in methods if k in implements[m.name])
            out.append(f"  let implements: Set<String> = [{', '.join(repr(n).replace(chr(39), chr(34)) for n in names)}]")
            out.append("  init(log: GenLog, failing: Set<String>) {")
            out.append("    self.log = log")
            out.append("    self.failing = failing")
            out.append("  }")
            for st in states:
                out.extend(st.member(k, value))
            for g in generics:
                out.extend(g.member(k))
            for m in methods:
                if k not in implements[m.name]:
                    continue
                out.append(f"  {m.signature()} {{")
                out.append(member_body(m, k))
                out.append("  }")
            out.append("}")
            out.append("")
        # The reference: a hand-written loop per method.
        out.append(f"final class {pname}Reference {{")
        out.append(f"  {'var' if value else 'let'} members: [any {pname} & GenMember]")
        out.append(f"  init(_ members: [any {pname} & GenMember]) {{ self.members = members }}")
        if value:
            out.append("  func bump(by step: Int) -> Int {")
            out.append("    var answer = 0")
            out.append("    for index in members.indices { answer = members[index].bump(by: step) }")
            out.append("    return answer")
            out.append("  }")
        for st in states:
            out.extend(st.reference(value))
        for g in generics:
            out.extend(g.reference())
        for m in methods:
            out.append(f"  {m.signature()} {{")
            out.append(f'    let responders = members.filter {{ $0.implements.contains("{m.name}") }}')
            call = f"{'try ' if m.throws else ''}{'await ' if m.is_async else ''}member.{m.name}({m.call_arguments([p[1] for p in m.params])})"
            if m.result is None or m.policy in ("last", "allTrue", "anyTrue"):
                if m.result is not None:
                    init = {"last": "nil", "allTrue": "true", "anyTrue": "false"}[m.policy]
                    typ = f"{m.result[1]}?" if m.policy == "last" else "Bool"
                    if m.policy == "last" and m.result[1].endswith("?"):
                        typ = f"Optional<{m.result[1]}>"
                    out.append(f"    var answer: {typ} = {init}")
                if m.error_policy == "runAll":
                    out.append("    var errors: [any Error] = []")
                out.append("    for member in responders {")
                body = call
                if m.result is not None:
                    op = {"last": "answer = {c}", "allTrue": "answer = {c} && answer",
                          "anyTrue": "answer = {c} || answer"}[m.policy]
                    # Every responder is called: evaluate the call first.
                    body = f"let value = {call}\n      " + op.format(c="value")
                if m.error_policy == "runAll":
                    out.append("      do {")
                    out.append("        " + body.replace("\n      ", "\n        "))
                    out.append("      } catch { errors.append(error) }")
                else:
                    out.append("      " + body)
                out.append("    }")
                if m.error_policy == "runAll":
                    out.append("    if !errors.isEmpty { throw MemberErrors(errors) }")
                if m.result is not None:
                    if m.policy == "last":
                        out.append(f"    guard let answer else {{ return {m.empty()} }}")
                        out.append("    return answer")
                    else:
                        out.append("    return answer")
            else:  # first responder
                out.append(f"    guard let member = responders.first else {{ return {m.empty()} }}")
                if m.error_policy == "runAll":
                    out.append(f"    do {{ return {call} }} catch {{ throw MemberErrors([error]) }}")
                else:
                    out.append(f"    return {call}")
            out.append("  }")
        out.append("}")
        out.append("")
        # The test: the same calls through both, twice each, with a failing set per member.
        failing = [[m.name for m in methods if m.throws and r.random() < 0.35] for _ in range(nmembers)]
        for k in range(nmembers):
            failing[k] += [g.name for g in generics if g.throws and rg.random() < 0.35]
        t = []
        t.append(f"  @Test func protocol{pi}() async throws {{")
        t.append("    let seen = GenLog(), expected = GenLog()")
        for k in range(nmembers):
            fs = ", ".join(f'"{n}"' for n in failing[k])
            t.append(f"    let a{k} = {pname}Member{k}(log: seen, failing: [{fs}])")
            t.append(f"    let b{k} = {pname}Member{k}(log: expected, failing: [{fs}])")
        t.append(f"    {'var' if value else 'let'} multicast = {pname}Multicast()")
        for k in range(nmembers):
            t.append(f"    multicast.add(a{k})")
        t.append(f"    let reference = {pname}Reference([{', '.join(f'b{k}' for k in range(nmembers))}])")
        for m in methods:
            policy = {"last": None, "first": ".firstResponder", "allTrue": ".reduce(.allTrue)",
                      "anyTrue": ".reduce(.anyTrue)"}[m.policy]
            if policy:
                t.append(f"    multicast.setPolicy({policy}, for: \\.{m.handle})")
            if m.error_policy == "runAll":
                t.append(f"    multicast.setErrorPolicy(.runAll, for: \\.{m.handle})")
        for m in methods:
            for _ in range(2):
                values = [p[2][2](r) for p in m.params]
                prefix = ("try " if m.throws else "") + ("await " if m.is_async else "")
                for target, name in (("multicast", "got"), ("reference", "want")):
                    decls = [f"var {p[1]} = {v}" for p, v in zip(m.params, values) if p[3]]
                    args = m.call_arguments([p[1] if p[3] else v for p, v in zip(m.params, values)])
                    inouts = [p[1] for p in m.params if p[3]]
                    shown = "" if not inouts else " + \"|\" + " + " + \"|\" + ".join(f"String({n})" for n in inouts)
                    result = f"String(describing: {prefix}{target}.{m.name}({args}))" if m.result else f"{{ {prefix}{target}.{m.name}({args}); return \"()\" }}()"
                    if m.result is None:
                        result = f"{prefix}{{ () {'async ' if m.is_async else ''}{'throws ' if m.throws else ''}-> String in {prefix}{target}.{m.name}({args}); return \"()\" }}()"
                    body = "; ".join(decls + [f"return {result}{shown}"])
                    t.append(f"    let {name}{m.name}_{_} = await genOutcome {{ {body} }}")
                t.append(f"    #expect(got{m.name}_{_} == want{m.name}_{_}, \"{pname}.{m.signature()}\")")
        for st in states:
            policy = {"last": None, "first": ".firstResponder", "allTrue": ".reduce(.allTrue)",
                      "anyTrue": ".reduce(.anyTrue)"}[st.policy]
            if policy:
                t.append(f"    multicast.setPolicy({policy}, for: \\.{st.read_handle})")
            access = (lambda target, i: f"{target}[slot: {i}]") if st.subscript else (
                lambda target, i: f"{target}.{st.name}")
            steps = [("read", 1), ("read", 2)]
            if st.settable:
                steps += [("write", 1), ("read", 1), ("read", 2)]
            for n, (what, i) in enumerate(steps):
                if what == "read":
                    t.append(f"    #expect(String(describing: {access('multicast', i)}) == "
                             f"String(describing: {access('reference', i)}), \"{pname}.{st.name} read {n}\")")
                else:
                    written = st.type[2](rs)
                    t.append(f"    {access('multicast', i)} = {written}")
                    t.append(f"    {access('reference', i)} = {written}")
        for g in generics:
            for n in range(2):
                state = rg.getstate()
                for target, name in (("multicast", "got"), ("reference", "want")):
                    rg.setstate(state)  # the same arguments for both
                    decls, call = g.test_call(rg, target)
                    body = "; ".join(decls + [f"return {call}"])
                    t.append(f"    let {name}{g.name}_{n} = await genOutcome {{ {body} }}")
                t.append(f"    #expect(got{g.name}_{n} == want{g.name}_{n}, \"{pname}.{g.signature()}\")")
        if value:
            # Each member's stored value changes; later calls see it.
            for step in (1, 2):
                t.append(f"    #expect(multicast.bump(by: {step}) == reference.bump(by: {step}))")
        t.append("    #expect(seen.entries == expected.entries)")
        t.append("  }")
        tests.append("\n".join(t))
    out.append("@Suite(\"Generated protocols against hand-written fan-outs (seed %d)\")" % seed)
    out.append("struct GeneratedProtocolTests {")
    out.append("\n\n".join(tests))
    out.append("}")
    return "\n".join(out) + "\n"


# The shapes @Delegate refuses, each a requirement drawn with random types; the macro must
# refuse every one with an error on its line (or, for the protocol's own clauses, on the
# protocol's line). When the macro learns a shape, move it into the families above.
REFUSED = [
    ("typed throws", lambda t, u: f"func probe(_ a: {t}) throws(GenError) -> {u}"),
    ("rethrows", lambda t, u: f"func probe(_ a: {t}, _ f: () throws -> Void) rethrows"),
    ("variadic parameter", lambda t, u: f"func probe(_ a: {t}...)"),
    ("static requirement", lambda t, u: f"static func probe(_ a: {t})"),
    # An associated type constrained to one @Delegate protocol is bound to its multicast
    # (AssociatedTypeTests, SwiftTracingIntegrationTests); these forms stay refused.
    ("associated type without a constraint", lambda t, u: "associatedtype Probe"),
    ("associated type as a parameter", lambda t, u: "associatedtype Probe: Sendable; func probe(_ a: Probe)"),
    ("associated type held in a result", lambda t, u: "associatedtype Probe: Sendable; func probe() -> [Probe]"),
    ("associated type in a property", lambda t, u: "associatedtype Probe: Sendable; var probe: Probe { get }"),
    ("initializer", lambda t, u: f"init(probe: {t})"),
    ("Self in a parameter", lambda t, u: f"func probe(_ a: Self, _ b: {t})"),
    ("non-escaping closure in an async method", lambda t, u: f"func probe(_ f: ({t}) -> Void) async"),
    ("'some' parameter", lambda t, u: "func probe(_ a: some Collection)"),
    ("@Default on a void method", lambda t, u: f"@Default(1) func probe(_ a: {t})"),
    ("result with no empty value and no @Default", lambda t, u: f"func probe(_ a: {t}) -> Any"),
    ("static property", lambda t, u: f"static var probe: {u} {{ get }}"),
    ("generic subscript", lambda t, u: f"subscript<T>(probe a: T) -> {u} {{ get }}"),
    ("typed throws getter", lambda t, u: f"var probe: {u} {{ get throws(GenError) }}"),
    ("mutating requirement that throws", lambda t, u: f"mutating func probe(_ a: {t}) throws"),
]


def write_refused(seed):
    r = random.Random(seed * 7919 + 1)
    out = ["// Generated by IntegrationTests/Scripts/generate-protocols.py --refused: each protocol",
           "// holds one shape @Delegate refuses; it must not compile.", "", "import DelegateProxy", ""]
    for i, (shape, make) in enumerate(REFUSED):
        t = r.choice([f for f in FAMILIES if f[0] not in ("closure",)])[1]
        u = r.choice(RESULT_FAMILIES)[1]
        bound = "" if "mutating" in shape else ": AnyObject"
        out.append(f"// refused: {shape}")
        out.append("@Delegate")
        out.append(f"protocol Refused{i}{bound} {{")
        out.append(f"  func fine{i}(_ a: {t})")
        if make is not None:
            out.append("  " + make(t, u))
        out.append("}")
        out.append("")
    return "\n".join(out)


def check_refused(log_path, refused_path):
    """Every probe has an error on its shape's line or its protocol's; prints the list."""
    import re
    with open(refused_path) as f:
        lines = f.read().splitlines()
    probes = []  # (shape, protocol line, shape line)
    for n, line in enumerate(lines, 1):
        if line.startswith("// refused: "):
            shape = line[len("// refused: "):]
            probes.append((shape, n + 2, n + 4 if lines[n + 3].strip() != "}" else n + 2))
    errors = {}
    name = refused_path.split("/")[-1]
    with open(log_path) as f:
        for line in f:
            m = re.search(re.escape(name) + r":(\d+):\d+: error: (.*)", line)
            if m:
                errors.setdefault(int(m.group(1)), set()).add(m.group(2).replace(" (from macro 'Delegate')", ""))
    missing = 0
    print(f"integration: {len(probes)} shapes @Delegate refuses, with its reasons:")
    for shape, protocol_line, shape_line in probes:
        found = errors.get(shape_line, set()) | errors.get(protocol_line, set())
        if not found:
            missing += 1
            print(f"  - {shape}: NOT REFUSED (no error on line {shape_line} or {protocol_line})")
        else:
            print(f"  - {shape}: {sorted(found)[0]}")
    return 1 if missing else 0


def write_parents(seed, count, directory):
    """The generated protocols as a module's plain public protocols (Parents.swift, for
    `swift package restate-delegate`), and their hand restatements (Hand.swift: each
    `@Delegate` protocol's requirements, with its @Default, restating its parent), and the
    refused shapes as protocols of that module (each a `fine` requirement and one the macro
    refuses; the shape's name in a comment above it) with their hand restatements
    (HandRefused.swift)."""
    protocols = []
    write(seed, count, protocols)
    head = f"// Generated by IntegrationTests/Scripts/generate-protocols.py --seed {seed} --count {count} --parents."
    parents = [head, "// The generated protocols as a module of plain protocols, restated by the command.", ""]
    hand = [head, "// The hand restatement of each generated protocol: its @Delegate protocol's requirements.", "",
            "import DelegateProxy", "import GeneratedParents", ""]
    for pname, value, requirements in protocols:
        parents.append(f"public protocol {pname}{'' if value else ': AnyObject'} {{")
        parents.extend(f"  {text}" for _, text in requirements)
        parents.append("}")
        parents.append("")
        hand.append(f"@Delegate(for: {pname}.self{', semantics: .value' if value else ''})")
        hand.append(f"protocol {pname}s: {pname} {{")
        hand.extend(f"  {(attrs + ' ') if attrs else ''}{text}" for attrs, text in requirements)
        hand.append("}")
        hand.append("")
    refused = [head, "// The hand restatement of each refused shape: the macro must refuse each.", "",
               "import DelegateProxy", "import GeneratedParents", ""]
    r = random.Random(seed * 7919 + 1)
    for i, (shape, make) in enumerate(REFUSED):
        t = r.choice([f for f in FAMILIES if f[0] not in ("closure",)])[1]
        u = r.choice(RESULT_FAMILIES)[1]
        if shape.startswith("@Default"):
            continue  # an attribute of the restatement: a parent cannot have it
        bound = "" if "mutating" in shape else ": AnyObject"
        requirements = [f"  func fine{i}(_ a: {t})"] + ["  " + part for part in make(t, u).split("; ")]
        parents += [f"// refused: {shape}", f"public protocol Refused{i}{bound} {{"] + requirements + ["}", ""]
        refused += [f"// refused: {shape}", f"@Delegate(for: Refused{i}.self)",
                    f"protocol Refused{i}Hand: Refused{i} {{"] + requirements + ["}", ""]
    for name, lines in (("Parents", parents), ("Hand", hand), ("HandRefused", refused)):
        with open(f"{directory}/{name}.swift", "w") as f:
            f.write("\n".join(lines))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--out")
    parser.add_argument("--refused", help="with --out: also write the refused shapes there")
    parser.add_argument("--check-refused", metavar="LOG",
                        help="check a failed build's log against the --refused file")
    parser.add_argument("--parents", metavar="DIR",
                        help="write DIR/Parents.swift and DIR/Hand.swift (see write_parents)")
    args = parser.parse_args()
    if args.parents:
        write_parents(args.seed, args.count, args.parents)
        return
    if args.check_refused:
        raise SystemExit(check_refused(args.check_refused, args.refused))
    with open(args.out, "w") as f:
        f.write(write(args.seed, args.count))
    if args.refused:
        with open(args.refused, "w") as f:
            f.write(write_refused(args.seed))


if __name__ == "__main__":
    main()
