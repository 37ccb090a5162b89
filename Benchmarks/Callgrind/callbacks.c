// callbacks.c — instruction counts of the C-callback rows, for callgrind (no Swift).
//
// The same two shapes as the Compare rows c_callback_direct / c_callback_proxy (expat's
// start-element handler, context first; libcurl's write callback, context last), built
// from CFFIShim's C API alone: a proxy object whose own method is a LAST register route
// over N targets, and a callback record whose register entry dispatches that route.
// Each measured function runs ITER calls; Scripts/callgrind-callbacks.sh runs this under
// callgrind and divides each function's inclusive count by ITER.
//
//   callbacks <fanout> <iterations> [time]
//
// With `time`, also prints nanoseconds per call of each loop (the best of 7 runs): a
// quick ratio check outside callgrind, as noisy as any wall-clock timing on a shared
// machine.
//
// floor_write is a reference, not a product path: the curl-shaped callback written by
// hand as the least any fan-out forwarder does — a loop over (target, IMP, removed flag)
// with _cmd and the arguments passed on — with no read section, release check or method
// lookup. Against it the proxy's figures show what the safety costs, and against the
// direct loop what the second call level and the per-target check cost.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dp_callback.h"
#include "dp_route.h"
#include "dp_route_layout.h"  // the node's removed flag, read as the entries read it
#include "dp_runtime.h"

// The Swift runtime normally provides these; never called here.
void *swift_tryRetain(void *object) { return object; }
void swift_unownedRetain(void *object) { (void)object; }
void swift_unownedRelease(void *object) { (void)object; }
void swift_release(void *object) { (void)object; }

#define BARRIER() __asm__ __volatile__("" ::: "memory")
volatile int64_t sink;
static const char *const attributes[] = {"id", "1", NULL, NULL};
static char chunk[64] = "0123456789ab";

typedef void (*start_fn)(void *, const char *, const char **);
typedef size_t (*write_fn)(char *, size_t, size_t, void *);

// Handlers and delegate IMPs as in Benchmarks/Sources/BenchmarkSupport/Callbacks.c.
__attribute__((noinline)) static void start_handler(void *user_data, const char *name,
                                                    const char **atts) {
  BARRIER();
  sink += (int64_t)(intptr_t)user_data + name[0] + (atts ? 1 : 0);
}
__attribute__((noinline)) static size_t write_handler(char *ptr, size_t size, size_t nmemb,
                                                      void *userdata) {
  BARRIER();
  sink += ptr[0] + (int64_t)(intptr_t)userdata;
  return size * nmemb;
}
__attribute__((noinline)) static void start_imp(dp_id self, dp_sel cmd, const char *name,
                                                const char **atts) {
  (void)cmd;
  BARRIER();
  sink += (int64_t)(intptr_t)self + name[0] + (atts ? 1 : 0);
}
__attribute__((noinline)) static size_t write_imp(dp_id self, dp_sel cmd, char *ptr, size_t size,
                                                  size_t nmemb) {
  (void)cmd;
  BARRIER();
  sink += ptr[0] + (int64_t)(intptr_t)self;
  return size * nmemb;
}

// The reference fan-out (see the top of the file): a list of this shape, filled in main.
typedef struct {
  dp_id target;
  dp_imp imp;
  const dp_route_node *node;
} floor_target;
typedef struct {
  dp_sel sel;
  int count;
  floor_target targets[64];
} floor_list;
__attribute__((noinline)) static size_t floor_entry(char *ptr, size_t size, size_t nmemb,
                                                    void *context) {
  const floor_list *l = context;
  size_t result = 0;
  for (const floor_target *t = l->targets, *end = t + l->count; t != end; t++) {
    if (__builtin_expect(__atomic_load_n(&t->node->removed, __ATOMIC_RELAXED), 0)) continue;
    result = ((size_t (*)(dp_id, dp_sel, char *, size_t, size_t))t->imp)(t->target, l->sel, ptr,
                                                                          size, nmemb);
  }
  return result;
}
static floor_list floor_routes;

// The measured loops (callgrind's --toggle-collect names them).
__attribute__((noinline)) void direct_start(start_fn *h, void **ctx, int n, long iterations) {
  for (long it = 0; it < iterations; it++)
    for (int k = 0; k < n; k++) h[k](ctx[k], "entry", (const char **)attributes);
}
__attribute__((noinline)) void direct_write(write_fn *h, void **ctx, int n, long iterations) {
  int64_t acc = 0;
  for (long it = 0; it < iterations; it++) {
    size_t taken = 0;
    for (int k = 0; k < n; k++) taken = h[k](chunk, 1, 12, ctx[k]);
    acc += (int64_t)taken;
  }
  sink += acc;
}
__attribute__((noinline)) void proxy_start(start_fn f, void *context, long iterations) {
  for (long it = 0; it < iterations; it++) f(context, "entry", (const char **)attributes);
}
__attribute__((noinline)) void proxy_write(write_fn f, void *context, long iterations) {
  int64_t acc = 0;
  for (long it = 0; it < iterations; it++) acc += (int64_t)f(chunk, 1, 12, context);
  sink += acc;
}

// proxy_write's loop over floor_entry (its own copy: callgrind counts by function name).
__attribute__((noinline)) void floor_write(long iterations) {
  int64_t acc = 0;
  for (long it = 0; it < iterations; it++) acc += (int64_t)floor_entry(chunk, 1, 12, &floor_routes);
  sink += acc;
}

// The route's own entry, called as a message (what imp(for:) hands C callers): the route
// loop without the callback's renumbering, for comparison.
typedef void (*start_msg_fn)(dp_id, dp_sel, const char *, const char **);
__attribute__((noinline)) void route_start(start_msg_fn f, dp_id proxy, dp_sel sel,
                                           long iterations) {
  for (long it = 0; it < iterations; it++) f(proxy, sel, "entry", (const char **)attributes);
}

// A proxy over `n` targets of `cls` whose own method for `sel` is a LAST register route.
static dp_id make_proxy(dp_class *proxy_class, dp_id *targets, dp_route_node **nodes, int n,
                        dp_sel sel, const char *types) {
  // The route is read in sections of its receiver's domain (the proxy), as Route.swift's.
  dp_id proxy = dp_object_create(proxy_class, NULL);
  dp_route *route =
      dp_route_create(DP_REDUCER_LAST, DP_RET_GP, 8, 0, 0, false, NULL, NULL, NULL, proxy);
  dp_imp imps[64];
  for (int i = 0; i < n; i++) imps[i] = dp_msg_lookup(targets[i], sel);
  dp_route_set_targets(route, (uint32_t)n, targets, imps, nodes);
  dp_method_table *t = dp_method_table_create(4);
  dp_method_table_insert_context(t, sel, dp_route_entry(route), types, route);
  dp_object_publish_methods(proxy, t);
  return proxy;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 8;
  long iterations = argc > 2 ? atol(argv[2]) : 100000;
  if (n < 1 || n > 64) return 2;
  dp_class *target_class = dp_class_create("Target", NULL, NULL);
  dp_class *proxy_class = dp_class_create("Proxy", NULL, NULL);
  dp_sel start = dp_sel_register_name("startElement:attributes:");
  dp_sel write = dp_sel_register_name("write:size:count:");
  dp_method_table *cache = dp_method_table_create(4);
  dp_method_table_insert(cache, start, (dp_imp)start_imp, "v@:*^*");
  dp_method_table_insert(cache, write, (dp_imp)write_imp, "Q@:*QQ");
  dp_class_publish_cache(target_class, cache);

  dp_id targets[64];
  dp_route_node *nodes[64];
  start_fn start_handlers[64];
  write_fn write_handlers[64];
  void *contexts[64];
  for (int i = 0; i < n; i++) {
    targets[i] = dp_object_create(target_class, NULL);
    nodes[i] = dp_route_node_create();
    start_handlers[i] = start_handler;
    write_handlers[i] = write_handler;
    contexts[i] = targets[i];
  }
  dp_id start_proxy = make_proxy(proxy_class, targets, nodes, n, start, "v@:*^*");
  dp_id write_proxy = make_proxy(proxy_class, targets, nodes, n, write, "Q@:*QQ");

  // expat: context in register 0, message registers name, atts; curl: context in
  // register 3, message registers ptr, size, nmemb.
  dp_callback *start_cb = dp_callback_create(start_proxy);
  dp_callback_set_slot(start_cb, 0, start, "start");
  dp_callback_set_message_registers(start_cb, 0, 2);
  start_fn start_entry = (start_fn)dp_callback_register_entry(0, DP_RET_GP, 0, false, 0);
  dp_callback *write_cb = dp_callback_create(write_proxy);
  dp_callback_set_slot(write_cb, 0, write, "write");
  dp_callback_set_message_registers(write_cb, 0, 3);
  write_fn write_entry = (write_fn)dp_callback_register_entry(0, DP_RET_GP, 3, false, 0);
  if (!start_entry || !write_entry) return 3;
  floor_routes.sel = write;
  floor_routes.count = n;
  for (int i = 0; i < n; i++)
    floor_routes.targets[i] = (floor_target){targets[i], dp_msg_lookup(targets[i], write), nodes[i]};

  // Warm up (the route cache), check one call each, then measure.
  proxy_start(start_entry, start_cb, 1);
  if (write_entry(chunk, 3, 4, write_cb) != 12 || floor_entry(chunk, 3, 4, &floor_routes) != 12)
    return 4;
  direct_start(start_handlers, contexts, n, iterations);
  direct_write(write_handlers, contexts, n, iterations);
  proxy_start(start_entry, start_cb, iterations);
  proxy_write(write_entry, write_cb, iterations);
  route_start((start_msg_fn)dp_msg_lookup(start_proxy, start), start_proxy, start, iterations);
  floor_write(iterations);
  printf("fanout %d, %ld iterations\n", n, iterations);
  if (argc > 3 && strcmp(argv[3], "time") == 0) {
    double best[5] = {1e30, 1e30, 1e30, 1e30, 1e30};
    for (int rep = 0; rep < 7; rep++) {
      for (int k = 0; k < 5; k++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        switch (k) {
          case 0: direct_start(start_handlers, contexts, n, iterations); break;
          case 1: proxy_start(start_entry, start_cb, iterations); break;
          case 2: direct_write(write_handlers, contexts, n, iterations); break;
          case 3: proxy_write(write_entry, write_cb, iterations); break;
          case 4: floor_write(iterations); break;
        }
        clock_gettime(CLOCK_MONOTONIC, &b);
        double ns = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / iterations;
        if (ns < best[k]) best[k] = ns;
      }
    }
    printf("ns/call  start: direct %.2f proxy %.2f (%.2fx)  write: direct %.2f proxy %.2f (%.2fx)"
           "  floor %.2f (%.2fx)\n",
           best[0], best[1], best[1] / best[0], best[2], best[3], best[3] / best[2], best[4],
           best[4] / best[2]);
  }
  return 0;
}
