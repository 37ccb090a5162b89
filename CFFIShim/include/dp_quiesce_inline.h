// dp_quiesce_inline.h — the reader side of dp_quiesce, inlined into C hot paths.
// Public so that MessageRuntime can inline read sections into Swift dispatch loops; its
// fields are private to dp_quiesce.c.

#ifndef DP_QUIESCE_INLINE_H
#define DP_QUIESCE_INLINE_H

#include <stdint.h>

/// How many read sections one thread can have open with a slot each; deeper sections
/// (dispatches nested more than this deep) share the last slot, widened to every domain.
#define DP_READ_SLOTS 16

/// The wildcard: a slot of this domain protects everything, an item retired in it is
/// protected by every slot, and a slot calling this member is waited for by every
/// member wait. Never a real address.
#define DP_ANY_DOMAIN ((const void *)(uintptr_t)1)

/// One open read section: what it reads (its domain: a multicast's publication, a C
/// receiver, a callback record), since when (the global epoch at entry) and which member
/// it is calling now (for the one scoped wait, dp_wait_member_idle).
typedef struct dp_read_slot {
  const void *domain;  // atomic (relaxed; published by the release store of epoch)
  const void *member;  // atomic (relaxed): the member being called, or NULL
  uint64_t epoch;      // atomic: 0 when the slot is free, else the global epoch at entry
} dp_read_slot;

typedef struct dp_reader {
  uint32_t depth;          // owner thread only: sections open
  uint32_t in_use;         // atomic: owned by a live thread
  struct dp_reader *next;  // immutable once linked
  // Owner only: slot DP_READ_SLOTS-1 as it was before deeper sections widened it.
  const void *saved_domain;
  const void *saved_member;
  dp_read_slot spare;  // owner only: what sections past the last slot write into (never scanned)
  dp_read_slot slots[DP_READ_SLOTS];
} dp_reader;

// initial-exec: a direct %fs-relative access instead of a __tls_get_addr call.
extern _Thread_local dp_reader *dp_tls_reader __attribute__((tls_model("initial-exec")));
extern uint64_t dp_global_epoch;
extern int dp_membarrier_mode;
dp_reader *dp_reader_register(void);
dp_read_slot *dp_read_enter_deep(dp_reader *r);
void dp_read_exit_deep(dp_reader *r);

// Model (Model/grace_period.pml): Q_ENTER. Returns the section's slot, for
// dp_read_calling.
static inline __attribute__((always_inline)) dp_read_slot *dp_read_enter_inline(
    const void *domain) {
  dp_reader *r = dp_tls_reader;
  if (__builtin_expect(r == 0, 0)) r = dp_reader_register();
  uint32_t d = r->depth++;
  if (__builtin_expect(d >= DP_READ_SLOTS, 0)) return dp_read_enter_deep(r);
  dp_read_slot *s = &r->slots[d];
  __atomic_store_n(&s->domain, domain, __ATOMIC_RELAXED);
  __atomic_store_n(&s->member, (const void *)0, __ATOMIC_RELAXED);
  // Q_ENTER_STATE (a store the model lets wait in a store buffer). Release: a scan that
  // sees the epoch sees the domain. Acquire load: a section that sees a retirement's
  // epoch bump sees what that retirement unpublished.
  __atomic_store_n(&s->epoch, __atomic_load_n(&dp_global_epoch, __ATOMIC_ACQUIRE),
                   __ATOMIC_RELEASE);
  // The slot's stores must precede the section's loads: the reclaimer's membarrier
  // provides that barrier when available, else the reader fences.
  if (__builtin_expect(dp_membarrier_mode == 1, 1))
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
  else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);  // Q_ENTER_FENCE (fence mode)
  return s;
}

// Model: Q_EXIT; the store is Q_EXIT_STATE.
static inline __attribute__((always_inline)) void dp_read_exit_inline(void) {
  dp_reader *r = dp_tls_reader;
  uint32_t d = --r->depth;
  if (__builtin_expect(d < DP_READ_SLOTS, 1))
    __atomic_store_n(&r->slots[d].epoch, 0, __ATOMIC_RELEASE);
  else
    dp_read_exit_deep(r);
}

// dp_read_exit_inline for a caller that kept the slot its enter returned: the slot's
// epoch is cleared through it (a deep section's, the spare, is never scanned), and only a
// deep section's exit does more. Model: Q_EXIT.
static inline __attribute__((always_inline)) void dp_read_exit_slot_inline(dp_read_slot *s) {
  dp_reader *r = dp_tls_reader;
  r->depth--;
  __atomic_store_n(&s->epoch, 0, __ATOMIC_RELEASE);
  // Only a deep section's slot is the spare (dp_read_exit_deep restores the last slot when
  // the depth is back to DP_READ_SLOTS).
  if (__builtin_expect(s == &r->spare, 0)) dp_read_exit_deep(r);
}

// The innermost open section's slot (for code that did not enter it itself).
static inline __attribute__((always_inline)) dp_read_slot *dp_read_current_slot(void) {
  dp_reader *r = dp_tls_reader;
  uint32_t d = r->depth;
  return d <= DP_READ_SLOTS ? &r->slots[d - 1] : &r->spare;
}

// Model: Q_CALLING. Names the member the section calls next; call before that member's
// removed check, which must not move above this store (the member wait's barrier, or in
// fence mode the reader's own fence, provides that).
static inline __attribute__((always_inline)) void dp_read_calling(dp_read_slot *s,
                                                                  const void *member) {
  __atomic_store_n(&s->member, member, __ATOMIC_RELAXED);
  if (__builtin_expect(dp_membarrier_mode == 1, 1))
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
  else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

#endif  // DP_QUIESCE_INLINE_H
