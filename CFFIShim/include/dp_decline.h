// dp_decline.h — a target that turns out unable to answer tells the loop that called it.
//
// A target reached through a route may find, once called, that it has no answer to give:
// a Swift delegate found gone (its deinit began before the route's removed check could
// know), or a class found lacking an optional method (its default ran). It returns what
// its type needs but declines the call first; the route and callback loops then do not
// count it — no answer under any rule, not the first responder, not a responder at all.
// Inlined into C hot paths and Swift; the flag is per thread.

#ifndef DP_DECLINE_H
#define DP_DECLINE_H

#include <stdbool.h>
#include <stdint.h>

// initial-exec: a direct %fs-relative access, as dp_tls_reader.
extern _Thread_local uint8_t dp_tls_declined __attribute__((tls_model("initial-exec")));

/// Called by a target, right before it returns: the call gave no answer.
static inline __attribute__((always_inline)) void dp_decline_call(void) { dp_tls_declined = 1; }

/// Called by a loop before its first call (a stale flag from elsewhere is dropped).
static inline __attribute__((always_inline)) void dp_declined_clear(void) { dp_tls_declined = 0; }

/// dp_declined_clear for a C loop, returning the flag's address so that the check after
/// each call is one load (the thread-local address is computed once per dispatch).
static inline __attribute__((always_inline)) uint8_t *dp_declined_begin(void) {
  uint8_t *flag = &dp_tls_declined;
  *flag = 0;
  return flag;
}

/// dp_declined_take through the address dp_declined_begin gave.
static inline __attribute__((always_inline)) bool dp_declined_take_at(uint8_t *flag) {
  if (__builtin_expect(*flag != 0, 0)) {
    *flag = 0;
    return true;
  }
  return false;
}

/// Called by a loop after each call: whether that call declined (and clears the flag).
static inline __attribute__((always_inline)) bool dp_declined_take(void) {
  if (__builtin_expect(dp_tls_declined != 0, 0)) {
    dp_tls_declined = 0;
    return true;
  }
  return false;
}

#endif  // DP_DECLINE_H
