// dp_swift_object.h — the Swift runtime's reference counts, for references that keep an
// object's memory but not its life (Swift's `unowned`) and may try to take a strong
// reference. No policy: MessageRuntime's UnownedObject decides when each is called.

#ifndef DP_SWIFT_OBJECT_H
#define DP_SWIFT_OBJECT_H

#include <stdbool.h>
#include <stddef.h>

#include "dp_swift_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Adds an unowned reference to the Swift object `object`: its memory stays allocated
/// (its deinit may still run) until the matching dp_swift_unowned_release.
void dp_swift_unowned_retain(void *object);
/// Drops an unowned reference taken with dp_swift_unowned_retain.
void dp_swift_unowned_release(void *object);
/// Takes a strong reference unless the object's deinit has begun (swift_tryRetain, RT1 of
/// dp_swift_runtime.h). `object` must be kept allocated by an unowned or strong reference. Inline: dispatch
/// loops make this call once per weakly held delegate.
static inline __attribute__((always_inline)) bool dp_swift_try_retain(void *object) {
  return swift_tryRetain(object) != NULL;
}
/// Drops a strong reference (swift_release).
void dp_swift_release(void *object);

#ifdef __cplusplus
}
#endif

#endif  // DP_SWIFT_OBJECT_H
