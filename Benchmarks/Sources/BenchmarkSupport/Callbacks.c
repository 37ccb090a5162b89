// The C-callback rows. See BenchmarkCallbacks.h.

#include "BenchmarkSupport.h"

#include <time.h>

#define BS_BARRIER() __asm__ __volatile__("" ::: "memory")

extern volatile int64_t bs_sink;
static volatile int64_t start_calls;  // handlers run, for the probe

static const char *const attributes[] = {"id", "1", NULL, NULL};
static char chunk[64] = "0123456789ab";

const char *bs_callback_encoding(bs_callback_shape shape) {
  return shape == BS_CALLBACK_START_ELEMENT ? "v^v*^*" : "Q*QQ^v";
}

const char *bs_callback_selector(bs_callback_shape shape) {
  return shape == BS_CALLBACK_START_ELEMENT ? "startElement:attributes:" : "write:size:count:";
}

// Handlers: fold the arguments into the sink behind a barrier, never inlined (as the
// delegate IMPs of the other rows).
__attribute__((noinline)) static void start_handler(void *user_data, const char *name,
                                                    const char **atts) {
  BS_BARRIER();
  bs_sink += (int64_t)(intptr_t)user_data + name[0] + (atts ? 1 : 0);
  start_calls++;
}

__attribute__((noinline)) static size_t write_handler(char *ptr, size_t size, size_t nmemb,
                                                      void *userdata) {
  BS_BARRIER();
  bs_sink += ptr[0] + (int64_t)(intptr_t)userdata;
  return size * nmemb;
}

// The same bodies as messages, for the proxy's delegates.
__attribute__((noinline)) static void start_imp(bs_id self, bs_sel cmd, const char *name,
                                                const char **atts) {
  (void)cmd;
  BS_BARRIER();
  bs_sink += (int64_t)(intptr_t)self + name[0] + (atts ? 1 : 0);
  start_calls++;
}

__attribute__((noinline)) static size_t write_imp(bs_id self, bs_sel cmd, char *ptr, size_t size,
                                                  size_t nmemb) {
  (void)cmd;
  BS_BARRIER();
  bs_sink += ptr[0] + (int64_t)(intptr_t)self;
  return size * nmemb;
}

const void *bs_callback_handler(bs_callback_shape shape) {
  return shape == BS_CALLBACK_START_ELEMENT ? (const void *)start_handler
                                            : (const void *)write_handler;
}

const void *bs_callback_delegate_imp(bs_callback_shape shape) {
  return shape == BS_CALLBACK_START_ELEMENT ? (const void *)start_imp : (const void *)write_imp;
}

uint64_t bs_callback_direct_loop(bs_callback_shape shape, const void *const *handlers,
                                 void *const *contexts, int n, uint64_t iterations) {
  int64_t acc = 0;
  uint64_t start = bs_now_ns();
  if (shape == BS_CALLBACK_START_ELEMENT) {
    for (uint64_t it = 0; it < iterations; it++)
      for (int k = 0; k < n; k++)
        ((bs_start_element_fn)handlers[k])(contexts[k], "entry", (const char **)attributes);
  } else {
    for (uint64_t it = 0; it < iterations; it++) {
      size_t taken = 0;
      for (int k = 0; k < n; k++) taken = ((bs_write_fn)handlers[k])(chunk, 1, 12, contexts[k]);
      acc += (int64_t)taken;
    }
  }
  uint64_t end = bs_now_ns();
  bs_consume(acc);
  return end - start;
}

uint64_t bs_callback_caller_loop(bs_callback_shape shape, const void *function, void *context,
                                 uint64_t iterations) {
  int64_t acc = 0;
  uint64_t start = bs_now_ns();
  if (shape == BS_CALLBACK_START_ELEMENT) {
    bs_start_element_fn f = (bs_start_element_fn)function;
    for (uint64_t it = 0; it < iterations; it++) f(context, "entry", (const char **)attributes);
  } else {
    bs_write_fn f = (bs_write_fn)function;
    for (uint64_t it = 0; it < iterations; it++) acc += (int64_t)f(chunk, 1, 12, context);
  }
  uint64_t end = bs_now_ns();
  bs_consume(acc);
  return end - start;
}

int64_t bs_callback_probe(bs_callback_shape shape, const void *function, void *context) {
  if (shape == BS_CALLBACK_START_ELEMENT) {
    int64_t before = start_calls;
    ((bs_start_element_fn)function)(context, "entry", (const char **)attributes);
    return start_calls - before;
  }
  return (int64_t)((bs_write_fn)function)(chunk, 3, 4, context);
}
