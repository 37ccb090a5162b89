// dp_quiesce.h — read sections and deferred reclamation (an RCU for the runtime, with
// domains).
//
// Dispatch code reads shared lists without locks inside a read section that names its
// domain (what it reads: a multicast's publication, a C receiver, a callback record).
// Code that replaces such a list publishes the new one and hands the old one to
// dp_retire_in with the same domain; it is freed — later, by whichever thread reclaims,
// never by waiting — once no read section of that domain that began before the
// retirement is still open. A writer never waits for a reader: a read section spans
// delegate code, which may run long or never return, and then delays only the memory of
// its own domain.
//
// Readers pay a few thread-local stores on entry and exit: the reclaiming side issues a
// process-wide memory barrier (Linux membarrier) instead of each reader fencing; where
// membarrier is missing, readers fence themselves.
//
// The only waits are explicit and scoped, as the Linux kernel's del_timer_sync is:
// dp_wait_member_idle (the calls in flight to one member) and dp_wait_domain_idle (the
// sections of one domain). Each skips the caller's own sections, and each deadlocks if
// the caller holds what the awaited call waits for — the rule written beside them.
//
// Model-checked with spin (Model/grace_period.pml, Scripts/model-check.sh): the steps
// named Q_… in these comments and in dp_quiesce.c are the model's steps of the same name.

#ifndef DP_QUIESCE_H
#define DP_QUIESCE_H

#include <stdbool.h>
#include <stdint.h>

#include "dp_quiesce_inline.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Enters a read section of `domain` (nestable). Pointers of that domain loaded inside
/// stay valid until the matching dp_read_exit.
dp_read_slot *dp_read_enter(const void *domain);
/// Leaves the innermost read section.
void dp_read_exit(void);
/// Whether the calling thread is inside a read section.
bool dp_in_read_section(void);

/// Frees `ptr` with `free_fn` once no read section of `domain` (or of DP_ANY_DOMAIN)
/// that began before this call is still open; DP_ANY_DOMAIN waits for every section.
/// Never blocks and never runs `free_fn` itself: dp_reclaim does, on the thread that
/// calls it or on the reclaimer thread this wakes. Model: Q_RETIRE.
void dp_retire_in(const void *domain, void *ptr, void (*free_fn)(void *));
/// Frees `ptr` with `free_fn` now, on the calling thread, when no read section of
/// `domain` is open (returns true); else retires it as dp_retire_in does (false). Never
/// waits; costs one barrier. Call with no lock held that `free_fn` may take: for a writer
/// that wants what it removed gone before it returns whenever no dispatch still reads it.
bool dp_free_or_retire(const void *domain, void *ptr, void (*free_fn)(void *));
/// dp_retire_in(DP_ANY_DOMAIN, …).
void dp_retire(void *ptr, void (*free_fn)(void *));
/// Frees everything retired whose sections have ended, on the calling thread; never
/// waits for a reader. Call with no lock held that a `free_fn` may take. Returns how many
/// items are still waiting (for tests and diagnostics). Model: Q_RECLAIM.
uint64_t dp_reclaim(void);
/// How many retired items are waiting.
uint64_t dp_retired_count(void);
/// How many retired items the last dp_reclaim pass looked at: the ones it freed, plus at
/// most one per domain that still had items (the first still held ends that domain's part
/// of the pass). For tests.
uint64_t dp_reclaim_last_examined(void);

/// The scoped wait (del_timer_sync's rule): returns once no other thread is inside a call
/// to `member` that began before this call — a read section of `domain` (the member's
/// multicast; DP_ANY_DOMAIN: any) whose slot names it (dp_read_calling). The caller's own
/// calls are never waited for. Deadlocks if the caller holds a lock that such a call is
/// waiting for; never call it from a call that the awaited call waits on. Dispatches name
/// members without a fence, so its barrier is a membarrier — or, where that is missing or
/// has failed, a pause of a millisecond. Model: Q_WAIT_MEMBER.
void dp_wait_member_idle(const void *domain, const void *member);
/// The scoped wait for a domain: returns once no other thread has a read section of
/// `domain` open that began before this call (the same rule as dp_wait_member_idle).
void dp_wait_domain_idle(const void *domain);
/// Declares, for the calling thread, that no read section of `domain` is open or can open
/// again (its owner is being deallocated, and every reader holds the owner): until the
/// previous value is restored, dp_route_node_retire frees a node of that domain at once.
/// Returns the previous value (nestable: restore it afterwards).
const void *dp_domain_closing(const void *domain);
/// The domain the calling thread declared closing (dp_domain_closing), or NULL.
const void *dp_closing_domain(void);
/// For tests and diagnostics (liburcu's rcu_barrier): waits until every item retired
/// before the call has been freed. Traps inside a read section.
void dp_reclaim_wait(void);

/// How many read sections the route and callback entries have closed because unwinding
/// (longjmp, a C++ exception through C frames) had left them open (dp_read_enter_entry_inline),
/// and the name of the entry that closed the last ones (NULL: none yet). For tests and
/// diagnostics.
uint64_t dp_stale_sections_dropped(void);
const char *dp_stale_sections_last_entry(void);

/// Whether the reclaiming side uses membarrier (readers then need no fence of their own).
bool dp_quiesce_uses_membarrier(void);

#ifdef __cplusplus
}
#endif

#endif  // DP_QUIESCE_H
