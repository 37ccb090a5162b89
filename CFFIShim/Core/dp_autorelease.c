// The per-thread autorelease pool (see dp_autorelease.h): a growable stack of strong
// references, one per thread, drained to a token by pop and entirely at thread exit.

#include "dp_autorelease.h"

#include <pthread.h>
#include <stdlib.h>

#include "dp_runtime.h"
#include "dp_swift_object.h"
#include "dp_tls.h"

typedef struct {
  void **items;
  size_t count;
  size_t capacity;
} dp_pool;

// Thread exit: release what the thread left (newest first; a deinit that autoreleases
// more adds to this same pool and is drained by the same loop), then free the pool.
static void drain_at_exit(void *value) {
  dp_pool *pool = value;
  if (!pool) return;
  while (pool->count > 0) dp_swift_release(pool->items[--pool->count]);
  dp_tls_set(DP_TLS_AUTORELEASE_POOL, NULL);
  free(pool->items);
  free(pool);
}

static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static void setup(void) { dp_tls_set_destructor(DP_TLS_AUTORELEASE_POOL, drain_at_exit); }

static dp_pool *current_pool(void) { return dp_tls_get(DP_TLS_AUTORELEASE_POOL); }

static dp_pool *current_pool_made(void) {
  dp_pool *pool = current_pool();
  if (pool) return pool;
  pthread_once(&setup_once, setup);
  pool = calloc(1, sizeof *pool);
  if (!pool) dp_fatal("autorelease pool: out of memory");
  dp_tls_set(DP_TLS_AUTORELEASE_POOL, pool);
  return pool;
}

size_t dp_autoreleasepool_push(void) {
  dp_pool *pool = current_pool();
  return pool ? pool->count : 0;
}

void dp_autoreleasepool_pop(size_t token) {
  dp_pool *pool = current_pool();
  if (!pool) return;
  // Re-read the count each turn: a release can run a deinit that autoreleases (pushing
  // above the token, drained here too) or pops a nested pool of its own.
  while (pool->count > token) dp_swift_release(pool->items[--pool->count]);
}

size_t dp_autoreleasepool_count(void) {
  dp_pool *pool = current_pool();
  return pool ? pool->count : 0;
}

void *dp_autoreleasepool_item(size_t index) {
  dp_pool *pool = current_pool();
  return pool && index < pool->count ? pool->items[index] : NULL;
}

void dp_autorelease_retained(void *retained) {
  dp_pool *pool = current_pool_made();
  if (pool->count == pool->capacity) {
    size_t capacity = pool->capacity ? pool->capacity * 2 : 16;
    void **items = realloc(pool->items, capacity * sizeof *items);
    if (!items) dp_fatal("autorelease pool: out of memory");
    pool->items = items;
    pool->capacity = capacity;
  }
  pool->items[pool->count++] = retained;
}

struct dp_object *dp_autorelease(struct dp_object *obj) {
  if (!obj) return NULL;
  void *owner = dp_object_owner(obj);
  if (!owner || !dp_owner_try_retain(owner)) return NULL;
  dp_autorelease_retained(owner);
  return obj;
}
