// Selector interning: one process-wide open-addressed table of unique names.
// Selectors are never freed, so a dp_sel stays valid (and comparable by identity)
// for the life of the process, as in Objective-C.

#include "dp_layout.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t sel_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dp_selector **sel_slots;  // capacity sel_capacity, a power of two
static size_t sel_capacity;
static size_t sel_count;

// Names and selector records come from large chunks: a million selectors must not
// be a million mallocs, and nothing here is ever freed.
static char *arena_cursor;
static size_t arena_left;

static void *arena_alloc(size_t size) {
  size = (size + 15) & ~(size_t)15;
  if (size > arena_left) {
    size_t chunk = size > (1u << 20) ? size : (1u << 20);
    arena_cursor = malloc(chunk);
    if (!arena_cursor) dp_fatal("dp_sel_register_name: out of memory");
    arena_left = chunk;
  }
  void *result = arena_cursor;
  arena_cursor += size;
  arena_left -= size;
  return result;
}

// FNV-1a, then a final mix so that table indices use well-spread low bits.
static uint64_t hash_name(const char *name, size_t length) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < length; i++) {
    h ^= (unsigned char)name[i];
    h *= 1099511628211ull;
  }
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 32;
  return h;
}

static struct dp_selector **find_slot(const char *name, size_t length, uint64_t hash) {
  size_t mask = sel_capacity - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    struct dp_selector *s = sel_slots[i];
    if (!s) return &sel_slots[i];
    if (s->hash == hash && strncmp(s->name, name, length) == 0 && s->name[length] == 0)
      return &sel_slots[i];
  }
}

static void grow(void) {
  size_t old_capacity = sel_capacity;
  struct dp_selector **old = sel_slots;
  sel_capacity = old_capacity ? old_capacity * 2 : 1024;
  sel_slots = calloc(sel_capacity, sizeof *sel_slots);
  if (!sel_slots) dp_fatal("dp_sel_register_name: out of memory");
  for (size_t i = 0; i < old_capacity; i++) {
    struct dp_selector *s = old[i];
    if (s) *find_slot(s->name, strlen(s->name), s->hash) = s;
  }
  free(old);
}

dp_sel dp_sel_register_name_n(const char *name, size_t length) {
  uint64_t hash = hash_name(name, length);
  pthread_mutex_lock(&sel_lock);
  if ((sel_count + 1) * 4 > sel_capacity * 3) grow();
  struct dp_selector **slot = find_slot(name, length, hash);
  if (!*slot) {
    struct dp_selector *s = arena_alloc(sizeof *s);
    char *copy = arena_alloc(length + 1);
    memcpy(copy, name, length);
    copy[length] = 0;
    s->name = copy;
    s->hash = hash;
    *slot = s;
    sel_count++;
  }
  dp_sel result = *slot;
  pthread_mutex_unlock(&sel_lock);
  return result;
}

dp_sel dp_sel_register_name(const char *name) {
  return dp_sel_register_name_n(name, strlen(name));
}

dp_sel dp_sel_lookup_name(const char *name) {
  size_t length = strlen(name);
  uint64_t hash = hash_name(name, length);
  pthread_mutex_lock(&sel_lock);
  dp_sel result = sel_capacity ? *find_slot(name, length, hash) : NULL;
  pthread_mutex_unlock(&sel_lock);
  return result;
}

const char *dp_sel_get_name(dp_sel sel) { return sel ? sel->name : "<null selector>"; }

size_t dp_sel_count(void) {
  pthread_mutex_lock(&sel_lock);
  size_t n = sel_count;
  pthread_mutex_unlock(&sel_lock);
  return n;
}

bool dp_sel_is_registered(const void *p) {
  if (!p) return false;
  bool found = false;
  pthread_mutex_lock(&sel_lock);
  for (size_t i = 0; i < sel_capacity && !found; i++) found = sel_slots[i] == p;
  pthread_mutex_unlock(&sel_lock);
  return found;
}
