#!/usr/bin/env python3
"""Generates the hand-picked signature cases the Swift tests compare the runtime against.

    python3 Tests/DelegateProxyCTestSupport/gen_signature_cases.py

writes, next to this script:

  include/SignatureCases.h  the C struct/union types of the table (prefixed `sc_`), the
                            case table type and the recorder accessors;
  SignatureCases.c          for every signature in CASES below:
                              - a recording IMP `R sc_impl_N(dp_id self, dp_sel _cmd, ...)`,
                              - a direct caller `sc_call_N(imp, self, sel, args, ret)`,
                            and the table that lists them (`dp_sig_case_count`,
                            `dp_sig_case_at`) with the recorder's accessors.

What a recording IMP does
-------------------------
It records, into a thread-local record, exactly what it received: `self`, `_cmd`, and
for each argument the bytes of every scalar leaf in order (struct fields, array
elements, a union's largest member — the leaf order `SignatureHarness.swift` computes
in Swift). Two refinements:

  * A top-level `c C s S B` argument is recorded widened to 8 bytes (sign- or
    zero-extended by its C type). On x86-64 the IMP declares such a parameter, when it
    travels in a register, as the 32-bit integer the caller must have extended it to
    (`SC_NARROW`; the generator assigns registers as the System V ABI does). Clang
    relies on that extension in optimized callees, so a caller that skips it (a raw
    register copy) must show up as a wrong value even in a debug build. The direct
    caller uses the real narrow type, so C itself does the extension there.
  * A `long double` leaf records its significant bytes only (`DP_SIG_LDBL_BYTES`: 10 for
    x87, 16 for IEEE quad).

It also dereferences what it can — the characters of a `char *`, the class name of an
object (`@`), the name of a class (`#`) and of a selector (`:`) — into a second byte
record ("deref"), each string NUL-terminated, `~` for NULL. A wrong pointer therefore
crashes or records the wrong text.

It then hashes both records (FNV-1a, 64 bits) and returns a value whose every scalar
leaf is derived from the hash (integers from hash bits, floating point as exact small
fractions, `_Bool` as 0/1, `long double` with a full 64-bit mantissa, pointers from
hash bits). Through a pointer argument to sized data (`^q`, `^{CGPoint=dd}`, …) it
updates every leaf of the pointee from its old value and the hash, so the tests can
check that writes come back through every calling path.

What a direct caller does
-------------------------
`sc_call_N(imp, self, sel, args, ret)` calls `imp` through the exact C function type,
argument i (from 2) taken from `*(T *)args[i - 2]`, and copies the result into `ret`
(`sizeof R` bytes). This is the reference call, and also how the tests call a proxy's
forwarding IMP from C.

Adding a case: append a row to CASES (give every struct/union a name — it becomes the C
type `sc_<name>` unless it already starts with `sc_`), run this script, and commit the
regenerated files with it. Only the Python 3 standard library is used.
"""

import os
import sys

# ---------------------------------------------------------------------------------------
# The table.
#
# Each row: (name, ObjC method encoding, in registers on x86-64 System V, what it covers).
#
# "In registers" is the expected value of `MethodSignature.travelsInRegisters` on
# x86-64 Linux: true when every argument (self and _cmd included) gets integer/SSE
# registers (6 integer, 8 SSE) and the result comes back in registers; false for
# anything on the stack, a result in memory (sret) or any `long double`. It is stated
# by hand, from the ABI, so that a regression in the runtime's classifier fails a test.
# ---------------------------------------------------------------------------------------

CASES = [
    # Every scalar kind, as argument and result (result widening in closures).
    ("char", "c@:c", True, "signed char in/out"),
    ("uchar", "C@:C", True, "unsigned char in/out"),
    ("short", "s@:s", True, "short in/out"),
    ("ushort", "S@:S", True, "unsigned short in/out"),
    ("int", "i@:i", True, "int in/out"),
    ("uint", "I@:I", True, "unsigned int in/out"),
    ("long32", "l@:l", True, "ObjC 'l' (32-bit) in/out"),
    ("ulong32", "L@:L", True, "ObjC 'L' (32-bit) in/out"),
    ("longlong", "q@:q", True, "long long in/out"),
    ("ulonglong", "Q@:Q", True, "unsigned long long in/out"),
    ("float", "f@:f", True, "float in/out"),
    ("double", "d@:d", True, "double in/out"),
    ("bool", "B@:B", True, "_Bool in/out"),
    ("voidptr", "^v@:^v", True, "void * in/out"),
    ("cstring", "*@:*", True, "char * (real C strings) in/out"),
    ("object", "@@:@", True, "id (real handles) in/out"),
    ("selector", ":@::", True, "SEL in/out"),
    ("class", "#@:#", True, "Class in/out"),
    ("void_noargs", "v@:", True, "void result, no arguments"),
    ("narrow_mix", "s@:cCsB", True, "narrow integers in registers, short result"),
    # Integer and floating-point register exhaustion.
    ("gp_exact", "q@:qqqq", True, "exactly 6 integer registers (self, _cmd, 4)"),
    ("gp_spill", "q@:qqqqq", False, "7 integer arguments: the last on the stack"),
    ("gp_all_widths", "v@:cCsSiIlLqQ", False, "every integer width, 12 integer args"),
    ("fp_exact", "d@:dddddddd", True, "exactly 8 SSE registers"),
    ("fp_spill", "d@:ddddddddd", False, "9 doubles: the last on the stack"),
    ("fp_mixed_spill", "f@:fdfdfdfdfd", False, "10 float/double: stack"),
    ("mixed_fit", "d@:qdqdqd", True, "mixed integer/SSE, all in registers"),
    ("mixed_spill", "q@:qdqdqdqdqdqdf", False, "mixed, both banks overflow"),
    ("char_ret_stack", "c@:qqqqqq", False, "char result, arguments on the stack"),
    ("narrow_on_stack", "s@:qqqqcsBC", False, "narrow integers in stack slots"),
    ("ushort_ret_stack", "S@:ffffffffff", False, "unsigned short result, floats spill"),
    # Structs by value: small, large, nested, mixed, floating point only, arrays inside.
    ("small8", "{Small8=ii}@:{Small8=ii}", True, "8-byte struct (one INTEGER eightbyte)"),
    ("small16", "{Small16=qq}@:{Small16=qq}", True, "16-byte struct (two INTEGER)"),
    ("tiny3", "{Tiny3=ccc}@:{Tiny3=ccc}i", True, "3-byte struct, odd size"),
    ("odd12", "{Odd12=iii}@:{Odd12=iii}", True, "12-byte integer struct"),
    ("large24", "{Large24=qqq}@:{Large24=qqq}", False, "24 bytes: memory arg, sret"),
    ("large32", "{Large32=dddd}@:{Large32=dddd}", False, "32 bytes of doubles: memory"),
    ("big40", "{Big40=qdiiqd}@:{Big40=qdiiqd}q", False, "40-byte mixed struct, sret"),
    ("big40_ret_only", "{Big40=qdiiqd}@:id", False, "40-byte result from scalars"),
    ("int_double", "{IntDouble=id}@:{IntDouble=id}", True, "INTEGER then SSE eightbyte"),
    ("double_int", "{DoubleInt=di}@:{DoubleInt=di}", True, "SSE then INTEGER eightbyte"),
    ("float_int_float", "{FIF=fif}@:{FIF=fif}", True, "float+int share an eightbyte"),
    ("float3", "{Float3=fff}@:{Float3=fff}", True, "12-byte float-only struct (SSE, SSE)"),
    ("double2", "{Double2=dd}@:{Double2=dd}", True, "two doubles (SSE, SSE)"),
    ("float4", "{Float4=ffff}@:{Float4=ffff}", True, "four floats (SSE, SSE)"),
    ("double1", "{Double1=d}@:{Double1=d}f", True, "one-double struct"),
    ("nested", "{Outer={Inner=cs}i{Pt=ff}}@:{Outer={Inner=cs}i{Pt=ff}}", True,
     "nested structs, INTEGER + SSE"),
    ("nested_deep", "{Deep3={Mid={Leaf=cd}i}f}@:{Deep3={Mid={Leaf=cd}i}f}", False,
     "three levels of nesting, 32 bytes"),
    ("array_in_struct", "{sc_arr=[3i]c}@:{sc_arr=[3i]c}", True, "array inside a struct"),
    ("double_array", "{DArr=[2d]}@:{DArr=[2d]}d", True, "array of doubles inside a struct"),
    ("flags", "{Flags=BBcs}@:{Flags=BBcs}", True, "bools and narrow integers in a struct"),
    ("refs", "{Refs=@:#*}@:{Refs=@:#*}", False, "objects, selector, class, string fields"),
    ("pointer_struct", "{PtrPair=^v*}@:{PtrPair=^v*}", True, "pointers in a 16-byte struct"),
    # Unions.
    ("union_int_float", "(IntFloat=if)@:(IntFloat=if)", True, "int/float union (INTEGER)"),
    ("union_float_double", "(FloatDouble=fd)@:(FloatDouble=fd)", True,
     "float/double union (SSE)"),
    ("union_of_structs", "(UPair={Double2=dd}{Small16=qq})@:(UPair={Double2=dd}{Small16=qq})",
     True, "union of two 16-byte structs"),
    ("struct_with_union", "{WithUnion=(IntFloat=if)d}@:{WithUnion=(IntFloat=if)d}", True,
     "union inside a struct"),
    # A 16-byte struct that no longer fits the integer registers goes to the stack whole,
    # and the int after it still takes the last free register.
    ("struct_no_fit", "q@:qqq{Small16=qq}i", False, "16-byte struct past the registers"),
    ("float_struct_no_fit", "d@:dddddddd{Float3=fff}q", False,
     "float struct past the SSE registers"),
    # Pointer out-parameters: the IMP writes through them.
    ("out_params", "v@:^q^d", True, "writes through ^q and ^d"),
    ("out_point", "B@:^{CGPoint=dd}", True, "writes through ^{CGPoint=dd}"),
    ("out_large", "Q@:^{Large32=dddd}^i", True, "writes through pointers to larger data"),
    # long double: always in memory (arguments) or x87 (result) — never register replay.
    ("longdouble", "D@:D", False, "long double in/out"),
    ("longdouble_mixed", "D@:iDdD", False, "long double among other arguments"),
    ("longdouble_arg", "v@:D", False, "long double argument, void result"),
    ("longdouble_struct", "{LD1=D}@:{LD1=D}", False, "struct of one long double (x87 result)"),
    # (As a result, (LDU=Dq) is refused: see SignatureTableTests.refused.)
    ("longdouble_union", "q@:(LDU=Dq)i", False, "union with a long double (memory)"),
    ("longdouble_union_in_struct", "{LDHolder=c(LDU=Dq)i}@:{LDHolder=c(LDU=Dq)i}d", False,
     "16-aligned union inside a struct"),
    # Real delegate signatures.
    ("delegate_point", "v@:@{CGPoint=dd}^{CGPoint=dd}", True,
     "scrollViewWillEndDragging:withVelocity:targetContentOffset:"),
    ("delegate_rows", "q@:@q", True, "tableView:numberOfRowsInSection:"),
    ("delegate_height", "d@:@q", True, "tableView:heightForRowAtIndexPath:"),
    ("delegate_should", "B@:@@", True, "gestureRecognizer:shouldRecognize…:"),
    ("delegate_add", "q@:qd", True, "add:to:"),
    # Many arguments of every class at once.
    ("kitchen_sink_fit", "{IntDouble=id}@:i{Float4=ffff}q{DoubleInt=di}dfs", True,
     "mixed structs and scalars, exactly fitting"),
    ("kitchen_sink_spill", "{Large24=qqq}@:@:{Small16=qq}{Double2=dd}dddddd#B*", False,
     "everything at once, spilling"),
    ("typed_small", "i@:if", True, "Int32/Float typed message"),
    ("typed_float", "f@:ff", True, "Float typed message"),
]

# ---------------------------------------------------------------------------------------
# Type grammar: a small parser for the ObjC encodings used above.
# ---------------------------------------------------------------------------------------

# Scalar codes → (C type, size, alignment, leaf kind).
# Kinds: int (signed/unsigned integer), bool, float, double, ldouble, ptr (not
# dereferenced), str, obj, cls, sel.
SCALARS = {
    "c": ("signed char", 1, 1, "int"),
    "C": ("unsigned char", 1, 1, "int"),
    "s": ("short", 2, 2, "int"),
    "S": ("unsigned short", 2, 2, "int"),
    "i": ("int", 4, 4, "int"),
    "I": ("unsigned int", 4, 4, "int"),
    "l": ("int32_t", 4, 4, "int"),  # ObjC 'l' is 32 bits even on LP64
    "L": ("uint32_t", 4, 4, "int"),
    "q": ("long long", 8, 8, "int"),
    "Q": ("unsigned long long", 8, 8, "int"),
    "f": ("float", 4, 4, "float"),
    "d": ("double", 8, 8, "double"),
    "D": ("long double", 16, 16, "ldouble"),
    "B": ("_Bool", 1, 1, "bool"),
    "*": ("char *", 8, 8, "str"),
    "@": ("dp_id", 8, 8, "obj"),
    ":": ("dp_sel", 8, 8, "sel"),
    "#": ("dp_class *", 8, 8, "cls"),
}

# Top-level arguments of these codes are recorded widened to 64 bits.
NARROW_INTEGERS = set("cCsSB")


class Type:
    """A parsed encoding: kind is 'scalar', 'void', 'pointer', 'array', 'struct', 'union'."""

    def __init__(self, kind, code=None, pointee=None, count=0, element=None, name=None,
                 fields=None):
        self.kind = kind
        self.code = code
        self.pointee = pointee
        self.count = count
        self.element = element
        self.name = name
        self.fields = fields or []

    # Size and alignment by the C ABI (x86-64 System V / AArch64 LP64 agree here).
    def layout(self):
        if self.kind == "scalar":
            _, size, align, _ = SCALARS[self.code]
            return size, align
        if self.kind == "pointer":
            return 8, 8
        if self.kind == "array":
            size, align = self.element.layout()
            return size * self.count, align
        if self.kind in ("struct", "union"):
            offset, align, size = 0, 1, 0
            for f in self.fields:
                fsize, falign = f.layout()
                align = max(align, falign)
                if self.kind == "struct":
                    offset = (offset + falign - 1) // falign * falign + fsize
                else:
                    size = max(size, fsize)
            end = offset if self.kind == "struct" else size
            return (end + align - 1) // align * align, align
        raise ValueError("void has no layout")

    def c_name(self):
        """The C type name (for aggregates, their typedef)."""
        if self.kind == "void":
            return "void"
        if self.kind == "scalar":
            return SCALARS[self.code][0]
        if self.kind == "pointer":
            inner = "void" if self.pointee.kind == "void" else self.pointee.c_name()
            return inner + " *"
        if self.kind in ("struct", "union"):
            return self.name if self.name.startswith("sc_") else "sc_" + self.name
        raise ValueError("arrays have no C name by value")

    def declare(self, declarator):
        """A C declaration of `declarator` with this type (arrays nest their brackets)."""
        if self.kind == "array":
            return self.element.declare("%s[%d]" % (declarator, self.count))
        return join_declarator(self.c_name(), declarator)

    def writes_through(self):
        """Whether a pointer to this type is an out-parameter the IMP updates."""
        return self.kind in ("scalar", "struct", "union", "array") and not (
            self.kind == "scalar" and self.code in "*@:#")

    def encoding(self):
        if self.kind == "void":
            return "v"
        if self.kind == "scalar":
            return self.code
        if self.kind == "pointer":
            return "^" + self.pointee.encoding()
        if self.kind == "array":
            return "[%d%s]" % (self.count, self.element.encoding())
        open_, close = ("{", "}") if self.kind == "struct" else ("(", ")")
        return open_ + self.name + "=" + "".join(f.encoding() for f in self.fields) + close


def join_declarator(c_type, declarator):
    """`int x`, but `char *x` rather than `char * x`."""
    return c_type + declarator if c_type.endswith("*") else c_type + " " + declarator


class Parser:
    def __init__(self, text):
        self.text = text
        self.pos = 0

    def peek(self):
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def take(self):
        ch = self.peek()
        if not ch:
            raise ValueError("unexpected end of %r" % self.text)
        self.pos += 1
        return ch

    def number(self):
        start = self.pos
        while self.peek().isdigit():
            self.pos += 1
        if start == self.pos:
            raise ValueError("expected a number at %d in %r" % (start, self.text))
        return int(self.text[start:self.pos])

    def parse_type(self):
        ch = self.take()
        if ch == "v":
            return Type("void")
        if ch in SCALARS:
            return Type("scalar", code=ch)
        if ch == "^":
            return Type("pointer", pointee=self.parse_type())
        if ch == "[":
            count = self.number()
            element = self.parse_type()
            if self.take() != "]":
                raise ValueError("expected ']' in %r" % self.text)
            return Type("array", count=count, element=element)
        if ch in "{(":
            close = "}" if ch == "{" else ")"
            start = self.pos
            while self.peek() not in ("=", ""):
                self.pos += 1
            name = self.text[start:self.pos]
            if self.take() != "=" or not name or name == "?":
                raise ValueError("aggregates in the table need a name and fields: %r" % self.text)
            fields = []
            while self.peek() != close:
                fields.append(self.parse_type())
            self.take()
            return Type("struct" if ch == "{" else "union", name=name, fields=fields)
        raise ValueError("unknown type code %r in %r" % (ch, self.text))

    def parse_method(self):
        types = []
        while self.pos < len(self.text):
            types.append(self.parse_type())
        if len(types) < 3 or types[1].encoding() != "@" or types[2].encoding() != ":":
            raise ValueError("a method encoding is R@:args, got %r" % self.text)
        return types[0], types[3:]


# ---------------------------------------------------------------------------------------
# Leaves: the scalars of a value, in the order both the C recorder and the Swift
# harness walk them.
# ---------------------------------------------------------------------------------------


def leaves(t, expr):
    """Yields (scalar Type, C lvalue expression) for every leaf of `expr` of type `t`."""
    if t.kind in ("scalar", "pointer"):
        yield t, expr
    elif t.kind == "array":
        for k in range(t.count):
            yield from leaves(t.element, "%s[%d]" % (expr, k))
    elif t.kind == "struct":
        for i, f in enumerate(t.fields):
            yield from leaves(f, "%s.f%d" % (expr, i))
    elif t.kind == "union":
        # The largest member (the first of equal size) is the union's value.
        sizes = [f.layout()[0] for f in t.fields]
        j = sizes.index(max(sizes))
        yield from leaves(t.fields[j], "%s.f%d" % (expr, j))


def leaf_kind(t):
    return "ptr" if t.kind == "pointer" else SCALARS[t.code][3]


# ---------------------------------------------------------------------------------------
# Emitting C.
# ---------------------------------------------------------------------------------------


def collect_aggregates(t, out):
    """Adds every named aggregate under `t` to `out` (dependencies first)."""
    if t.kind == "pointer":
        collect_aggregates(t.pointee, out)
    elif t.kind == "array":
        collect_aggregates(t.element, out)
    elif t.kind in ("struct", "union"):
        for f in t.fields:
            collect_aggregates(f, out)
        key = t.c_name()
        if key in out:
            if out[key].encoding() != t.encoding():
                raise ValueError("%s is defined twice: %s and %s"
                                 % (key, out[key].encoding(), t.encoding()))
        else:
            out[key] = t


def emit_typedef(t):
    word = "struct" if t.kind == "struct" else "union"
    lines = ["// %s" % t.encoding(), "typedef %s %s {" % (word, t.c_name())]
    for i, f in enumerate(t.fields):
        lines.append("  %s;" % f.declare("f%d" % i))
    lines.append("} %s;" % t.c_name())
    return "\n".join(lines)


def record_statements(t, expr, top_level):
    """C statements that record the argument `expr` of type `t`."""
    out = []
    if top_level and t.kind == "scalar" and t.code in NARROW_INTEGERS:
        # Widened by the C conversion rules: sign-extended for signed types.
        out.append("sc_record_wide((int64_t)%s);" % expr)
        return out
    for leaf, lv in leaves(t, expr):
        kind = leaf_kind(leaf)
        if kind == "ldouble":
            out.append("sc_record(&%s, DP_SIG_LDBL_BYTES);" % lv)
        else:
            out.append("sc_record(&%s, sizeof %s);" % (lv, lv))
        if kind == "str":
            out.append("sc_deref(%s);" % lv)
        elif kind == "obj":
            out.append("sc_deref(%s ? dp_class_get_name(dp_object_get_class(%s)) : NULL);"
                       % (lv, lv))
        elif kind == "cls":
            out.append("sc_deref(%s ? dp_class_get_name(%s) : NULL);" % (lv, lv))
        elif kind == "sel":
            out.append("sc_deref(%s ? dp_sel_get_name(%s) : NULL);" % (lv, lv))
    return out


def derive_statements(t, expr):
    """C statements that set every leaf of `expr` from the running hash `h`."""
    out = []
    for leaf, lv in leaves(t, expr):
        kind = leaf_kind(leaf)
        c_type = leaf.c_name()
        if kind == "int":
            out.append("%s = (%s)sc_next(&h);" % (lv, c_type))
        elif kind == "bool":
            out.append("%s = (_Bool)(sc_next(&h) & 1);" % lv)
        elif kind == "float":
            out.append("%s = (float)(sc_next(&h) %% 100000) / 8.0f;" % lv)
        elif kind == "double":
            out.append("%s = (double)(sc_next(&h) %% 100000) / 8.0;" % lv)
        elif kind == "ldouble":
            # Divided by 3: a full 64-bit mantissa, which a path through double loses.
            out.append("%s = (long double)(sc_next(&h) %% 100000) / 3.0L;" % lv)
        else:
            out.append("%s = (%s)(uintptr_t)sc_next(&h);" % (lv, c_type))
    return out


def update_statements(t, expr):
    """C statements that update every leaf of the pointee `expr` from its old value."""
    out = []
    for leaf, lv in leaves(t, expr):
        kind = leaf_kind(leaf)
        c_type = leaf.c_name()
        if kind == "int":
            out.append("%s = (%s)((uint64_t)%s * 3u + sc_next(&h));" % (lv, c_type, lv))
        elif kind == "bool":
            out.append("%s = !%s;" % (lv, lv))
        elif kind == "float":
            # -x/2 + c changes every finite x but one (x = 2c/3), whatever its magnitude.
            out.append("%s = -%s * 0.5f + (float)(sc_next(&h) %% 64) / 4.0f + 0.5f;" % (lv, lv))
        elif kind == "double":
            out.append("%s = -%s * 0.5 + (double)(sc_next(&h) %% 64) / 4.0 + 0.5;" % (lv, lv))
        elif kind == "ldouble":
            out.append("%s = -%s * 0.5L + (long double)(sc_next(&h) %% 64) / 3.0L;" % (lv, lv))
        else:
            out.append("%s = (%s)(uintptr_t)sc_next(&h);" % (lv, c_type))
    return out


def all_scalars(t, offset=0):
    """Yields (offset, size, kind) of every scalar in `t`, every union member included."""
    if t.kind in ("scalar", "pointer"):
        size, _ = t.layout()
        yield offset, size, leaf_kind(t)
    elif t.kind == "array":
        size, _ = t.element.layout()
        for k in range(t.count):
            yield from all_scalars(t.element, offset + k * size)
    elif t.kind == "struct":
        for f in t.fields:
            fsize, falign = f.layout()
            offset = (offset + falign - 1) // falign * falign
            yield from all_scalars(f, offset)
            offset += fsize
    elif t.kind == "union":
        for f in t.fields:
            yield from all_scalars(f, offset)


def sysv_classes(t):
    """x86-64 System V eightbyte classes ('int' or 'sse') of a value, None for memory."""
    size, _ = t.layout()
    scalars = list(all_scalars(t))
    if size > 16 or any(kind == "ldouble" for _, _, kind in scalars):
        return None
    classes = ["sse"] * ((size + 7) // 8)
    for offset, _, kind in scalars:
        if kind not in ("float", "double"):
            classes[offset // 8] = "int"
    return classes


def integer_register_arguments(ret, args):
    """Indices of the arguments passed in integer registers on x86-64 System V."""
    gp = 2  # self, _cmd
    fp = 0
    if ret.kind in ("struct", "union") and sysv_classes(ret) is None:
        gp += 1  # the hidden result pointer
    found = set()
    for i, a in enumerate(args):
        classes = sysv_classes(a)
        if classes is None:
            continue
        need_gp = classes.count("int")
        need_fp = len(classes) - need_gp
        if gp + need_gp <= 6 and fp + need_fp <= 8:
            gp += need_gp
            fp += need_fp
            if need_gp:
                found.add(i)
    return found


def impl_parameter(t, name, in_register):
    """A recording IMP's parameter: a narrow integer passed in a register as its 32-bit
    x86-64 extension (stack slots carry no such guarantee, and clang assumes none)."""
    if in_register and t.kind == "scalar" and t.code in NARROW_INTEGERS:
        wide = "int32_t" if t.code in "cs" else "uint32_t"
        return "SC_NARROW(%s, %s) %s" % (t.c_name(), wide, name)
    return t.declare(name)


def emit_case(index, name, encoding, ret, args):
    in_registers = integer_register_arguments(ret, args)
    params = ["dp_id self", "dp_sel _cmd"] + [
        impl_parameter(a, "a%d" % (i + 2), i in in_registers) for i, a in enumerate(args)]
    lines = ["// %s: %s" % (name, encoding)]
    lines.append("static %s(%s) {" % (join_declarator(ret.c_name(), "sc_impl_%d" % index),
                                     ", ".join(params)))
    lines.append("  sc_begin(self, _cmd);")
    for i, a in enumerate(args):
        for s in record_statements(a, "a%d" % (i + 2), True):
            lines.append("  " + s)
    lines.append("  uint64_t h = sc_hash();")
    for i, a in enumerate(args):
        if a.kind == "pointer" and a.pointee.kind != "void" and a.pointee.writes_through():
            lines.append("  if (a%d) {" % (i + 2))
            for s in update_statements(a.pointee, "(*a%d)" % (i + 2)):
                lines.append("    " + s)
            lines.append("  }")
    if ret.kind == "void":
        lines.append("  (void)h;")
    else:
        lines.append("  %s;" % join_declarator(ret.c_name(), "r"))
        lines.append("  memset(&r, 0, sizeof r);")
        for s in derive_statements(ret, "r"):
            lines.append("  " + s)
        lines.append("  return r;")
    lines.append("}")
    lines.append("")

    # The direct caller: the exact C function type, arguments from args[i - 2].
    fn_params = ["dp_id", "dp_sel"] + [a.c_name() for a in args]
    call_args = ["self", "sel"] + ["*(%s *)args[%d]" % (a.c_name(), i) for i, a in enumerate(args)]
    lines.append("static void sc_call_%d(dp_imp imp, dp_id self, dp_sel sel, void *const *args,"
                 " void *ret) {" % index)
    lines.append("  typedef %s (*fn_t)(%s);" % (ret.c_name(), ", ".join(fn_params)))
    if not args:
        lines.append("  (void)args;")
    if ret.kind == "void":
        lines.append("  (void)ret;")
        lines.append("  ((fn_t)imp)(%s);" % ", ".join(call_args))
    else:
        lines.append("  %s = ((fn_t)imp)(%s);" % (join_declarator(ret.c_name(), "r"),
                                                  ", ".join(call_args)))
        lines.append("  memcpy(ret, &r, sizeof r);")
    lines.append("}")
    return "\n".join(lines)


HEADER_TEMPLATE = """\
// SignatureCases.h — GENERATED; do not edit.
// Regenerate with: python3 Tests/DelegateProxyCTestSupport/gen_signature_cases.py
//
// Hand-picked method signatures, each with a C IMP that records what it receives and a
// C caller that calls an IMP through the exact function type. See the generator for
// what is recorded and how results are derived.

#ifndef SIGNATURE_CASES_H
#define SIGNATURE_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dp_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Bytes of a `long double` that carry its value: 10 for x87 extended precision.
#if defined(__x86_64__) || defined(__i386__)
#define DP_SIG_LDBL_BYTES 10
#else
#define DP_SIG_LDBL_BYTES 16
#endif

// MARK: Types used by the cases

%(typedefs)s

// MARK: Cases

/// Calls `imp` as `R imp(self, sel, *(A2 *)args[0], *(A3 *)args[1], ...)` and copies the
/// result (sizeof R bytes) to `ret`.
typedef void (*dp_sig_caller)(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret);

typedef struct dp_sig_case {
  const char *name;
  /// The ObjC method encoding of the C signature.
  const char *encoding;
  /// The recording IMP.
  dp_imp impl;
  /// The direct caller.
  dp_sig_caller call;
  /// Whether the runtime should replay the call in registers (x86-64 System V).
  bool in_registers_sysv;
} dp_sig_case;

/// The number of cases and case `index` (0-based).
size_t dp_sig_case_count(void);
const dp_sig_case *dp_sig_case_at(size_t index);

// MARK: The record (one per thread)

/// Forgets everything recorded, including the call count.
void dp_sig_record_reset(void);
/// How many recording IMPs ran since the last reset.
unsigned dp_sig_record_calls(void);
/// `self` and `_cmd` of the last call.
dp_id dp_sig_record_self(void);
dp_sel dp_sig_record_sel(void);
/// The leaf bytes of the last call's arguments.
size_t dp_sig_record_length(void);
const uint8_t *dp_sig_record_bytes(void);
/// The dereferenced strings and names of the last call (NUL-terminated, `~` for NULL).
size_t dp_sig_record_deref_length(void);
const uint8_t *dp_sig_record_deref_bytes(void);

#ifdef __cplusplus
}
#endif

#endif  // SIGNATURE_CASES_H
"""

SOURCE_PRELUDE = """\
// SignatureCases.c — GENERATED; do not edit.
// Regenerate with: python3 Tests/DelegateProxyCTestSupport/gen_signature_cases.py

#include "SignatureCases.h"

#include <stdlib.h>
#include <string.h>

#define SC_RECORD_CAPACITY 4096

// A narrow integer parameter of a recording IMP. x86-64 callers extend `char`, `short`
// and `_Bool` arguments to 32 bits (clang relies on it when optimizing), so the IMPs read
// them as that 32-bit value; elsewhere they take the real type.
#if defined(__x86_64__)
#define SC_NARROW(type, wide) wide
#else
#define SC_NARROW(type, wide) type
#endif

typedef struct sc_record_state {
  unsigned calls;
  dp_id self;
  dp_sel sel;
  size_t length;
  uint8_t bytes[SC_RECORD_CAPACITY];
  size_t deref_length;
  uint8_t deref[SC_RECORD_CAPACITY];
} sc_record_state;

// Thread-local: the Swift tests run cases in parallel, each call on one thread.
static _Thread_local sc_record_state sc_rec;

static void sc_begin(dp_id self, dp_sel sel) {
  sc_rec.calls += 1;
  sc_rec.self = self;
  sc_rec.sel = sel;
  sc_rec.length = 0;
  sc_rec.deref_length = 0;
}

static void sc_append(uint8_t *buffer, size_t *length, const void *bytes, size_t count) {
  if (*length + count > SC_RECORD_CAPACITY) dp_fatal("SignatureCases: record overflow");
  memcpy(buffer + *length, bytes, count);
  *length += count;
}

static void sc_record(const void *bytes, size_t count) {
  sc_append(sc_rec.bytes, &sc_rec.length, bytes, count);
}

static void sc_record_wide(int64_t value) { sc_record(&value, sizeof value); }

static void sc_deref(const char *text) {
  if (!text) text = "~";
  sc_append(sc_rec.deref, &sc_rec.deref_length, text, strlen(text) + 1);
}

// FNV-1a over both records.
static uint64_t sc_hash(void) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < sc_rec.length; i++) h = (h ^ sc_rec.bytes[i]) * 0x100000001b3ull;
  for (size_t i = 0; i < sc_rec.deref_length; i++) h = (h ^ sc_rec.deref[i]) * 0x100000001b3ull;
  return h;
}

// SplitMix64 step: a fresh well-mixed word per derived leaf.
static uint64_t sc_next(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void dp_sig_record_reset(void) { memset(&sc_rec, 0, sizeof sc_rec); }
unsigned dp_sig_record_calls(void) { return sc_rec.calls; }
dp_id dp_sig_record_self(void) { return sc_rec.self; }
dp_sel dp_sig_record_sel(void) { return sc_rec.sel; }
size_t dp_sig_record_length(void) { return sc_rec.length; }
const uint8_t *dp_sig_record_bytes(void) { return sc_rec.bytes; }
size_t dp_sig_record_deref_length(void) { return sc_rec.deref_length; }
const uint8_t *dp_sig_record_deref_bytes(void) { return sc_rec.deref; }
"""


def generate():
    names = set()
    aggregates = {}
    parsed = []
    for name, encoding, in_registers, _ in CASES:
        if name in names:
            raise ValueError("duplicate case name %r" % name)
        names.add(name)
        ret, args = Parser(encoding).parse_method()
        for t in [ret] + args:
            if t.kind == "array":
                raise ValueError("%s: C cannot pass arrays by value" % name)
            collect_aggregates(t, aggregates)
        parsed.append((name, encoding, in_registers, ret, args))

    header = HEADER_TEMPLATE % {
        "typedefs": "\n\n".join(emit_typedef(t) for t in aggregates.values())}

    cases = [emit_case(index, name, encoding, ret, args)
             for index, (name, encoding, _, ret, args) in enumerate(parsed)]
    table = ["static const dp_sig_case sc_cases[] = {"]
    for index, (name, encoding, in_registers, _, _) in enumerate(parsed):
        table.append('  {"%s", "%s", (dp_imp)sc_impl_%d, sc_call_%d, %s},'
                     % (name, encoding, index, index, "true" if in_registers else "false"))
    table.append("};")
    table.append("")
    table.append("size_t dp_sig_case_count(void) { return sizeof sc_cases / sizeof sc_cases[0]; }")
    table.append("")
    table.append("const dp_sig_case *dp_sig_case_at(size_t index) {")
    table.append("  return index < dp_sig_case_count() ? &sc_cases[index] : NULL;")
    table.append("}")
    source = SOURCE_PRELUDE + "\n" + "\n\n".join(cases) + "\n\n" + "\n".join(table) + "\n"
    return header, source


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    header, source = generate()
    with open(os.path.join(here, "include", "SignatureCases.h"), "w") as f:
        f.write(header)
    with open(os.path.join(here, "SignatureCases.c"), "w") as f:
        f.write(source)
    print("wrote %d cases" % len(CASES), file=sys.stderr)


if __name__ == "__main__":
    main()
