// dp_route_layout.h — the private layout of routes (see dp_route.h), shared by the route
// entries (dp_route.c) and the callback entries that dispatch a route directly
// (dp_callback.c). Private to CFFIShim.

#ifndef DP_ROUTE_LAYOUT_H
#define DP_ROUTE_LAYOUT_H

#include "dp_route.h"

struct dp_route_node {
  uint8_t removed;  // atomic: 0 live, 1 removed; DP_ROUTE_END in the sentinel's node
};

typedef struct dp_route_target {
  dp_id target;
  dp_imp imp;
  const dp_route_node *node;
} dp_route_target;

// A list holds `count` targets, then a sentinel whose node's flag reads DP_ROUTE_END:
// nonzero, like a removed target's. A dispatch loop's one test per target (flag nonzero?)
// thus also finds the end; only on its rare path (a removed target, or the end) does it
// tell them apart, by the flag's value. So the end takes no register in the loop (neither
// an end pointer nor the sentinel's address) and no compare per step.
typedef struct dp_route_list {
  uint32_t count;
  dp_route_target targets[];  // count + 1: the sentinel last
} dp_route_list;

/// The flag value of the sentinel's node.
#define DP_ROUTE_END 2
/// The sentinel's node (its target and IMP are NULL).
extern const dp_route_node dp_route_end;

// A target's flag: 0 when it may be called. Read as the last step before each call to it
// (dp_quiesce.h says why). Relaxed: dp_synchronize orders it for other threads.
static inline __attribute__((always_inline)) uint8_t dp_route_target_flag(
    const dp_route_target *t) {
  return __atomic_load_n(&t->node->removed, __ATOMIC_RELAXED);
}

// From `t`, whose flag `flag` is nonzero: the next target that may be called, or NULL at
// the sentinel.
static inline __attribute__((always_inline)) const dp_route_target *dp_route_skip(
    const dp_route_target *t, uint8_t flag) {
  while (flag != 0) {
    if (flag == DP_ROUTE_END) return NULL;
    flag = dp_route_target_flag(++t);
  }
  return t;
}

// From `t`: the first target that may be called, or NULL at the sentinel.
//
// Dispatch loops take it before the first call and after each call (on its common path,
// one load and one test): NULL before any call means no target is called (the route's
// fallback answers), and after one, that the loop is done. So a loop keeps no count of
// calls and no end: only its cursor and the arguments stay live across each target's call
// (in callee-saved registers, none spilled for the common shapes).
static inline __attribute__((always_inline)) const dp_route_target *dp_route_next_live(
    const dp_route_target *t) {
  uint8_t flag = dp_route_target_flag(t);
  return __builtin_expect(flag != 0, 0) ? dp_route_skip(t, flag) : t;
}

struct dp_route {
  dp_route_list *list;  // atomic
  dp_combine combine;
  uint64_t truth_mask;  // the bits of word 0 that hold the result (boolean rules)
  uint32_t result_size;
  dp_imp entry;
  dp_imp fallback;      // run with the same arguments when no target was called, or NULL
  ffi_cif *cif;         // NULL for replay routes (dp_callback.c runs only those in place)
};

#endif  // DP_ROUTE_LAYOUT_H
