// dp_route_node.h — a route target's membership flag: one removed bit that every dispatch
// reads right before calling the target (the C routes of dp_route.h, and the Swift
// multicasts' own loops). Apart from the routes because it needs no libffi: a Swift
// multicast that never joins a C route still marks its removed members here.

#ifndef DP_ROUTE_NODE_H
#define DP_ROUTE_NODE_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One target's membership: its removed flag. Shared by every route the target is in.
typedef struct dp_route_node dp_route_node;

dp_route_node *dp_route_node_create(void);
/// Marks the node removed: no dispatch calls its target from now on.
void dp_route_node_mark_removed(dp_route_node *node);
bool dp_route_node_is_removed(const dp_route_node *node);
/// dp_route_node_is_removed, inlined into Swift dispatch loops, which read the same flag
/// the C routes read (the flag is the node's first field: dp_layout.h).
static inline __attribute__((always_inline)) bool
dp_route_node_is_removed_inline(const dp_route_node *node) {
  return __atomic_load_n((const unsigned char *)node, __ATOMIC_SEQ_CST);
}
/// Frees the node after a grace period — at once when `domain` is the one the calling
/// thread declared closing (dp_domain_closing): nothing can read it any more.
void dp_route_node_retire(dp_route_node *node, const void *domain);

#ifdef __cplusplus
}
#endif

#endif  // DP_ROUTE_NODE_H
