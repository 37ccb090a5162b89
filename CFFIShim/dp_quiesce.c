// Read sections and grace periods. See dp_quiesce.h.
//
// Each thread that ever enters a read section owns a reader record (records are never
// freed, only reused, so a writer may scan them without racing thread exit). A record's
// `state` is 0 outside a read section and the global epoch at entry inside one. A writer
// bumps the epoch, forces a barrier on every thread (membarrier), then waits for records
// whose state is older than the bump. Retired memory is tagged with the epoch at
// retirement and freed when every active record's state is newer.
//
// membarrier is Linux-only. Where it is missing (other systems, or a Linux kernel or
// emulator that does not offer it) dp_membarrier_mode is 0: readers fence on entry
// themselves (dp_quiesce_inline.h) and writers fence locally — slower, equally correct.
//
// Model: Model/grace_period.pml checks this protocol with spin (Scripts/model-check.sh);
// each Q_… step named in a comment below is the model's step of that name, and the script
// fails if a step of the model is named nowhere here.

#include "dp_quiesce.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#if defined(__linux__) && __has_include(<linux/membarrier.h>)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#if defined(__NR_membarrier)
#define DP_HAVE_MEMBARRIER 1
#endif
#endif
#ifndef DP_HAVE_MEMBARRIER
#define DP_HAVE_MEMBARRIER 0
#endif

#include "dp_quiesce_inline.h"
#include "dp_runtime.h"

typedef struct dp_deferred {
  void *ptr;
  void (*free_fn)(void *);
  uint64_t epoch;
  struct dp_deferred *next;
} dp_deferred;



static dp_reader *readers;  // atomic head; records are prepended, never unlinked
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
uint64_t dp_global_epoch = 1;  // atomic
int dp_membarrier_mode = -1;  // -1 unknown, 0 fences, 1 membarrier
static pthread_key_t reader_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
_Thread_local dp_reader *dp_tls_reader __attribute__((tls_model("initial-exec")));

static pthread_mutex_t retire_lock = PTHREAD_MUTEX_INITIALIZER;
static dp_deferred *retired;  // guarded by retire_lock
static uint64_t retired_count;

static void release_reader(void *p) {
  dp_reader *r = p;
  __atomic_store_n(&r->state, 0, __ATOMIC_RELEASE);
  __atomic_store_n(&r->in_use, 0, __ATOMIC_RELEASE);
}

static void make_key(void) {
  pthread_key_create(&reader_key, release_reader);
#if DP_HAVE_MEMBARRIER
  long q = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  int ok = q > 0 && (q & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
           syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
#else
  int ok = 0;
#endif
  __atomic_store_n(&dp_membarrier_mode, ok ? 1 : 0, __ATOMIC_RELEASE);
}

dp_reader *dp_reader_register(void) {
  pthread_once(&key_once, make_key);
  dp_reader *r = NULL;
  pthread_mutex_lock(&registry_lock);
  for (dp_reader *it = __atomic_load_n(&readers, __ATOMIC_ACQUIRE); it; it = it->next) {
    if (!__atomic_load_n(&it->in_use, __ATOMIC_ACQUIRE)) {
      r = it;
      break;
    }
  }
  if (!r) {
    r = calloc(1, sizeof *r);
    if (!r) dp_fatal("dp_read_enter: out of memory");
    r->next = readers;
    __atomic_store_n(&r->in_use, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&readers, r, __ATOMIC_RELEASE);
  } else {
    r->nesting = 0;
    __atomic_store_n(&r->waiting, 0, __ATOMIC_RELAXED);  // writers read it
    __atomic_store_n(&r->in_use, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&registry_lock);
  pthread_setspecific(reader_key, r);
  dp_tls_reader = r;
  return r;
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

// The model's barrier_everywhere: membarrier drains every thread's store buffer, the
// fence only the caller's.
static void full_barrier_everywhere(void) {
#if DP_HAVE_MEMBARRIER
  if (dp_membarrier_mode == 1) {
    if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0) return;
  }
#endif
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void dp_read_enter(void) { dp_read_enter_inline(); }

void dp_read_exit(void) { dp_read_exit_inline(); }

bool dp_in_read_section(void) { return dp_tls_reader && dp_tls_reader->nesting > 0; }

bool dp_quiesce_uses_membarrier(void) {
  pthread_once(&key_once, make_key);
  return dp_membarrier_mode == 1;
}

void dp_synchronize(void) {
  pthread_once(&key_once, make_key);
  dp_reader *self = dp_tls_reader;
  bool inside = self && self->nesting > 0;
  if (inside) __atomic_store_n(&self->waiting, 1, __ATOMIC_SEQ_CST);  // Q_SYNC_WAITING
  uint64_t target = __atomic_add_fetch(&dp_global_epoch, 1, __ATOMIC_SEQ_CST);  // Q_SYNC_BUMP
  full_barrier_everywhere();  // Q_SYNC_BARRIER
  // Q_SYNC_SCAN; the spin on one record is Q_SYNC_WAIT.
  for (dp_reader *r = __atomic_load_n(&readers, __ATOMIC_ACQUIRE); r; r = r->next) {
    if (r == self) continue;
    for (unsigned spins = 0;; spins++) {
      uint64_t s = __atomic_load_n(&r->state, __ATOMIC_ACQUIRE);
      if (s == 0 || s >= target) break;
      if (__atomic_load_n(&r->waiting, __ATOMIC_ACQUIRE)) break;
      if (spins < 64)
        cpu_relax();
      else
        sched_yield();
    }
  }
  if (inside) {
    // Writers skipped this thread while it waited, so its section's later loads (the
    // removed flags it checks before each call) must not move above this store.
    // Q_SYNC_UNWAIT (without the fence: the model's BUG_WAIT_FENCE, caught in fence mode).
    __atomic_store_n(&self->waiting, 0, __ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
  }
  dp_reclaim();  // Q_SYNC_RECLAIM
}

void dp_synchronize_all(void) {
  pthread_once(&key_once, make_key);
  dp_reader *self = dp_tls_reader;
  if (self && self->nesting > 0) dp_fatal("dp_synchronize_all: called inside a read section");
  uint64_t target = __atomic_add_fetch(&dp_global_epoch, 1, __ATOMIC_SEQ_CST);
  full_barrier_everywhere();
  for (dp_reader *r = __atomic_load_n(&readers, __ATOMIC_ACQUIRE); r; r = r->next) {
    if (r == self) continue;
    // Unlike dp_synchronize, a reader waiting inside its own section is waited for too.
    for (unsigned spins = 0;; spins++) {
      uint64_t s = __atomic_load_n(&r->state, __ATOMIC_ACQUIRE);
      if (s == 0 || s >= target) break;
      if (spins < 64)
        cpu_relax();
      else
        sched_yield();
    }
  }
  dp_reclaim();
}

void dp_retire(void *ptr, void (*free_fn)(void *)) {
  if (!ptr) return;
  dp_deferred *d = malloc(sizeof *d);
  if (!d) dp_fatal("dp_retire: out of memory");
  d->ptr = ptr;
  d->free_fn = free_fn;
  // Readers that entered before this bump may hold ptr; later ones cannot. (Q_RETIRE)
  d->epoch = __atomic_add_fetch(&dp_global_epoch, 1, __ATOMIC_SEQ_CST) - 1;
  pthread_mutex_lock(&retire_lock);
  d->next = retired;
  retired = d;
  uint64_t n = ++retired_count;
  pthread_mutex_unlock(&retire_lock);
  if (n >= 64 && (n & 63) == 0) dp_reclaim();
}

// Model: Q_RECLAIM. Only what was retired before the snapshot may be freed: a reader may
// enter after the scan below, load a pointer that a writer then unpublishes and retires;
// without the snapshot, `oldest` (unbounded with no reader active at the scan) would let
// that item go (Model/README.md: BUG_RECLAIM_NO_SNAPSHOT, found by the model).
uint64_t dp_reclaim(void) {
  pthread_once(&key_once, make_key);
  // Q_RECLAIM_SNAPSHOT: only what was retired before the scan may be freed by it.
  uint64_t oldest = __atomic_load_n(&dp_global_epoch, __ATOMIC_SEQ_CST);
  full_barrier_everywhere();  // Q_RECLAIM_BARRIER
  // Q_RECLAIM_SCAN
  for (dp_reader *r = __atomic_load_n(&readers, __ATOMIC_ACQUIRE); r; r = r->next) {
    uint64_t s = __atomic_load_n(&r->state, __ATOMIC_ACQUIRE);
    if (s != 0 && s < oldest) oldest = s;
  }
  dp_deferred *ready = NULL;
  pthread_mutex_lock(&retire_lock);
  for (dp_deferred **link = &retired; *link;) {
    dp_deferred *d = *link;
    if (d->epoch < oldest) {  // Q_RECLAIM_FREE
      *link = d->next;
      d->next = ready;
      ready = d;
      retired_count--;
    } else {
      link = &d->next;
    }
  }
  uint64_t left = retired_count;
  pthread_mutex_unlock(&retire_lock);
  while (ready) {
    dp_deferred *next = ready->next;
    ready->free_fn(ready->ptr);
    free(ready);
    ready = next;
  }
  return left;
}
