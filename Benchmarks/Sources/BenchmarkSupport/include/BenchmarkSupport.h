// BenchmarkSupport.h — the C side of the DelegateProxy benchmarks.
//
// Delegate IMPs for the five benchmark signatures, the `direct` loops (C calling N
// function pointers of the exact signature), the `naive_ffi` forwarder (a libffi closure
// whose handler re-issues the call to every target with ffi_call) and the C caller loop
// (a C function calling one IMP — a proxy's C entry — in a loop).
//
// Every loop takes an iteration count and returns the elapsed CLOCK_MONOTONIC
// nanoseconds, so one call from Swift measures many messages without Swift overhead.
// One iteration is ONE message, whatever the fan-out: divide by `iterations`, not by
// `iterations * fanout`.
//
// The runtime's own C types are not visible here (CFFIShim is not a product of the
// root package), so `bs_id`/`bs_sel` stand for `dp_id`/`dp_sel`: both are plain pointers
// and pass exactly as those do.

#ifndef BENCHMARK_SUPPORT_H
#define BENCHMARK_SUPPORT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What C sees as `id` (`dp_id`).
typedef void *bs_id;
/// What C sees as `SEL` (`dp_sel`).
typedef const void *bs_sel;

/// `{CGPoint=dd}`.
typedef struct bs_point {
  double x, y;
} bs_point;

/// `{Big40=qqqqq}`: 40 bytes, returned in memory (sret) on x86-64 and AArch64.
typedef struct bs_big40 {
  int64_t a, b, c, d, e;
} bs_big40;

/// The five benchmark signatures.
typedef enum bs_signature {
  /// `q@:qd` — `- (int64_t)value:(int64_t)a scale:(double)d`
  BS_SIG_QD = 0,
  /// `v@:@` — `- (void)observe:(id)object`
  BS_SIG_OBJECT = 1,
  /// `v@:@{CGPoint=dd}^{CGPoint=dd}` — `- (void)view:(id)v movedTo:(CGPoint)p out:(CGPoint *)o`
  BS_SIG_POINT = 2,
  /// `q@:qqqqqqqqqq` — ten integer arguments: with self and _cmd, 12 integer
  /// arguments, 6 of which spill to the stack on x86-64 (4 on AArch64).
  BS_SIG_TEN = 3,
  /// `{Big40=qqqqq}@:q` — a 40-byte struct returned in memory.
  BS_SIG_BIG40 = 4,
  BS_SIG_COUNT = 5,
} bs_signature;

/// The signature's ObjC method encoding, e.g. "q@:qd".
const char *bs_signature_encoding(bs_signature sig);
/// The selector name used for the signature, e.g. "value:scale:".
const char *bs_signature_selector(bs_signature sig);

// MARK: Delegate IMPs
//
// Cheap bodies the optimizer cannot delete: each folds its arguments into a volatile
// global behind a compiler memory barrier, and is never inlined.

int64_t bs_imp_qd(bs_id self, bs_sel cmd, int64_t a, double d);
void bs_imp_object(bs_id self, bs_sel cmd, bs_id object);
void bs_imp_point(bs_id self, bs_sel cmd, bs_id view, bs_point p, bs_point *out);
int64_t bs_imp_ten(bs_id self, bs_sel cmd, int64_t a, int64_t b, int64_t c, int64_t d,
                   int64_t e, int64_t f, int64_t g, int64_t h, int64_t i, int64_t j);
bs_big40 bs_imp_big40(bs_id self, bs_sel cmd, int64_t a);

/// The delegate IMP for `sig`, as an untyped code address.
const void *bs_delegate_imp(bs_signature sig);

// MARK: Timing

/// CLOCK_MONOTONIC in nanoseconds.
uint64_t bs_now_ns(void);

/// Folds a value into the sink so the optimizer keeps whatever produced it.
void bs_consume(int64_t value);
/// The sink's current value (to print once, so nothing is provably unused).
int64_t bs_sink_value(void);

/// `direct`: for each of `iterations` messages, calls `imps[k](targets[k], sel, args…)`
/// for k in 0..<n with `sig`'s exact function type, keeping the last value (as a
/// last-responder proxy does). Returns elapsed nanoseconds.
uint64_t bs_direct_loop(bs_signature sig, const void *const *imps, const bs_id *targets,
                        int n, bs_sel sel, uint64_t iterations);

/// The C caller: sends `iterations` messages to `receiver` by calling `imp` (a proxy's
/// C entry, or a forwarder's closure) with `sig`'s exact function type. Returns elapsed
/// nanoseconds.
uint64_t bs_caller_loop(bs_signature sig, const void *imp, bs_id receiver, bs_sel sel,
                        uint64_t iterations);

/// Sends one message of `sig` through `imp` and returns what a correct forwarder gives
/// back, for a start-up check: q@:qd value:5 → 6; v@:@ → 0; the point message with
/// p = {3, 2} on a zeroed out → out.x (3 × the number of delegates that ran); the ten-
/// argument sum of 1…10 → 55; make:7 → a + e = 18.
int64_t bs_probe(bs_signature sig, const void *imp, bs_id receiver, bs_sel sel);

/// The arguments the loops send, so other senders (Swift) can send the same ones.
/// `object_argument` is what `v@:@` and the point signature pass as their `id`.
void bs_set_object_argument(bs_id object);

// MARK: naive_ffi

/// A libffi closure for `sig` whose handler calls each of `n` targets' IMP with
/// ffi_call (replacing `self`), returning the last value: the textbook forwarder.
typedef struct bs_naive_forwarder bs_naive_forwarder;

/// Creates the forwarder; the arrays are copied. NULL if libffi fails.
bs_naive_forwarder *bs_naive_create(bs_signature sig, const void *const *imps,
                                    const bs_id *targets, int n);
/// The closure's code address: a C function pointer of `sig`'s type.
const void *bs_naive_imp(const bs_naive_forwarder *forwarder);
void bs_naive_destroy(bs_naive_forwarder *forwarder);

#ifdef __cplusplus
}
#endif

#include "BenchmarkCallbacks.h"  // the C-callback rows

#endif  // BENCHMARK_SUPPORT_H
