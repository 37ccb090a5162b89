// dp_layout.h — the private layout of the runtime's C records. Only the C files of
// CFFIShim and CFFIShim/Core include it (the libffi target finds it by a header search
// path); Swift and C users see the types as opaque (dp_runtime.h).

#ifndef DP_LAYOUT_H
#define DP_LAYOUT_H

#include "dp_runtime.h"

struct dp_selector {
  const char *name;
  uint64_t hash;
};

/// One entry of a method table: selector, implementation and canonical type encoding.
typedef struct dp_method_entry {
  dp_sel sel;         // published last (release), so a reader that sees it sees the rest
  dp_imp imp;
  const char *types;  // canonical encoding; owned by an interned, immortal signature
  void *context;      // what the IMP needs beyond self/_cmd (a route), or NULL
} dp_method_entry;

/// An open-addressed table selector → method, for class caches and per-object method
/// tables. Entries are only ever added; a table that must lose entries is replaced by
/// a new one and the old one retired (dp_retire_in): freed once no read section that
/// may still probe it is open — an object's table in the object's domain, a class cache
/// in every domain.
struct dp_method_table {
  uint32_t mask;    // capacity - 1; capacity is a power of two
  uint32_t count;   // written under the owner's lock
  uint64_t serial;  // unique per table ever made: a cache keyed on a table's address
                    // checks it (a freed table's address can come back)
  dp_method_entry entries[];
};

struct dp_class {
  dp_method_table *cache;      // atomic; selector → IMP, inherited methods included
  const char *name;            // owned by the class
  struct dp_class *superclass; // NULL for a root class
  void *owner;                 // the Swift RuntimeClass (unretained)
};

struct dp_object {
  dp_class *isa;               // first word: the class
  void *owner;                 // the Swift RuntimeObject (unretained)
  dp_method_table *methods;    // atomic; per-object methods, consulted before the class
  void *context;               // atomic; reserved for forwarding layers built on top
};

const dp_method_entry *dp_method_table_find(const dp_method_table *table, dp_sel sel);
const dp_method_entry *dp_lookup_entry(dp_id obj, dp_sel sel);
/// Whether `p` is a registered selector. Compares pointers only (never reads `p`), by a
/// scan of the whole table: for the unrecognized-selector trap, which is about to stop.
bool dp_sel_is_registered(const void *p);

// The lookups inlined into the message paths (routes, typed sends, dp_msg_lookup).
static inline __attribute__((always_inline)) const dp_method_entry *dp_method_table_find_inline(
    const dp_method_table *t, dp_sel sel) {
  if (!t) return NULL;
  uint32_t mask = t->mask;
  for (uint32_t i = (uint32_t)sel->hash & mask;; i = (i + 1) & mask) {
    dp_sel s = __atomic_load_n(&t->entries[i].sel, __ATOMIC_ACQUIRE);
    if (s == sel) return &t->entries[i];
    if (!s) return NULL;
  }
}

// The object's own method, else its class's (cached) one; NULL for neither.
static inline __attribute__((always_inline)) const dp_method_entry *dp_lookup_entry_inline(
    dp_id obj, dp_sel sel) {
  const dp_method_table *own = __atomic_load_n(&obj->methods, __ATOMIC_ACQUIRE);
  if (own) {
    const dp_method_entry *e = dp_method_table_find_inline(own, sel);
    if (e) return e;
  }
  return dp_method_table_find_inline(__atomic_load_n(&obj->isa->cache, __ATOMIC_ACQUIRE), sel);
}

/// A route target's membership flag (dp_route_node.h).
struct dp_route_node {
  uint8_t removed;  // atomic; the first field: dp_route_node_is_removed_inline reads it
};

#endif  // DP_LAYOUT_H
