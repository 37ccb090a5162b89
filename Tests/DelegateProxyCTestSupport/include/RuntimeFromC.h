// C code that uses the runtime the way a C library would: looks up classes, adds C
// methods, sends messages with DP_MSG_SEND.
#ifndef RUNTIME_FROM_C_H
#define RUNTIME_FROM_C_H

#include "dp_message_runtime.h"

/// Sends `add:to:` (q@:qd) to `obj` from C.
int64_t dp_test_c_send_add(dp_id obj, dp_sel sel, int64_t a, double b);
/// An IMP of shape `q@:q` answering 7 (for tests that only need some C method).
int64_t dp_test_constant_tick(dp_id self, dp_sel cmd, int64_t x);
/// Sends a `v@:` message from C (may trap if `obj` does not recognize `sel`).
void dp_test_c_send_void(dp_id obj, dp_sel sel);
/// Sends a message returning a 40-byte struct from C (the trap must still name the
/// receiver when the result pointer shifts the arguments).
typedef struct dp_test_big { int64_t a, b, c, d, e; } dp_test_big;
dp_test_big dp_test_c_send_big(dp_id obj, dp_sel sel);
/// Sends a message answering `long double` 20 times from C (more than the x87 stack holds)
/// and returns the sum.
double dp_test_c_send_long_double_20(dp_id obj, dp_sel sel);
/// Sends `a:b:c:d:e:f:g:h:i:j:` (d@:dddddddddd: two doubles on the stack) with 1…10.
double dp_test_c_send_many(dp_id obj, dp_sel sel);
/// Sends a message whose last arguments and result are in memory from C:
/// `{dp_test_big}@:qqqqq{dp_test_big}D` with (1…5, {10,20,30,40,50}, 0.5).
dp_test_big dp_test_c_send_spilled(dp_id obj, dp_sel sel);
/// Adds `multiply:by:` (q@:qq), implemented in C, to the class registered as `class_name`.
bool dp_test_c_add_multiply(const char *class_name);
/// Whether obj responds to `name`, asked from C.
bool dp_test_c_responds(dp_id obj, const char *name);
/// Sends the message `respondsToSelector:` (B@::) with the selector named `name` to `obj`
/// from C, as a delegator asks its delegate.
bool dp_test_c_send_responds_to_selector(dp_id obj, const char *name);
/// Sends the message `conformsToProtocol:` (B@:*) with a protocol name to `obj` from C.
bool dp_test_c_send_conforms_to_protocol(dp_id obj, const char *protocol_name);
/// Looks up `first` on `obj` and keeps the IMP, looks up `second`, then calls the kept IMP
/// as `first` (v@:): a C caller that caches what dp_msg_lookup returned.
void dp_test_c_call_cached_imp(dp_id obj, dp_sel first, dp_sel second);
/// Sends an `@@:` message (a factory) from C and returns its result, which stays in the
/// calling thread's autorelease pool.
dp_id dp_test_c_send_object(dp_id obj, dp_sel sel);
/// Sends an `@@:@@` message (`tableView:cellForRowAtIndexPath:`) from C.
dp_id dp_test_c_send_object2(dp_id obj, dp_sel sel, dp_id a, dp_id b);
/// In a pool of its own: sends the `@@:` message `make` to `obj`, then `tag` (q@:) to what
/// it returned — the result used from C, as a C caller would — and pops the pool. Returns
/// the tag, or -1 for a nil result.
int64_t dp_test_c_make_then_tag(dp_id obj, dp_sel make, dp_sel tag);

#endif
