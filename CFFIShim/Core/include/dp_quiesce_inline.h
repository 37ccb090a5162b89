// dp_quiesce_inline.h — the reader side of dp_quiesce, inlined into C hot paths.
// Public so that MessageRuntime can inline read sections into Swift dispatch loops; its
// fields are private to dp_quiesce.c.

#ifndef DP_QUIESCE_INLINE_H
#define DP_QUIESCE_INLINE_H

#include <stdint.h>

#ifdef __cplusplus
#define DP_THREAD_LOCAL_ thread_local
extern "C" {
#else
#define DP_THREAD_LOCAL_ _Thread_local
#endif

/// How many read sections one thread can have open with a slot each; deeper sections
/// (dispatches nested more than this deep) share the last slot, widened to every domain.
#define DP_READ_SLOTS 16

/// The wildcard: a slot of this domain protects everything, an item retired in it is
/// protected by every slot, and a slot calling this member is waited for by every
/// member wait. Never a real address.
#define DP_ANY_DOMAIN ((const void *)(uintptr_t)1)

/// One open read section: what it reads (its domain: a multicast's publication, a C
/// receiver, a callback record; and a second one a callback entry adds, its receiver),
/// since when (the global epoch at entry) and which member it is calling now (for the one
/// scoped wait, dp_wait_member_idle).
typedef struct dp_read_slot {
  const void *domain;  // atomic (relaxed; published by the release store of epoch)
  const void *member;  // atomic (relaxed): the member being called, or NULL
  uint64_t epoch;      // atomic: 0 when the slot is free, else the global epoch at entry
  const void *frame;   // owner only: the frame that opened it (stale-section detection)
  // atomic (relaxed): a second domain (dp_read_also), or NULL. NULL whenever no section
  // that set it is open in the slot: only those sections write it, and they clear it.
  const void *also;
  // Owner only, set once: the reader the slot belongs to (an exit reaches it with one
  // load instead of a thread-local access).
  struct dp_reader *reader;
  const void *reserved_[2];  // a power-of-two size: a slot's address is one shift
} dp_read_slot;

typedef struct dp_reader {
  // Owner thread only: (sections open - DP_READ_SLOTS) * sizeof(dp_read_slot) — negative
  // while each has a slot of its own, and then the next slot's offset from the end of
  // `slots` (one address computation); an exit's decrement to 0 is the last deep section's.
  int32_t level;
  uint32_t in_use;         // atomic: owned by a live thread
  struct dp_reader *next;  // immutable once linked
  // Owner only: slot DP_READ_SLOTS-1 as it was before deeper sections widened it.
  const void *saved_domain;
  const void *saved_member;
  dp_read_slot spare;  // owner only: what sections past the last slot write into (never scanned)
  // Owner only: the thread's stack, [stack_low, stack_high); frames outside it (another
  // stack: a coroutine's, a signal stack) are never judged stale.
  uintptr_t stack_low, stack_high;
  dp_read_slot slots[DP_READ_SLOTS];
} dp_reader;

#define DP_SLOT_SIZE ((int32_t)sizeof(dp_read_slot))
/// A reader's level with no section open.
#define DP_LEVEL_NONE (-DP_READ_SLOTS * DP_SLOT_SIZE)

// The slot a section opened at level `l` (< 0) uses: `l` bytes from the end of the slots.
static inline __attribute__((always_inline)) dp_read_slot *dp_slot_at_level(dp_reader *r,
                                                                            int32_t l) {
  return (dp_read_slot *)((char *)&r->slots[DP_READ_SLOTS] + l);
}

// initial-exec: a direct %fs-relative access instead of a __tls_get_addr call.
extern DP_THREAD_LOCAL_ dp_reader *dp_tls_reader __attribute__((tls_model("initial-exec")));
extern uint64_t dp_global_epoch;
extern int dp_membarrier_mode;
dp_reader *dp_reader_register(void);
dp_read_slot *dp_read_enter_deep(dp_reader *r);
void dp_read_exit_deep(dp_reader *r);
void dp_read_drop_stale(dp_reader *r, const void *frame, const char *entry);

// Q_ENTER's stores into the slot `s` an enter path found: the domain and member first,
// then the epoch (Q_ENTER_STATE), then the fence. `epoch` is the global epoch read at entry
// (acquire), or an enclosing section's.
static inline __attribute__((always_inline)) dp_read_slot *dp_read_fill_inline(
    dp_read_slot *s, const void *domain, const void *frame, uint64_t epoch) {
  s->frame = frame;
  __atomic_store_n(&s->domain, domain, __ATOMIC_RELAXED);
  __atomic_store_n(&s->member, (const void *)0, __ATOMIC_RELAXED);
  // Q_ENTER_STATE (a store the model lets wait in a store buffer). Release: a scan that
  // sees the epoch sees the domain. The acquire load of `epoch` (by the caller): a section
  // that sees a retirement's epoch bump sees what that retirement unpublished.
  __atomic_store_n(&s->epoch, epoch, __ATOMIC_RELEASE);
  // The slot's stores must precede the section's loads: the reclaimer's membarrier
  // provides that barrier when available, else the reader fences.
  if (__builtin_expect(dp_membarrier_mode == 1, 1))
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
  else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);  // Q_ENTER_FENCE (fence mode)
  return s;
}

// Model (Model/grace_period.pml): Q_ENTER. Returns the section's slot, for
// dp_read_calling. `frame` is the frame the section belongs to (C code:
// __builtin_frame_address(0) where the section is opened), or NULL where that is not
// known (Swift): dp_read_drop_stale judges only sections with a frame.
static inline __attribute__((always_inline)) dp_read_slot *dp_read_enter_at_inline(
    const void *domain, const void *frame) {
  dp_reader *r = dp_tls_reader;
  if (__builtin_expect(r == 0, 0)) r = dp_reader_register();
  int32_t l = r->level;
  r->level = l + DP_SLOT_SIZE;
  if (__builtin_expect(l >= 0, 0)) return dp_read_enter_deep(r);
  return dp_read_fill_inline(dp_slot_at_level(r, l), domain, frame,
                             __atomic_load_n(&dp_global_epoch, __ATOMIC_ACQUIRE));
}

// Q_ENTER for a section whose frame is not known (Swift callers).
static inline __attribute__((always_inline)) dp_read_slot *dp_read_enter_inline(
    const void *domain) {
  return dp_read_enter_at_inline(domain, (const void *)0);
}

// Model: Q_ENTER after Q_DROP_STALE. What a C entry called by foreign code (a route's
// or a callback's) opens its first section with. A section is open on this thread that
// an entry's own frame is not below only if unwinding (longjmp, a C++ exception through
// C frames) left it: its frame is gone. Such sections (those whose frame is known: opened
// by C code of this layer or DP_MSG_SEND, not by Swift) are closed first
// (dp_read_drop_stale), so an unwound entry never leaves its thread marked reading past
// the next entry on that thread. `entry` names the entry, for the diagnostic.
static inline __attribute__((always_inline)) dp_read_slot *dp_read_enter_entry_inline(
    const void *domain, const char *entry) {
  const void *frame = __builtin_frame_address(0);
  dp_reader *r = dp_tls_reader;
  // The usual case, a C library calling in with no section open: the first slot, at an
  // offset known here.
  if (__builtin_expect(r != 0 && r->level == DP_LEVEL_NONE, 1)) {
    r->level = DP_LEVEL_NONE + DP_SLOT_SIZE;
    return dp_read_fill_inline(&r->slots[0], domain, frame,
                               __atomic_load_n(&dp_global_epoch, __ATOMIC_ACQUIRE));
  }
  if (r != 0) dp_read_drop_stale(r, frame, entry);
  return dp_read_enter_at_inline(domain, frame);
}

// Adds `domain` to the open section `s` (Q_ALSO, argued in Model/README.md rather than a
// step of the model): a callback entry's section of its record also reads the record's
// receiver, which only that section can load. One store, ordered before the section's
// next loads as Q_ENTER's are (the reclaimer's membarrier, or the reader's fence), so it
// is judged by the section's own, older, epoch — conservative. Cheaper than a nested
// section. Leave with dp_read_exit_also_inline.
static inline __attribute__((always_inline)) void dp_read_also(dp_read_slot *s,
                                                               const void *domain) {
  __atomic_store_n(&s->also, domain, __ATOMIC_RELAXED);
  if (__builtin_expect(dp_membarrier_mode == 1, 1))
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
  else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

// dp_read_enter_entry_inline for a section that also reads a second domain, `also`, known
// before the section opens (a callback entry's receiver, read ahead from its record, which
// is never freed): the fast path stores it with the slot's other fields, before the epoch,
// so the entry's barrier orders it too — no dp_read_also and no second mode test. The
// caller re-reads what `also` came from inside the section, and calls dp_read_also if it
// changed. Leave with dp_read_exit_also_inline.
static inline __attribute__((always_inline)) dp_read_slot *dp_read_enter_entry_also_inline(
    const void *domain, const void *also, const char *entry) {
  const void *frame = __builtin_frame_address(0);
  dp_reader *r = dp_tls_reader;
  if (__builtin_expect(r != 0 && r->level == DP_LEVEL_NONE, 1)) {
    r->level = DP_LEVEL_NONE + DP_SLOT_SIZE;
    __atomic_store_n(&r->slots[0].also, also, __ATOMIC_RELAXED);
    return dp_read_fill_inline(&r->slots[0], domain, frame,
                               __atomic_load_n(&dp_global_epoch, __ATOMIC_ACQUIRE));
  }
  if (r != 0) dp_read_drop_stale(r, frame, entry);
  dp_read_slot *s = dp_read_enter_at_inline(domain, frame);
  dp_read_also(s, also);
  return s;
}

// Model: Q_EXIT; the store is Q_EXIT_STATE.
static inline __attribute__((always_inline)) void dp_read_exit_inline(void) {
  dp_reader *r = dp_tls_reader;
  int32_t l = r->level -= DP_SLOT_SIZE;
  if (__builtin_expect(l < 0, 1))
    __atomic_store_n(&dp_slot_at_level(r, l)->epoch, 0, __ATOMIC_RELEASE);
  else
    dp_read_exit_deep(r);
}

// dp_read_exit_inline for a caller that kept the slot its enter returned: the slot's
// epoch is cleared through it (a deep section's, the spare, is never scanned). Only the
// exit that brings the depth back to DP_READ_SLOTS does more (dp_read_exit_deep restores
// the last slot): a level of 0, which the decrement's own flags tell. Model: Q_EXIT.
static inline __attribute__((always_inline)) void dp_read_exit_slot_inline(dp_read_slot *s) {
  dp_reader *r = s->reader;
  __atomic_store_n(&s->epoch, 0, __ATOMIC_RELEASE);
  if (__builtin_expect((r->level -= DP_SLOT_SIZE) == 0, 0)) dp_read_exit_deep(r);
}

// Leaves the section `s` that dp_read_also widened: its second domain is cleared before
// its epoch (the next section in the slot starts without one). Model: Q_EXIT.
static inline __attribute__((always_inline)) void dp_read_exit_also_inline(dp_read_slot *s) {
  __atomic_store_n(&s->also, (const void *)0, __ATOMIC_RELAXED);
  dp_read_exit_slot_inline(s);
}

// The innermost open section's slot (for code that did not enter it itself).
static inline __attribute__((always_inline)) dp_read_slot *dp_read_current_slot(void) {
  dp_reader *r = dp_tls_reader;
  int32_t l = r->level;
  return l <= 0 ? dp_slot_at_level(r, l - DP_SLOT_SIZE) : &r->spare;
}

// Model: Q_CALLING. Names the member the section calls next; call before that member's
// removed check. A store and no fence, in either barrier mode: the member wait orders it
// with a barrier on every thread instead (dp_wait_member_idle: membarrier, or where that
// is missing or has failed, a pause a store buffer drains within), so a dispatch pays one
// store per member and no test. The compiler barrier keeps the removed check below it.
static inline __attribute__((always_inline)) void dp_read_calling(dp_read_slot *s,
                                                                  const void *member) {
  __atomic_store_n(&s->member, member, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

#ifdef __cplusplus
}
#endif

#endif  // DP_QUIESCE_INLINE_H
