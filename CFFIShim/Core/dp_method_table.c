// Method tables, class and object records, and dp_msg_lookup.
//
// Readers never lock. A table is published with a release store and only ever grows
// by entries whose selector is stored last (release); a reader that acquires a
// selector therefore sees that entry's IMP and types. Every lookup runs inside a read
// section of the receiver (dp_send_frame, the route and callback entries, DP_MSG_SEND,
// Runtime.deliver), so a replaced table is retired, never freed at once: an object's in
// the object's domain, a class cache (shared by every instance) in every domain.

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dp_layout.h"
#include "dp_quiesce.h"
#include "dp_swift_runtime.h"

#define LOAD_ACQ(p) __atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#define STORE_REL(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)

static dp_resolver_fn resolver;
static uint64_t tables_live;  // atomic: tables made and not yet freed
static uint64_t next_serial;  // atomic

void dp_set_resolver(dp_resolver_fn fn) { STORE_REL(resolver, fn); }

dp_method_table *dp_method_table_create(uint32_t capacity) {
  uint32_t n = 8;
  while (n < capacity + capacity / 3 + 1) n *= 2;
  dp_method_table *t = calloc(1, sizeof *t + (size_t)n * sizeof(dp_method_entry));
  if (!t) dp_fatal("dp_method_table_create: out of memory");
  t->mask = n - 1;
  t->serial = __atomic_add_fetch(&next_serial, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&tables_live, 1, __ATOMIC_RELAXED);
  return t;
}

void dp_method_table_free(void *t) {
  if (!t) return;
  __atomic_sub_fetch(&tables_live, 1, __ATOMIC_RELAXED);
  free(t);
}

uint64_t dp_method_tables_live(void) { return __atomic_load_n(&tables_live, __ATOMIC_RELAXED); }

static inline uint32_t sel_index(dp_sel sel, uint32_t mask) {
  return (uint32_t)(sel->hash) & mask;
}

const dp_method_entry *dp_method_table_find(const dp_method_table *t, dp_sel sel) {
  return dp_method_table_find_inline(t, sel);
}

bool dp_method_table_has_room(const dp_method_table *t) {
  return (t->count + 1) * 4 <= (t->mask + 1) * 3;
}

void dp_method_table_insert(dp_method_table *t, dp_sel sel, dp_imp imp, const char *types) {
  dp_method_table_insert_context(t, sel, imp, types, NULL);
}

void dp_method_table_insert_context(dp_method_table *t, dp_sel sel, dp_imp imp,
                                    const char *types, void *context) {
  uint32_t mask = t->mask;
  for (uint32_t i = sel_index(sel, mask);; i = (i + 1) & mask) {
    dp_method_entry *e = &t->entries[i];
    dp_sel s = e->sel;
    if (s == sel) return;  // already present: tables only grow, never change an entry
    if (!s) {
      e->imp = imp;
      e->types = types;
      e->context = context;
      STORE_REL(e->sel, sel);
      t->count++;
      return;
    }
  }
}

dp_method_table *dp_method_table_grow(const dp_method_table *t) {
  dp_method_table *n = dp_method_table_create((t->mask + 1) * 2);
  for (uint32_t i = 0; i <= t->mask; i++) {
    const dp_method_entry *e = &t->entries[i];
    dp_sel s = LOAD_ACQ(e->sel);
    if (s) dp_method_table_insert_context(n, s, e->imp, e->types, e->context);
  }
  return n;
}

// MARK: classes

dp_class *dp_class_create(const char *name, dp_class *superclass, void *owner) {
  dp_class *c = calloc(1, sizeof *c);
  if (!c) dp_fatal("dp_class_create: out of memory");
  c->name = strdup(name);
  c->superclass = superclass;
  c->owner = owner;
  c->cache = dp_method_table_create(8);
  return c;
}

void dp_class_destroy(dp_class *c) {
  if (!c) return;
  // No instance is left to send to: the cache goes now.
  dp_method_table_free(c->cache);
  free((char *)c->name);
  free(c);
}

dp_method_table *dp_class_cache(const dp_class *c) { return LOAD_ACQ(c->cache); }

// Any instance of the class or of a subclass may be probing the old cache: it is retired
// in every domain (a send's section names its receiver, not the receiver's class).
void dp_class_publish_cache(dp_class *c, dp_method_table *cache) {
  dp_method_table *old = __atomic_exchange_n(&c->cache, cache, __ATOMIC_ACQ_REL);
  if (old && old != cache) dp_retire_in(DP_ANY_DOMAIN, old, dp_method_table_free);
}

void *dp_class_owner(const dp_class *c) { return c ? c->owner : NULL; }
void dp_class_set_owner(dp_class *c, void *owner) { c->owner = owner; }
const char *dp_class_get_name(const dp_class *c) { return c ? c->name : "nil"; }

// MARK: objects

dp_id dp_object_create(dp_class *cls, void *owner) {
  dp_id o = calloc(1, sizeof *o);
  if (!o) dp_fatal("dp_object_create: out of memory");
  o->isa = cls;
  o->owner = owner;
  return o;
}

void dp_object_destroy(dp_id o) {
  if (!o) return;
  // The handle is going: a send through it now is a send to freed memory anyway.
  dp_method_table_free(o->methods);
  free(o);
}

void *dp_object_owner(dp_id o) { return o ? o->owner : NULL; }

// swift_tryRetain: RT1 of dp_swift_runtime.h.
void *dp_owner_try_retain(void *owner) { return swift_tryRetain(owner); }
void dp_object_set_owner(dp_id o, void *owner) { o->owner = owner; }
dp_class *dp_object_get_class(dp_id o) { return o ? o->isa : NULL; }
dp_method_table *dp_object_methods(dp_id o) { return LOAD_ACQ(o->methods); }

// Only sends to `o` probe its table, and each runs in a read section of `o`.
void dp_object_publish_methods(dp_id o, dp_method_table *t) {
  dp_method_table *old = __atomic_exchange_n(&o->methods, t, __ATOMIC_ACQ_REL);
  if (old && old != t) dp_retire_in(o, old, dp_method_table_free);
}

void *dp_object_context(dp_id o) { return LOAD_ACQ(o->context); }

void dp_object_set_context(dp_id o, void *ctx) { STORE_REL(o->context, ctx); }

// MARK: lookup

const dp_method_entry *dp_lookup_entry(dp_id obj, dp_sel sel) {
  if (!obj) return NULL;
  return dp_lookup_entry_inline(obj, sel);
}

bool dp_lookup_method(dp_id obj, dp_sel sel, dp_imp *imp, const char **types) {
  const dp_method_entry *e = dp_lookup_entry(obj, sel);
  if (!e) return false;
  *imp = e->imp;
  *types = e->types;
  return true;
}

dp_imp dp_method_table_find_imp(const dp_method_table *t, dp_sel sel) {
  const dp_method_entry *e = dp_method_table_find(t, sel);
  return e ? e->imp : NULL;
}

int dp_msg_section_begin(dp_id obj) {
  dp_read_enter_inline(obj);  // its frame is not this function's: not known
  return 0;
}

int dp_msg_section_begin_at(dp_id obj, const void *frame) {
  dp_read_enter_at_inline(obj, frame);
  return 0;
}

void dp_msg_section_end(void) { dp_read_exit_inline(); }

dp_imp dp_msg_lookup(dp_id obj, dp_sel sel) {
  if (__builtin_expect(!obj, 0)) return dp_nil_imp();
  const dp_method_entry *e = dp_lookup_entry_inline(obj, sel);
  if (__builtin_expect(e != NULL, 1)) return e->imp;
  dp_resolver_fn r = LOAD_ACQ(resolver);
  if (!r) dp_fatal("dp_msg_lookup: the MessageRuntime resolver is not installed");
  return r(obj, sel);
}
