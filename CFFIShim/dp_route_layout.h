// dp_route_layout.h — the private layout of routes (see dp_route.h), shared by the route
// entries (dp_route.c) and the callback entries that dispatch a route directly
// (dp_callback.c). Private to CFFIShim.

#ifndef DP_ROUTE_LAYOUT_H
#define DP_ROUTE_LAYOUT_H

#include "dp_layout.h"  // struct dp_route_node (Core/)
#include "dp_quiesce_inline.h"
#include "dp_route.h"

typedef struct dp_route_target {
  dp_id target;
  dp_imp imp;
  const dp_route_node *node;
} dp_route_target;

typedef struct dp_route_list {
  uint32_t count;
  dp_route_target targets[];
} dp_route_list;

struct dp_route {
  dp_route_list *list;  // atomic
  const void *domain;   // the receiver whose read sections read this route (dp_quiesce.h)
  dp_reducer reducer;
  uint64_t truth_mask;  // the bits of word 0 that hold the result (boolean rules)
  uint32_t result_size;
  dp_imp entry;
  dp_imp fallback;      // run with the same arguments when no target was called, or NULL
  ffi_cif *cif;         // NULL for replay routes (dp_callback.c runs only those in place)
};

// Whether a dispatch skips target `t`: names it as the member the section `slot` calls
// (for dp_wait_member_idle), then reads its removed flag — the last step before the call.
// The node is read once, into a register: the compiler barrier of dp_read_calling would
// otherwise make the removed check load it again.
static inline __attribute__((always_inline)) bool dp_target_removed(dp_read_slot *slot,
                                                                   const dp_route_target *t) {
  const dp_route_node *node = t->node;
  dp_read_calling(slot, node);
  return __builtin_expect(__atomic_load_n(&node->removed, __ATOMIC_RELAXED), 0);
}
#define DP_TARGET_REMOVED(slot, t) dp_target_removed((slot), (t))

#endif  // DP_ROUTE_LAYOUT_H
