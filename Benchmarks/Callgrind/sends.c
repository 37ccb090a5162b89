// sends.c — what a message send costs in the C layer (issue #37: every send's lookup and
// call run in a read section of its receiver), for callgrind (no Swift): DP_MSG_SEND,
// dp_send_frame (the path a typed Swift send takes for register signatures) and a route
// entry at fan-out 1 (proxy_c), beside a direct call.
//
//   sends                      # ns per message, median of 9 (noisy on a shared machine)
//   sends "<row>" <iterations> # runs one row's loop only, for callgrind:
//     valgrind --tool=callgrind --callgrind-out-file=/dev/null sends "<row>" 100000
//   minus the same with 0 iterations, divided by 100000, is the row's instructions per
//   message (Benchmarks/README.md, #37). Build:
//     cc -std=gnu11 -O2 -pthread -ICFFIShim/include -ICFFIShim -ICFFIShim/Core/include -ICFFIShim/Core CFFIShim/*.c
//       CFFIShim/Core/*.c
//        Benchmarks/Callgrind/sends.c -lffi -o sends   (one line)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "dp_ffi.h"
#include "dp_layout.h"
#include "dp_route.h"
#include "dp_runtime.h"
#include "dp_quiesce.h"

void *swift_tryRetain(void *object) { return object; }
void swift_unownedRetain(void *object) { (void)object; }
void swift_unownedRelease(void *object) { (void)object; }
void swift_release(void *object) { (void)object; }
static dp_imp resolve_nothing(dp_id obj, dp_sel sel) { (void)obj, (void)sel; return dp_nil_imp(); }

static __attribute__((noinline)) int64_t get_q(dp_id self, dp_sel cmd) { (void)cmd; return (int64_t)(uintptr_t)self & 7; }
static __attribute__((noinline)) int64_t add_qd(dp_id self, dp_sel cmd, int64_t a, double b) { (void)self, (void)cmd; return a + (int64_t)b; }

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
#define N 2000000
#define MEDIAN(label, body) if (strcmp(mode, label) == 0) { for (long i = 0; i < iters; i++) { body; } } else if (!*mode) do { double r[9]; for (int k = 0; k < 9; k++) { double t0 = now(); for (long i = 0; i < N; i++) { body; } r[k] = (now() - t0) / N; } qsort(r, 9, sizeof *r, cmp); printf("%-28s %6.2f ns\n", label, r[4]); } while (0)

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  long iters = argc > 2 ? atol(argv[2]) : 0;
  dp_set_resolver(resolve_nothing);
  dp_class *cls = dp_class_create("Bench", NULL, NULL);
  dp_method_table *t = dp_class_cache(cls);
  dp_sel get = dp_sel_register_name("get"), add = dp_sel_register_name("add:to:");
  dp_method_table_insert(t, get, (dp_imp)get_q, "q@:");
  dp_method_table_insert(t, add, (dp_imp)add_qd, "q@:qd");
  dp_id obj = dp_object_create(cls, NULL);
  volatile int64_t sink = 0;
  MEDIAN("DP_MSG_SEND q@:", sink += DP_MSG_SEND(int64_t (*)(dp_id, dp_sel), obj, get));
  MEDIAN("DP_MSG_SEND q@:qd", sink += DP_MSG_SEND(int64_t (*)(dp_id, dp_sel, int64_t, double), obj, add, i, 2.5));
  // dp_send_frame: self, _cmd from a frame.
  dp_replay_program *p = dp_replay_program_create(2, 1);
  p->ret_class = DP_RET_GP;
  p->types = "q@:";
  dp_replay_step *s = dp_replay_program_steps(p);
  s[0].size = 8; s[0].slot = 0; s[0].frame_offset = 0;
  s[1].size = 8; s[1].slot = 1; s[1].frame_offset = 8;
  s[2].offset = 0; s[2].size = 8; s[2].reg = 0;
  void *frame[2] = {obj, (void *)get};
  int64_t result = 0;
  MEDIAN("dp_send_frame q@:", dp_send_frame(obj, get, p, frame, &result); sink += result);
  // A route entry, one target (proxy_c at fan-out 1).
  dp_class *pc = dp_class_create("BenchProxy", NULL, NULL);
  dp_route *r = dp_route_create(DP_REDUCER_LAST, DP_RET_GP, 8, 1, 0, false, NULL, NULL, NULL, DP_ANY_DOMAIN);
  dp_route_node *node = dp_route_node_create();
  dp_imp imps[1] = {(dp_imp)add_qd};
  dp_id targets[1] = {obj};
  dp_route_set_targets(r, 1, targets, imps, &node);
  dp_id proxy = dp_object_create(pc, NULL);
  dp_method_table *pt = dp_method_table_create(4);
  dp_method_table_insert_context(pt, add, dp_route_entry(r), "q@:qd", r);
  dp_object_publish_methods(proxy, pt);
  int64_t (*entry)(dp_id, dp_sel, int64_t, double) = (int64_t (*)(dp_id, dp_sel, int64_t, double))dp_route_entry(r);
  MEDIAN("route entry fan-out 1", sink += entry(proxy, add, i, 2.5));
  MEDIAN("direct call", sink += add_qd(obj, add, i, 2.5));
  return (int)(sink & 1);
}
