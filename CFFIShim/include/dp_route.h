// dp_route.h — fan-out routes: the fast forwarding path.
//
// A route belongs to one receiver and one selector: an ordered list of targets (each a
// receiver and the IMP it runs for the selector) that a message is replayed to, and a
// rule combining their results. The receiver's own method table maps the selector to
// the route's entry IMP with the route as the entry's context, so the entry finds the
// route from self and _cmd alone — no closure, no lock, no allocation per message.
//
// Replay routes use a static entry per return class that replays the caller's argument
// registers to each target — and, on x86-64, the caller's stack-argument area (up to
// DP_ROUTE_MAX_STACK_WORDS words) and indirect-result pointer, so arguments and results
// passed in memory are replayed with a plain C call too. libffi routes use one closure
// per signature and ffi_call per target.
//
// Targets are read inside a read section (dp_quiesce.h). A target's node carries a
// removed flag, checked right before each call, so a removal made while a dispatch is
// running on the same thread takes effect at once; dp_synchronize covers other threads.
// No policy here: the caller decides targets, order and rule.

#ifndef DP_ROUTE_H
#define DP_ROUTE_H

#include "dp_ffi.h"
#include "dp_route_node.h"
#include "dp_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/// How the targets' results reducer into the caller's result: the loop of each rule that
/// DelegateProxy's ReducerRule decides (same names; "non-nil" is "not all-zero bytes"). The
/// choice of rule is policy, made in Swift; C only runs the chosen loop.
typedef enum dp_reducer {
  DP_REDUCER_LAST = 0,           // every target called; the last one's result
  DP_REDUCER_FIRST = 1,          // only the first live target called; its result
  DP_REDUCER_ALL_TRUE = 2,       // every target called; 1 if every result is nonzero
  DP_REDUCER_ANY_TRUE = 3,       // every target called; 1 if any result is nonzero
  DP_REDUCER_FIRST_NON_NIL = 4,  // every target called; the first nonzero result
} dp_reducer;

typedef struct dp_route dp_route;
#if defined(__x86_64__) && !defined(_WIN32)
/// Whether replay routes can also carry a stack-argument area and an indirect result.
#define DP_ROUTE_STACK_SUPPORTED 1
#else
#define DP_ROUTE_STACK_SUPPORTED 0
#endif
/// The largest stack-argument area (in 8-byte words) a replay route carries.
#define DP_ROUTE_MAX_STACK_WORDS 16

/// A replay route when `cif` is NULL, else a libffi route over `cif` whose entry is
/// `ffi_entry` (from dp_route_ffi_entry_create). A replay route's entry is chosen by
/// `ret_class`, `stack_words` (the caller's stack-argument area, 0 when every argument
/// travels in registers) and `indirect_result` (the result is returned through a hidden
/// pointer); NULL when no entry has that shape. `fp_registers` is how many
/// floating-point argument registers the signature uses (8 when unsure): register
/// entries that keep fewer live are faster. `result_size` is the size of the return value
/// (for the boolean rules, and zeroing an indirect result). A route's rule is fixed.
/// `fallback`, when not NULL, is called with the caller's own arguments (and its result
/// returned) whenever a dispatch finds no target to call — every one removed — so that an
/// emptied route answers as its receiver would without targets (e.g. its forwarding IMP).
/// `domain` is the receiver the route is installed on: its dispatches read the route in
/// read sections of that domain, and what the route retires is retired in it.
dp_route *dp_route_create(dp_reducer reducer, dp_return_class ret_class, uint32_t result_size,
                          uint32_t fp_registers, uint32_t stack_words, bool indirect_result,
                          ffi_cif *cif, dp_imp ffi_entry, dp_imp fallback,
                          const void *domain);
/// Publishes a new target list (copied); the old one is retired.
void dp_route_set_targets(dp_route *route, uint32_t count, const dp_id *targets,
                          const dp_imp *imps, dp_route_node *const *nodes);
/// The IMP to install for the route's selector (with the route as context).
dp_imp dp_route_entry(const dp_route *route);
/// How many targets the current list has.
uint32_t dp_route_target_count(const dp_route *route);
/// Whether `obj`'s own method for `sel` is a route with a fallback whose targets are all
/// removed right now: a message sent now would run the fallback. Lets Swift senders take
/// their own path (with thrown errors) instead.
bool dp_route_would_fall_back(dp_id obj, dp_sel sel);
/// Frees the route and its list after a grace period.
void dp_route_retire(dp_route *route);

/// The libffi closure that serves every libffi route of one signature. NULL on failure.
dp_imp dp_route_ffi_entry_create(ffi_cif *cif, void **closure);

#ifdef __cplusplus
}
#endif

#endif  // DP_ROUTE_H
