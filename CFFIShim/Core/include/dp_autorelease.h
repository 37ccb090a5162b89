// dp_autorelease.h — the per-thread autorelease pool that keeps a method's object result
// alive for its caller.
//
// The rule (documented for users in MessageRuntime's DocC, "Object results"): a method
// returns an object at +0 and the runtime autoreleases it — one strong reference goes
// into the calling thread's pool — so whoever called the IMP, C included, receives a live
// object. The pool lets go of it when it is popped past it, or when the thread exits. A
// Swift typed send and `Invocation.invoke` take their own strong reference to the result
// and pop what the call added before they return; a C caller that sends in a loop wraps
// the loop's body in dp_autoreleasepool_push / dp_autoreleasepool_pop
// (Objective-C's @autoreleasepool).

#ifndef DP_AUTORELEASE_H
#define DP_AUTORELEASE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dp_object;

/// Marks the calling thread's pool (`objc_autoreleasePoolPush`): returns the token to
/// pass to dp_autoreleasepool_pop.
size_t dp_autoreleasepool_push(void);
/// Releases, newest first, every object the calling thread autoreleased since `token`
/// was returned (`objc_autoreleasePoolPop`), including those autoreleased while doing so.
void dp_autoreleasepool_pop(size_t token);
/// How many objects the calling thread's pool holds.
size_t dp_autoreleasepool_count(void);
/// The object at `index` (below dp_autoreleasepool_count, 0 oldest) in the calling
/// thread's pool: the Swift object (a RuntimeObject) the pool holds, not its handle.
void *dp_autoreleasepool_item(size_t index);

/// Keeps `obj` alive in the calling thread's pool and returns it; returns NULL, keeping
/// nothing, for NULL or an object whose deinit has begun (a dying object is answered as
/// nil, never handed out). `obj` must be the handle of an object not yet freed.
struct dp_object *dp_autorelease(struct dp_object *obj);
/// Puts one strong reference to the RuntimeObject `retained` (already taken by the caller,
/// and given up to the pool) in the calling thread's pool.
void dp_autorelease_retained(void *retained);

#ifdef __cplusplus
}
#endif

#endif  // DP_AUTORELEASE_H
