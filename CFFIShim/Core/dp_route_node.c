// Route nodes: a route target's membership flag. See dp_route_node.h.

#include "dp_route_node.h"

#include <stdlib.h>

#include "dp_layout.h"
#include "dp_quiesce.h"

dp_route_node *dp_route_node_create(void) {
  dp_route_node *n = calloc(1, sizeof *n);
  if (!n) dp_fatal("dp_route_node_create: out of memory");
  return n;
}

void dp_route_node_mark_removed(dp_route_node *n) {
  __atomic_store_n(&n->removed, 1, __ATOMIC_SEQ_CST);
}

bool dp_route_node_is_removed(const dp_route_node *n) {
  return __atomic_load_n(&n->removed, __ATOMIC_SEQ_CST);
}

// A node is read by the dispatches of the multicast that lists it — its C routes and its
// Swift table's removed checks, in one domain — or of several (DP_ANY_DOMAIN).
void dp_route_node_retire(dp_route_node *n, const void *domain) {
  // A value multicast's copy frees its members' nodes with it (one per member per copy):
  // a retirement would cost an allocation, the retire lock and a reclaimer pass each.
  if (domain != DP_ANY_DOMAIN && domain == dp_closing_domain()) {
    free(n);
    return;
  }
  dp_retire_in(domain, n, free);
}
