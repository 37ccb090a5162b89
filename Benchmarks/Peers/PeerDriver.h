// PeerDriver.h — what the peer drivers share: a library's callback of two shapes (the
// same as the c_callback_* rows, Sources/BenchmarkSupport/include/BenchmarkCallbacks.h),
// the handlers' work, and one driver loop that speaks the GNUstep driver's co-process
// protocol to Compare (Sources/Compare/CoProcessDriver.swift).
//
// A peer is a signal library a C or C++ programmer would put behind one library
// callback to fan it out to N handlers. Each peer file builds, for a shape and a
// fan-out, the callback function and context a library would be handed (a small
// trampoline that emits the peer's signal) with N handlers connected the peer's
// documented way; this file times a C loop calling that callback, exactly as
// `bs_callback_caller_loop` calls a CallbackAdapter's.

#ifndef PEER_DRIVER_H
#define PEER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The two callback shapes (the values of `bs_callback_shape`).
typedef enum peer_shape {
  /// expat's start-element handler, context first: `v^v*^*`.
  PEER_START_ELEMENT = 0,
  /// libcurl's write callback, context last: `Q*QQ^v`.
  PEER_WRITE = 1,
} peer_shape;

typedef void (*peer_start_element_fn)(void *user_data, const char *name, const char **atts);
typedef size_t (*peer_write_fn)(char *ptr, size_t size, size_t nmemb, void *userdata);

/// Where the handlers' work goes (as `bs_sink` for the c_callback_* rows).
extern volatile int64_t peer_sink;
/// Start-element handlers run, so a row's check can count them.
extern volatile int64_t peer_start_calls;

/// The start-element handler's work, the body of BenchmarkSupport's `start_handler`:
/// fold the arguments into the sink behind a compiler barrier. Each peer's handler is a
/// never-inlined function of that peer's handler signature whose body is this.
static inline __attribute__((always_inline)) void peer_start_work(const void *context,
                                                                 const char *name,
                                                                 const char **atts) {
  __asm__ __volatile__("" ::: "memory");
  peer_sink += (int64_t)(intptr_t)context + name[0] + (atts ? 1 : 0);
  peer_start_calls++;
}

/// The write handler's work, the body of BenchmarkSupport's `write_handler`.
static inline __attribute__((always_inline)) size_t peer_write_work(const char *ptr, size_t size,
                                                                   size_t nmemb,
                                                                   const void *context) {
  __asm__ __volatile__("" ::: "memory");
  peer_sink += ptr[0] + (int64_t)(intptr_t)context;
  return size * nmemb;
}

/// One row's callback as a library is handed it: a function of the shape's signature and
/// the context to pass it.
typedef struct peer_callback {
  const void *function;
  void *context;
} peer_callback;

/// A peer: its row name, the `path` its rows report, and how to build a row.
typedef struct peer {
  /// The row name, e.g. "peer_gobject_signal".
  const char *name;
  /// What the rows' `path` says about how the peer is used.
  const char *path;
  /// Builds the callback for `shape` with `fanout` handlers connected; returns 0, or -1
  /// with a reason in `error`.
  int (*make)(peer_shape shape, int fanout, peer_callback *out, char *error, size_t capacity);
} peer;

/// The driver: `--serve` speaks Compare's co-process protocol on stdin/stdout ("ready N";
/// "sweep" → "swept K"; "finish" → one JSON row per line, then "end"); without it, it
/// measures `--repetitions` sweeps and prints the rows. Returns the exit status.
int peer_main(int argc, char **argv, const peer *p);

#ifdef __cplusplus
}
#endif

#endif  // PEER_DRIVER_H
