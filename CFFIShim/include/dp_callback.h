// dp_callback.h — C callbacks shaped as a library wants them, delivered as messages.
//
// A C library calls its callbacks with its own signature: a context pointer first
// (expat's userData, SQLite's hooks), last (libcurl's write callback, GLib's user_data),
// at some other position, or not at all. A callback record turns such a call into the
// message `-[receiver sel …]` with the context removed (or replaced by a value of the
// caller's choosing), and calls the IMP the receiver runs for the selector, looked up per
// call in its method table.
//
// Two machineries:
// - register entries (x86-64 System V, AArch64): a static C function per shape that
//   reads the record from the context register and replays the other argument registers
//   after self and _cmd — no closure, lock, allocation or Swift per call. When the
//   receiver's method is a register route (dp_route.h), the entry runs the route's
//   targets itself, in one read section; the route found is cached per slot, valid while
//   the receiver's method table is the one it was found in (a load and a compare per call
//   instead of a lookup);
// - closure entries: one libffi closure per slot (the slot is its user data), which
//   builds the message's argument list and calls the IMP with ffi_call. Serves callbacks
//   with no context (bound trampolines) and every shape the register entries cannot.
//
// A record is never freed. Releasing it (or one of its slots) clears its receiver (or
// the slot's selector); a later call through its function pointer and context traps with
// the slot's description instead of reading freed memory. Calls read the receiver inside
// a read section of the record's domain (dp_quiesce.h): release, then
// dp_wait_domain_idle(record) — the adapter's own calls in flight, nothing else — and no
// call still uses the receiver. No policy here.

#ifndef DP_CALLBACK_H
#define DP_CALLBACK_H

#include "dp_ffi.h"
#include "dp_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A callback record: a receiver and up to DP_CALLBACK_SLOTS messages (slots), one per
/// callback a library calls with the same context (expat passes one userData to every
/// handler: each handler's function pointer is a different slot's entry).
typedef struct dp_callback dp_callback;

/// How many callbacks can share one context.
#define DP_CALLBACK_SLOTS 8
/// The largest default result a slot keeps, in bytes.
#define DP_CALLBACK_MAX_RESULT 32

/// A record sending to `receiver`, with no slot in use. Never NULL.
dp_callback *dp_callback_create(dp_id receiver);

/// Sets up slot `slot`: it sends `sel`. `description` (copied) names the callback
/// signature and message for the trap a call after release raises.
void dp_callback_set_slot(dp_callback *cb, uint32_t slot, dp_sel sel, const char *description);

/// The message of slot `slot` receives `value` where the callback had its context
/// (instead of no argument at all).
void dp_callback_set_context_value(dp_callback *cb, uint32_t slot, uint64_t value);

/// Every call through slot `slot`'s closure entry (register entries ignore it) returns
/// these `size` bytes (at most
/// DP_CALLBACK_MAX_RESULT, integers widened to a register) instead of the message's
/// result: for a void message behind a callback that returns a value.
void dp_callback_set_default_result(dp_callback *cb, uint32_t slot, const void *bytes,
                                    uint32_t size);

/// The static register entry of slot `slot` for callbacks whose arguments all travel in
/// registers, with the context in integer argument register `context_register` (0 for
/// the first), a result of return class `ret_class` and `fp_registers` floating-point
/// argument registers used. NULL when no entry has that shape: the message would need
/// more integer registers than there are, replay is unsupported here, or `pass_context`
/// (a context passed on takes the closure entry).
dp_imp dp_callback_register_entry(uint32_t slot, dp_return_class ret_class,
                                  uint32_t context_register, bool pass_context,
                                  uint32_t fp_registers);

/// How many integer registers slot `slot`'s message uses after self and _cmd (register
/// entries pass on only those to a route's targets; all of them until set).
void dp_callback_set_message_registers(dp_callback *cb, uint32_t slot, uint32_t count);

/// A libffi closure over `callback_cif` (the library's signature) that sends slot
/// `slot`'s message with `message_cif` (self and _cmd first). `context_index` is the
/// callback argument holding the context, or -1 for none; with `pass_context` the slot's
/// context value takes its place. `callback_returns_void` says the library reads no
/// result; `message_result_size` is the bytes the message's result needs. Returns the
/// closure's code and keeps the closure in the slot (never freed: a released slot's
/// closure keeps trapping). NULL on failure.
dp_imp dp_callback_closure_create(dp_callback *cb, uint32_t slot, ffi_cif *callback_cif,
                                  ffi_cif *message_cif, int context_index, bool pass_context,
                                  bool callback_returns_void, uint32_t message_result_size);

/// Releases one slot: from now on a call through it traps (naming its description).
void dp_callback_release_slot(dp_callback *cb, uint32_t slot);

/// Releases the record: every call through it traps from now on. Calls already running
/// may still use the receiver until dp_wait_domain_idle(cb) returns. The record is never freed.
void dp_callback_release(dp_callback *cb);

/// Whether the record was released.
bool dp_callback_is_released(const dp_callback *cb);

/// How many records were released (each kept as a small tombstone so stale calls trap).
uint64_t dp_callback_released_count(void);

#ifdef __cplusplus
}
#endif

#endif  // DP_CALLBACK_H
