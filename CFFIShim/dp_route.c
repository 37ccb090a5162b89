// Fan-out routes. See dp_route.h.

#include "dp_route.h"

#include <stdlib.h>
#include <string.h>

#include "dp_layout.h"
#include "dp_quiesce.h"
#include "dp_quiesce_inline.h"
#include "dp_regs.h"
#include "dp_route_layout.h"

#define LOAD_ACQ(p) __atomic_load_n(&(p), __ATOMIC_ACQUIRE)

// The records (struct dp_route, its target list) are in dp_route_layout.h; the nodes
// (dp_route_node.h) are Core's.

static const dp_route *route_for(dp_id self, dp_sel cmd) {
  const dp_method_entry *e = dp_method_table_find_inline(LOAD_ACQ(self->methods), cmd);
  return e ? e->context : NULL;
}

// MARK: register entries

#if DP_REPLAY_SUPPORTED

// One entry body for every shape. PARAMS is the entry's parameter list; SELF and CMD
// name the parameters holding self and _cmd; ARGS(t) is the argument list passed on to
// target `t` (the entry's own parameters with self replaced). Each target is called
// through the entry's own function type, so whatever the caller put in registers and
// in its stack-argument area reaches the target unchanged.
//
// A stale IMP (looked up before the route was removed) finds no route: re-dispatch the
// same arguments to whatever the receiver runs now, inside the same read section (what
// it looks up is not freed under the call; RETURN leaves the section).
#define ROUTE_PROLOGUE(NAME, SELF, CMD, ARGS, RETURN)                                   \
  dp_id self = (dp_id)(SELF);                                                         \
  dp_sel cmd = (dp_sel)(CMD);                                                         \
  dp_read_slot *slot = dp_read_enter_entry_inline(self, "route entry " #NAME);        \
  const dp_route *route = route_for(self, cmd);                                       \
  if (__builtin_expect(route == NULL, 0)) {                                           \
    dp_imp now = dp_msg_lookup(self, cmd);                                            \
    if (now == (dp_imp)NAME) dp_fatal("dp_route: entry installed without a route (runtime bug)"); \
    RETURN(((__typeof__(NAME) *)now)(ARGS(SELF)))                                      \
  }                                                                                   \
  const dp_route_list *list = LOAD_ACQ(route->list);

#define RETURN_VALUE(call)          \
  __typeof__(call) returned_ = call; \
  dp_read_exit_inline();             \
  return returned_;

// One register entry's loop over its targets.
#define ENTRY_LOOP(NAME, T, ARGS)                                                       \
    /* A count down: one register fewer live across the calls than an index and its end. */ \
    const dp_route_target *t = list->targets;                                           \
    for (uint32_t left = list->count; left != 0; left--, t++) {                         \
      /* `live` counts the skips down, off the path of a call. */                       \
      if (DP_TARGET_REMOVED(slot, t)) {                                                 \
        live--;                                                                         \
        continue;                                                                       \
      }                                                                                 \
      T v = ((__typeof__(NAME) *)t->imp)(ARGS(t->target));                              \
      switch (reducer) {                                                                \
        case DP_REDUCER_LAST: result = v; break;                                        \
        case DP_REDUCER_FIRST: result = v; goto done;                                   \
        case DP_REDUCER_ALL_TRUE:                                                       \
          if (!decided && (word0_##T(v) & mask) == 0) decided = true;                   \
          break;                                                                        \
        case DP_REDUCER_ANY_TRUE:                                                       \
          if (!decided && (word0_##T(v) & mask) != 0) decided = true;                   \
          break;                                                                        \
        case DP_REDUCER_FIRST_NON_NIL:                                                  \
          if (!decided && (word0_##T(v) & mask) != 0) {                                 \
            result = v;                                                                 \
            decided = true;                                                             \
          }                                                                             \
          break;                                                                        \
      }                                                                                 \
    }

// Targets' results reducer in registers (result type T).
#define DEFINE_ENTRY(NAME, T, PARAMS, SELF, CMD, ARGS, COMBINE)                        \
  static T NAME(PARAMS) {                                                               \
    ROUTE_PROLOGUE(NAME, SELF, CMD, ARGS, RETURN_VALUE)                                 \
    const dp_reducer reducer = (COMBINE);                                               \
    const uint64_t mask = route->truth_mask;                                            \
    T result;                                                                           \
    memset(&result, 0, sizeof result);                                                  \
    bool decided = false; /* ALL_TRUE saw a zero / ANY_TRUE a nonzero / FIRST_NON_NIL */ \
    /* Targets not seen removed: 0 after the loop when none was called (FIRST leaves */ \
    /* the loop only after a call, with the targets it did not look at counted). */      \
    uint32_t live = list->count;                                                        \
    ENTRY_LOOP(NAME, T, ARGS)                                                           \
  done:                                                                                 \
    if (__builtin_expect(live == 0, 0) && route->fallback) {                            \
      dp_imp fallback = route->fallback;                                                \
      dp_read_exit_slot_inline(slot);                                                            \
      return ((__typeof__(NAME) *)fallback)(ARGS(self));                                \
    }                                                                                   \
    dp_read_exit_slot_inline(slot);                                                              \
    if (reducer == DP_REDUCER_ALL_TRUE || reducer == DP_REDUCER_ANY_TRUE) {             \
      /* An empty AND is true, an empty OR false; the value is 0 or 1. */               \
      uint64_t truth = reducer == DP_REDUCER_ALL_TRUE ? !decided : decided;             \
      memset(&result, 0, sizeof result);                                                \
      memcpy(&result, &truth, sizeof truth);                                            \
    }                                                                                   \
    return result;                                                                      \
  }

// Register entries come in variants the route picks from: by how many floating-point
// registers the signature uses (0, up to 2, up to 8 — fewer to keep live across each
// target's call; the rest carry nothing the targets read) and by rule (last and first
// fixed at compile time, the boolean rules read from the route).
#define FP0_PARAMS DP_GP_PARAMS
#define FP0_ARGS(SELF) (uint64_t)(SELF), a1, DP_GP_REST
#define FP2_PARAMS DP_GP_PARAMS, double f0, double f1
#define FP2_ARGS(SELF) (uint64_t)(SELF), a1, DP_GP_REST, f0, f1
#define FP8_PARAMS DP_GP_PARAMS, DP_FP_PARAMS
#define FP8_ARGS(SELF) (uint64_t)(SELF), a1, DP_GP_REST, DP_FP_ARGS

#define RULE_VARIANTS(NAME, T, FP)                                                          \
  DEFINE_ENTRY(NAME##_last, T, FP##_PARAMS, a0, a1, FP##_ARGS, DP_REDUCER_LAST)             \
  DEFINE_ENTRY(NAME##_first, T, FP##_PARAMS, a0, a1, FP##_ARGS, DP_REDUCER_FIRST)           \
  DEFINE_ENTRY(NAME##_rule, T, FP##_PARAMS, a0, a1, FP##_ARGS, route->reducer)
#define REGISTER_VARIANTS(NAME, T) \
  RULE_VARIANTS(NAME##_fp0, T, FP0) RULE_VARIANTS(NAME##_fp2, T, FP2) RULE_VARIANTS(NAME##_fp8, T, FP8)

REGISTER_VARIANTS(entry_gp2, dp_gp2)
REGISTER_VARIANTS(entry_fp2, dp_fp2)
REGISTER_VARIANTS(entry_gpfp, dp_gpfp)
REGISTER_VARIANTS(entry_fpgp, dp_fpgp)
#if defined(__aarch64__)
REGISTER_VARIANTS(entry_fp4, dp_fp4)
#define RETURN_CLASSES 5
#else
#define RETURN_CLASSES 4
#endif

#define RULE_ROW(NAME) {(dp_imp)NAME##_last, (dp_imp)NAME##_first, (dp_imp)NAME##_rule}
#define CLASS_ROW(NAME) {RULE_ROW(NAME##_fp0), RULE_ROW(NAME##_fp2), RULE_ROW(NAME##_fp8)}
// By return class, floating-point variant, rule (last, first, read from the route).
static const dp_imp register_entries[RETURN_CLASSES][3][3] = {
    CLASS_ROW(entry_gp2), CLASS_ROW(entry_fp2), CLASS_ROW(entry_gpfp), CLASS_ROW(entry_fpgp),
#if defined(__aarch64__)
    CLASS_ROW(entry_fp4),
#endif
};

static dp_imp register_entry(dp_return_class rc, dp_reducer reducer, uint32_t fp_registers) {
  if ((unsigned)rc >= RETURN_CLASSES) return NULL;
  unsigned fp = fp_registers == 0 ? 0 : fp_registers <= 2 ? 1 : 2;
  unsigned rule = reducer == DP_REDUCER_LAST ? 0 : reducer == DP_REDUCER_FIRST ? 1 : 2;
  return register_entries[rc][fp][rule];
}

#if DP_ROUTE_STACK_SUPPORTED
// x86-64 System V: arguments that do not fit in registers sit in the caller's
// stack-argument area, in order, each in 8-byte slots. Declared after every argument
// register, a by-value struct of K words *is* that area (an aggregate finds no register
// left, so it is passed on the stack, first), and passing it on copies it to the
// target's. A result over 16 bytes comes back through a caller-supplied pointer in the
// first integer register (returned again in rax): an extra leading argument that each
// target writes in turn, so the last writer's value stands.
#define STACK_TYPE(K) typedef struct { uint64_t w[K]; } dp_stack##K;
STACK_TYPE(1) STACK_TYPE(2) STACK_TYPE(3) STACK_TYPE(4) STACK_TYPE(5) STACK_TYPE(6)
STACK_TYPE(7) STACK_TYPE(8) STACK_TYPE(9) STACK_TYPE(10) STACK_TYPE(11) STACK_TYPE(12)
STACK_TYPE(13) STACK_TYPE(14) STACK_TYPE(15) STACK_TYPE(16)

// Two variants each, as for register entries: no floating-point register used (FP0),
// or all eight kept (FP8).
#define STACK_FP0_PARAMS(K) DP_GP_PARAMS, dp_stack##K s
#define STACK_FP0_ARGS(SELF) (uint64_t)(SELF), a1, DP_GP_REST, s
#define STACK_FP8_PARAMS(K) DP_GP_PARAMS, DP_FP_PARAMS, dp_stack##K s
#define STACK_FP8_ARGS(SELF) (uint64_t)(SELF), a1, DP_GP_REST, DP_FP_ARGS, s

// Indirect results: the result pointer, then self and _cmd, three more integer
// registers, the vector registers (FP8), and (K > 0) the stack area.
#define INDIRECT_FP0_PARAMS0 uint64_t r, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, \
                             uint64_t a4
#define INDIRECT_FP0_ARGS0(SELF) r, (uint64_t)(SELF), a1, a2, a3, a4
#define INDIRECT_FP8_PARAMS0 INDIRECT_FP0_PARAMS0, DP_FP_PARAMS
#define INDIRECT_FP8_ARGS0(SELF) INDIRECT_FP0_ARGS0(SELF), DP_FP_ARGS
#define INDIRECT_FP0_PARAMS(K) INDIRECT_FP0_PARAMS0, dp_stack##K s
#define INDIRECT_FP0_ARGS(SELF) INDIRECT_FP0_ARGS0(SELF), s
#define INDIRECT_FP8_PARAMS(K) INDIRECT_FP8_PARAMS0, dp_stack##K s
#define INDIRECT_FP8_ARGS(SELF) INDIRECT_FP8_ARGS0(SELF), s

#define RETURN_RESULT_POINTER(call) \
  call;                             \
  dp_read_exit_inline();            \
  return (void *)r;

// Only LAST and FIRST reach indirect routes (Swift checks); the result is zeroed first
// so that no live target leaves zero, as on the other paths.
#define DEFINE_INDIRECT_ENTRY(NAME, PARAMS, ARGS)                                  \
  static void *NAME(PARAMS) {                                                    \
    ROUTE_PROLOGUE(NAME, a0, a1, ARGS, RETURN_RESULT_POINTER)                    \
    memset((void *)r, 0, route->result_size);                                    \
    const dp_reducer reducer = route->reducer;                                   \
    uint32_t called = 0;                                                         \
    for (const dp_route_target *t = list->targets, *end = t + list->count;       \
         t != end; t++) {                                                        \
      if (DP_TARGET_REMOVED(slot, t)) continue;                                  \
      ((__typeof__(NAME) *)t->imp)(ARGS(t->target));                             \
      called++;                                                                  \
      if (reducer == DP_REDUCER_FIRST) break;                                    \
    }                                                                            \
    if (__builtin_expect(called == 0, 0) && route->fallback) {                   \
      dp_imp fallback = route->fallback;                                         \
      dp_read_exit_slot_inline(slot);                                                     \
      ((__typeof__(NAME) *)fallback)(ARGS(self));                                \
      return (void *)r;                                                          \
    }                                                                            \
    dp_read_exit_slot_inline(slot);                                                       \
    return (void *)r;                                                            \
  }

#define STACK_ENTRIES_FP(K, FP)                                                               \
  DEFINE_ENTRY(entry_gp2_##FP##_s##K, dp_gp2, STACK_##FP##_PARAMS(K), a0, a1, STACK_##FP##_ARGS, \
               route->reducer)                                                                \
  DEFINE_ENTRY(entry_fp2_##FP##_s##K, dp_fp2, STACK_##FP##_PARAMS(K), a0, a1, STACK_##FP##_ARGS, \
               route->reducer)                                                                \
  DEFINE_ENTRY(entry_gpfp_##FP##_s##K, dp_gpfp, STACK_##FP##_PARAMS(K), a0, a1,                \
               STACK_##FP##_ARGS, route->reducer)                                             \
  DEFINE_ENTRY(entry_fpgp_##FP##_s##K, dp_fpgp, STACK_##FP##_PARAMS(K), a0, a1,                \
               STACK_##FP##_ARGS, route->reducer)                                             \
  DEFINE_INDIRECT_ENTRY(entry_mem_##FP##_s##K, INDIRECT_##FP##_PARAMS(K), INDIRECT_##FP##_ARGS)
#define STACK_ENTRIES(K) STACK_ENTRIES_FP(K, FP0) STACK_ENTRIES_FP(K, FP8)
STACK_ENTRIES(1) STACK_ENTRIES(2) STACK_ENTRIES(3) STACK_ENTRIES(4) STACK_ENTRIES(5)
STACK_ENTRIES(6) STACK_ENTRIES(7) STACK_ENTRIES(8) STACK_ENTRIES(9) STACK_ENTRIES(10)
STACK_ENTRIES(11) STACK_ENTRIES(12) STACK_ENTRIES(13) STACK_ENTRIES(14) STACK_ENTRIES(15)
STACK_ENTRIES(16)
DEFINE_INDIRECT_ENTRY(entry_mem_FP0_s0, INDIRECT_FP0_PARAMS0, INDIRECT_FP0_ARGS0)
DEFINE_INDIRECT_ENTRY(entry_mem_FP8_s0, INDIRECT_FP8_PARAMS0, INDIRECT_FP8_ARGS0)

#define STACK_ROW(K, FP)                                                 \
  {(dp_imp)entry_gp2_##FP##_s##K, (dp_imp)entry_fp2_##FP##_s##K,         \
   (dp_imp)entry_gpfp_##FP##_s##K, (dp_imp)entry_fpgp_##FP##_s##K}
#define STACK_ROWS(FP)                                                                    \
  {STACK_ROW(1, FP),  STACK_ROW(2, FP),  STACK_ROW(3, FP),  STACK_ROW(4, FP),           \
   STACK_ROW(5, FP),  STACK_ROW(6, FP),  STACK_ROW(7, FP),  STACK_ROW(8, FP),           \
   STACK_ROW(9, FP),  STACK_ROW(10, FP), STACK_ROW(11, FP), STACK_ROW(12, FP),          \
   STACK_ROW(13, FP), STACK_ROW(14, FP), STACK_ROW(15, FP), STACK_ROW(16, FP)}
// By variant (FP0, FP8), stack words (1…16), then return class (GP, FP, GP_FP, FP_GP).
static const dp_imp stack_entries[2][DP_ROUTE_MAX_STACK_WORDS][4] = {STACK_ROWS(FP0),
                                                                     STACK_ROWS(FP8)};
#define INDIRECT_ROW(FP)                                                                   \
  {(dp_imp)entry_mem_##FP##_s0,  (dp_imp)entry_mem_##FP##_s1,  (dp_imp)entry_mem_##FP##_s2,  \
   (dp_imp)entry_mem_##FP##_s3,  (dp_imp)entry_mem_##FP##_s4,  (dp_imp)entry_mem_##FP##_s5,  \
   (dp_imp)entry_mem_##FP##_s6,  (dp_imp)entry_mem_##FP##_s7,  (dp_imp)entry_mem_##FP##_s8,  \
   (dp_imp)entry_mem_##FP##_s9,  (dp_imp)entry_mem_##FP##_s10, (dp_imp)entry_mem_##FP##_s11, \
   (dp_imp)entry_mem_##FP##_s12, (dp_imp)entry_mem_##FP##_s13, (dp_imp)entry_mem_##FP##_s14, \
   (dp_imp)entry_mem_##FP##_s15, (dp_imp)entry_mem_##FP##_s16}
// By variant (FP0, FP8), then stack words (0…16).
static const dp_imp indirect_entries[2][DP_ROUTE_MAX_STACK_WORDS + 1] = {INDIRECT_ROW(FP0),
                                                                          INDIRECT_ROW(FP8)};

static dp_imp replay_entry(dp_return_class rc, dp_reducer reducer, uint32_t fp_registers,
                           uint32_t stack_words, bool indirect) {
  if (stack_words > DP_ROUTE_MAX_STACK_WORDS) return NULL;
  unsigned fp = fp_registers == 0 ? 0 : 1;
  if (indirect) return indirect_entries[fp][stack_words];
  if (stack_words == 0) return register_entry(rc, reducer, fp_registers);
  if (rc > DP_RET_FP_GP) return NULL;
  return stack_entries[fp][stack_words - 1][rc];
}
#else
static dp_imp replay_entry(dp_return_class rc, dp_reducer reducer, uint32_t fp_registers,
                           uint32_t stack_words, bool indirect) {
  return stack_words == 0 && !indirect ? register_entry(rc, reducer, fp_registers) : NULL;
}
#endif

#else
static dp_imp replay_entry(dp_return_class rc, dp_reducer reducer, uint32_t fp_registers,
                           uint32_t stack_words, bool indirect) {
  (void)rc, (void)reducer, (void)fp_registers, (void)stack_words, (void)indirect;
  return NULL;
}
#endif

// MARK: libffi entry

// One closure per signature; the route comes from self/_cmd like the register entries.
static void ffi_route_handler(ffi_cif *cif, void *ret, void **args, void *user_data) {
  (void)user_data;
  dp_id self = *(dp_id *)args[0];
  dp_sel cmd = *(dp_sel *)args[1];
  dp_read_slot *slot = dp_read_enter_entry_inline(self, "route entry ffi_route_handler");
  const dp_route *route = route_for(self, cmd);
  if (__builtin_expect(route == NULL, 0)) {
    dp_ffi_call(cif, dp_msg_lookup(self, cmd), ret, args);
    dp_read_exit_inline();
    return;
  }
  const dp_route_list *list = LOAD_ACQ(route->list);
  size_t size = cif->rtype->size;
  memset(ret, 0, size < sizeof(ffi_arg) && size ? sizeof(ffi_arg) : size);
  void *saved_self = args[0];
  dp_id target;
  args[0] = &target;
  uint32_t called = 0;
  for (uint32_t i = 0; i < list->count; i++) {
    const dp_route_target *t = &list->targets[i];
    if (DP_TARGET_REMOVED(slot, t)) continue;
    target = t->target;
    // Only LAST and FIRST are given to libffi routes (results that need a boolean
    // reading travel in registers), so every result lands in ret.
    // dp_ffi_call, not ffi_call: libffi rewrites args[i] of a struct over 16 bytes to
    // point at its own dead copy, and the next target would read through it.
    dp_ffi_call(cif, t->imp, ret, args);
    called++;
    if (route->reducer == DP_REDUCER_FIRST) break;
  }
  args[0] = saved_self;
  dp_imp fallback = called == 0 ? route->fallback : NULL;
  dp_read_exit_slot_inline(slot);
  if (fallback) dp_ffi_call(cif, fallback, ret, args);
}

dp_imp dp_route_ffi_entry_create(ffi_cif *cif, void **closure) {
  dp_imp code = NULL;
  void *c = dp_ffi_closure_create(cif, ffi_route_handler, NULL, &code);
  if (!c) return NULL;
  *closure = c;
  return code;
}

// MARK: routes

dp_route *dp_route_create(dp_reducer reducer, dp_return_class ret_class, uint32_t result_size,
                          uint32_t fp_registers, uint32_t stack_words, bool indirect_result,
                          ffi_cif *cif, dp_imp ffi_entry, dp_imp fallback,
                          const void *domain) {
  dp_imp entry = cif ? ffi_entry
                     : replay_entry(ret_class, reducer, fp_registers, stack_words, indirect_result);
  if (!entry) return NULL;
  dp_route *r = calloc(1, sizeof *r);
  if (!r) dp_fatal("dp_route_create: out of memory");
  r->reducer = reducer;
  r->truth_mask = result_size >= 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * result_size)) - 1);
  r->result_size = result_size;
  r->entry = entry;
  r->fallback = fallback;
  r->cif = cif;
  r->domain = domain;
  r->list = calloc(1, sizeof(dp_route_list));
  if (!r->list) dp_fatal("dp_route_create: out of memory");
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
  dp_retire_in(r->domain, old, free);
}

dp_imp dp_route_entry(const dp_route *r) { return r->entry; }

uint32_t dp_route_target_count(const dp_route *r) { return LOAD_ACQ(r->list)->count; }

bool dp_route_would_fall_back(dp_id obj, dp_sel sel) {
  if (!obj) return false;
  bool empty = false;
  dp_read_enter_at_inline(obj, __builtin_frame_address(0));
  const dp_route *route = route_for(obj, sel);
  if (route && route->fallback) {
    const dp_route_list *list = LOAD_ACQ(route->list);
    empty = true;
    for (uint32_t i = 0; i < list->count && empty; i++)
      if (!__atomic_load_n(&list->targets[i].node->removed, __ATOMIC_RELAXED)) empty = false;
  }
  dp_read_exit_inline();
  return empty;
}

static void free_route(void *p) {
  dp_route *r = p;
  free(r->list);
  free(r);
}

void dp_route_retire(dp_route *r) {
  if (r) dp_retire_in(r->domain, r, free_route);
}
