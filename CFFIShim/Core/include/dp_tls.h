// dp_tls.h — one per-thread pointer slot with a destructor, for per-thread caches
// (Swift has no thread-local storage of its own without Foundation).

#ifndef DP_TLS_H
#define DP_TLS_H

#ifdef __cplusplus
extern "C" {
#endif

/// Slot indices available to the runtime.
enum {
  DP_TLS_INVOCATION_POOL = 0,
  DP_TLS_DISPATCH_DEPTH = 1,
  DP_TLS_AUTORELEASE_POOL = 2,
  DP_TLS_SLOT_COUNT = 4
};

/// Sets the function called with a slot's value when a thread that set it exits.
/// Call once per slot before first use.
void dp_tls_set_destructor(int slot, void (*destructor)(void *));
void *dp_tls_get(int slot);
void dp_tls_set(int slot, void *value);

#ifdef __cplusplus
}
#endif

#endif  // DP_TLS_H
