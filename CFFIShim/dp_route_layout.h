// dp_route_layout.h — the private layout of routes (see dp_route.h), shared by the route
// entries (dp_route.c) and the callback entries that dispatch a route directly
// (dp_callback.c). Private to CFFIShim.

#ifndef DP_ROUTE_LAYOUT_H
#define DP_ROUTE_LAYOUT_H

#include "dp_route.h"

struct dp_route_node {
  uint8_t removed;  // atomic
};

typedef struct dp_route_target {
  dp_id target;
  dp_imp imp;
  const dp_route_node *node;
} dp_route_target;

// A list holds `count` targets, then a sentinel: a target whose node is dp_route_end,
// which reads as removed. A dispatch loop's one test per target (removed?) thus also finds
// the end; only on its rare path (a removed target, or the end) does it tell them apart.
// So the end stays out of the loop's registers, and its compare out of each step.
typedef struct dp_route_list {
  uint32_t count;
  dp_route_target targets[];  // count + 1: the sentinel last
} dp_route_list;

/// The sentinel's node: always removed. The sentinel's target and IMP are NULL.
extern const dp_route_node dp_route_end;

// Whether a target's membership is marked removed (or it is the sentinel): checked as the
// last step before each call to it (dp_quiesce.h says why). Relaxed: dp_synchronize
// orders it for other threads.
static inline __attribute__((always_inline)) bool dp_route_target_removed(
    const dp_route_target *t) {
  return __builtin_expect(__atomic_load_n(&t->node->removed, __ATOMIC_RELAXED), 0);
}

// After `t` tested removed (or is the sentinel): the next target not removed, or NULL at
// the sentinel.
static inline __attribute__((always_inline)) const dp_route_target *dp_route_skip_removed(
    const dp_route_target *t) {
  do {
    if (t->node == &dp_route_end) return NULL;
    t++;
  } while (dp_route_target_removed(t));
  return t;
}

// From `t`: the first target not removed, or NULL at the sentinel.
//
// Dispatch loops take it (their rare path being dp_route_skip_removed) before the first
// call and after each call: NULL before any call means no target is called (the route's
// fallback answers), and after one, that the loop is done. So a loop keeps no count of
// calls and no end: only its cursor and the arguments stay live across each target's call
// (in callee-saved registers, none spilled for the common shapes).
static inline __attribute__((always_inline)) const dp_route_target *dp_route_next_live(
    const dp_route_target *t) {
  return dp_route_target_removed(t) ? dp_route_skip_removed(t) : t;
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
