// C callbacks delivered as messages. See dp_callback.h.

#include "dp_callback.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dp_layout.h"
#include "dp_quiesce.h"
#include "dp_quiesce_inline.h"
#include "dp_regs.h"
#include "dp_route_layout.h"

typedef struct dp_callback_slot {
  dp_sel sel;                  // atomic; NULL when unused or released
  uint32_t message_registers;  // integer registers the message uses after self and _cmd
  // Register entries: the receiver's route for `sel` and the method table it was found
  // in, as one immutable pair (atomic; replaced whole, the old one retired).
  const struct dp_route_cache *cache;
  // Closure entries only.
  uint32_t use_default;    // nonzero: return default_result, not the message's result
  uint32_t default_size;
  uint64_t context_value;  // what the message gets in the context's place (pass_context)
  _Alignas(16) unsigned char default_result[DP_CALLBACK_MAX_RESULT];
  struct dp_callback *owner;
  uint32_t index;
  ffi_cif *message_cif;
  int context_index;
  bool pass_context;
  bool callback_returns_void;
  uint32_t message_result_size;
  void *closure;
  char *description;  // never freed (the trap of a released slot prints it)
} dp_callback_slot;

struct dp_callback {
  dp_id receiver;  // atomic; NULL once released
  struct dp_callback *next_released;  // the tombstone list (keeps released records reachable)
  dp_callback_slot slots[DP_CALLBACK_SLOTS];
};

static const struct dp_route_cache *no_route_cache_address(void);
static dp_callback *released_records;  // atomic head of the tombstone list
static uint64_t released_total;        // atomic

dp_callback *dp_callback_create(dp_id receiver) {
  dp_callback *cb = calloc(1, sizeof *cb);
  if (!cb) dp_fatal("dp_callback_create: out of memory");
  cb->receiver = receiver;
  for (uint32_t i = 0; i < DP_CALLBACK_SLOTS; i++) {
    cb->slots[i].owner = cb;
    cb->slots[i].cache = no_route_cache_address();
    cb->slots[i].index = i;
    cb->slots[i].context_index = -1;
    cb->slots[i].message_registers = DP_GP_REGS;
  }
  return cb;
}

static dp_callback_slot *slot_at(dp_callback *cb, uint32_t slot) {
  if (slot >= DP_CALLBACK_SLOTS) dp_fatal("dp_callback: slot out of range");
  return &cb->slots[slot];
}

void dp_callback_set_slot(dp_callback *cb, uint32_t slot, dp_sel sel, const char *description) {
  dp_callback_slot *s = slot_at(cb, slot);
  s->description = strdup(description ? description : "?");
  if (!s->description) dp_fatal("dp_callback_set_slot: out of memory");
  __atomic_store_n(&s->sel, sel, __ATOMIC_RELEASE);
}

void dp_callback_set_context_value(dp_callback *cb, uint32_t slot, uint64_t value) {
  slot_at(cb, slot)->context_value = value;
}

void dp_callback_set_default_result(dp_callback *cb, uint32_t slot, const void *bytes,
                                    uint32_t size) {
  if (size > DP_CALLBACK_MAX_RESULT) dp_fatal("dp_callback_set_default_result: result too large");
  dp_callback_slot *s = slot_at(cb, slot);
  memset(s->default_result, 0, sizeof s->default_result);
  memcpy(s->default_result, bytes, size);
  s->default_size = size;
  s->use_default = 1;
}

void dp_callback_set_message_registers(dp_callback *cb, uint32_t slot, uint32_t count) {
  slot_at(cb, slot)->message_registers = count;
}

void dp_callback_release_slot(dp_callback *cb, uint32_t slot) {
  __atomic_store_n(&slot_at(cb, slot)->sel, NULL, __ATOMIC_SEQ_CST);
}

void dp_callback_release(dp_callback *cb) {
  __atomic_store_n(&cb->receiver, NULL, __ATOMIC_SEQ_CST);
  // Kept reachable (a leak checker sees no leak) and never freed: the library may still
  // hold the function pointers and the context.
  dp_callback *head = __atomic_load_n(&released_records, __ATOMIC_RELAXED);
  do {
    cb->next_released = head;
  } while (!__atomic_compare_exchange_n(&released_records, &head, cb, true, __ATOMIC_RELEASE,
                                        __ATOMIC_RELAXED));
  __atomic_add_fetch(&released_total, 1, __ATOMIC_RELAXED);
}

bool dp_callback_is_released(const dp_callback *cb) {
  return __atomic_load_n(&cb->receiver, __ATOMIC_ACQUIRE) == NULL;
}

uint64_t dp_callback_released_count(void) {
  return __atomic_load_n(&released_total, __ATOMIC_RELAXED);
}

static __attribute__((noinline, cold, noreturn)) void released_trap(const dp_callback_slot *s) {
  char message[1024];
  snprintf(message, sizeof message,
           "DelegateProxy: a C callback was called after its CallbackAdapter was released "
           "(%s); keep the adapter alive while the library holds its function pointer",
           s->description ? s->description : "a slot never set up");
  dp_fatal(message);
}

// The receiver's IMP for the selector: its own or class method (inlined), else the
// resolver's answer (forwarding, or the trap naming class and selector).
static inline __attribute__((always_inline)) dp_imp lookup(dp_id self, dp_sel sel) {
  const dp_method_entry *e = dp_lookup_entry_inline(self, sel);
  if (__builtin_expect(e != NULL, 1)) return e->imp;
  return dp_msg_lookup(self, sel);
}

// MARK: register entries

// A register route (the context of a method-table entry is a route, and that route's
// entry is the method's IMP: the fast path of a MulticastProxy), else NULL.
static inline __attribute__((always_inline)) const dp_route *register_route(
    const dp_method_entry *e) {
  const dp_route *route = e ? (const dp_route *)e->context : NULL;
  return route != NULL && route->entry == e->imp && route->cif == NULL ? route : NULL;
}

// A route found in a method table: immutable once published in a slot.
typedef struct dp_route_cache {
  const dp_method_table *table;
  uint64_t serial;  // the table's: a replaced table is freed, and its address can return
  const dp_route *route;
} dp_route_cache;

// What a slot caches before its first route: matches no table (not even NULL, an object
// without own methods), so a reader needs no test for an empty cache.
static const dp_route_cache no_route_cache = {(const dp_method_table *)&no_route_cache, 0,
                                              NULL};

static const struct dp_route_cache *no_route_cache_address(void) { return &no_route_cache; }

// Whether `c`, a slot's cache, holds the route of `own`, the receiver's current
// own-method table (its route is then not NULL). A table
// is immutable, and any change of the object's own methods publishes a new one: while
// `own` is the table the route was found in (its address and serial, since a retired
// table is freed after a grace period and a later one may get its address), the route is
// still the object's method (and, inside the caller's read section, not freed).
// One pointer to an immutable pair, so a reader needs no retry loop: dependent loads
// and two compares.
static inline __attribute__((always_inline)) bool cache_hit(const dp_route_cache *c,
                                                            const dp_method_table *own) {
  return c->table == own && c->serial == own->serial;
}

// released_trap for slot `index` of `record`: the address worked out off the hot path.
static __attribute__((noinline, cold, noreturn)) void released_slot_trap(const dp_callback *record,
                                                                         uint32_t index) {
  released_trap(&record->slots[index]);
}

// The record's receiver changed between the entry's read ahead and its read inside the
// section: released (a trap), or named again in the section (dp_read_also).
static __attribute__((noinline, cold)) void receiver_changed(const dp_callback *record,
                                                             uint32_t index, dp_read_slot *s,
                                                             dp_id self) {
  if (self == NULL) released_trap(&record->slots[index]);
  dp_read_also(s, self);
}

// Caches `route` for `own` (on a miss only: the receiver's table changed, or the first
// call). The pair it replaces is retired: a reader in its read section may still hold it.
static __attribute__((noinline)) void cache_route(dp_callback_slot *s,
                                                  const dp_method_table *own,
                                                  const dp_route *route) {
  dp_route_cache *c = malloc(sizeof *c);
  if (!c) dp_fatal("dp_callback: out of memory");
  c->table = own;
  c->serial = own->serial;
  c->route = route;
  dp_route_cache *old = (dp_route_cache *)__atomic_exchange_n(&s->cache, c, __ATOMIC_ACQ_REL);
  if (old != &no_route_cache) dp_retire_in(s->owner, old, free);
}

#if DP_REPLAY_SUPPORTED

// A register entry takes every integer argument register (a0…) and, for FP8, every
// floating-point one, so whatever the library passed is in its parameters. The context
// is the integer register CTX; the message gets self and _cmd, then the other integer
// registers in order (the context removed, so the ones after it move down by one).
// Floating-point registers keep their places: the context is an integer register, so
// removing it does not renumber them. A context passed on (replaced by the slot's value)
// or a default result takes the closure entry.
//
// The message's integer registers are self, _cmd and GP-2 more: a callback whose
// message would need more integer registers has no register entry (Swift checks).
#if defined(__x86_64__)
#define MSG_GP_DROP_0 a1, a2, a3, a4
#define MSG_GP_DROP_1 a0, a2, a3, a4
#define MSG_GP_DROP_2 a0, a1, a3, a4
#define MSG_GP_DROP_3 a0, a1, a2, a4
#define MSG_GP_DROP_4 a0, a1, a2, a3
#define CONTEXT_REGISTERS 5  // a0…a4: a context in a5 leaves 5 arguments + self + _cmd
// Registers an entry takes but a shape may not pass on (for -Wunused-parameter).
#define TOUCH_GP (void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5
#else
#define MSG_GP_DROP_0 a1, a2, a3, a4, a5, a6
#define MSG_GP_DROP_1 a0, a2, a3, a4, a5, a6
#define MSG_GP_DROP_2 a0, a1, a3, a4, a5, a6
#define MSG_GP_DROP_3 a0, a1, a2, a4, a5, a6
#define MSG_GP_DROP_4 a0, a1, a2, a3, a5, a6
#define MSG_GP_DROP_5 a0, a1, a2, a3, a4, a6
#define MSG_GP_DROP_6 a0, a1, a2, a3, a4, a5
#define CONTEXT_REGISTERS 7
#define TOUCH_GP (void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6, (void)a7
#endif

#define FP0_PARAMS DP_GP_PARAMS
#define FP0_MSG(SELF, ...) (uint64_t)(SELF), (uint64_t)cmd, __VA_ARGS__
#define FP8_PARAMS DP_GP_PARAMS, DP_FP_PARAMS
#define FP8_MSG(SELF, ...) (uint64_t)(SELF), (uint64_t)cmd, __VA_ARGS__, DP_FP_ARGS

// The rules other than LAST, out of line so that LAST's loop keeps its registers: every
// live target called with `cmd` and the registers (the first parameter is replaced by
// each target), results combined as dp_route.c's entries reducer them.
#define DEFINE_RULE_LOOP(T, FP)                                                      \
  static __attribute__((noinline)) T rule_##T##_##FP(                                      \
      const dp_route *route, const dp_route_list *list, uint32_t *called, FP##_PARAMS) {   \
    (void)a0; /* the placeholder for each target */                                        \
    dp_read_slot *slot = dp_read_current_slot();                                           \
    const dp_reducer reducer = route->reducer;                                             \
    const uint64_t mask = route->truth_mask;                                               \
    T result;                                                                              \
    memset(&result, 0, sizeof result);                                                     \
    bool decided = false; /* ALL_TRUE saw a zero / ANY_TRUE a nonzero / FIRST_NON_NIL */   \
    for (uint32_t i = 0, n = list->count; i < n; i++) {                                    \
      const dp_route_target *t = &list->targets[i];                                        \
      if (DP_TARGET_REMOVED(slot, t))       \
        continue;                                                                          \
      T v = ((T(*)(FP##_PARAMS))t->imp)(RULE_ARGS_##FP(t->target));                       \
      (*called)++;                                                                         \
      if (reducer == DP_REDUCER_FIRST) {                                                   \
        result = v;                                                                        \
        break;                                                                             \
      }                                                                                    \
      if (reducer == DP_REDUCER_LAST) {                                                    \
        result = v;                                                                        \
      } else if (!decided) {                                                               \
        bool nonzero = (word0_##T(v) & mask) != 0;                                         \
        if (reducer == DP_REDUCER_ALL_TRUE ? !nonzero : nonzero) decided = true;           \
        if (decided && reducer == DP_REDUCER_FIRST_NON_NIL) result = v;                    \
      }                                                                                    \
    }                                                                                      \
    if (reducer == DP_REDUCER_ALL_TRUE || reducer == DP_REDUCER_ANY_TRUE) {                \
      /* An empty AND is true, an empty OR false; the value is 0 or 1. */                  \
      uint64_t truth = reducer == DP_REDUCER_ALL_TRUE ? !decided : decided;                \
      memset(&result, 0, sizeof result);                                                   \
      memcpy(&result, &truth, sizeof truth);                                               \
    }                                                                                      \
    return result;                                                                         \
  }
#define RULE_ARGS_FP0(SELF) (uint64_t)(SELF), a1, DP_GP_REST
#define RULE_ARGS_FP8(SELF) (uint64_t)(SELF), a1, DP_GP_REST, DP_FP_ARGS
#define RULE_LOOPS(T) DEFINE_RULE_LOOP(T, FP0) DEFINE_RULE_LOOP(T, FP8)
RULE_LOOPS(dp_gp2) RULE_LOOPS(dp_fp2) RULE_LOOPS(dp_gpfp) RULE_LOOPS(dp_fpgp)
#if defined(__aarch64__)
RULE_LOOPS(dp_fp4)
#endif

// The LAST rule's loop: every live target, the last result kept.
// `called` counts the targets not seen removed (the skips, off the path of a call): 0
// after the loop exactly when none was called.
#define LAST_LOOP(CALL)                                                                    \
  const dp_route_target *t = list->targets;                                                \
  called = list->count;                                                                    \
  /* A count down: one register fewer live across the calls than an index and its end. */ \
  for (uint32_t left = called; left != 0; left--, t++) {                                   \
    if (DP_TARGET_REMOVED(slot, t)) {                                                      \
      called--;                                                                            \
      continue;                                                                            \
    }                                                                                      \
    result = CALL;                                                                         \
  }
// The first 2 or 3 of the message's integer registers, and function types taking only
// those after self and _cmd (the floating-point registers are assigned independently).
#define TAKE2(a, b, ...) a, b
#define TAKE3(a, b, c, ...) a, b, c
#define CALL_TYPE_FP0_2(T) T (*)(uint64_t, uint64_t, uint64_t, uint64_t)
#define CALL_TYPE_FP0_3(T) T (*)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t)
#define CALL_TYPE_FP8_2(T) T (*)(uint64_t, uint64_t, uint64_t, uint64_t, DP_FP_TYPES)
#define CALL_TYPE_FP8_3(T) T (*)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, DP_FP_TYPES)

// One entry. The record comes from the context register; the receiver and the slot's
// selector are read inside a read section of the record's domain (a release followed by
// dp_wait_domain_idle waits for it), the receiver's method and route once the same
// section also names the receiver's domain (dp_read_also: one store, not a nested
// section); a released record or slot traps. Then the receiver's method for the selector:
//
// - a register route (a MulticastProxy's fast path): its targets are called here, each
//   through the entry's own function type with the registers renumbered, and their
//   results combined by the route's rule — the loop of dp_route.c's entries, without
//   a second lookup, call or read section;
// - anything else (a single object's method, a forwarding IMP, the trap for an
//   unrecognized selector): called once the same way.
#define DEFINE_CALLBACK_ENTRY(NAME, T, FP, SLOT, CTX, GP)                                 \
  static T NAME(FP##_PARAMS) {                                                             \
    TOUCH_GP;                                                                              \
    const dp_callback *record = (const dp_callback *)(CTX);                               \
    dp_callback_slot *cb = (dp_callback_slot *)&record->slots[SLOT];                     \
    /* The receiver read ahead (a record is never freed), named with the section's */   \
    /* domain; read again inside it, where a release (to NULL) is seen. */                 \
    dp_id named = __atomic_load_n(&record->receiver, __ATOMIC_RELAXED);                   \
    dp_read_slot *outer =                                                                  \
        dp_read_enter_entry_also_inline(record, named, "callback entry " #NAME);          \
    dp_id self = __atomic_load_n(&record->receiver, __ATOMIC_ACQUIRE);                    \
    dp_sel cmd = __atomic_load_n(&cb->sel, __ATOMIC_ACQUIRE);                             \
    if (__builtin_expect(cmd == NULL, 0)) released_slot_trap(record, SLOT);                \
    if (__builtin_expect(self != named, 0)) receiver_changed(record, SLOT, outer, self);   \
    dp_read_slot *slot = outer;                                                            \
    T result;                                                                              \
    const dp_method_table *own = __atomic_load_n(&self->methods, __ATOMIC_ACQUIRE);       \
    const dp_route_cache *cache = __atomic_load_n(&cb->cache, __ATOMIC_ACQUIRE);          \
    const dp_route *route;                                                                 \
    const dp_method_entry *e = NULL;                                                       \
    if (__builtin_expect(cache_hit(cache, own), 1)) {                                      \
      route = cache->route;                                                                \
    } else {                                                                               \
      e = dp_method_table_find_inline(own, cmd);                                           \
      route = register_route(e);                                                           \
      if (route == NULL) goto single_call;                                                 \
      cache_route(cb, own, route);                                                         \
    }                                                                                      \
    {                                                                                      \
      const dp_route_list *list = __atomic_load_n(&route->list, __ATOMIC_ACQUIRE);        \
      const dp_reducer reducer = route->reducer;                                           \
      memset(&result, 0, sizeof result);                                                   \
      uint32_t called;                                                                     \
      if (__builtin_expect(reducer == DP_REDUCER_LAST, 1)) {                               \
        /* Only the registers the message uses stay live across the calls. */              \
        if (cb->message_registers <= 2) {                                                  \
          LAST_LOOP(((CALL_TYPE_##FP##_2(T))t->imp)(FP##_MSG(t->target, TAKE2(GP))));      \
        } else if (cb->message_registers == 3) {                                           \
          LAST_LOOP(((CALL_TYPE_##FP##_3(T))t->imp)(FP##_MSG(t->target, TAKE3(GP))));      \
        } else {                                                                           \
          LAST_LOOP(((__typeof__(NAME) *)t->imp)(FP##_MSG(t->target, GP)));                \
        }                                                                                  \
      } else {                                                                             \
        called = 0;                                                                        \
        result = rule_##T##_##FP(route, list, &called, FP##_MSG(cmd, GP));                  \
      }                                                                                    \
      /* No target called: the route's fallback (as dp_route.c's entries do). */           \
      if (__builtin_expect(called == 0, 0) && route->fallback != NULL) {                   \
        dp_read_calling(slot, NULL); /* no member: a member wait must not wait for it */    \
        result = ((__typeof__(NAME) *)route->fallback)(FP##_MSG(self, GP));                \
      }                                                                                    \
      goto done;                                                                           \
    }                                                                                      \
  single_call:                                                                             \
    if (e == NULL) e = dp_lookup_entry(self, cmd);                                         \
    result = ((__typeof__(NAME) *)(e ? e->imp : dp_msg_lookup(self, cmd)))(FP##_MSG(self, GP)); \
  done:                                                                                    \
    dp_read_exit_also_inline(outer);                                                       \
    return result;                                                                         \
  }

// Entries by slot K, context register J, floating-point variant and
// return class: cb_<class>_<mode><J>_<fp>_s<K>.
#define ENTRY_CLASSES(K, J, MODE, FP)                                                          \
  DEFINE_CALLBACK_ENTRY(cb_gp2_##MODE##J##_##FP##_s##K, dp_gp2, FP, K, a##J, MSG_GP_##MODE##_##J)  \
  DEFINE_CALLBACK_ENTRY(cb_fp2_##MODE##J##_##FP##_s##K, dp_fp2, FP, K, a##J, MSG_GP_##MODE##_##J)  \
  DEFINE_CALLBACK_ENTRY(cb_gpfp_##MODE##J##_##FP##_s##K, dp_gpfp, FP, K, a##J, MSG_GP_##MODE##_##J) \
  DEFINE_CALLBACK_ENTRY(cb_fpgp_##MODE##J##_##FP##_s##K, dp_fpgp, FP, K, a##J, MSG_GP_##MODE##_##J) \
  ENTRY_FP4(K, J, MODE, FP)
#if defined(__aarch64__)
#define ENTRY_FP4(K, J, MODE, FP) \
  DEFINE_CALLBACK_ENTRY(cb_fp4_##MODE##J##_##FP##_s##K, dp_fp4, FP, K, a##J, MSG_GP_##MODE##_##J)
#define ROW_FP4(K, J, MODE, FP) , (dp_imp)cb_fp4_##MODE##J##_##FP##_s##K
#define RETURN_CLASSES 5
#else
#define ENTRY_FP4(K, J, MODE, FP)
#define ROW_FP4(K, J, MODE, FP)
#define RETURN_CLASSES 4
#endif
#define ENTRIES_K(K, J, MODE) ENTRY_CLASSES(K, J, MODE, FP0) ENTRY_CLASSES(K, J, MODE, FP8)
#define ENTRIES(J, MODE)                                                                   \
  ENTRIES_K(0, J, MODE) ENTRIES_K(1, J, MODE) ENTRIES_K(2, J, MODE) ENTRIES_K(3, J, MODE)  \
  ENTRIES_K(4, J, MODE) ENTRIES_K(5, J, MODE) ENTRIES_K(6, J, MODE) ENTRIES_K(7, J, MODE)
#define ROW(K, J, MODE, FP)                                                                \
  {(dp_imp)cb_gp2_##MODE##J##_##FP##_s##K, (dp_imp)cb_fp2_##MODE##J##_##FP##_s##K,         \
   (dp_imp)cb_gpfp_##MODE##J##_##FP##_s##K,                                                \
   (dp_imp)cb_fpgp_##MODE##J##_##FP##_s##K ROW_FP4(K, J, MODE, FP)}
#define ROWS_K(K, J, MODE) {ROW(K, J, MODE, FP0), ROW(K, J, MODE, FP8)}
#define ROWS(J, MODE)                                                                      \
  {ROWS_K(0, J, MODE), ROWS_K(1, J, MODE), ROWS_K(2, J, MODE), ROWS_K(3, J, MODE),         \
   ROWS_K(4, J, MODE), ROWS_K(5, J, MODE), ROWS_K(6, J, MODE), ROWS_K(7, J, MODE)}

#if DP_CALLBACK_SLOTS != 8
#error "ENTRIES and ROWS spell out 8 slots"
#endif

ENTRIES(0, DROP) ENTRIES(1, DROP) ENTRIES(2, DROP) ENTRIES(3, DROP) ENTRIES(4, DROP)
#if defined(__aarch64__)
ENTRIES(5, DROP) ENTRIES(6, DROP)
#endif

// By context register, slot, floating-point variant (FP0, FP8), return class.
static const dp_imp register_entries[CONTEXT_REGISTERS][DP_CALLBACK_SLOTS][2][RETURN_CLASSES] = {
#if defined(__x86_64__)
    ROWS(0, DROP), ROWS(1, DROP), ROWS(2, DROP), ROWS(3, DROP), ROWS(4, DROP),
#else
    ROWS(0, DROP), ROWS(1, DROP), ROWS(2, DROP), ROWS(3, DROP), ROWS(4, DROP), ROWS(5, DROP),
    ROWS(6, DROP),
#endif
};

dp_imp dp_callback_register_entry(uint32_t slot, dp_return_class rc, uint32_t context_register,
                                  bool pass_context, uint32_t fp_registers) {
  if (pass_context || (unsigned)rc >= RETURN_CLASSES || context_register >= CONTEXT_REGISTERS ||
      slot >= DP_CALLBACK_SLOTS)
    return NULL;
  return register_entries[context_register][slot][fp_registers == 0 ? 0 : 1][rc];
}

#else
dp_imp dp_callback_register_entry(uint32_t slot, dp_return_class rc, uint32_t context_register,
                                  bool pass_context, uint32_t fp_registers) {
  (void)slot, (void)rc, (void)context_register, (void)pass_context, (void)fp_registers;
  return NULL;
}
#endif
// MARK: closure entries

// The message's arguments: self, _cmd, then the callback's without the context (or with
// the record's context value in its place). The result goes straight to libffi's buffer
// when the library reads the message's result; otherwise to a local one.
static void closure_handler(ffi_cif *cif, void *ret, void **args, void *user_data) {
  const dp_callback_slot *cb = user_data;
  unsigned nargs = cb->message_cif->nargs;
  void *margs[nargs > 0 ? nargs : 1];
  _Alignas(16) unsigned char local[cb->message_result_size];
  dp_read_enter_entry_inline(cb->owner, "callback entry closure_handler");
  dp_id self = __atomic_load_n(&cb->owner->receiver, __ATOMIC_ACQUIRE);
  dp_sel cmd = __atomic_load_n(&cb->sel, __ATOMIC_ACQUIRE);
  if (__builtin_expect(self == NULL || cmd == NULL, 0)) released_trap(cb);
  dp_read_enter_at_inline(self, __builtin_frame_address(0));
  uint64_t context_value = cb->context_value;
  margs[0] = &self;
  margs[1] = &cmd;
  unsigned m = 2;
  for (unsigned i = 0; i < cif->nargs && m <= nargs; i++) {
    if ((int)i == cb->context_index) {
      if (cb->pass_context) margs[m++] = &context_value;
      continue;
    }
    margs[m++] = args[i];
  }
  if (m != nargs) dp_fatal("dp_callback: argument count mismatch (runtime bug)");
  bool direct = !cb->callback_returns_void && !cb->use_default;
  dp_ffi_call(cb->message_cif, lookup(self, cmd), direct ? ret : local, margs);
  dp_read_exit_inline();
  dp_read_exit_inline();
  if (cb->use_default && !cb->callback_returns_void)
    memcpy(ret, cb->default_result, cb->default_size);
}

dp_imp dp_callback_closure_create(dp_callback *owner, uint32_t slot, ffi_cif *callback_cif,
                                  ffi_cif *message_cif, int context_index, bool pass_context,
                                  bool callback_returns_void, uint32_t message_result_size) {
  dp_callback_slot *cb = slot_at(owner, slot);
  cb->message_cif = message_cif;
  cb->context_index = context_index;
  cb->pass_context = pass_context;
  cb->callback_returns_void = callback_returns_void;
  cb->message_result_size = (message_result_size + 15) & ~15u;
  if (cb->message_result_size < 16) cb->message_result_size = 16;
  dp_imp code = NULL;
  void *closure = dp_ffi_closure_create(callback_cif, closure_handler, cb, &code);
  if (!closure) return NULL;
  cb->closure = closure;
  return code;
}
