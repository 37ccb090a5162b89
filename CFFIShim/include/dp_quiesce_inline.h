// dp_quiesce_inline.h — the reader side of dp_quiesce, inlined into C hot paths.
// Public so that MessageRuntime can inline read sections into Swift dispatch loops; its
// fields are private to dp_quiesce.c.

#ifndef DP_QUIESCE_INLINE_H
#define DP_QUIESCE_INLINE_H

#include <stdint.h>

typedef struct dp_reader {
  uint64_t state;          // atomic: 0, or the epoch at the outermost enter
  uint32_t nesting;        // owner thread only
  uint32_t waiting;        // atomic: blocked in dp_synchronize inside a read section
  uint32_t in_use;         // atomic: owned by a live thread
  struct dp_reader *next;  // immutable once linked
} dp_reader;

// initial-exec: a direct %fs-relative access instead of a __tls_get_addr call.
extern _Thread_local dp_reader *dp_tls_reader __attribute__((tls_model("initial-exec")));
extern uint64_t dp_global_epoch;
extern int dp_membarrier_mode;
dp_reader *dp_reader_register(void);

// Model (Model/grace_period.pml): Q_ENTER.
static inline __attribute__((always_inline)) void dp_read_enter_inline(void) {
  dp_reader *r = dp_tls_reader;
  if (__builtin_expect(r == 0, 0)) r = dp_reader_register();
  if (r->nesting++ == 0) {
    // Q_ENTER_STATE (a store the model lets wait in a store buffer).
    __atomic_store_n(&r->state, __atomic_load_n(&dp_global_epoch, __ATOMIC_RELAXED),
                     __ATOMIC_RELAXED);
    // The state store must precede the section's loads: the writer's membarrier
    // provides that barrier when available, else the reader fences.
    if (__builtin_expect(dp_membarrier_mode == 1, 1))
      __atomic_signal_fence(__ATOMIC_SEQ_CST);
    else
      __atomic_thread_fence(__ATOMIC_SEQ_CST);  // Q_ENTER_FENCE (fence mode)
  }
}

// Model: Q_EXIT; the store is Q_EXIT_STATE.
static inline __attribute__((always_inline)) void dp_read_exit_inline(void) {
  dp_reader *r = dp_tls_reader;
  if (--r->nesting == 0) __atomic_store_n(&r->state, 0, __ATOMIC_RELEASE);
}

#endif  // DP_QUIESCE_INLINE_H
