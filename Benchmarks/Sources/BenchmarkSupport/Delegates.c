// Delegate IMPs: what a real delegate's method costs at its cheapest, kept honest.
//
// Each body folds its arguments into `bs_sink` (volatile) behind a compiler memory
// barrier and is never inlined, so neither a direct loop nor a forwarder's call can be
// optimised away or merged across iterations.

#include "BenchmarkSupport.h"

#include <stddef.h>

volatile int64_t bs_sink;

#define BS_BARRIER() __asm__ __volatile__("" ::: "memory")

__attribute__((noinline)) int64_t bs_imp_qd(bs_id self, bs_sel cmd, int64_t a, double d) {
  (void)self; (void)cmd;
  BS_BARRIER();
  bs_sink += a + (int64_t)d;
  return a + 1;
}

__attribute__((noinline)) void bs_imp_object(bs_id self, bs_sel cmd, bs_id object) {
  (void)self; (void)cmd;
  BS_BARRIER();
  bs_sink += (int64_t)(intptr_t)object;
}

__attribute__((noinline)) void bs_imp_point(bs_id self, bs_sel cmd, bs_id view, bs_point p,
                                            bs_point *out) {
  (void)self; (void)cmd;
  BS_BARRIER();
  out->x += p.x;
  out->y = p.y;
  bs_sink += (int64_t)(intptr_t)view + (int64_t)p.x;
}

__attribute__((noinline)) int64_t bs_imp_ten(bs_id self, bs_sel cmd, int64_t a, int64_t b,
                                             int64_t c, int64_t d, int64_t e, int64_t f,
                                             int64_t g, int64_t h, int64_t i, int64_t j) {
  (void)self; (void)cmd;
  BS_BARRIER();
  int64_t sum = a + b + c + d + e + f + g + h + i + j;
  bs_sink += sum;
  return sum;
}

__attribute__((noinline)) bs_big40 bs_imp_big40(bs_id self, bs_sel cmd, int64_t a) {
  (void)self; (void)cmd;
  BS_BARRIER();
  bs_sink += a;
  bs_big40 r = {a, a + 1, a + 2, a + 3, a + 4};
  return r;
}

static const char *const encodings[BS_SIG_COUNT] = {
    [BS_SIG_QD] = "q@:qd",
    [BS_SIG_OBJECT] = "v@:@",
    [BS_SIG_POINT] = "v@:@{CGPoint=dd}^{CGPoint=dd}",
    [BS_SIG_TEN] = "q@:qqqqqqqqqq",
    [BS_SIG_BIG40] = "{Big40=qqqqq}@:q",
};

static const char *const selectors[BS_SIG_COUNT] = {
    [BS_SIG_QD] = "value:scale:",
    [BS_SIG_OBJECT] = "observe:",
    [BS_SIG_POINT] = "view:movedTo:out:",
    [BS_SIG_TEN] = "sum:b:c:d:e:f:g:h:i:j:",
    [BS_SIG_BIG40] = "make:",
};

const char *bs_signature_encoding(bs_signature sig) {
  return (unsigned)sig < BS_SIG_COUNT ? encodings[sig] : NULL;
}

const char *bs_signature_selector(bs_signature sig) {
  return (unsigned)sig < BS_SIG_COUNT ? selectors[sig] : NULL;
}

const void *bs_delegate_imp(bs_signature sig) {
  switch (sig) {
  case BS_SIG_QD: return (const void *)bs_imp_qd;
  case BS_SIG_OBJECT: return (const void *)bs_imp_object;
  case BS_SIG_POINT: return (const void *)bs_imp_point;
  case BS_SIG_TEN: return (const void *)bs_imp_ten;
  case BS_SIG_BIG40: return (const void *)bs_imp_big40;
  default: return NULL;
  }
}

void bs_consume(int64_t value) {
  BS_BARRIER();
  bs_sink += value;
}

int64_t bs_sink_value(void) { return bs_sink; }
