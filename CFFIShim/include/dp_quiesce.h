// dp_quiesce.h — read sections and grace periods (an RCU for the runtime).
//
// Dispatch code reads shared lists without locks inside a read section; code that
// removes something from such a list publishes the new list and then waits, with
// dp_synchronize, until every read section that may still see the old one has ended.
// Memory the old list used is handed to dp_retire and freed once no reader can hold it.
//
// Readers pay a thread-local store on entry and exit: the writer side issues a
// process-wide memory barrier (Linux membarrier) instead of each reader fencing; where
// membarrier is missing, readers fence themselves.
//
// Model-checked with spin (Model/grace_period.pml, Scripts/model-check.sh): the steps
// named Q_… in these comments and in dp_quiesce.c are the model's steps of the same name.

#ifndef DP_QUIESCE_H
#define DP_QUIESCE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Enters a read section (nestable). Pointers loaded inside stay valid until the
/// matching dp_read_exit.
void dp_read_enter(void);
/// Leaves a read section; at the outermost exit, frees what this thread deferred.
void dp_read_exit(void);
/// Whether the calling thread is inside a read section.
bool dp_in_read_section(void);

/// Waits until every read section of another thread that began before this call has
/// ended. Read sections of threads that are themselves blocked in dp_synchronize from
/// inside a read section are not waited for (two threads removing inside dispatch would
/// otherwise wait for each other); dispatch loops check a target's removed flag as the
/// last step before each call — with nothing between check and call that could reach
/// dp_synchronize (no release that may run a deinit) — so those threads skip what was
/// removed. Safe to call inside a read
/// section (the caller's own section is not waited for). Model: Q_SYNC.
void dp_synchronize(void);

/// Waits until every read section of another thread that began before this call has
/// ended, those of threads blocked in dp_synchronize included: for releasing what a
/// dispatch may read after such a wait (a table a Swift dispatch borrows: a delegate's
/// deinit run by the dispatch can wait out a grace period in the middle of its loop).
/// Must not be called inside a read section (traps): a reader waiting here could wait
/// for another reader waiting for it. Not in the model (Model/README.md, finding 2).
void dp_synchronize_all(void);

/// Frees `ptr` with `free_fn` once no read section that began before this call can
/// still use it. Never blocks. Model: Q_RETIRE.
void dp_retire(void *ptr, void (*free_fn)(void *));
/// Frees everything retired whose grace period has passed (also done by dp_synchronize
/// and from time to time by dp_retire). Returns how many items are still waiting.
/// Model: Q_RECLAIM.
uint64_t dp_reclaim(void);

/// Whether writers use membarrier (readers then need no fence of their own).
bool dp_quiesce_uses_membarrier(void);

#ifdef __cplusplus
}
#endif

#endif  // DP_QUIESCE_H
