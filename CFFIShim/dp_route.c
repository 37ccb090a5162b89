// Fan-out routes. See dp_route.h.

#include "dp_route.h"

#include <stdlib.h>
#include <string.h>

#include "dp_layout.h"
#include "dp_quiesce.h"
#include "dp_quiesce_inline.h"
#include "dp_regs.h"

#define LOAD_ACQ(p) __atomic_load_n(&(p), __ATOMIC_ACQUIRE)

struct dp_route_node {
  uint8_t removed;  // atomic
};

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
  dp_sel sel;
  dp_combine combine;
  dp_return_class ret_class;
  uint64_t truth_mask;  // the bits of word 0 that hold the result (boolean rules)
  ffi_cif *cif;         // NULL for register routes
  dp_imp entry;
};

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

void dp_route_node_retire(dp_route_node *n) { dp_retire(n, free); }

static const dp_route *route_for(dp_id self, dp_sel cmd) {
  const dp_method_entry *e = dp_method_table_find(LOAD_ACQ(self->methods), cmd);
  return e ? e->context : NULL;
}

// MARK: register entries

#if DP_REPLAY_SUPPORTED

// Word 0 of each result type, for the boolean and first-nonzero rules (integer results
// only; Swift sends other rules to the general path).
static inline uint64_t word0_dp_gp2(dp_gp2 v) { return v.a; }
static inline uint64_t word0_dp_fp2(dp_fp2 v) { uint64_t w; memcpy(&w, &v.a, 8); return w; }
static inline uint64_t word0_dp_gpfp(dp_gpfp v) { return v.a; }
static inline uint64_t word0_dp_fpgp(dp_fpgp v) { uint64_t w; memcpy(&w, &v.a, 8); return w; }
static inline uint64_t word0_dp_fp4(dp_fp4 v) { uint64_t w; memcpy(&w, &v.a, 8); return w; }

// A stale IMP (looked up before the route was removed) finds no route: re-dispatch the
// same registers to whatever the receiver runs now.
#define FALLBACK(T, SELF_FN)                                                          \
  do {                                                                                \
    dp_imp now = dp_msg_lookup(self, cmd);                                            \
    if (now == (dp_imp)SELF_FN)                                                       \
      dp_fatal("dp_route: entry installed without a route (runtime bug)");            \
    return ((DP_REPLAY_FN(T))now)(a0, a1, DP_GP_REST, DP_FP_ARGS);                 \
  } while (0)

#define DEFINE_ENTRY(NAME, T)                                                           \
  static T NAME(DP_GP_PARAMS, DP_FP_PARAMS) {                                                 \
    dp_id self = (dp_id)a0;                                                             \
    dp_sel cmd = (dp_sel)a1;                                                            \
    dp_read_enter_inline();                                                             \
    const dp_route *route = route_for(self, cmd);                                       \
    if (__builtin_expect(route == NULL, 0)) {                                           \
      dp_read_exit_inline();                                                            \
      FALLBACK(T, NAME);                                                                \
    }                                                                                   \
    const dp_route_list *list = LOAD_ACQ(route->list);                                  \
    const dp_combine combine = route->combine;                                          \
    const uint64_t mask = route->truth_mask;                                            \
    T result;                                                                           \
    memset(&result, 0, sizeof result);                                                  \
    bool decided = false; /* ALL_TRUE saw a zero / ANY_TRUE a nonzero / FIRST_NONZERO */ \
    bool any = false;                                                                   \
    for (uint32_t i = 0, n = list->count; i < n; i++) {                                 \
      const dp_route_target *t = &list->targets[i];                                     \
      if (__builtin_expect(__atomic_load_n(&t->node->removed, __ATOMIC_RELAXED), 0))    \
        continue;                                                                       \
      T v = ((DP_REPLAY_FN(T))t->imp)((uint64_t)t->target, a1, DP_GP_REST,        \
                                               DP_FP_ARGS);                                \
      any = true;                                                                       \
      switch (combine) {                                                                \
        case DP_COMBINE_LAST: result = v; break;                                        \
        case DP_COMBINE_FIRST: result = v; goto done;                                   \
        case DP_COMBINE_ALL_TRUE:                                                       \
          if (!decided && (word0_##T(v) & mask) == 0) decided = true;                   \
          break;                                                                        \
        case DP_COMBINE_ANY_TRUE:                                                       \
          if (!decided && (word0_##T(v) & mask) != 0) decided = true;                   \
          break;                                                                        \
        case DP_COMBINE_FIRST_NONZERO:                                                  \
          if (!decided && (word0_##T(v) & mask) != 0) {                                 \
            result = v;                                                                 \
            decided = true;                                                             \
          }                                                                             \
          break;                                                                        \
      }                                                                                 \
    }                                                                                   \
  done:                                                                                 \
    dp_read_exit_inline();                                                              \
    (void)any;                                                                          \
    if (combine == DP_COMBINE_ALL_TRUE || combine == DP_COMBINE_ANY_TRUE) {             \
      /* An empty AND is true, an empty OR false; the value is 0 or 1. */               \
      uint64_t truth = combine == DP_COMBINE_ALL_TRUE ? !decided : decided;             \
      memset(&result, 0, sizeof result);                                                \
      memcpy(&result, &truth, sizeof truth);                                            \
    }                                                                                   \
    return result;                                                                      \
  }

DEFINE_ENTRY(entry_gp2, dp_gp2)
DEFINE_ENTRY(entry_fp2, dp_fp2)
DEFINE_ENTRY(entry_gpfp, dp_gpfp)
DEFINE_ENTRY(entry_fpgp, dp_fpgp)
#if defined(__aarch64__)
DEFINE_ENTRY(entry_fp4, dp_fp4)
#endif

static dp_imp register_entry(dp_return_class rc) {
  switch (rc) {
    case DP_RET_GP: return (dp_imp)entry_gp2;
    case DP_RET_FP: return (dp_imp)entry_fp2;
    case DP_RET_GP_FP: return (dp_imp)entry_gpfp;
    case DP_RET_FP_GP: return (dp_imp)entry_fpgp;
#if defined(__aarch64__)
    case DP_RET_FP4: return (dp_imp)entry_fp4;
#endif
    default: return NULL;
  }
}

#else
static dp_imp register_entry(dp_return_class rc) {
  (void)rc;
  return NULL;
}
#endif

// MARK: libffi entry

// One closure per signature; the route comes from self/_cmd like the register entries.
static void ffi_route_handler(ffi_cif *cif, void *ret, void **args, void *user_data) {
  (void)user_data;
  dp_id self = *(dp_id *)args[0];
  dp_sel cmd = *(dp_sel *)args[1];
  dp_read_enter_inline();
  const dp_route *route = route_for(self, cmd);
  if (__builtin_expect(route == NULL, 0)) {
    dp_read_exit_inline();
    dp_ffi_call(cif, dp_msg_lookup(self, cmd), ret, args);
    return;
  }
  const dp_route_list *list = LOAD_ACQ(route->list);
  size_t size = cif->rtype->size;
  memset(ret, 0, size < sizeof(ffi_arg) && size ? sizeof(ffi_arg) : size);
  void *saved_self = args[0];
  dp_id target;
  args[0] = &target;
  for (uint32_t i = 0; i < list->count; i++) {
    const dp_route_target *t = &list->targets[i];
    if (__atomic_load_n(&t->node->removed, __ATOMIC_RELAXED)) continue;
    target = t->target;
    // Only LAST and FIRST are given to libffi routes (results that need a boolean
    // reading travel in registers), so every result lands in ret.
    // dp_ffi_call, not ffi_call: libffi rewrites args[i] of a struct over 16 bytes to
    // point at its own dead copy, and the next target would read through it.
    dp_ffi_call(cif, t->imp, ret, args);
    if (route->combine == DP_COMBINE_FIRST) break;
  }
  args[0] = saved_self;
  dp_read_exit_inline();
}

dp_imp dp_route_ffi_entry_create(ffi_cif *cif, void **closure) {
  dp_imp code = NULL;
  void *c = dp_ffi_closure_create(cif, ffi_route_handler, NULL, &code);
  if (!c) return NULL;
  *closure = c;
  return code;
}

// MARK: routes

dp_route *dp_route_create(dp_sel sel, dp_combine combine, dp_return_class ret_class,
                          uint32_t result_size, ffi_cif *cif, dp_imp ffi_entry) {
  dp_imp entry = cif ? ffi_entry : register_entry(ret_class);
  if (!entry) return NULL;
  dp_route *r = calloc(1, sizeof *r);
  if (!r) dp_fatal("dp_route_create: out of memory");
  r->sel = sel;
  r->combine = combine;
  r->ret_class = ret_class;
  r->truth_mask = result_size >= 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * result_size)) - 1);
  r->cif = cif;
  r->entry = entry;
  r->list = calloc(1, sizeof(dp_route_list));
  return r;
}

void dp_route_set_targets(dp_route *r, uint32_t count, const dp_id *targets,
                          const dp_imp *imps, dp_route_node *const *nodes) {
  dp_route_list *list = malloc(sizeof *list + (size_t)count * sizeof(dp_route_target));
  if (!list) dp_fatal("dp_route_set_targets: out of memory");
  list->count = count;
  for (uint32_t i = 0; i < count; i++) {
    list->targets[i].target = targets[i];
    list->targets[i].imp = imps[i];
    list->targets[i].node = nodes[i];
  }
  dp_route_list *old = __atomic_exchange_n(&r->list, list, __ATOMIC_ACQ_REL);
  dp_retire(old, free);
}

dp_imp dp_route_entry(const dp_route *r) { return r->entry; }

uint32_t dp_route_target_count(const dp_route *r) { return LOAD_ACQ(r->list)->count; }

static void free_route(void *p) {
  dp_route *r = p;
  free(r->list);
  free(r);
}

void dp_route_retire(dp_route *r) {
  if (r) dp_retire(r, free_route);
}
