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

// {Small8=ii}
typedef struct sc_Small8 {
  int f0;
  int f1;
} sc_Small8;

// {Small16=qq}
typedef struct sc_Small16 {
  long long f0;
  long long f1;
} sc_Small16;

// {Tiny3=ccc}
typedef struct sc_Tiny3 {
  signed char f0;
  signed char f1;
  signed char f2;
} sc_Tiny3;

// {Odd12=iii}
typedef struct sc_Odd12 {
  int f0;
  int f1;
  int f2;
} sc_Odd12;

// {Large24=qqq}
typedef struct sc_Large24 {
  long long f0;
  long long f1;
  long long f2;
} sc_Large24;

// {Large32=dddd}
typedef struct sc_Large32 {
  double f0;
  double f1;
  double f2;
  double f3;
} sc_Large32;

// {Big40=qdiiqd}
typedef struct sc_Big40 {
  long long f0;
  double f1;
  int f2;
  int f3;
  long long f4;
  double f5;
} sc_Big40;

// {IntDouble=id}
typedef struct sc_IntDouble {
  int f0;
  double f1;
} sc_IntDouble;

// {DoubleInt=di}
typedef struct sc_DoubleInt {
  double f0;
  int f1;
} sc_DoubleInt;

// {FIF=fif}
typedef struct sc_FIF {
  float f0;
  int f1;
  float f2;
} sc_FIF;

// {Float3=fff}
typedef struct sc_Float3 {
  float f0;
  float f1;
  float f2;
} sc_Float3;

// {Double2=dd}
typedef struct sc_Double2 {
  double f0;
  double f1;
} sc_Double2;

// {Float4=ffff}
typedef struct sc_Float4 {
  float f0;
  float f1;
  float f2;
  float f3;
} sc_Float4;

// {Double1=d}
typedef struct sc_Double1 {
  double f0;
} sc_Double1;

// {Inner=cs}
typedef struct sc_Inner {
  signed char f0;
  short f1;
} sc_Inner;

// {Pt=ff}
typedef struct sc_Pt {
  float f0;
  float f1;
} sc_Pt;

// {Outer={Inner=cs}i{Pt=ff}}
typedef struct sc_Outer {
  sc_Inner f0;
  int f1;
  sc_Pt f2;
} sc_Outer;

// {Leaf=cd}
typedef struct sc_Leaf {
  signed char f0;
  double f1;
} sc_Leaf;

// {Mid={Leaf=cd}i}
typedef struct sc_Mid {
  sc_Leaf f0;
  int f1;
} sc_Mid;

// {Deep3={Mid={Leaf=cd}i}f}
typedef struct sc_Deep3 {
  sc_Mid f0;
  float f1;
} sc_Deep3;

// {sc_arr=[3i]c}
typedef struct sc_arr {
  int f0[3];
  signed char f1;
} sc_arr;

// {DArr=[2d]}
typedef struct sc_DArr {
  double f0[2];
} sc_DArr;

// {Flags=BBcs}
typedef struct sc_Flags {
  _Bool f0;
  _Bool f1;
  signed char f2;
  short f3;
} sc_Flags;

// {Refs=@:#*}
typedef struct sc_Refs {
  dp_id f0;
  dp_sel f1;
  dp_class *f2;
  char *f3;
} sc_Refs;

// {PtrPair=^v*}
typedef struct sc_PtrPair {
  void *f0;
  char *f1;
} sc_PtrPair;

// (IntFloat=if)
typedef union sc_IntFloat {
  int f0;
  float f1;
} sc_IntFloat;

// (FloatDouble=fd)
typedef union sc_FloatDouble {
  float f0;
  double f1;
} sc_FloatDouble;

// (UPair={Double2=dd}{Small16=qq})
typedef union sc_UPair {
  sc_Double2 f0;
  sc_Small16 f1;
} sc_UPair;

// {WithUnion=(IntFloat=if)d}
typedef struct sc_WithUnion {
  sc_IntFloat f0;
  double f1;
} sc_WithUnion;

// {CGPoint=dd}
typedef struct sc_CGPoint {
  double f0;
  double f1;
} sc_CGPoint;

// {LD1=D}
typedef struct sc_LD1 {
  long double f0;
} sc_LD1;

// (LDU=Dq)
typedef union sc_LDU {
  long double f0;
  long long f1;
} sc_LDU;

// {LDHolder=c(LDU=Dq)i}
typedef struct sc_LDHolder {
  signed char f0;
  sc_LDU f1;
  int f2;
} sc_LDHolder;

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
