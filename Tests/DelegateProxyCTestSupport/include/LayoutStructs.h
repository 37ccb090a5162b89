// LayoutStructs.h — real C types whose size, alignment and field offsets, as the C
// compiler lays them out, the TypeEncoding tests compare TypeEncoding.layout() against.
//
// Each type is listed in a table (LayoutStructs.c) with its hand-written Objective-C
// type encoding (what clang's @encode would give on LP64: 'i' for int, 'q'/'Q' for
// long and long long, 'c' for char and signed char, 'C' for unsigned char, 'B' for
// _Bool, 'D' for long double), its sizeof and its _Alignof. A second table gives the
// offsetof of the fields of several structs.

#ifndef DP_LAYOUT_STRUCTS_H
#define DP_LAYOUT_STRUCTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// char, signed char and unsigned char side by side: {dp_layout_chars=ccC}.
typedef struct dp_layout_chars {
  char c;
  signed char sc;
  unsigned char uc;
} dp_layout_chars;

/// Every signed scalar width: {dp_layout_scalars=csiqqfdD}.
typedef struct dp_layout_scalars {
  char c;
  short s;
  int i;
  long l;
  long long ll;
  float f;
  double d;
  long double ld;
} dp_layout_scalars;

/// Every unsigned integer width: {dp_layout_unsigned=CSIQQ}.
typedef struct dp_layout_unsigned {
  unsigned char uc;
  unsigned short us;
  unsigned int ui;
  unsigned long ul;
  unsigned long long ull;
} dp_layout_unsigned;

/// Integers and floats mixed: {dp_layout_mixed=ifid}.
typedef struct dp_layout_mixed {
  int a;
  float b;
  int c;
  double d;
} dp_layout_mixed;

/// Floats only: {dp_layout_vec3=fff}.
typedef struct dp_layout_vec3 {
  float x, y, z;
} dp_layout_vec3;

/// A point of doubles, like CGPoint: {dp_layout_point=dd}.
typedef struct dp_layout_point {
  double x, y;
} dp_layout_point;

/// A size of doubles, like CGSize: {dp_layout_size=dd}.
typedef struct dp_layout_size {
  double width, height;
} dp_layout_size;

/// Nested structs, like CGRect: {dp_layout_rect={dp_layout_point=dd}{dp_layout_size=dd}}.
typedef struct dp_layout_rect {
  dp_layout_point origin;
  dp_layout_size size;
} dp_layout_rect;

/// Padding holes around a double: {dp_layout_holes=cdc}.
typedef struct dp_layout_holes {
  char a;
  double b;
  char c;
} dp_layout_holes;

/// Padding holes of several sizes: {dp_layout_steps=cscic}.
typedef struct dp_layout_steps {
  char a;
  short b;
  char c;
  int d;
  char e;
} dp_layout_steps;

/// Arrays inside a struct: {dp_layout_arrays=c[3i][5c]}.
typedef struct dp_layout_arrays {
  char a;
  int b[3];
  char c[5];
} dp_layout_arrays;

/// An array of structs: {dp_layout_polyline=[2{dp_layout_point=dd}]c}.
typedef struct dp_layout_polyline {
  dp_layout_point points[2];
  char tag;
} dp_layout_polyline;

/// A two-dimensional array: {dp_layout_matrix=[2[3s]]}.
typedef struct dp_layout_matrix {
  short m[2][3];
} dp_layout_matrix;

/// A union of mixed members: (dp_layout_mixed_union=cid[13c]).
typedef union dp_layout_mixed_union {
  char c;
  int i;
  double d;
  char bytes[13];
} dp_layout_mixed_union;

/// A union of floats and ints: (dp_layout_bits=fi).
typedef union dp_layout_bits {
  float f;
  int i;
} dp_layout_bits;

/// A tagged union with an anonymous union member: {dp_layout_tagged=c(?=id)}.
typedef struct dp_layout_tagged {
  char tag;
  union {
    int i;
    double d;
  } value;
} dp_layout_tagged;

/// A long double after a char: {dp_layout_long_double=cD}.
typedef struct dp_layout_long_double {
  char c;
  long double ld;
} dp_layout_long_double;

/// An array of long doubles: {dp_layout_long_doubles=c[2D]}.
typedef struct dp_layout_long_doubles {
  char c;
  long double ld[2];
} dp_layout_long_doubles;

/// _Bool members: {dp_layout_flags=BiB}.
typedef struct dp_layout_flags {
  _Bool a;
  int b;
  _Bool c;
} dp_layout_flags;

/// A function pointer type, encoded ^?.
typedef void (*dp_layout_fn)(void);

/// Pointers of several kinds: {dp_layout_pointers=^v*r*^i^{dp_layout_point=dd}^?c}.
typedef struct dp_layout_pointers {
  void *p;
  char *s;
  const char *cs;
  int *ip;
  dp_layout_point *pp;
  dp_layout_fn fn;
  char tail;
} dp_layout_pointers;

/// A self-referential list node: {dp_layout_node=i^{dp_layout_node}}.
typedef struct dp_layout_node {
  int value;
  struct dp_layout_node *next;
} dp_layout_node;

/// A 40-byte struct: {dp_layout_forty=qd[16c]i}.
typedef struct dp_layout_forty {
  long long a;
  double b;
  char c[16];
  int d;
} dp_layout_forty;

/// Three levels of anonymous nesting: {dp_layout_deep={?=c{?=sd}}c}.
typedef struct dp_layout_deep {
  struct {
    char c;
    struct {
      short s;
      double d;
    } inner;
  } middle;
  char z;
} dp_layout_deep;

/// A GNU zero-length array member: {dp_layout_header=i[0c]}.
typedef struct dp_layout_header {
  int count;
  char data[0];
} dp_layout_header;

/// A zero-length array of doubles still aligns the struct: {dp_layout_aligned_tail=c[0d]}.
typedef struct dp_layout_aligned_tail {
  char c;
  double tail[0];
} dp_layout_aligned_tail;

/// One char: {dp_layout_one=c}.
typedef struct dp_layout_one {
  char c;
} dp_layout_one;

/// A union holding a struct: (dp_layout_struct_union={dp_layout_point=dd}q[20c]).
typedef union dp_layout_struct_union {
  dp_layout_point p;
  long long q;
  char bytes[20];
} dp_layout_struct_union;

/// A float, a double, a float: {dp_layout_fdf=fdf}.
typedef struct dp_layout_fdf {
  float f;
  double d;
  float g;
} dp_layout_fdf;

/// An array of unions: {dp_layout_union_array=[2(dp_layout_mixed_union=cid[13c])]s}.
typedef struct dp_layout_union_array {
  dp_layout_mixed_union items[2];
  short s;
} dp_layout_union_array;

/// A short and a _Bool: {dp_layout_short_bool=sB}.
typedef struct dp_layout_short_bool {
  short s;
  _Bool b;
} dp_layout_short_bool;

/// Fixed-width integer typedefs: {dp_layout_fixed=CsiqSIQ}.
typedef struct dp_layout_fixed {
  uint8_t u8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
} dp_layout_fixed;

/// One entry of the layout table: a C type, its encoding and what the compiler says.
typedef struct dp_layout_case {
  const char *name;      // the C type, as written in the source
  const char *encoding;  // its Objective-C type encoding, written by hand
  size_t size;           // sizeof
  size_t align;          // _Alignof
} dp_layout_case;

/// The number of entries in the layout table.
size_t dp_layout_case_count(void);

/// Entry `i` of the layout table (all zero and NULL when `i` is out of range).
dp_layout_case dp_layout_case_at(size_t i);

/// One field offset: field `field_index` (in encoding order) of the table entry named
/// `case_name` is at byte `offset` (offsetof).
typedef struct dp_layout_field_offset {
  const char *case_name;
  size_t field_index;
  size_t offset;
} dp_layout_field_offset;

/// The number of entries in the field offset table.
size_t dp_layout_field_offset_count(void);

/// Entry `i` of the field offset table (all zero and NULL when `i` is out of range).
dp_layout_field_offset dp_layout_field_offset_at(size_t i);

#ifdef __cplusplus
}
#endif

#endif  // DP_LAYOUT_STRUCTS_H
