// The direct loops and the C caller loop, timed with CLOCK_MONOTONIC.
//
// One outer iteration is one message. Each loop is specialised per signature outside
// the timed region, so the call inside is a plain indirect call of the exact type.

#include "BenchmarkSupport.h"

#include <time.h>

typedef int64_t (*qd_fn)(bs_id, bs_sel, int64_t, double);
typedef void (*object_fn)(bs_id, bs_sel, bs_id);
typedef void (*point_fn)(bs_id, bs_sel, bs_id, bs_point, bs_point *);
typedef int64_t (*ten_fn)(bs_id, bs_sel, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                          int64_t, int64_t, int64_t, int64_t);
typedef bs_big40 (*big40_fn)(bs_id, bs_sel, int64_t);

static bs_id object_argument = (bs_id)(intptr_t)0x1000;

void bs_set_object_argument(bs_id object) { object_argument = object; }

uint64_t bs_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t bs_direct_loop(bs_signature sig, const void *const *imps, const bs_id *targets,
                        int n, bs_sel sel, uint64_t iterations) {
  int64_t acc = 0;
  bs_id arg = object_argument;
  uint64_t start = bs_now_ns();
  switch (sig) {
  case BS_SIG_QD:
    for (uint64_t it = 0; it < iterations; it++) {
      int64_t last = 0;
      for (int k = 0; k < n; k++) last = ((qd_fn)imps[k])(targets[k], sel, (int64_t)it, 0.5);
      acc += last;
    }
    break;
  case BS_SIG_OBJECT:
    for (uint64_t it = 0; it < iterations; it++) {
      for (int k = 0; k < n; k++) ((object_fn)imps[k])(targets[k], sel, arg);
    }
    break;
  case BS_SIG_POINT: {
    bs_point out = {0, 0};
    for (uint64_t it = 0; it < iterations; it++) {
      bs_point p = {(double)it, 2.0};
      for (int k = 0; k < n; k++) ((point_fn)imps[k])(targets[k], sel, arg, p, &out);
    }
    acc += (int64_t)out.x;
    break;
  }
  case BS_SIG_TEN:
    for (uint64_t it = 0; it < iterations; it++) {
      int64_t last = 0;
      for (int k = 0; k < n; k++)
        last = ((ten_fn)imps[k])(targets[k], sel, (int64_t)it, 1, 2, 3, 4, 5, 6, 7, 8, 9);
      acc += last;
    }
    break;
  case BS_SIG_BIG40:
    for (uint64_t it = 0; it < iterations; it++) {
      bs_big40 last = {0, 0, 0, 0, 0};
      for (int k = 0; k < n; k++) last = ((big40_fn)imps[k])(targets[k], sel, (int64_t)it);
      acc += last.a + last.e;
    }
    break;
  default:
    return 0;
  }
  uint64_t end = bs_now_ns();
  bs_consume(acc);
  return end - start;
}

uint64_t bs_caller_loop(bs_signature sig, const void *imp, bs_id receiver, bs_sel sel,
                        uint64_t iterations) {
  int64_t acc = 0;
  bs_id arg = object_argument;
  uint64_t start = bs_now_ns();
  switch (sig) {
  case BS_SIG_QD: {
    qd_fn f = (qd_fn)imp;
    for (uint64_t it = 0; it < iterations; it++) acc += f(receiver, sel, (int64_t)it, 0.5);
    break;
  }
  case BS_SIG_OBJECT: {
    object_fn f = (object_fn)imp;
    for (uint64_t it = 0; it < iterations; it++) f(receiver, sel, arg);
    break;
  }
  case BS_SIG_POINT: {
    point_fn f = (point_fn)imp;
    bs_point out = {0, 0};
    for (uint64_t it = 0; it < iterations; it++) {
      bs_point p = {(double)it, 2.0};
      f(receiver, sel, arg, p, &out);
    }
    acc += (int64_t)out.x;
    break;
  }
  case BS_SIG_TEN: {
    ten_fn f = (ten_fn)imp;
    for (uint64_t it = 0; it < iterations; it++)
      acc += f(receiver, sel, (int64_t)it, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    break;
  }
  case BS_SIG_BIG40: {
    big40_fn f = (big40_fn)imp;
    for (uint64_t it = 0; it < iterations; it++) {
      bs_big40 r = f(receiver, sel, (int64_t)it);
      acc += r.a + r.e;
    }
    break;
  }
  default:
    return 0;
  }
  uint64_t end = bs_now_ns();
  bs_consume(acc);
  return end - start;
}

int64_t bs_probe(bs_signature sig, const void *imp, bs_id receiver, bs_sel sel) {
  switch (sig) {
  case BS_SIG_QD: return ((qd_fn)imp)(receiver, sel, 5, 0.5);
  case BS_SIG_OBJECT: ((object_fn)imp)(receiver, sel, object_argument); return 0;
  case BS_SIG_POINT: {
    bs_point out = {0, 0}, p = {3.0, 2.0};
    ((point_fn)imp)(receiver, sel, object_argument, p, &out);
    return out.y == 2.0 ? (int64_t)out.x : -1;
  }
  case BS_SIG_TEN: return ((ten_fn)imp)(receiver, sel, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
  case BS_SIG_BIG40: {
    bs_big40 r = ((big40_fn)imp)(receiver, sel, 7);
    return r.a + r.e;
  }
  default: return -1;
  }
}
