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

// char: c@:c
static signed char sc_impl_0(dp_id self, dp_sel _cmd, SC_NARROW(signed char, int32_t) a2) {
  sc_begin(self, _cmd);
  sc_record_wide((int64_t)a2);
  uint64_t h = sc_hash();
  signed char r;
  memset(&r, 0, sizeof r);
  r = (signed char)sc_next(&h);
  return r;
}

static void sc_call_0(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef signed char (*fn_t)(dp_id, dp_sel, signed char);
  signed char r = ((fn_t)imp)(self, sel, *(signed char *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// uchar: C@:C
static unsigned char sc_impl_1(dp_id self, dp_sel _cmd, SC_NARROW(unsigned char, uint32_t) a2) {
  sc_begin(self, _cmd);
  sc_record_wide((int64_t)a2);
  uint64_t h = sc_hash();
  unsigned char r;
  memset(&r, 0, sizeof r);
  r = (unsigned char)sc_next(&h);
  return r;
}

static void sc_call_1(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef unsigned char (*fn_t)(dp_id, dp_sel, unsigned char);
  unsigned char r = ((fn_t)imp)(self, sel, *(unsigned char *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// short: s@:s
static short sc_impl_2(dp_id self, dp_sel _cmd, SC_NARROW(short, int32_t) a2) {
  sc_begin(self, _cmd);
  sc_record_wide((int64_t)a2);
  uint64_t h = sc_hash();
  short r;
  memset(&r, 0, sizeof r);
  r = (short)sc_next(&h);
  return r;
}

static void sc_call_2(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef short (*fn_t)(dp_id, dp_sel, short);
  short r = ((fn_t)imp)(self, sel, *(short *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// ushort: S@:S
static unsigned short sc_impl_3(dp_id self, dp_sel _cmd, SC_NARROW(unsigned short, uint32_t) a2) {
  sc_begin(self, _cmd);
  sc_record_wide((int64_t)a2);
  uint64_t h = sc_hash();
  unsigned short r;
  memset(&r, 0, sizeof r);
  r = (unsigned short)sc_next(&h);
  return r;
}

static void sc_call_3(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef unsigned short (*fn_t)(dp_id, dp_sel, unsigned short);
  unsigned short r = ((fn_t)imp)(self, sel, *(unsigned short *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// int: i@:i
static int sc_impl_4(dp_id self, dp_sel _cmd, int a2) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  uint64_t h = sc_hash();
  int r;
  memset(&r, 0, sizeof r);
  r = (int)sc_next(&h);
  return r;
}

static void sc_call_4(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef int (*fn_t)(dp_id, dp_sel, int);
  int r = ((fn_t)imp)(self, sel, *(int *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// uint: I@:I
static unsigned int sc_impl_5(dp_id self, dp_sel _cmd, unsigned int a2) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  uint64_t h = sc_hash();
  unsigned int r;
  memset(&r, 0, sizeof r);
  r = (unsigned int)sc_next(&h);
  return r;
}

static void sc_call_5(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef unsigned int (*fn_t)(dp_id, dp_sel, unsigned int);
  unsigned int r = ((fn_t)imp)(self, sel, *(unsigned int *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// long32: l@:l
static int32_t sc_impl_6(dp_id self, dp_sel _cmd, int32_t a2) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  uint64_t h = sc_hash();
  int32_t r;
  memset(&r, 0, sizeof r);
  r = (int32_t)sc_next(&h);
  return r;
}

static void sc_call_6(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef int32_t (*fn_t)(dp_id, dp_sel, int32_t);
  int32_t r = ((fn_t)imp)(self, sel, *(int32_t *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// ulong32: L@:L
static uint32_t sc_impl_7(dp_id self, dp_sel _cmd, uint32_t a2) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  uint64_t h = sc_hash();
  uint32_t r;
  memset(&r, 0, sizeof r);
  r = (uint32_t)sc_next(&h);
  return r;
}

static void sc_call_7(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef uint32_t (*fn_t)(dp_id, dp_sel, uint32_t);
  uint32_t r = ((fn_t)imp)(self, sel, *(uint32_t *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// longlong: q@:q
static long long sc_impl_8(dp_id self, dp_sel _cmd, long long a2) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  uint64_t h = sc_hash();
  long long r;
  memset(&r, 0, sizeof r);
  r = (long long)sc_next(&h);
  return r;
}

static void sc_call_8(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef long long (*fn_t)(dp_id, dp_sel, long long);
  long long r = ((fn_t)imp)(self, sel, *(long long *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// ulonglong: Q@:Q
static unsigned long long sc_impl_9(dp_id self, dp_sel _cmd, unsigned long long a2) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  uint64_t h = sc_hash();
  unsigned long long r;
  memset(&r, 0, sizeof r);
  r = (unsigned long long)sc_next(&h);
  return r;
}

static void sc_call_9(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef unsigned long long (*fn_t)(dp_id, dp_sel, unsigned long long);
  unsigned long long r = ((fn_t)imp)(self, sel, *(unsigned long long *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// float: f@:f
static float sc_impl_10(dp_id self, dp_sel _cmd, float a2) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  uint64_t h = sc_hash();
  float r;
  memset(&r, 0, sizeof r);
  r = (float)(sc_next(&h) % 100000) / 8.0f;
  return r;
}

static void sc_call_10(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef float (*fn_t)(dp_id, dp_sel, float);
  float r = ((fn_t)imp)(self, sel, *(float *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// double: d@:d
static double sc_impl_11(dp_id self, dp_sel _cmd, double a2) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  uint64_t h = sc_hash();
  double r;
  memset(&r, 0, sizeof r);
  r = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_11(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef double (*fn_t)(dp_id, dp_sel, double);
  double r = ((fn_t)imp)(self, sel, *(double *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// bool: B@:B
static _Bool sc_impl_12(dp_id self, dp_sel _cmd, SC_NARROW(_Bool, uint32_t) a2) {
  sc_begin(self, _cmd);
  sc_record_wide((int64_t)a2);
  uint64_t h = sc_hash();
  _Bool r;
  memset(&r, 0, sizeof r);
  r = (_Bool)(sc_next(&h) & 1);
  return r;
}

static void sc_call_12(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef _Bool (*fn_t)(dp_id, dp_sel, _Bool);
  _Bool r = ((fn_t)imp)(self, sel, *(_Bool *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// voidptr: ^v@:^v
static void *sc_impl_13(dp_id self, dp_sel _cmd, void *a2) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  uint64_t h = sc_hash();
  void *r;
  memset(&r, 0, sizeof r);
  r = (void *)(uintptr_t)sc_next(&h);
  return r;
}

static void sc_call_13(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef void * (*fn_t)(dp_id, dp_sel, void *);
  void *r = ((fn_t)imp)(self, sel, *(void * *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// cstring: *@:*
static char *sc_impl_14(dp_id self, dp_sel _cmd, char *a2) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_deref(a2);
  uint64_t h = sc_hash();
  char *r;
  memset(&r, 0, sizeof r);
  r = (char *)(uintptr_t)sc_next(&h);
  return r;
}

static void sc_call_14(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef char * (*fn_t)(dp_id, dp_sel, char *);
  char *r = ((fn_t)imp)(self, sel, *(char * *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// object: @@:@
static dp_id sc_impl_15(dp_id self, dp_sel _cmd, dp_id a2) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_deref(a2 ? dp_class_get_name(dp_object_get_class(a2)) : NULL);
  uint64_t h = sc_hash();
  dp_id r;
  memset(&r, 0, sizeof r);
  r = (dp_id)(uintptr_t)sc_next(&h);
  return r;
}

static void sc_call_15(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef dp_id (*fn_t)(dp_id, dp_sel, dp_id);
  dp_id r = ((fn_t)imp)(self, sel, *(dp_id *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// selector: :@::
static dp_sel sc_impl_16(dp_id self, dp_sel _cmd, dp_sel a2) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_deref(a2 ? dp_sel_get_name(a2) : NULL);
  uint64_t h = sc_hash();
  dp_sel r;
  memset(&r, 0, sizeof r);
  r = (dp_sel)(uintptr_t)sc_next(&h);
  return r;
}

static void sc_call_16(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef dp_sel (*fn_t)(dp_id, dp_sel, dp_sel);
  dp_sel r = ((fn_t)imp)(self, sel, *(dp_sel *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// class: #@:#
static dp_class *sc_impl_17(dp_id self, dp_sel _cmd, dp_class *a2) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_deref(a2 ? dp_class_get_name(a2) : NULL);
  uint64_t h = sc_hash();
  dp_class *r;
  memset(&r, 0, sizeof r);
  r = (dp_class *)(uintptr_t)sc_next(&h);
  return r;
}

static void sc_call_17(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef dp_class * (*fn_t)(dp_id, dp_sel, dp_class *);
  dp_class *r = ((fn_t)imp)(self, sel, *(dp_class * *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// void_noargs: v@:
static void sc_impl_18(dp_id self, dp_sel _cmd) {
  sc_begin(self, _cmd);
  uint64_t h = sc_hash();
  (void)h;
}

static void sc_call_18(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef void (*fn_t)(dp_id, dp_sel);
  (void)args;
  (void)ret;
  ((fn_t)imp)(self, sel);
}

// narrow_mix: s@:cCsB
static short sc_impl_19(dp_id self, dp_sel _cmd, SC_NARROW(signed char, int32_t) a2, SC_NARROW(unsigned char, uint32_t) a3, SC_NARROW(short, int32_t) a4, SC_NARROW(_Bool, uint32_t) a5) {
  sc_begin(self, _cmd);
  sc_record_wide((int64_t)a2);
  sc_record_wide((int64_t)a3);
  sc_record_wide((int64_t)a4);
  sc_record_wide((int64_t)a5);
  uint64_t h = sc_hash();
  short r;
  memset(&r, 0, sizeof r);
  r = (short)sc_next(&h);
  return r;
}

static void sc_call_19(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef short (*fn_t)(dp_id, dp_sel, signed char, unsigned char, short, _Bool);
  short r = ((fn_t)imp)(self, sel, *(signed char *)args[0], *(unsigned char *)args[1], *(short *)args[2], *(_Bool *)args[3]);
  memcpy(ret, &r, sizeof r);
}

// gp_exact: q@:qqqq
static long long sc_impl_20(dp_id self, dp_sel _cmd, long long a2, long long a3, long long a4, long long a5) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  sc_record(&a4, sizeof a4);
  sc_record(&a5, sizeof a5);
  uint64_t h = sc_hash();
  long long r;
  memset(&r, 0, sizeof r);
  r = (long long)sc_next(&h);
  return r;
}

static void sc_call_20(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef long long (*fn_t)(dp_id, dp_sel, long long, long long, long long, long long);
  long long r = ((fn_t)imp)(self, sel, *(long long *)args[0], *(long long *)args[1], *(long long *)args[2], *(long long *)args[3]);
  memcpy(ret, &r, sizeof r);
}

// gp_spill: q@:qqqqq
static long long sc_impl_21(dp_id self, dp_sel _cmd, long long a2, long long a3, long long a4, long long a5, long long a6) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  sc_record(&a4, sizeof a4);
  sc_record(&a5, sizeof a5);
  sc_record(&a6, sizeof a6);
  uint64_t h = sc_hash();
  long long r;
  memset(&r, 0, sizeof r);
  r = (long long)sc_next(&h);
  return r;
}

static void sc_call_21(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef long long (*fn_t)(dp_id, dp_sel, long long, long long, long long, long long, long long);
  long long r = ((fn_t)imp)(self, sel, *(long long *)args[0], *(long long *)args[1], *(long long *)args[2], *(long long *)args[3], *(long long *)args[4]);
  memcpy(ret, &r, sizeof r);
}

// gp_all_widths: v@:cCsSiIlLqQ
static void sc_impl_22(dp_id self, dp_sel _cmd, SC_NARROW(signed char, int32_t) a2, SC_NARROW(unsigned char, uint32_t) a3, SC_NARROW(short, int32_t) a4, SC_NARROW(unsigned short, uint32_t) a5, int a6, unsigned int a7, int32_t a8, uint32_t a9, long long a10, unsigned long long a11) {
  sc_begin(self, _cmd);
  sc_record_wide((int64_t)a2);
  sc_record_wide((int64_t)a3);
  sc_record_wide((int64_t)a4);
  sc_record_wide((int64_t)a5);
  sc_record(&a6, sizeof a6);
  sc_record(&a7, sizeof a7);
  sc_record(&a8, sizeof a8);
  sc_record(&a9, sizeof a9);
  sc_record(&a10, sizeof a10);
  sc_record(&a11, sizeof a11);
  uint64_t h = sc_hash();
  (void)h;
}

static void sc_call_22(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef void (*fn_t)(dp_id, dp_sel, signed char, unsigned char, short, unsigned short, int, unsigned int, int32_t, uint32_t, long long, unsigned long long);
  (void)ret;
  ((fn_t)imp)(self, sel, *(signed char *)args[0], *(unsigned char *)args[1], *(short *)args[2], *(unsigned short *)args[3], *(int *)args[4], *(unsigned int *)args[5], *(int32_t *)args[6], *(uint32_t *)args[7], *(long long *)args[8], *(unsigned long long *)args[9]);
}

// fp_exact: d@:dddddddd
static double sc_impl_23(dp_id self, dp_sel _cmd, double a2, double a3, double a4, double a5, double a6, double a7, double a8, double a9) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  sc_record(&a4, sizeof a4);
  sc_record(&a5, sizeof a5);
  sc_record(&a6, sizeof a6);
  sc_record(&a7, sizeof a7);
  sc_record(&a8, sizeof a8);
  sc_record(&a9, sizeof a9);
  uint64_t h = sc_hash();
  double r;
  memset(&r, 0, sizeof r);
  r = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_23(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef double (*fn_t)(dp_id, dp_sel, double, double, double, double, double, double, double, double);
  double r = ((fn_t)imp)(self, sel, *(double *)args[0], *(double *)args[1], *(double *)args[2], *(double *)args[3], *(double *)args[4], *(double *)args[5], *(double *)args[6], *(double *)args[7]);
  memcpy(ret, &r, sizeof r);
}

// fp_spill: d@:ddddddddd
static double sc_impl_24(dp_id self, dp_sel _cmd, double a2, double a3, double a4, double a5, double a6, double a7, double a8, double a9, double a10) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  sc_record(&a4, sizeof a4);
  sc_record(&a5, sizeof a5);
  sc_record(&a6, sizeof a6);
  sc_record(&a7, sizeof a7);
  sc_record(&a8, sizeof a8);
  sc_record(&a9, sizeof a9);
  sc_record(&a10, sizeof a10);
  uint64_t h = sc_hash();
  double r;
  memset(&r, 0, sizeof r);
  r = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_24(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef double (*fn_t)(dp_id, dp_sel, double, double, double, double, double, double, double, double, double);
  double r = ((fn_t)imp)(self, sel, *(double *)args[0], *(double *)args[1], *(double *)args[2], *(double *)args[3], *(double *)args[4], *(double *)args[5], *(double *)args[6], *(double *)args[7], *(double *)args[8]);
  memcpy(ret, &r, sizeof r);
}

// fp_mixed_spill: f@:fdfdfdfdfd
static float sc_impl_25(dp_id self, dp_sel _cmd, float a2, double a3, float a4, double a5, float a6, double a7, float a8, double a9, float a10, double a11) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  sc_record(&a4, sizeof a4);
  sc_record(&a5, sizeof a5);
  sc_record(&a6, sizeof a6);
  sc_record(&a7, sizeof a7);
  sc_record(&a8, sizeof a8);
  sc_record(&a9, sizeof a9);
  sc_record(&a10, sizeof a10);
  sc_record(&a11, sizeof a11);
  uint64_t h = sc_hash();
  float r;
  memset(&r, 0, sizeof r);
  r = (float)(sc_next(&h) % 100000) / 8.0f;
  return r;
}

static void sc_call_25(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef float (*fn_t)(dp_id, dp_sel, float, double, float, double, float, double, float, double, float, double);
  float r = ((fn_t)imp)(self, sel, *(float *)args[0], *(double *)args[1], *(float *)args[2], *(double *)args[3], *(float *)args[4], *(double *)args[5], *(float *)args[6], *(double *)args[7], *(float *)args[8], *(double *)args[9]);
  memcpy(ret, &r, sizeof r);
}

// mixed_fit: d@:qdqdqd
static double sc_impl_26(dp_id self, dp_sel _cmd, long long a2, double a3, long long a4, double a5, long long a6, double a7) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  sc_record(&a4, sizeof a4);
  sc_record(&a5, sizeof a5);
  sc_record(&a6, sizeof a6);
  sc_record(&a7, sizeof a7);
  uint64_t h = sc_hash();
  double r;
  memset(&r, 0, sizeof r);
  r = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_26(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef double (*fn_t)(dp_id, dp_sel, long long, double, long long, double, long long, double);
  double r = ((fn_t)imp)(self, sel, *(long long *)args[0], *(double *)args[1], *(long long *)args[2], *(double *)args[3], *(long long *)args[4], *(double *)args[5]);
  memcpy(ret, &r, sizeof r);
}

// mixed_spill: q@:qdqdqdqdqdqdf
static long long sc_impl_27(dp_id self, dp_sel _cmd, long long a2, double a3, long long a4, double a5, long long a6, double a7, long long a8, double a9, long long a10, double a11, long long a12, double a13, float a14) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  sc_record(&a4, sizeof a4);
  sc_record(&a5, sizeof a5);
  sc_record(&a6, sizeof a6);
  sc_record(&a7, sizeof a7);
  sc_record(&a8, sizeof a8);
  sc_record(&a9, sizeof a9);
  sc_record(&a10, sizeof a10);
  sc_record(&a11, sizeof a11);
  sc_record(&a12, sizeof a12);
  sc_record(&a13, sizeof a13);
  sc_record(&a14, sizeof a14);
  uint64_t h = sc_hash();
  long long r;
  memset(&r, 0, sizeof r);
  r = (long long)sc_next(&h);
  return r;
}

static void sc_call_27(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef long long (*fn_t)(dp_id, dp_sel, long long, double, long long, double, long long, double, long long, double, long long, double, long long, double, float);
  long long r = ((fn_t)imp)(self, sel, *(long long *)args[0], *(double *)args[1], *(long long *)args[2], *(double *)args[3], *(long long *)args[4], *(double *)args[5], *(long long *)args[6], *(double *)args[7], *(long long *)args[8], *(double *)args[9], *(long long *)args[10], *(double *)args[11], *(float *)args[12]);
  memcpy(ret, &r, sizeof r);
}

// char_ret_stack: c@:qqqqqq
static signed char sc_impl_28(dp_id self, dp_sel _cmd, long long a2, long long a3, long long a4, long long a5, long long a6, long long a7) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  sc_record(&a4, sizeof a4);
  sc_record(&a5, sizeof a5);
  sc_record(&a6, sizeof a6);
  sc_record(&a7, sizeof a7);
  uint64_t h = sc_hash();
  signed char r;
  memset(&r, 0, sizeof r);
  r = (signed char)sc_next(&h);
  return r;
}

static void sc_call_28(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef signed char (*fn_t)(dp_id, dp_sel, long long, long long, long long, long long, long long, long long);
  signed char r = ((fn_t)imp)(self, sel, *(long long *)args[0], *(long long *)args[1], *(long long *)args[2], *(long long *)args[3], *(long long *)args[4], *(long long *)args[5]);
  memcpy(ret, &r, sizeof r);
}

// narrow_on_stack: s@:qqqqcsBC
static short sc_impl_29(dp_id self, dp_sel _cmd, long long a2, long long a3, long long a4, long long a5, signed char a6, short a7, _Bool a8, unsigned char a9) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  sc_record(&a4, sizeof a4);
  sc_record(&a5, sizeof a5);
  sc_record_wide((int64_t)a6);
  sc_record_wide((int64_t)a7);
  sc_record_wide((int64_t)a8);
  sc_record_wide((int64_t)a9);
  uint64_t h = sc_hash();
  short r;
  memset(&r, 0, sizeof r);
  r = (short)sc_next(&h);
  return r;
}

static void sc_call_29(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef short (*fn_t)(dp_id, dp_sel, long long, long long, long long, long long, signed char, short, _Bool, unsigned char);
  short r = ((fn_t)imp)(self, sel, *(long long *)args[0], *(long long *)args[1], *(long long *)args[2], *(long long *)args[3], *(signed char *)args[4], *(short *)args[5], *(_Bool *)args[6], *(unsigned char *)args[7]);
  memcpy(ret, &r, sizeof r);
}

// ushort_ret_stack: S@:ffffffffff
static unsigned short sc_impl_30(dp_id self, dp_sel _cmd, float a2, float a3, float a4, float a5, float a6, float a7, float a8, float a9, float a10, float a11) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  sc_record(&a4, sizeof a4);
  sc_record(&a5, sizeof a5);
  sc_record(&a6, sizeof a6);
  sc_record(&a7, sizeof a7);
  sc_record(&a8, sizeof a8);
  sc_record(&a9, sizeof a9);
  sc_record(&a10, sizeof a10);
  sc_record(&a11, sizeof a11);
  uint64_t h = sc_hash();
  unsigned short r;
  memset(&r, 0, sizeof r);
  r = (unsigned short)sc_next(&h);
  return r;
}

static void sc_call_30(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef unsigned short (*fn_t)(dp_id, dp_sel, float, float, float, float, float, float, float, float, float, float);
  unsigned short r = ((fn_t)imp)(self, sel, *(float *)args[0], *(float *)args[1], *(float *)args[2], *(float *)args[3], *(float *)args[4], *(float *)args[5], *(float *)args[6], *(float *)args[7], *(float *)args[8], *(float *)args[9]);
  memcpy(ret, &r, sizeof r);
}

// small8: {Small8=ii}@:{Small8=ii}
static sc_Small8 sc_impl_31(dp_id self, dp_sel _cmd, sc_Small8 a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a2.f1, sizeof a2.f1);
  uint64_t h = sc_hash();
  sc_Small8 r;
  memset(&r, 0, sizeof r);
  r.f0 = (int)sc_next(&h);
  r.f1 = (int)sc_next(&h);
  return r;
}

static void sc_call_31(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Small8 (*fn_t)(dp_id, dp_sel, sc_Small8);
  sc_Small8 r = ((fn_t)imp)(self, sel, *(sc_Small8 *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// small16: {Small16=qq}@:{Small16=qq}
static sc_Small16 sc_impl_32(dp_id self, dp_sel _cmd, sc_Small16 a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a2.f1, sizeof a2.f1);
  uint64_t h = sc_hash();
  sc_Small16 r;
  memset(&r, 0, sizeof r);
  r.f0 = (long long)sc_next(&h);
  r.f1 = (long long)sc_next(&h);
  return r;
}

static void sc_call_32(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Small16 (*fn_t)(dp_id, dp_sel, sc_Small16);
  sc_Small16 r = ((fn_t)imp)(self, sel, *(sc_Small16 *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// tiny3: {Tiny3=ccc}@:{Tiny3=ccc}i
static sc_Tiny3 sc_impl_33(dp_id self, dp_sel _cmd, sc_Tiny3 a2, int a3) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a2.f1, sizeof a2.f1);
  sc_record(&a2.f2, sizeof a2.f2);
  sc_record(&a3, sizeof a3);
  uint64_t h = sc_hash();
  sc_Tiny3 r;
  memset(&r, 0, sizeof r);
  r.f0 = (signed char)sc_next(&h);
  r.f1 = (signed char)sc_next(&h);
  r.f2 = (signed char)sc_next(&h);
  return r;
}

static void sc_call_33(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Tiny3 (*fn_t)(dp_id, dp_sel, sc_Tiny3, int);
  sc_Tiny3 r = ((fn_t)imp)(self, sel, *(sc_Tiny3 *)args[0], *(int *)args[1]);
  memcpy(ret, &r, sizeof r);
}

// odd12: {Odd12=iii}@:{Odd12=iii}
static sc_Odd12 sc_impl_34(dp_id self, dp_sel _cmd, sc_Odd12 a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a2.f1, sizeof a2.f1);
  sc_record(&a2.f2, sizeof a2.f2);
  uint64_t h = sc_hash();
  sc_Odd12 r;
  memset(&r, 0, sizeof r);
  r.f0 = (int)sc_next(&h);
  r.f1 = (int)sc_next(&h);
  r.f2 = (int)sc_next(&h);
  return r;
}

static void sc_call_34(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Odd12 (*fn_t)(dp_id, dp_sel, sc_Odd12);
  sc_Odd12 r = ((fn_t)imp)(self, sel, *(sc_Odd12 *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// large24: {Large24=qqq}@:{Large24=qqq}
static sc_Large24 sc_impl_35(dp_id self, dp_sel _cmd, sc_Large24 a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a2.f1, sizeof a2.f1);
  sc_record(&a2.f2, sizeof a2.f2);
  uint64_t h = sc_hash();
  sc_Large24 r;
  memset(&r, 0, sizeof r);
  r.f0 = (long long)sc_next(&h);
  r.f1 = (long long)sc_next(&h);
  r.f2 = (long long)sc_next(&h);
  return r;
}

static void sc_call_35(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Large24 (*fn_t)(dp_id, dp_sel, sc_Large24);
  sc_Large24 r = ((fn_t)imp)(self, sel, *(sc_Large24 *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// large32: {Large32=dddd}@:{Large32=dddd}
static sc_Large32 sc_impl_36(dp_id self, dp_sel _cmd, sc_Large32 a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a2.f1, sizeof a2.f1);
  sc_record(&a2.f2, sizeof a2.f2);
  sc_record(&a2.f3, sizeof a2.f3);
  uint64_t h = sc_hash();
  sc_Large32 r;
  memset(&r, 0, sizeof r);
  r.f0 = (double)(sc_next(&h) % 100000) / 8.0;
  r.f1 = (double)(sc_next(&h) % 100000) / 8.0;
  r.f2 = (double)(sc_next(&h) % 100000) / 8.0;
  r.f3 = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_36(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Large32 (*fn_t)(dp_id, dp_sel, sc_Large32);
  sc_Large32 r = ((fn_t)imp)(self, sel, *(sc_Large32 *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// big40: {Big40=qdiiqd}@:{Big40=qdiiqd}q
static sc_Big40 sc_impl_37(dp_id self, dp_sel _cmd, sc_Big40 a2, long long a3) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a2.f1, sizeof a2.f1);
  sc_record(&a2.f2, sizeof a2.f2);
  sc_record(&a2.f3, sizeof a2.f3);
  sc_record(&a2.f4, sizeof a2.f4);
  sc_record(&a2.f5, sizeof a2.f5);
  sc_record(&a3, sizeof a3);
  uint64_t h = sc_hash();
  sc_Big40 r;
  memset(&r, 0, sizeof r);
  r.f0 = (long long)sc_next(&h);
  r.f1 = (double)(sc_next(&h) % 100000) / 8.0;
  r.f2 = (int)sc_next(&h);
  r.f3 = (int)sc_next(&h);
  r.f4 = (long long)sc_next(&h);
  r.f5 = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_37(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Big40 (*fn_t)(dp_id, dp_sel, sc_Big40, long long);
  sc_Big40 r = ((fn_t)imp)(self, sel, *(sc_Big40 *)args[0], *(long long *)args[1]);
  memcpy(ret, &r, sizeof r);
}

// big40_ret_only: {Big40=qdiiqd}@:id
static sc_Big40 sc_impl_38(dp_id self, dp_sel _cmd, int a2, double a3) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  uint64_t h = sc_hash();
  sc_Big40 r;
  memset(&r, 0, sizeof r);
  r.f0 = (long long)sc_next(&h);
  r.f1 = (double)(sc_next(&h) % 100000) / 8.0;
  r.f2 = (int)sc_next(&h);
  r.f3 = (int)sc_next(&h);
  r.f4 = (long long)sc_next(&h);
  r.f5 = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_38(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Big40 (*fn_t)(dp_id, dp_sel, int, double);
  sc_Big40 r = ((fn_t)imp)(self, sel, *(int *)args[0], *(double *)args[1]);
  memcpy(ret, &r, sizeof r);
}

// int_double: {IntDouble=id}@:{IntDouble=id}
static sc_IntDouble sc_impl_39(dp_id self, dp_sel _cmd, sc_IntDouble a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a2.f1, sizeof a2.f1);
  uint64_t h = sc_hash();
  sc_IntDouble r;
  memset(&r, 0, sizeof r);
  r.f0 = (int)sc_next(&h);
  r.f1 = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_39(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_IntDouble (*fn_t)(dp_id, dp_sel, sc_IntDouble);
  sc_IntDouble r = ((fn_t)imp)(self, sel, *(sc_IntDouble *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// double_int: {DoubleInt=di}@:{DoubleInt=di}
static sc_DoubleInt sc_impl_40(dp_id self, dp_sel _cmd, sc_DoubleInt a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a2.f1, sizeof a2.f1);
  uint64_t h = sc_hash();
  sc_DoubleInt r;
  memset(&r, 0, sizeof r);
  r.f0 = (double)(sc_next(&h) % 100000) / 8.0;
  r.f1 = (int)sc_next(&h);
  return r;
}

static void sc_call_40(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_DoubleInt (*fn_t)(dp_id, dp_sel, sc_DoubleInt);
  sc_DoubleInt r = ((fn_t)imp)(self, sel, *(sc_DoubleInt *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// float_int_float: {FIF=fif}@:{FIF=fif}
static sc_FIF sc_impl_41(dp_id self, dp_sel _cmd, sc_FIF a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a2.f1, sizeof a2.f1);
  sc_record(&a2.f2, sizeof a2.f2);
  uint64_t h = sc_hash();
  sc_FIF r;
  memset(&r, 0, sizeof r);
  r.f0 = (float)(sc_next(&h) % 100000) / 8.0f;
  r.f1 = (int)sc_next(&h);
  r.f2 = (float)(sc_next(&h) % 100000) / 8.0f;
  return r;
}

static void sc_call_41(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_FIF (*fn_t)(dp_id, dp_sel, sc_FIF);
  sc_FIF r = ((fn_t)imp)(self, sel, *(sc_FIF *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// float3: {Float3=fff}@:{Float3=fff}
static sc_Float3 sc_impl_42(dp_id self, dp_sel _cmd, sc_Float3 a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a2.f1, sizeof a2.f1);
  sc_record(&a2.f2, sizeof a2.f2);
  uint64_t h = sc_hash();
  sc_Float3 r;
  memset(&r, 0, sizeof r);
  r.f0 = (float)(sc_next(&h) % 100000) / 8.0f;
  r.f1 = (float)(sc_next(&h) % 100000) / 8.0f;
  r.f2 = (float)(sc_next(&h) % 100000) / 8.0f;
  return r;
}

static void sc_call_42(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Float3 (*fn_t)(dp_id, dp_sel, sc_Float3);
  sc_Float3 r = ((fn_t)imp)(self, sel, *(sc_Float3 *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// double2: {Double2=dd}@:{Double2=dd}
static sc_Double2 sc_impl_43(dp_id self, dp_sel _cmd, sc_Double2 a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a2.f1, sizeof a2.f1);
  uint64_t h = sc_hash();
  sc_Double2 r;
  memset(&r, 0, sizeof r);
  r.f0 = (double)(sc_next(&h) % 100000) / 8.0;
  r.f1 = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_43(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Double2 (*fn_t)(dp_id, dp_sel, sc_Double2);
  sc_Double2 r = ((fn_t)imp)(self, sel, *(sc_Double2 *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// float4: {Float4=ffff}@:{Float4=ffff}
static sc_Float4 sc_impl_44(dp_id self, dp_sel _cmd, sc_Float4 a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a2.f1, sizeof a2.f1);
  sc_record(&a2.f2, sizeof a2.f2);
  sc_record(&a2.f3, sizeof a2.f3);
  uint64_t h = sc_hash();
  sc_Float4 r;
  memset(&r, 0, sizeof r);
  r.f0 = (float)(sc_next(&h) % 100000) / 8.0f;
  r.f1 = (float)(sc_next(&h) % 100000) / 8.0f;
  r.f2 = (float)(sc_next(&h) % 100000) / 8.0f;
  r.f3 = (float)(sc_next(&h) % 100000) / 8.0f;
  return r;
}

static void sc_call_44(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Float4 (*fn_t)(dp_id, dp_sel, sc_Float4);
  sc_Float4 r = ((fn_t)imp)(self, sel, *(sc_Float4 *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// double1: {Double1=d}@:{Double1=d}f
static sc_Double1 sc_impl_45(dp_id self, dp_sel _cmd, sc_Double1 a2, float a3) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a3, sizeof a3);
  uint64_t h = sc_hash();
  sc_Double1 r;
  memset(&r, 0, sizeof r);
  r.f0 = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_45(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Double1 (*fn_t)(dp_id, dp_sel, sc_Double1, float);
  sc_Double1 r = ((fn_t)imp)(self, sel, *(sc_Double1 *)args[0], *(float *)args[1]);
  memcpy(ret, &r, sizeof r);
}

// nested: {Outer={Inner=cs}i{Pt=ff}}@:{Outer={Inner=cs}i{Pt=ff}}
static sc_Outer sc_impl_46(dp_id self, dp_sel _cmd, sc_Outer a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0.f0, sizeof a2.f0.f0);
  sc_record(&a2.f0.f1, sizeof a2.f0.f1);
  sc_record(&a2.f1, sizeof a2.f1);
  sc_record(&a2.f2.f0, sizeof a2.f2.f0);
  sc_record(&a2.f2.f1, sizeof a2.f2.f1);
  uint64_t h = sc_hash();
  sc_Outer r;
  memset(&r, 0, sizeof r);
  r.f0.f0 = (signed char)sc_next(&h);
  r.f0.f1 = (short)sc_next(&h);
  r.f1 = (int)sc_next(&h);
  r.f2.f0 = (float)(sc_next(&h) % 100000) / 8.0f;
  r.f2.f1 = (float)(sc_next(&h) % 100000) / 8.0f;
  return r;
}

static void sc_call_46(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Outer (*fn_t)(dp_id, dp_sel, sc_Outer);
  sc_Outer r = ((fn_t)imp)(self, sel, *(sc_Outer *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// nested_deep: {Deep3={Mid={Leaf=cd}i}f}@:{Deep3={Mid={Leaf=cd}i}f}
static sc_Deep3 sc_impl_47(dp_id self, dp_sel _cmd, sc_Deep3 a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0.f0.f0, sizeof a2.f0.f0.f0);
  sc_record(&a2.f0.f0.f1, sizeof a2.f0.f0.f1);
  sc_record(&a2.f0.f1, sizeof a2.f0.f1);
  sc_record(&a2.f1, sizeof a2.f1);
  uint64_t h = sc_hash();
  sc_Deep3 r;
  memset(&r, 0, sizeof r);
  r.f0.f0.f0 = (signed char)sc_next(&h);
  r.f0.f0.f1 = (double)(sc_next(&h) % 100000) / 8.0;
  r.f0.f1 = (int)sc_next(&h);
  r.f1 = (float)(sc_next(&h) % 100000) / 8.0f;
  return r;
}

static void sc_call_47(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Deep3 (*fn_t)(dp_id, dp_sel, sc_Deep3);
  sc_Deep3 r = ((fn_t)imp)(self, sel, *(sc_Deep3 *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// array_in_struct: {sc_arr=[3i]c}@:{sc_arr=[3i]c}
static sc_arr sc_impl_48(dp_id self, dp_sel _cmd, sc_arr a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0[0], sizeof a2.f0[0]);
  sc_record(&a2.f0[1], sizeof a2.f0[1]);
  sc_record(&a2.f0[2], sizeof a2.f0[2]);
  sc_record(&a2.f1, sizeof a2.f1);
  uint64_t h = sc_hash();
  sc_arr r;
  memset(&r, 0, sizeof r);
  r.f0[0] = (int)sc_next(&h);
  r.f0[1] = (int)sc_next(&h);
  r.f0[2] = (int)sc_next(&h);
  r.f1 = (signed char)sc_next(&h);
  return r;
}

static void sc_call_48(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_arr (*fn_t)(dp_id, dp_sel, sc_arr);
  sc_arr r = ((fn_t)imp)(self, sel, *(sc_arr *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// double_array: {DArr=[2d]}@:{DArr=[2d]}d
static sc_DArr sc_impl_49(dp_id self, dp_sel _cmd, sc_DArr a2, double a3) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0[0], sizeof a2.f0[0]);
  sc_record(&a2.f0[1], sizeof a2.f0[1]);
  sc_record(&a3, sizeof a3);
  uint64_t h = sc_hash();
  sc_DArr r;
  memset(&r, 0, sizeof r);
  r.f0[0] = (double)(sc_next(&h) % 100000) / 8.0;
  r.f0[1] = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_49(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_DArr (*fn_t)(dp_id, dp_sel, sc_DArr, double);
  sc_DArr r = ((fn_t)imp)(self, sel, *(sc_DArr *)args[0], *(double *)args[1]);
  memcpy(ret, &r, sizeof r);
}

// flags: {Flags=BBcs}@:{Flags=BBcs}
static sc_Flags sc_impl_50(dp_id self, dp_sel _cmd, sc_Flags a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a2.f1, sizeof a2.f1);
  sc_record(&a2.f2, sizeof a2.f2);
  sc_record(&a2.f3, sizeof a2.f3);
  uint64_t h = sc_hash();
  sc_Flags r;
  memset(&r, 0, sizeof r);
  r.f0 = (_Bool)(sc_next(&h) & 1);
  r.f1 = (_Bool)(sc_next(&h) & 1);
  r.f2 = (signed char)sc_next(&h);
  r.f3 = (short)sc_next(&h);
  return r;
}

static void sc_call_50(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Flags (*fn_t)(dp_id, dp_sel, sc_Flags);
  sc_Flags r = ((fn_t)imp)(self, sel, *(sc_Flags *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// refs: {Refs=@:#*}@:{Refs=@:#*}
static sc_Refs sc_impl_51(dp_id self, dp_sel _cmd, sc_Refs a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_deref(a2.f0 ? dp_class_get_name(dp_object_get_class(a2.f0)) : NULL);
  sc_record(&a2.f1, sizeof a2.f1);
  sc_deref(a2.f1 ? dp_sel_get_name(a2.f1) : NULL);
  sc_record(&a2.f2, sizeof a2.f2);
  sc_deref(a2.f2 ? dp_class_get_name(a2.f2) : NULL);
  sc_record(&a2.f3, sizeof a2.f3);
  sc_deref(a2.f3);
  uint64_t h = sc_hash();
  sc_Refs r;
  memset(&r, 0, sizeof r);
  r.f0 = (dp_id)(uintptr_t)sc_next(&h);
  r.f1 = (dp_sel)(uintptr_t)sc_next(&h);
  r.f2 = (dp_class *)(uintptr_t)sc_next(&h);
  r.f3 = (char *)(uintptr_t)sc_next(&h);
  return r;
}

static void sc_call_51(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Refs (*fn_t)(dp_id, dp_sel, sc_Refs);
  sc_Refs r = ((fn_t)imp)(self, sel, *(sc_Refs *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// pointer_struct: {PtrPair=^v*}@:{PtrPair=^v*}
static sc_PtrPair sc_impl_52(dp_id self, dp_sel _cmd, sc_PtrPair a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a2.f1, sizeof a2.f1);
  sc_deref(a2.f1);
  uint64_t h = sc_hash();
  sc_PtrPair r;
  memset(&r, 0, sizeof r);
  r.f0 = (void *)(uintptr_t)sc_next(&h);
  r.f1 = (char *)(uintptr_t)sc_next(&h);
  return r;
}

static void sc_call_52(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_PtrPair (*fn_t)(dp_id, dp_sel, sc_PtrPair);
  sc_PtrPair r = ((fn_t)imp)(self, sel, *(sc_PtrPair *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// union_int_float: (IntFloat=if)@:(IntFloat=if)
static sc_IntFloat sc_impl_53(dp_id self, dp_sel _cmd, sc_IntFloat a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  uint64_t h = sc_hash();
  sc_IntFloat r;
  memset(&r, 0, sizeof r);
  r.f0 = (int)sc_next(&h);
  return r;
}

static void sc_call_53(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_IntFloat (*fn_t)(dp_id, dp_sel, sc_IntFloat);
  sc_IntFloat r = ((fn_t)imp)(self, sel, *(sc_IntFloat *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// union_float_double: (FloatDouble=fd)@:(FloatDouble=fd)
static sc_FloatDouble sc_impl_54(dp_id self, dp_sel _cmd, sc_FloatDouble a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f1, sizeof a2.f1);
  uint64_t h = sc_hash();
  sc_FloatDouble r;
  memset(&r, 0, sizeof r);
  r.f1 = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_54(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_FloatDouble (*fn_t)(dp_id, dp_sel, sc_FloatDouble);
  sc_FloatDouble r = ((fn_t)imp)(self, sel, *(sc_FloatDouble *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// union_of_structs: (UPair={Double2=dd}{Small16=qq})@:(UPair={Double2=dd}{Small16=qq})
static sc_UPair sc_impl_55(dp_id self, dp_sel _cmd, sc_UPair a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0.f0, sizeof a2.f0.f0);
  sc_record(&a2.f0.f1, sizeof a2.f0.f1);
  uint64_t h = sc_hash();
  sc_UPair r;
  memset(&r, 0, sizeof r);
  r.f0.f0 = (double)(sc_next(&h) % 100000) / 8.0;
  r.f0.f1 = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_55(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_UPair (*fn_t)(dp_id, dp_sel, sc_UPair);
  sc_UPair r = ((fn_t)imp)(self, sel, *(sc_UPair *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// struct_with_union: {WithUnion=(IntFloat=if)d}@:{WithUnion=(IntFloat=if)d}
static sc_WithUnion sc_impl_56(dp_id self, dp_sel _cmd, sc_WithUnion a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0.f0, sizeof a2.f0.f0);
  sc_record(&a2.f1, sizeof a2.f1);
  uint64_t h = sc_hash();
  sc_WithUnion r;
  memset(&r, 0, sizeof r);
  r.f0.f0 = (int)sc_next(&h);
  r.f1 = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_56(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_WithUnion (*fn_t)(dp_id, dp_sel, sc_WithUnion);
  sc_WithUnion r = ((fn_t)imp)(self, sel, *(sc_WithUnion *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// struct_no_fit: q@:qqq{Small16=qq}i
static long long sc_impl_57(dp_id self, dp_sel _cmd, long long a2, long long a3, long long a4, sc_Small16 a5, int a6) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  sc_record(&a4, sizeof a4);
  sc_record(&a5.f0, sizeof a5.f0);
  sc_record(&a5.f1, sizeof a5.f1);
  sc_record(&a6, sizeof a6);
  uint64_t h = sc_hash();
  long long r;
  memset(&r, 0, sizeof r);
  r = (long long)sc_next(&h);
  return r;
}

static void sc_call_57(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef long long (*fn_t)(dp_id, dp_sel, long long, long long, long long, sc_Small16, int);
  long long r = ((fn_t)imp)(self, sel, *(long long *)args[0], *(long long *)args[1], *(long long *)args[2], *(sc_Small16 *)args[3], *(int *)args[4]);
  memcpy(ret, &r, sizeof r);
}

// float_struct_no_fit: d@:dddddddd{Float3=fff}q
static double sc_impl_58(dp_id self, dp_sel _cmd, double a2, double a3, double a4, double a5, double a6, double a7, double a8, double a9, sc_Float3 a10, long long a11) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  sc_record(&a4, sizeof a4);
  sc_record(&a5, sizeof a5);
  sc_record(&a6, sizeof a6);
  sc_record(&a7, sizeof a7);
  sc_record(&a8, sizeof a8);
  sc_record(&a9, sizeof a9);
  sc_record(&a10.f0, sizeof a10.f0);
  sc_record(&a10.f1, sizeof a10.f1);
  sc_record(&a10.f2, sizeof a10.f2);
  sc_record(&a11, sizeof a11);
  uint64_t h = sc_hash();
  double r;
  memset(&r, 0, sizeof r);
  r = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_58(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef double (*fn_t)(dp_id, dp_sel, double, double, double, double, double, double, double, double, sc_Float3, long long);
  double r = ((fn_t)imp)(self, sel, *(double *)args[0], *(double *)args[1], *(double *)args[2], *(double *)args[3], *(double *)args[4], *(double *)args[5], *(double *)args[6], *(double *)args[7], *(sc_Float3 *)args[8], *(long long *)args[9]);
  memcpy(ret, &r, sizeof r);
}

// out_params: v@:^q^d
static void sc_impl_59(dp_id self, dp_sel _cmd, long long *a2, double *a3) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  uint64_t h = sc_hash();
  if (a2) {
    (*a2) = (long long)((uint64_t)(*a2) * 3u + sc_next(&h));
  }
  if (a3) {
    (*a3) = -(*a3) * 0.5 + (double)(sc_next(&h) % 64) / 4.0 + 0.5;
  }
  (void)h;
}

static void sc_call_59(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef void (*fn_t)(dp_id, dp_sel, long long *, double *);
  (void)ret;
  ((fn_t)imp)(self, sel, *(long long * *)args[0], *(double * *)args[1]);
}

// out_point: B@:^{CGPoint=dd}
static _Bool sc_impl_60(dp_id self, dp_sel _cmd, sc_CGPoint *a2) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  uint64_t h = sc_hash();
  if (a2) {
    (*a2).f0 = -(*a2).f0 * 0.5 + (double)(sc_next(&h) % 64) / 4.0 + 0.5;
    (*a2).f1 = -(*a2).f1 * 0.5 + (double)(sc_next(&h) % 64) / 4.0 + 0.5;
  }
  _Bool r;
  memset(&r, 0, sizeof r);
  r = (_Bool)(sc_next(&h) & 1);
  return r;
}

static void sc_call_60(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef _Bool (*fn_t)(dp_id, dp_sel, sc_CGPoint *);
  _Bool r = ((fn_t)imp)(self, sel, *(sc_CGPoint * *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// out_large: Q@:^{Large32=dddd}^i
static unsigned long long sc_impl_61(dp_id self, dp_sel _cmd, sc_Large32 *a2, int *a3) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  uint64_t h = sc_hash();
  if (a2) {
    (*a2).f0 = -(*a2).f0 * 0.5 + (double)(sc_next(&h) % 64) / 4.0 + 0.5;
    (*a2).f1 = -(*a2).f1 * 0.5 + (double)(sc_next(&h) % 64) / 4.0 + 0.5;
    (*a2).f2 = -(*a2).f2 * 0.5 + (double)(sc_next(&h) % 64) / 4.0 + 0.5;
    (*a2).f3 = -(*a2).f3 * 0.5 + (double)(sc_next(&h) % 64) / 4.0 + 0.5;
  }
  if (a3) {
    (*a3) = (int)((uint64_t)(*a3) * 3u + sc_next(&h));
  }
  unsigned long long r;
  memset(&r, 0, sizeof r);
  r = (unsigned long long)sc_next(&h);
  return r;
}

static void sc_call_61(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef unsigned long long (*fn_t)(dp_id, dp_sel, sc_Large32 *, int *);
  unsigned long long r = ((fn_t)imp)(self, sel, *(sc_Large32 * *)args[0], *(int * *)args[1]);
  memcpy(ret, &r, sizeof r);
}

// longdouble: D@:D
static long double sc_impl_62(dp_id self, dp_sel _cmd, long double a2) {
  sc_begin(self, _cmd);
  sc_record(&a2, DP_SIG_LDBL_BYTES);
  uint64_t h = sc_hash();
  long double r;
  memset(&r, 0, sizeof r);
  r = (long double)(sc_next(&h) % 100000) / 3.0L;
  return r;
}

static void sc_call_62(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef long double (*fn_t)(dp_id, dp_sel, long double);
  long double r = ((fn_t)imp)(self, sel, *(long double *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// longdouble_mixed: D@:iDdD
static long double sc_impl_63(dp_id self, dp_sel _cmd, int a2, long double a3, double a4, long double a5) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, DP_SIG_LDBL_BYTES);
  sc_record(&a4, sizeof a4);
  sc_record(&a5, DP_SIG_LDBL_BYTES);
  uint64_t h = sc_hash();
  long double r;
  memset(&r, 0, sizeof r);
  r = (long double)(sc_next(&h) % 100000) / 3.0L;
  return r;
}

static void sc_call_63(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef long double (*fn_t)(dp_id, dp_sel, int, long double, double, long double);
  long double r = ((fn_t)imp)(self, sel, *(int *)args[0], *(long double *)args[1], *(double *)args[2], *(long double *)args[3]);
  memcpy(ret, &r, sizeof r);
}

// longdouble_arg: v@:D
static void sc_impl_64(dp_id self, dp_sel _cmd, long double a2) {
  sc_begin(self, _cmd);
  sc_record(&a2, DP_SIG_LDBL_BYTES);
  uint64_t h = sc_hash();
  (void)h;
}

static void sc_call_64(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef void (*fn_t)(dp_id, dp_sel, long double);
  (void)ret;
  ((fn_t)imp)(self, sel, *(long double *)args[0]);
}

// longdouble_struct: {LD1=D}@:{LD1=D}
static sc_LD1 sc_impl_65(dp_id self, dp_sel _cmd, sc_LD1 a2) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, DP_SIG_LDBL_BYTES);
  uint64_t h = sc_hash();
  sc_LD1 r;
  memset(&r, 0, sizeof r);
  r.f0 = (long double)(sc_next(&h) % 100000) / 3.0L;
  return r;
}

static void sc_call_65(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_LD1 (*fn_t)(dp_id, dp_sel, sc_LD1);
  sc_LD1 r = ((fn_t)imp)(self, sel, *(sc_LD1 *)args[0]);
  memcpy(ret, &r, sizeof r);
}

// longdouble_union: q@:(LDU=Dq)i
static long long sc_impl_66(dp_id self, dp_sel _cmd, sc_LDU a2, int a3) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, DP_SIG_LDBL_BYTES);
  sc_record(&a3, sizeof a3);
  uint64_t h = sc_hash();
  long long r;
  memset(&r, 0, sizeof r);
  r = (long long)sc_next(&h);
  return r;
}

static void sc_call_66(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef long long (*fn_t)(dp_id, dp_sel, sc_LDU, int);
  long long r = ((fn_t)imp)(self, sel, *(sc_LDU *)args[0], *(int *)args[1]);
  memcpy(ret, &r, sizeof r);
}

// longdouble_union_in_struct: {LDHolder=c(LDU=Dq)i}@:{LDHolder=c(LDU=Dq)i}d
static sc_LDHolder sc_impl_67(dp_id self, dp_sel _cmd, sc_LDHolder a2, double a3) {
  sc_begin(self, _cmd);
  sc_record(&a2.f0, sizeof a2.f0);
  sc_record(&a2.f1.f0, DP_SIG_LDBL_BYTES);
  sc_record(&a2.f2, sizeof a2.f2);
  sc_record(&a3, sizeof a3);
  uint64_t h = sc_hash();
  sc_LDHolder r;
  memset(&r, 0, sizeof r);
  r.f0 = (signed char)sc_next(&h);
  r.f1.f0 = (long double)(sc_next(&h) % 100000) / 3.0L;
  r.f2 = (int)sc_next(&h);
  return r;
}

static void sc_call_67(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_LDHolder (*fn_t)(dp_id, dp_sel, sc_LDHolder, double);
  sc_LDHolder r = ((fn_t)imp)(self, sel, *(sc_LDHolder *)args[0], *(double *)args[1]);
  memcpy(ret, &r, sizeof r);
}

// delegate_point: v@:@{CGPoint=dd}^{CGPoint=dd}
static void sc_impl_68(dp_id self, dp_sel _cmd, dp_id a2, sc_CGPoint a3, sc_CGPoint *a4) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_deref(a2 ? dp_class_get_name(dp_object_get_class(a2)) : NULL);
  sc_record(&a3.f0, sizeof a3.f0);
  sc_record(&a3.f1, sizeof a3.f1);
  sc_record(&a4, sizeof a4);
  uint64_t h = sc_hash();
  if (a4) {
    (*a4).f0 = -(*a4).f0 * 0.5 + (double)(sc_next(&h) % 64) / 4.0 + 0.5;
    (*a4).f1 = -(*a4).f1 * 0.5 + (double)(sc_next(&h) % 64) / 4.0 + 0.5;
  }
  (void)h;
}

static void sc_call_68(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef void (*fn_t)(dp_id, dp_sel, dp_id, sc_CGPoint, sc_CGPoint *);
  (void)ret;
  ((fn_t)imp)(self, sel, *(dp_id *)args[0], *(sc_CGPoint *)args[1], *(sc_CGPoint * *)args[2]);
}

// delegate_rows: q@:@q
static long long sc_impl_69(dp_id self, dp_sel _cmd, dp_id a2, long long a3) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_deref(a2 ? dp_class_get_name(dp_object_get_class(a2)) : NULL);
  sc_record(&a3, sizeof a3);
  uint64_t h = sc_hash();
  long long r;
  memset(&r, 0, sizeof r);
  r = (long long)sc_next(&h);
  return r;
}

static void sc_call_69(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef long long (*fn_t)(dp_id, dp_sel, dp_id, long long);
  long long r = ((fn_t)imp)(self, sel, *(dp_id *)args[0], *(long long *)args[1]);
  memcpy(ret, &r, sizeof r);
}

// delegate_height: d@:@q
static double sc_impl_70(dp_id self, dp_sel _cmd, dp_id a2, long long a3) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_deref(a2 ? dp_class_get_name(dp_object_get_class(a2)) : NULL);
  sc_record(&a3, sizeof a3);
  uint64_t h = sc_hash();
  double r;
  memset(&r, 0, sizeof r);
  r = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_70(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef double (*fn_t)(dp_id, dp_sel, dp_id, long long);
  double r = ((fn_t)imp)(self, sel, *(dp_id *)args[0], *(long long *)args[1]);
  memcpy(ret, &r, sizeof r);
}

// delegate_should: B@:@@
static _Bool sc_impl_71(dp_id self, dp_sel _cmd, dp_id a2, dp_id a3) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_deref(a2 ? dp_class_get_name(dp_object_get_class(a2)) : NULL);
  sc_record(&a3, sizeof a3);
  sc_deref(a3 ? dp_class_get_name(dp_object_get_class(a3)) : NULL);
  uint64_t h = sc_hash();
  _Bool r;
  memset(&r, 0, sizeof r);
  r = (_Bool)(sc_next(&h) & 1);
  return r;
}

static void sc_call_71(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef _Bool (*fn_t)(dp_id, dp_sel, dp_id, dp_id);
  _Bool r = ((fn_t)imp)(self, sel, *(dp_id *)args[0], *(dp_id *)args[1]);
  memcpy(ret, &r, sizeof r);
}

// delegate_add: q@:qd
static long long sc_impl_72(dp_id self, dp_sel _cmd, long long a2, double a3) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  uint64_t h = sc_hash();
  long long r;
  memset(&r, 0, sizeof r);
  r = (long long)sc_next(&h);
  return r;
}

static void sc_call_72(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef long long (*fn_t)(dp_id, dp_sel, long long, double);
  long long r = ((fn_t)imp)(self, sel, *(long long *)args[0], *(double *)args[1]);
  memcpy(ret, &r, sizeof r);
}

// kitchen_sink_fit: {IntDouble=id}@:i{Float4=ffff}q{DoubleInt=di}dfs
static sc_IntDouble sc_impl_73(dp_id self, dp_sel _cmd, int a2, sc_Float4 a3, long long a4, sc_DoubleInt a5, double a6, float a7, SC_NARROW(short, int32_t) a8) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3.f0, sizeof a3.f0);
  sc_record(&a3.f1, sizeof a3.f1);
  sc_record(&a3.f2, sizeof a3.f2);
  sc_record(&a3.f3, sizeof a3.f3);
  sc_record(&a4, sizeof a4);
  sc_record(&a5.f0, sizeof a5.f0);
  sc_record(&a5.f1, sizeof a5.f1);
  sc_record(&a6, sizeof a6);
  sc_record(&a7, sizeof a7);
  sc_record_wide((int64_t)a8);
  uint64_t h = sc_hash();
  sc_IntDouble r;
  memset(&r, 0, sizeof r);
  r.f0 = (int)sc_next(&h);
  r.f1 = (double)(sc_next(&h) % 100000) / 8.0;
  return r;
}

static void sc_call_73(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_IntDouble (*fn_t)(dp_id, dp_sel, int, sc_Float4, long long, sc_DoubleInt, double, float, short);
  sc_IntDouble r = ((fn_t)imp)(self, sel, *(int *)args[0], *(sc_Float4 *)args[1], *(long long *)args[2], *(sc_DoubleInt *)args[3], *(double *)args[4], *(float *)args[5], *(short *)args[6]);
  memcpy(ret, &r, sizeof r);
}

// kitchen_sink_spill: {Large24=qqq}@:@:{Small16=qq}{Double2=dd}dddddd#B*
static sc_Large24 sc_impl_74(dp_id self, dp_sel _cmd, dp_id a2, dp_sel a3, sc_Small16 a4, sc_Double2 a5, double a6, double a7, double a8, double a9, double a10, double a11, dp_class *a12, _Bool a13, char *a14) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_deref(a2 ? dp_class_get_name(dp_object_get_class(a2)) : NULL);
  sc_record(&a3, sizeof a3);
  sc_deref(a3 ? dp_sel_get_name(a3) : NULL);
  sc_record(&a4.f0, sizeof a4.f0);
  sc_record(&a4.f1, sizeof a4.f1);
  sc_record(&a5.f0, sizeof a5.f0);
  sc_record(&a5.f1, sizeof a5.f1);
  sc_record(&a6, sizeof a6);
  sc_record(&a7, sizeof a7);
  sc_record(&a8, sizeof a8);
  sc_record(&a9, sizeof a9);
  sc_record(&a10, sizeof a10);
  sc_record(&a11, sizeof a11);
  sc_record(&a12, sizeof a12);
  sc_deref(a12 ? dp_class_get_name(a12) : NULL);
  sc_record_wide((int64_t)a13);
  sc_record(&a14, sizeof a14);
  sc_deref(a14);
  uint64_t h = sc_hash();
  sc_Large24 r;
  memset(&r, 0, sizeof r);
  r.f0 = (long long)sc_next(&h);
  r.f1 = (long long)sc_next(&h);
  r.f2 = (long long)sc_next(&h);
  return r;
}

static void sc_call_74(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef sc_Large24 (*fn_t)(dp_id, dp_sel, dp_id, dp_sel, sc_Small16, sc_Double2, double, double, double, double, double, double, dp_class *, _Bool, char *);
  sc_Large24 r = ((fn_t)imp)(self, sel, *(dp_id *)args[0], *(dp_sel *)args[1], *(sc_Small16 *)args[2], *(sc_Double2 *)args[3], *(double *)args[4], *(double *)args[5], *(double *)args[6], *(double *)args[7], *(double *)args[8], *(double *)args[9], *(dp_class * *)args[10], *(_Bool *)args[11], *(char * *)args[12]);
  memcpy(ret, &r, sizeof r);
}

// typed_small: i@:if
static int sc_impl_75(dp_id self, dp_sel _cmd, int a2, float a3) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  uint64_t h = sc_hash();
  int r;
  memset(&r, 0, sizeof r);
  r = (int)sc_next(&h);
  return r;
}

static void sc_call_75(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef int (*fn_t)(dp_id, dp_sel, int, float);
  int r = ((fn_t)imp)(self, sel, *(int *)args[0], *(float *)args[1]);
  memcpy(ret, &r, sizeof r);
}

// typed_float: f@:ff
static float sc_impl_76(dp_id self, dp_sel _cmd, float a2, float a3) {
  sc_begin(self, _cmd);
  sc_record(&a2, sizeof a2);
  sc_record(&a3, sizeof a3);
  uint64_t h = sc_hash();
  float r;
  memset(&r, 0, sizeof r);
  r = (float)(sc_next(&h) % 100000) / 8.0f;
  return r;
}

static void sc_call_76(dp_imp imp, dp_id self, dp_sel sel, void *const *args, void *ret) {
  typedef float (*fn_t)(dp_id, dp_sel, float, float);
  float r = ((fn_t)imp)(self, sel, *(float *)args[0], *(float *)args[1]);
  memcpy(ret, &r, sizeof r);
}

static const dp_sig_case sc_cases[] = {
  {"char", "c@:c", (dp_imp)sc_impl_0, sc_call_0, true},
  {"uchar", "C@:C", (dp_imp)sc_impl_1, sc_call_1, true},
  {"short", "s@:s", (dp_imp)sc_impl_2, sc_call_2, true},
  {"ushort", "S@:S", (dp_imp)sc_impl_3, sc_call_3, true},
  {"int", "i@:i", (dp_imp)sc_impl_4, sc_call_4, true},
  {"uint", "I@:I", (dp_imp)sc_impl_5, sc_call_5, true},
  {"long32", "l@:l", (dp_imp)sc_impl_6, sc_call_6, true},
  {"ulong32", "L@:L", (dp_imp)sc_impl_7, sc_call_7, true},
  {"longlong", "q@:q", (dp_imp)sc_impl_8, sc_call_8, true},
  {"ulonglong", "Q@:Q", (dp_imp)sc_impl_9, sc_call_9, true},
  {"float", "f@:f", (dp_imp)sc_impl_10, sc_call_10, true},
  {"double", "d@:d", (dp_imp)sc_impl_11, sc_call_11, true},
  {"bool", "B@:B", (dp_imp)sc_impl_12, sc_call_12, true},
  {"voidptr", "^v@:^v", (dp_imp)sc_impl_13, sc_call_13, true},
  {"cstring", "*@:*", (dp_imp)sc_impl_14, sc_call_14, true},
  {"object", "@@:@", (dp_imp)sc_impl_15, sc_call_15, true},
  {"selector", ":@::", (dp_imp)sc_impl_16, sc_call_16, true},
  {"class", "#@:#", (dp_imp)sc_impl_17, sc_call_17, true},
  {"void_noargs", "v@:", (dp_imp)sc_impl_18, sc_call_18, true},
  {"narrow_mix", "s@:cCsB", (dp_imp)sc_impl_19, sc_call_19, true},
  {"gp_exact", "q@:qqqq", (dp_imp)sc_impl_20, sc_call_20, true},
  {"gp_spill", "q@:qqqqq", (dp_imp)sc_impl_21, sc_call_21, false},
  {"gp_all_widths", "v@:cCsSiIlLqQ", (dp_imp)sc_impl_22, sc_call_22, false},
  {"fp_exact", "d@:dddddddd", (dp_imp)sc_impl_23, sc_call_23, true},
  {"fp_spill", "d@:ddddddddd", (dp_imp)sc_impl_24, sc_call_24, false},
  {"fp_mixed_spill", "f@:fdfdfdfdfd", (dp_imp)sc_impl_25, sc_call_25, false},
  {"mixed_fit", "d@:qdqdqd", (dp_imp)sc_impl_26, sc_call_26, true},
  {"mixed_spill", "q@:qdqdqdqdqdqdf", (dp_imp)sc_impl_27, sc_call_27, false},
  {"char_ret_stack", "c@:qqqqqq", (dp_imp)sc_impl_28, sc_call_28, false},
  {"narrow_on_stack", "s@:qqqqcsBC", (dp_imp)sc_impl_29, sc_call_29, false},
  {"ushort_ret_stack", "S@:ffffffffff", (dp_imp)sc_impl_30, sc_call_30, false},
  {"small8", "{Small8=ii}@:{Small8=ii}", (dp_imp)sc_impl_31, sc_call_31, true},
  {"small16", "{Small16=qq}@:{Small16=qq}", (dp_imp)sc_impl_32, sc_call_32, true},
  {"tiny3", "{Tiny3=ccc}@:{Tiny3=ccc}i", (dp_imp)sc_impl_33, sc_call_33, true},
  {"odd12", "{Odd12=iii}@:{Odd12=iii}", (dp_imp)sc_impl_34, sc_call_34, true},
  {"large24", "{Large24=qqq}@:{Large24=qqq}", (dp_imp)sc_impl_35, sc_call_35, false},
  {"large32", "{Large32=dddd}@:{Large32=dddd}", (dp_imp)sc_impl_36, sc_call_36, false},
  {"big40", "{Big40=qdiiqd}@:{Big40=qdiiqd}q", (dp_imp)sc_impl_37, sc_call_37, false},
  {"big40_ret_only", "{Big40=qdiiqd}@:id", (dp_imp)sc_impl_38, sc_call_38, false},
  {"int_double", "{IntDouble=id}@:{IntDouble=id}", (dp_imp)sc_impl_39, sc_call_39, true},
  {"double_int", "{DoubleInt=di}@:{DoubleInt=di}", (dp_imp)sc_impl_40, sc_call_40, true},
  {"float_int_float", "{FIF=fif}@:{FIF=fif}", (dp_imp)sc_impl_41, sc_call_41, true},
  {"float3", "{Float3=fff}@:{Float3=fff}", (dp_imp)sc_impl_42, sc_call_42, true},
  {"double2", "{Double2=dd}@:{Double2=dd}", (dp_imp)sc_impl_43, sc_call_43, true},
  {"float4", "{Float4=ffff}@:{Float4=ffff}", (dp_imp)sc_impl_44, sc_call_44, true},
  {"double1", "{Double1=d}@:{Double1=d}f", (dp_imp)sc_impl_45, sc_call_45, true},
  {"nested", "{Outer={Inner=cs}i{Pt=ff}}@:{Outer={Inner=cs}i{Pt=ff}}", (dp_imp)sc_impl_46, sc_call_46, true},
  {"nested_deep", "{Deep3={Mid={Leaf=cd}i}f}@:{Deep3={Mid={Leaf=cd}i}f}", (dp_imp)sc_impl_47, sc_call_47, false},
  {"array_in_struct", "{sc_arr=[3i]c}@:{sc_arr=[3i]c}", (dp_imp)sc_impl_48, sc_call_48, true},
  {"double_array", "{DArr=[2d]}@:{DArr=[2d]}d", (dp_imp)sc_impl_49, sc_call_49, true},
  {"flags", "{Flags=BBcs}@:{Flags=BBcs}", (dp_imp)sc_impl_50, sc_call_50, true},
  {"refs", "{Refs=@:#*}@:{Refs=@:#*}", (dp_imp)sc_impl_51, sc_call_51, false},
  {"pointer_struct", "{PtrPair=^v*}@:{PtrPair=^v*}", (dp_imp)sc_impl_52, sc_call_52, true},
  {"union_int_float", "(IntFloat=if)@:(IntFloat=if)", (dp_imp)sc_impl_53, sc_call_53, true},
  {"union_float_double", "(FloatDouble=fd)@:(FloatDouble=fd)", (dp_imp)sc_impl_54, sc_call_54, true},
  {"union_of_structs", "(UPair={Double2=dd}{Small16=qq})@:(UPair={Double2=dd}{Small16=qq})", (dp_imp)sc_impl_55, sc_call_55, true},
  {"struct_with_union", "{WithUnion=(IntFloat=if)d}@:{WithUnion=(IntFloat=if)d}", (dp_imp)sc_impl_56, sc_call_56, true},
  {"struct_no_fit", "q@:qqq{Small16=qq}i", (dp_imp)sc_impl_57, sc_call_57, false},
  {"float_struct_no_fit", "d@:dddddddd{Float3=fff}q", (dp_imp)sc_impl_58, sc_call_58, false},
  {"out_params", "v@:^q^d", (dp_imp)sc_impl_59, sc_call_59, true},
  {"out_point", "B@:^{CGPoint=dd}", (dp_imp)sc_impl_60, sc_call_60, true},
  {"out_large", "Q@:^{Large32=dddd}^i", (dp_imp)sc_impl_61, sc_call_61, true},
  {"longdouble", "D@:D", (dp_imp)sc_impl_62, sc_call_62, false},
  {"longdouble_mixed", "D@:iDdD", (dp_imp)sc_impl_63, sc_call_63, false},
  {"longdouble_arg", "v@:D", (dp_imp)sc_impl_64, sc_call_64, false},
  {"longdouble_struct", "{LD1=D}@:{LD1=D}", (dp_imp)sc_impl_65, sc_call_65, false},
  {"longdouble_union", "q@:(LDU=Dq)i", (dp_imp)sc_impl_66, sc_call_66, false},
  {"longdouble_union_in_struct", "{LDHolder=c(LDU=Dq)i}@:{LDHolder=c(LDU=Dq)i}d", (dp_imp)sc_impl_67, sc_call_67, false},
  {"delegate_point", "v@:@{CGPoint=dd}^{CGPoint=dd}", (dp_imp)sc_impl_68, sc_call_68, true},
  {"delegate_rows", "q@:@q", (dp_imp)sc_impl_69, sc_call_69, true},
  {"delegate_height", "d@:@q", (dp_imp)sc_impl_70, sc_call_70, true},
  {"delegate_should", "B@:@@", (dp_imp)sc_impl_71, sc_call_71, true},
  {"delegate_add", "q@:qd", (dp_imp)sc_impl_72, sc_call_72, true},
  {"kitchen_sink_fit", "{IntDouble=id}@:i{Float4=ffff}q{DoubleInt=di}dfs", (dp_imp)sc_impl_73, sc_call_73, true},
  {"kitchen_sink_spill", "{Large24=qqq}@:@:{Small16=qq}{Double2=dd}dddddd#B*", (dp_imp)sc_impl_74, sc_call_74, false},
  {"typed_small", "i@:if", (dp_imp)sc_impl_75, sc_call_75, true},
  {"typed_float", "f@:ff", (dp_imp)sc_impl_76, sc_call_76, true},
};

size_t dp_sig_case_count(void) { return sizeof sc_cases / sizeof sc_cases[0]; }

const dp_sig_case *dp_sig_case_at(size_t index) {
  return index < dp_sig_case_count() ? &sc_cases[index] : NULL;
}
