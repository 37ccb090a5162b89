// LayoutStructs.c — the layout tables: for each C type its hand-written Objective-C
// encoding next to the compiler's own sizeof, _Alignof and offsetof.

#include "LayoutStructs.h"

#define DP_CASE(type, encoding) {#type, encoding, sizeof(type), _Alignof(type)}

static const dp_layout_case dp_layout_cases[] = {
    // Scalars and pointers on their own.
    DP_CASE(char, "c"),
    DP_CASE(signed char, "c"),
    DP_CASE(unsigned char, "C"),
    DP_CASE(short, "s"),
    DP_CASE(unsigned short, "S"),
    DP_CASE(int, "i"),
    DP_CASE(unsigned int, "I"),
    DP_CASE(long, "q"),
    DP_CASE(unsigned long, "Q"),
    DP_CASE(long long, "q"),
    DP_CASE(unsigned long long, "Q"),
    DP_CASE(float, "f"),
    DP_CASE(double, "d"),
    DP_CASE(long double, "D"),
    DP_CASE(_Bool, "B"),
    DP_CASE(char *, "*"),
    DP_CASE(const char *, "r*"),
    DP_CASE(void *, "^v"),
    DP_CASE(int **, "^^i"),
    DP_CASE(dp_layout_fn, "^?"),
    DP_CASE(int32_t, "i"),
    DP_CASE(int64_t, "q"),
    DP_CASE(uint8_t, "C"),
    DP_CASE(size_t, "Q"),
    DP_CASE(int[7], "[7i]"),
    // Structs and unions.
    DP_CASE(dp_layout_chars, "{dp_layout_chars=ccC}"),
    DP_CASE(dp_layout_scalars, "{dp_layout_scalars=csiqqfdD}"),
    DP_CASE(dp_layout_unsigned, "{dp_layout_unsigned=CSIQQ}"),
    DP_CASE(dp_layout_mixed, "{dp_layout_mixed=ifid}"),
    DP_CASE(dp_layout_vec3, "{dp_layout_vec3=fff}"),
    DP_CASE(dp_layout_point, "{dp_layout_point=dd}"),
    DP_CASE(dp_layout_size, "{dp_layout_size=dd}"),
    DP_CASE(dp_layout_rect, "{dp_layout_rect={dp_layout_point=dd}{dp_layout_size=dd}}"),
    DP_CASE(dp_layout_holes, "{dp_layout_holes=cdc}"),
    DP_CASE(dp_layout_steps, "{dp_layout_steps=cscic}"),
    DP_CASE(dp_layout_arrays, "{dp_layout_arrays=c[3i][5c]}"),
    DP_CASE(dp_layout_polyline, "{dp_layout_polyline=[2{dp_layout_point=dd}]c}"),
    DP_CASE(dp_layout_matrix, "{dp_layout_matrix=[2[3s]]}"),
    DP_CASE(dp_layout_mixed_union, "(dp_layout_mixed_union=cid[13c])"),
    DP_CASE(dp_layout_bits, "(dp_layout_bits=fi)"),
    DP_CASE(dp_layout_tagged, "{dp_layout_tagged=c(?=id)}"),
    DP_CASE(dp_layout_long_double, "{dp_layout_long_double=cD}"),
    DP_CASE(dp_layout_long_doubles, "{dp_layout_long_doubles=c[2D]}"),
    DP_CASE(dp_layout_flags, "{dp_layout_flags=BiB}"),
    DP_CASE(dp_layout_pointers, "{dp_layout_pointers=^v*r*^i^{dp_layout_point=dd}^?c}"),
    DP_CASE(dp_layout_node, "{dp_layout_node=i^{dp_layout_node}}"),
    DP_CASE(dp_layout_forty, "{dp_layout_forty=qd[16c]i}"),
    DP_CASE(dp_layout_deep, "{dp_layout_deep={?=c{?=sd}}c}"),
    DP_CASE(dp_layout_header, "{dp_layout_header=i[0c]}"),
    DP_CASE(dp_layout_aligned_tail, "{dp_layout_aligned_tail=c[0d]}"),
    DP_CASE(dp_layout_one, "{dp_layout_one=c}"),
    DP_CASE(dp_layout_struct_union, "(dp_layout_struct_union={dp_layout_point=dd}q[20c])"),
    DP_CASE(dp_layout_fdf, "{dp_layout_fdf=fdf}"),
    DP_CASE(dp_layout_union_array, "{dp_layout_union_array=[2(dp_layout_mixed_union=cid[13c])]s}"),
    DP_CASE(dp_layout_short_bool, "{dp_layout_short_bool=sB}"),
    DP_CASE(dp_layout_fixed, "{dp_layout_fixed=CsiqSIQ}"),
    // The same layouts, written the way clang writes ivar encodings: with field names.
    DP_CASE(dp_layout_point, "{dp_layout_point=\"x\"d\"y\"d}"),
    DP_CASE(dp_layout_tagged, "{dp_layout_tagged=\"tag\"c\"value\"(?=\"i\"i\"d\"d)}"),
    DP_CASE(dp_layout_pointers,
            "{dp_layout_pointers=\"p\"^v\"s\"*\"cs\"r*\"ip\"^i\"pp\"^{dp_layout_point}"
            "\"fn\"^?\"tail\"c}"),
};

#define DP_OFFSET(case_name, type, index, member) {case_name, index, offsetof(type, member)}

static const dp_layout_field_offset dp_layout_field_offsets[] = {
    DP_OFFSET("dp_layout_chars", dp_layout_chars, 0, c),
    DP_OFFSET("dp_layout_chars", dp_layout_chars, 1, sc),
    DP_OFFSET("dp_layout_chars", dp_layout_chars, 2, uc),

    DP_OFFSET("dp_layout_scalars", dp_layout_scalars, 0, c),
    DP_OFFSET("dp_layout_scalars", dp_layout_scalars, 1, s),
    DP_OFFSET("dp_layout_scalars", dp_layout_scalars, 2, i),
    DP_OFFSET("dp_layout_scalars", dp_layout_scalars, 3, l),
    DP_OFFSET("dp_layout_scalars", dp_layout_scalars, 4, ll),
    DP_OFFSET("dp_layout_scalars", dp_layout_scalars, 5, f),
    DP_OFFSET("dp_layout_scalars", dp_layout_scalars, 6, d),
    DP_OFFSET("dp_layout_scalars", dp_layout_scalars, 7, ld),

    DP_OFFSET("dp_layout_mixed", dp_layout_mixed, 0, a),
    DP_OFFSET("dp_layout_mixed", dp_layout_mixed, 1, b),
    DP_OFFSET("dp_layout_mixed", dp_layout_mixed, 2, c),
    DP_OFFSET("dp_layout_mixed", dp_layout_mixed, 3, d),

    DP_OFFSET("dp_layout_rect", dp_layout_rect, 0, origin),
    DP_OFFSET("dp_layout_rect", dp_layout_rect, 1, size),

    DP_OFFSET("dp_layout_holes", dp_layout_holes, 0, a),
    DP_OFFSET("dp_layout_holes", dp_layout_holes, 1, b),
    DP_OFFSET("dp_layout_holes", dp_layout_holes, 2, c),

    DP_OFFSET("dp_layout_steps", dp_layout_steps, 0, a),
    DP_OFFSET("dp_layout_steps", dp_layout_steps, 1, b),
    DP_OFFSET("dp_layout_steps", dp_layout_steps, 2, c),
    DP_OFFSET("dp_layout_steps", dp_layout_steps, 3, d),
    DP_OFFSET("dp_layout_steps", dp_layout_steps, 4, e),

    DP_OFFSET("dp_layout_arrays", dp_layout_arrays, 0, a),
    DP_OFFSET("dp_layout_arrays", dp_layout_arrays, 1, b),
    DP_OFFSET("dp_layout_arrays", dp_layout_arrays, 2, c),

    DP_OFFSET("dp_layout_polyline", dp_layout_polyline, 0, points),
    DP_OFFSET("dp_layout_polyline", dp_layout_polyline, 1, tag),

    DP_OFFSET("dp_layout_tagged", dp_layout_tagged, 0, tag),
    DP_OFFSET("dp_layout_tagged", dp_layout_tagged, 1, value),

    DP_OFFSET("dp_layout_long_double", dp_layout_long_double, 0, c),
    DP_OFFSET("dp_layout_long_double", dp_layout_long_double, 1, ld),

    DP_OFFSET("dp_layout_long_doubles", dp_layout_long_doubles, 0, c),
    DP_OFFSET("dp_layout_long_doubles", dp_layout_long_doubles, 1, ld),

    DP_OFFSET("dp_layout_flags", dp_layout_flags, 0, a),
    DP_OFFSET("dp_layout_flags", dp_layout_flags, 1, b),
    DP_OFFSET("dp_layout_flags", dp_layout_flags, 2, c),

    DP_OFFSET("dp_layout_pointers", dp_layout_pointers, 0, p),
    DP_OFFSET("dp_layout_pointers", dp_layout_pointers, 1, s),
    DP_OFFSET("dp_layout_pointers", dp_layout_pointers, 2, cs),
    DP_OFFSET("dp_layout_pointers", dp_layout_pointers, 3, ip),
    DP_OFFSET("dp_layout_pointers", dp_layout_pointers, 4, pp),
    DP_OFFSET("dp_layout_pointers", dp_layout_pointers, 5, fn),
    DP_OFFSET("dp_layout_pointers", dp_layout_pointers, 6, tail),

    DP_OFFSET("dp_layout_node", dp_layout_node, 0, value),
    DP_OFFSET("dp_layout_node", dp_layout_node, 1, next),

    DP_OFFSET("dp_layout_forty", dp_layout_forty, 0, a),
    DP_OFFSET("dp_layout_forty", dp_layout_forty, 1, b),
    DP_OFFSET("dp_layout_forty", dp_layout_forty, 2, c),
    DP_OFFSET("dp_layout_forty", dp_layout_forty, 3, d),

    DP_OFFSET("dp_layout_deep", dp_layout_deep, 0, middle),
    DP_OFFSET("dp_layout_deep", dp_layout_deep, 1, z),

    DP_OFFSET("dp_layout_header", dp_layout_header, 0, count),
    DP_OFFSET("dp_layout_header", dp_layout_header, 1, data),

    DP_OFFSET("dp_layout_aligned_tail", dp_layout_aligned_tail, 0, c),
    DP_OFFSET("dp_layout_aligned_tail", dp_layout_aligned_tail, 1, tail),

    DP_OFFSET("dp_layout_fdf", dp_layout_fdf, 0, f),
    DP_OFFSET("dp_layout_fdf", dp_layout_fdf, 1, d),
    DP_OFFSET("dp_layout_fdf", dp_layout_fdf, 2, g),

    DP_OFFSET("dp_layout_union_array", dp_layout_union_array, 0, items),
    DP_OFFSET("dp_layout_union_array", dp_layout_union_array, 1, s),

    DP_OFFSET("dp_layout_short_bool", dp_layout_short_bool, 0, s),
    DP_OFFSET("dp_layout_short_bool", dp_layout_short_bool, 1, b),

    DP_OFFSET("dp_layout_fixed", dp_layout_fixed, 0, u8),
    DP_OFFSET("dp_layout_fixed", dp_layout_fixed, 1, i16),
    DP_OFFSET("dp_layout_fixed", dp_layout_fixed, 2, i32),
    DP_OFFSET("dp_layout_fixed", dp_layout_fixed, 3, i64),
    DP_OFFSET("dp_layout_fixed", dp_layout_fixed, 4, u16),
    DP_OFFSET("dp_layout_fixed", dp_layout_fixed, 5, u32),
    DP_OFFSET("dp_layout_fixed", dp_layout_fixed, 6, u64),
};

#define DP_COUNT(array) (sizeof(array) / sizeof((array)[0]))

size_t dp_layout_case_count(void) { return DP_COUNT(dp_layout_cases); }

dp_layout_case dp_layout_case_at(size_t i) {
  if (i >= DP_COUNT(dp_layout_cases)) {
    dp_layout_case none = {0};
    return none;
  }
  return dp_layout_cases[i];
}

size_t dp_layout_field_offset_count(void) { return DP_COUNT(dp_layout_field_offsets); }

dp_layout_field_offset dp_layout_field_offset_at(size_t i) {
  if (i >= DP_COUNT(dp_layout_field_offsets)) {
    dp_layout_field_offset none = {0};
    return none;
  }
  return dp_layout_field_offsets[i];
}
