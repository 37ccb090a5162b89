// BenchmarkCallbacks.h — the C-callback rows: library-shaped callbacks (a context pointer
// first or last, no self/_cmd), their handlers, the direct loop a C library would run
// over N handlers, and the loop calling one adapter's function pointer.
//
// Two shapes:
// - expat's start-element handler, context first:
//   `void (*)(void *userData, const char *name, const char **atts)`;
// - libcurl's write callback, context last:
//   `size_t (*)(char *ptr, size_t size, size_t nmemb, void *userdata)`.
// One iteration is ONE callback call by the library, whatever the fan-out.

#ifndef BENCHMARK_CALLBACKS_H
#define BENCHMARK_CALLBACKS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The two callback shapes.
typedef enum bs_callback_shape {
  /// expat start element, context first: `v^v*^*`.
  BS_CALLBACK_START_ELEMENT = 0,
  /// libcurl write, context last: `Q*QQ^v`.
  BS_CALLBACK_WRITE = 1,
} bs_callback_shape;

typedef void (*bs_start_element_fn)(void *user_data, const char *name, const char **atts);
typedef size_t (*bs_write_fn)(char *ptr, size_t size, size_t nmemb, void *userdata);

/// The callback's encoding, return type first ("v^v*^*", "Q*QQ^v").
const char *bs_callback_encoding(bs_callback_shape shape);
/// The selector the proxy rows send ("startElement:attributes:", "write:size:count:").
const char *bs_callback_selector(bs_callback_shape shape);

/// A handler of the library's own signature (what `c_callback_direct` calls).
const void *bs_callback_handler(bs_callback_shape shape);
/// The same work as a message-shaped IMP `(self, _cmd, args…)` (the proxy's delegates).
const void *bs_callback_delegate_imp(bs_callback_shape shape);

/// `c_callback_direct`: for each of `iterations` calls, calls `handlers[k]` with
/// `contexts[k]` for k in 0..<n, as a library with N callback slots would. Returns
/// elapsed nanoseconds.
uint64_t bs_callback_direct_loop(bs_callback_shape shape, const void *const *handlers,
                                 void *const *contexts, int n, uint64_t iterations);

/// `c_callback_proxy`: `iterations` calls of one callback `function` with `context` (an
/// adapter's). Returns elapsed nanoseconds.
uint64_t bs_callback_caller_loop(bs_callback_shape shape, const void *function, void *context,
                                 uint64_t iterations);

/// One call through `function`/`context`; returns what a correct adapter gives back:
/// start element → the number of handlers that ran (counted by the handlers); write →
/// the callback's result for a 3 × 4 byte chunk (12).
int64_t bs_callback_probe(bs_callback_shape shape, const void *function, void *context);

#ifdef __cplusplus
}
#endif

#endif  // BENCHMARK_CALLBACKS_H
