// Read sections and deferred reclamation. See dp_quiesce.h.
//
// Each thread that ever enters a read section owns a reader record (records are never
// freed, only reused, so a reclaimer may scan them without racing thread exit). A record
// has one slot per open section (nested dispatches open nested sections): the slot's
// domain, its epoch (0 when free, else the global epoch at entry) and the member it is
// calling. Retired memory is tagged with its domain and the epoch at retirement, and freed
// when no slot of the same domain (or of the wildcard domain) holds an epoch at or before
// it. Nobody waits for that: a writer retires and returns; dp_reclaim frees what is free
// now, and a reclaimer thread retries, with a growing pause, while anything is left.
//
// membarrier is Linux-only. Where it is missing (other systems, or a Linux kernel or
// emulator that does not offer it, or whose expedited command fails) dp_membarrier_mode
// is 0: readers fence on entry themselves (dp_quiesce_inline.h) and the reclaimer fences
// locally — slower, equally correct. The mode only ever goes from 1 to 0 after readers
// have started fencing: see full_barrier_everywhere.
//
// Model: Model/grace_period.pml checks this protocol with spin (Scripts/model-check.sh);
// each Q_… step named in a comment below is the model's step of that name, and the script
// fails if a step of the model is named nowhere here.

#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // pthread_getattr_np
#endif
#include "dp_quiesce.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
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

#include "dp_runtime.h"

typedef struct dp_deferred {
  void *ptr;
  void (*free_fn)(void *);
  const void *domain;
  uint64_t epoch;
  struct dp_deferred *next;
} dp_deferred;

// Lock order: registry_lock, then retire_lock, then reclaimer_lock (fork takes them in
// this order; no code path holds two of them otherwise). No free_fn runs under any.
static dp_reader *readers;  // atomic head; records are prepended, never unlinked
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
uint64_t dp_global_epoch = 1;  // atomic
int dp_membarrier_mode = -1;   // -1 unknown, 0 fences, 1 membarrier
static pthread_key_t reader_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
_Thread_local dp_reader *dp_tls_reader __attribute__((tls_model("initial-exec")));
// The domain whose owner this thread is deallocating (dp_domain_closing), or NULL.
static _Thread_local const void *closing_domain;

const void *dp_domain_closing(const void *domain) {
  const void *previous = closing_domain;
  closing_domain = domain;
  return previous;
}

const void *dp_closing_domain(void) { return closing_domain; }

// Retired items wait in one list per domain, oldest first (their epochs are taken under
// retire_lock, so each list is in epoch order). A pass frees a prefix of each list — the
// items older than the oldest open section of that domain — and stops at the first item
// still held: what a reader that never leaves protects is looked at once per pass, not
// rescanned item by item (Model/README.md: the per-domain lists).
typedef struct dp_domain_list {
  const void *domain;
  dp_deferred *head, *tail;     // guarded by retire_lock
  struct dp_domain_list *next;  // the next list of the same hash bucket
  struct dp_domain_list *all_next;  // every list, for a pass
} dp_domain_list;

#define DP_DOMAIN_BUCKETS 256
static pthread_mutex_t retire_lock = PTHREAD_MUTEX_INITIALIZER;
static dp_domain_list *domain_buckets[DP_DOMAIN_BUCKETS];  // guarded by retire_lock
static dp_domain_list *domain_lists;  // guarded by retire_lock: every list with items
static uint64_t retired_count;  // written under retire_lock, read atomically
static unsigned reclaiming;     // guarded by retire_lock: items taken off the lists, not yet freed
static uint64_t last_pass_examined;  // atomic: items the last pass looked at (tests)

// The reclaimer thread: started on the first retirement, asleep while nothing waits.
static pthread_mutex_t reclaimer_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t reclaimer_wake = PTHREAD_COND_INITIALIZER;
static bool reclaimer_started;  // guarded by reclaimer_lock
static bool reclaimer_kicked;   // guarded by reclaimer_lock

static void clear_slots(dp_reader *r) {
  for (unsigned i = 0; i < DP_READ_SLOTS; i++) {
    __atomic_store_n(&r->slots[i].epoch, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&r->slots[i].member, (const void *)0, __ATOMIC_RELAXED);
    __atomic_store_n(&r->slots[i].also, (const void *)0, __ATOMIC_RELAXED);
  }
  r->level = DP_LEVEL_NONE;
}

// The thread's exit: its record goes back to the pool, and the thread forgets it (a
// later destructor that enters a section registers again instead of reusing a record
// another thread may have been given).
static void release_reader(void *p) {
  dp_reader *r = p;
  clear_slots(r);
  if (dp_tls_reader == r) dp_tls_reader = NULL;
  __atomic_store_n(&r->in_use, 0, __ATOMIC_RELEASE);
}

// fork: the child has one thread. Every record but its own is free (the other threads
// are gone mid-section), the locks are taken around the fork so none is copied held, and
// the reclaimer thread is started again on demand.
static void before_fork(void) {
  pthread_mutex_lock(&registry_lock);
  pthread_mutex_lock(&retire_lock);
  pthread_mutex_lock(&reclaimer_lock);
}
static void after_fork_parent(void) {
  pthread_mutex_unlock(&reclaimer_lock);
  pthread_mutex_unlock(&retire_lock);
  pthread_mutex_unlock(&registry_lock);
}
static void after_fork_child(void) {
  for (dp_reader *r = readers; r; r = r->next) {
    if (r == dp_tls_reader) continue;
    clear_slots(r);
    __atomic_store_n(&r->in_use, 0, __ATOMIC_RELAXED);
  }
  reclaimer_started = false;
  reclaimer_kicked = false;
  pthread_cond_init(&reclaimer_wake, NULL);
  after_fork_parent();
}

static void make_key(void) {
  pthread_key_create(&reader_key, release_reader);
  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
#if DP_HAVE_MEMBARRIER
  long q = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  int ok = q > 0 && (q & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
           syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
#else
  int ok = 0;
#endif
  __atomic_store_n(&dp_membarrier_mode, ok ? 1 : 0, __ATOMIC_RELEASE);
}

static void record_stack(dp_reader *r);

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
    r->level = DP_LEVEL_NONE;
    for (unsigned i = 0; i < DP_READ_SLOTS; i++) r->slots[i].reader = r;
    r->spare.reader = r;
    r->next = readers;
    __atomic_store_n(&r->in_use, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&readers, r, __ATOMIC_RELEASE);
  } else {
    clear_slots(r);
    __atomic_store_n(&r->in_use, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&registry_lock);
  record_stack(r);
  pthread_setspecific(reader_key, r);
  dp_tls_reader = r;
  return r;
}

// The calling thread's stack, for dp_read_drop_stale; unknown: every address counts.
static void record_stack(dp_reader *r) {
  r->stack_low = 0;
  r->stack_high = UINTPTR_MAX;
#if defined(__linux__)
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void *base;
    size_t size;
    if (pthread_attr_getstack(&attr, &base, &size) == 0 && size != 0) {
      r->stack_low = (uintptr_t)base;
      r->stack_high = (uintptr_t)base + size;
    }
    pthread_attr_destroy(&attr);
  }
#endif
}

static uint64_t stale_dropped;        // atomic: sections closed by dp_read_drop_stale
static const char *stale_last_entry;  // atomic: the entry that closed the last ones

// Q_DROP_STALE (Model/README.md, #37: argued, not modelled). The innermost open
// sections whose frames are at or below the entry's own frame, on the same stack, were
// left by unwinding (a live section's frame is a caller's, above the entry's): each is closed as its exit would have closed it. Their
// readers are gone, so nothing they protected is still read.
void dp_read_drop_stale(dp_reader *r, const void *frame, const char *entry) {
  uintptr_t f = (uintptr_t)frame;
  if (f < r->stack_low || f >= r->stack_high) return;
  uint64_t dropped = 0;
  while (r->level > DP_LEVEL_NONE && r->level <= 0) {
    dp_read_slot *s = dp_slot_at_level(r, r->level - DP_SLOT_SIZE);
    uintptr_t opened = (uintptr_t)s->frame;
    if (opened == 0 || opened < r->stack_low || opened >= r->stack_high || opened > f) break;
    __atomic_store_n(&s->member, (const void *)0, __ATOMIC_RELAXED);
    __atomic_store_n(&s->also, (const void *)0, __ATOMIC_RELAXED);
    __atomic_store_n(&s->epoch, 0, __ATOMIC_RELEASE);
    r->level -= DP_SLOT_SIZE;
    dropped++;
  }
  if (dropped) {
    __atomic_store_n(&stale_last_entry, entry, __ATOMIC_RELAXED);
    __atomic_add_fetch(&stale_dropped, dropped, __ATOMIC_RELAXED);
  }
}

uint64_t dp_stale_sections_dropped(void) {
  return __atomic_load_n(&stale_dropped, __ATOMIC_RELAXED);
}

const char *dp_stale_sections_last_entry(void) {
  return __atomic_load_n(&stale_last_entry, __ATOMIC_RELAXED);
}

// Sections nested deeper than the slots: the last slot stands for all of them, widened to
// every domain and every member (conservative: it protects and is waited for more, never
// less), and restored when they have all ended.
dp_read_slot *dp_read_enter_deep(dp_reader *r) {
  if (r->level == DP_SLOT_SIZE) {  // the first section past the slots
    dp_read_slot *last = &r->slots[DP_READ_SLOTS - 1];
    r->saved_domain = __atomic_load_n(&last->domain, __ATOMIC_RELAXED);
    r->saved_member = __atomic_load_n(&last->member, __ATOMIC_RELAXED);
    __atomic_store_n(&last->domain, DP_ANY_DOMAIN, __ATOMIC_RELAXED);
    __atomic_store_n(&last->member, DP_ANY_DOMAIN, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
  }
  return &r->spare;
}

void dp_read_exit_deep(dp_reader *r) {
  if (r->level == 0) {  // back to DP_READ_SLOTS sections
    dp_read_slot *last = &r->slots[DP_READ_SLOTS - 1];
    __atomic_store_n(&last->member, r->saved_member, __ATOMIC_RELAXED);
    __atomic_store_n(&last->domain, r->saved_domain, __ATOMIC_RELEASE);
  }
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

// The model's barrier_everywhere: membarrier drains every thread's store buffer, the
// fence only the caller's. Returns false when no barrier reached the readers: if the
// expedited command fails after registration, every reader is switched to fencing on
// entry (from its next section on), and this pass must not trust what it scans — a
// section entered before the switch relied on this barrier (the model's
// BUG_LOCAL_BARRIER is a local fence while readers still rely on membarrier). What a
// slot names (dp_read_calling) is never fenced by its reader: the member wait has its own
// barrier (barrier_for_member_wait).
#if DP_HAVE_MEMBARRIER
// When membarrier failed after registration (0: never), in CLOCK_MONOTONIC nanoseconds.
static uint64_t mb_failed_at;  // atomic

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
#endif

// How long a pause stands for a barrier on every thread where membarrier is missing or
// has failed: a store buffer drains within microseconds, and a thread preempted meanwhile
// drained its own when it was switched out (Model/README.md: the timing assumption).
#define SETTLE_NS (1000 * 1000)

#if DP_HAVE_MEMBARRIER
// membarrier: every running thread passes a full barrier before it returns. Call in
// membarrier mode only. False if the expedited command failed: every reader is then
// switched to fencing on entry (from its next section on).
static bool membarrier_everywhere(void) {
  if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0) return true;
  __atomic_store_n(&mb_failed_at, now_ns() | 1, __ATOMIC_SEQ_CST);
  __atomic_store_n(&dp_membarrier_mode, 0, __ATOMIC_SEQ_CST);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  return false;
}
#endif

static bool full_barrier_everywhere(void) {
#if DP_HAVE_MEMBARRIER
  if (__atomic_load_n(&dp_membarrier_mode, __ATOMIC_ACQUIRE) == 1) return membarrier_everywhere();
  // Settling (Model/README.md, finding 3): for a while after the switch, a section
  // entered before it may still hold its slot stores in its store buffer, where a local
  // fence does not reach; no scan is trusted until the pause is over.
  uint64_t failed = __atomic_load_n(&mb_failed_at, __ATOMIC_ACQUIRE);
  if (failed != 0 && now_ns() < failed + SETTLE_NS) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return false;
  }
#endif
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  return true;
}

dp_read_slot *dp_read_enter(const void *domain) { return dp_read_enter_inline(domain); }

void dp_read_exit(void) { dp_read_exit_inline(); }

bool dp_in_read_section(void) {
  return dp_tls_reader && dp_tls_reader->level > DP_LEVEL_NONE;
}

bool dp_quiesce_uses_membarrier(void) {
  pthread_once(&key_once, make_key);
  return dp_membarrier_mode == 1;
}

static void *reclaimer_main(void *unused) {
  (void)unused;
  for (;;) {
    pthread_mutex_lock(&reclaimer_lock);
    while (!reclaimer_kicked) pthread_cond_wait(&reclaimer_wake, &reclaimer_lock);
    reclaimer_kicked = false;
    pthread_mutex_unlock(&reclaimer_lock);
    // Retry while something waits, pausing longer each time (50 µs up to 20 ms): a reader
    // that never leaves costs one barrier per pause, and delays only its domain.
    long pause_ns = 50 * 1000;
    while (dp_reclaim() > 0) {
      struct timespec t = {0, pause_ns};
      nanosleep(&t, NULL);
      if (pause_ns < 20 * 1000 * 1000) pause_ns *= 2;
    }
  }
  return NULL;
}

static bool domains_meet(const void *a, const void *b);

// Whether an open slot reads `domain`: its own domain meets it, or its second one
// (dp_read_also) is it.
static bool slot_meets(const dp_read_slot *s, const void *domain) {
  const void *also = __atomic_load_n(&s->also, __ATOMIC_RELAXED);
  return domains_meet(__atomic_load_n(&s->domain, __ATOMIC_RELAXED), domain) ||
         (also != NULL && also == domain);
}

// Wakes the reclaimer thread, starting it the first time.
static void kick_reclaimer(void) {
  pthread_mutex_lock(&reclaimer_lock);
  if (!reclaimer_started) {
    pthread_t thread;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&thread, &attr, reclaimer_main, NULL) != 0)
      dp_fatal("dp_retire: cannot start the reclaimer thread");
    pthread_attr_destroy(&attr);
    reclaimer_started = true;
  }
  reclaimer_kicked = true;
  pthread_cond_signal(&reclaimer_wake);
  pthread_mutex_unlock(&reclaimer_lock);
}

static inline unsigned domain_bucket(const void *domain) {
  uintptr_t h = (uintptr_t)domain;
  h ^= h >> 17;
  h *= 0x9E3779B97F4A7C15u;
  return (unsigned)(h >> 56) & (DP_DOMAIN_BUCKETS - 1);
}

// The list of `domain`, made if missing (under retire_lock).
static dp_domain_list *domain_list(const void *domain) {
  unsigned b = domain_bucket(domain);
  for (dp_domain_list *l = domain_buckets[b]; l; l = l->next)
    if (l->domain == domain) return l;
  dp_domain_list *l = calloc(1, sizeof *l);
  if (!l) dp_fatal("dp_retire: out of memory");
  l->domain = domain;
  l->next = domain_buckets[b];
  domain_buckets[b] = l;
  l->all_next = domain_lists;
  domain_lists = l;
  return l;
}

// Unlinks and frees the empty lists (under retire_lock).
static void drop_empty_lists(void) {
  for (dp_domain_list **p = &domain_lists; *p;) {
    dp_domain_list *l = *p;
    if (l->head) {
      p = &l->all_next;
      continue;
    }
    *p = l->all_next;
    dp_domain_list **q = &domain_buckets[domain_bucket(l->domain)];
    while (*q != l) q = &(*q)->next;
    *q = l->next;
    free(l);
  }
}

void dp_retire_in(const void *domain, void *ptr, void (*free_fn)(void *)) {
  if (!ptr) return;
  pthread_once(&key_once, make_key);
  dp_deferred *d = malloc(sizeof *d);
  if (!d) dp_fatal("dp_retire: out of memory");
  d->ptr = ptr;
  d->free_fn = free_fn;
  d->domain = domain;
  d->next = NULL;
  pthread_mutex_lock(&retire_lock);
  // Sections that entered before this bump may hold ptr; later ones cannot. (Q_RETIRE)
  // Under the lock: each domain's list stays in epoch order.
  d->epoch = __atomic_add_fetch(&dp_global_epoch, 1, __ATOMIC_SEQ_CST) - 1;
  dp_domain_list *l = domain_list(domain);
  if (l->tail)
    l->tail->next = d;
  else
    l->head = d;
  l->tail = d;
  uint64_t n = __atomic_add_fetch(&retired_count, 1, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&retire_lock);
  // The reclaimer sleeps while nothing waits: wake it when the first item arrives.
  if (n == 1) kick_reclaimer();
}

// Whether an open slot of `domain` began at or before `epoch` (after a barrier).
static bool domain_held(const void *domain, uint64_t epoch) {
  for (dp_reader *r = __atomic_load_n(&readers, __ATOMIC_ACQUIRE); r; r = r->next) {
    for (unsigned i = 0; i < DP_READ_SLOTS; i++) {
      uint64_t e = __atomic_load_n(&r->slots[i].epoch, __ATOMIC_ACQUIRE);
      if (e == 0 || e > epoch) continue;
      if (slot_meets(&r->slots[i], domain)) return true;
    }
  }
  return false;
}

// Model: Q_FREE_OR_RETIRE.
bool dp_free_or_retire(const void *domain, void *ptr, void (*free_fn)(void *)) {
  if (!ptr) return true;
  pthread_once(&key_once, make_key);
  // As dp_retire_in's epoch: sections that entered before the bump may hold ptr.
  // (Q_FREE_OR_RETIRE_BUMP)
  uint64_t epoch = __atomic_add_fetch(&dp_global_epoch, 1, __ATOMIC_SEQ_CST) - 1;
  // Q_FREE_OR_RETIRE_BARRIER, then Q_FREE_OR_RETIRE_SCAN (domain_held: every slot, the
  // caller's own included).
  if (full_barrier_everywhere() && !domain_held(domain, epoch)) {
    free_fn(ptr);
    return true;
  }
  dp_retire_in(domain, ptr, free_fn);
  return false;
}

void dp_retire(void *ptr, void (*free_fn)(void *)) { dp_retire_in(DP_ANY_DOMAIN, ptr, free_fn); }

uint64_t dp_retired_count(void) { return __atomic_load_n(&retired_count, __ATOMIC_RELAXED); }

// One open section seen by a scan.
typedef struct {
  const void *domain;
  const void *also;  // dp_read_also's second domain, or NULL
  uint64_t epoch;
} open_slot;

static bool domains_meet(const void *a, const void *b) {
  return a == b || a == DP_ANY_DOMAIN || b == DP_ANY_DOMAIN;
}

// Model: Q_RECLAIM. Only what was retired before the barrier may be judged by the scan
// after it (Q_RECLAIM_SNAPSHOT: the epoch read under retire_lock before the barrier; every
// item retired later has a later epoch, and is left for the next pass — without it, an
// item retired after the scan would be judged by a scan that could not see its readers:
// Model/README.md, BUG_RECLAIM_NO_SNAPSHOT).
uint64_t dp_reclaim(void) {
  pthread_once(&key_once, make_key);
  if (__atomic_load_n(&retired_count, __ATOMIC_RELAXED) == 0) return 0;
  // Q_RECLAIM_SNAPSHOT
  pthread_mutex_lock(&retire_lock);
  uint64_t cutoff = __atomic_load_n(&dp_global_epoch, __ATOMIC_SEQ_CST);
  pthread_mutex_unlock(&retire_lock);
  if (!full_barrier_everywhere()) {  // Q_RECLAIM_BARRIER
    // Nothing can be judged this pass: the next (fenced) pass will.
    kick_reclaimer();
    return dp_retired_count();
  }
  // Q_RECLAIM_SCAN: every open slot, this thread's included (a writer inside a dispatch
  // retires what that dispatch still reads).
  size_t cap = 64, count = 0;
  open_slot *open = malloc(cap * sizeof *open);
  if (!open) dp_fatal("dp_reclaim: out of memory");
  uint64_t oldest_any = UINT64_MAX;  // the oldest open section of any domain
  for (dp_reader *r = __atomic_load_n(&readers, __ATOMIC_ACQUIRE); r; r = r->next) {
    for (unsigned i = 0; i < DP_READ_SLOTS; i++) {
      uint64_t e = __atomic_load_n(&r->slots[i].epoch, __ATOMIC_ACQUIRE);
      if (e == 0) continue;
      if (count == cap) {
        cap *= 2;
        open_slot *grown = realloc(open, cap * sizeof *open);
        if (!grown) dp_fatal("dp_reclaim: out of memory");
        open = grown;
      }
      open[count].domain = __atomic_load_n(&r->slots[i].domain, __ATOMIC_RELAXED);
      open[count].also = __atomic_load_n(&r->slots[i].also, __ATOMIC_RELAXED);
      open[count].epoch = e;
      if (e < oldest_any) oldest_any = e;
      count++;
    }
  }
  // Each list gives up the prefix older than its domain's oldest open section (and than
  // the snapshot); the first item kept ends the list's part of the pass.
  dp_deferred *ready = NULL;
  uint64_t freed = 0, examined = 0;
  pthread_mutex_lock(&retire_lock);
  for (dp_domain_list *l = domain_lists; l; l = l->all_next) {
    uint64_t limit = cutoff;
    if (l->domain == DP_ANY_DOMAIN) {
      if (oldest_any < limit) limit = oldest_any;
    } else {
      for (size_t i = 0; i < count; i++)
        if (open[i].epoch < limit && (domains_meet(open[i].domain, l->domain) ||
                                      (open[i].also != NULL && open[i].also == l->domain)))
          limit = open[i].epoch;
    }
    // Held by a slot whose epoch is at or before the item's: free while epoch < limit.
    while (l->head) {
      dp_deferred *d = l->head;
      examined++;
      if (d->epoch >= limit) break;
      l->head = d->next;  // Q_RECLAIM_FREE
      if (!l->head) l->tail = NULL;
      d->next = ready;
      ready = d;
      freed++;
    }
  }
  free(open);
  bool left_any = false;
  if (freed) {
    drop_empty_lists();
    reclaiming++;
  }
  uint64_t left = __atomic_sub_fetch(&retired_count, freed, __ATOMIC_RELAXED);
  left_any = left > 0;
  __atomic_store_n(&last_pass_examined, examined, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&retire_lock);
  while (ready) {
    dp_deferred *next = ready->next;
    ready->free_fn(ready->ptr);
    free(ready);
    ready = next;
  }
  if (freed) {
    pthread_mutex_lock(&retire_lock);
    reclaiming--;
    pthread_mutex_unlock(&retire_lock);
  }
  // Something is still held by a reader: the reclaimer thread tries again later.
  if (left_any) kick_reclaimer();
  return left;
}

uint64_t dp_reclaim_last_examined(void) {
  return __atomic_load_n(&last_pass_examined, __ATOMIC_RELAXED);
}

// Waits while another thread's open slot matches; `target` is the epoch bumped by the
// caller (sections that began after it are not waited for). Model: Q_WAIT_SCAN, in
// Q_WAIT_MEMBER and Q_WAIT_DOMAIN.
static void wait_for_slots(const void *domain, const void *member, uint64_t target) {
  dp_reader *self = dp_tls_reader;
  for (dp_reader *r = __atomic_load_n(&readers, __ATOMIC_ACQUIRE); r; r = r->next) {
    if (r == self) continue;  // the caller's own sections are never waited for
    for (unsigned i = 0; i < DP_READ_SLOTS; i++) {
      dp_read_slot *s = &r->slots[i];
      for (unsigned spins = 0;; spins++) {
        uint64_t e = __atomic_load_n(&s->epoch, __ATOMIC_ACQUIRE);
        if (e == 0 || e >= target) break;
        const void *m = __atomic_load_n(&s->member, __ATOMIC_RELAXED);
        bool matches = slot_meets(s, domain) && (!member || m == member || m == DP_ANY_DOMAIN);
        if (!matches) break;
        if (spins < 64)
          cpu_relax();
        else if (spins < 1000)
          sched_yield();
        else {
          struct timespec t = {0, 100 * 1000};
          nanosleep(&t, NULL);
        }
      }
    }
  }
}

// A wait's barrier: until a barrier can be trusted (membarrier works, or the pause after
// its failure is over: see full_barrier_everywhere), pause and try again.
static void barrier_for_wait(void) {
  while (!full_barrier_everywhere()) {
    struct timespec t = {0, 100 * 1000};
    nanosleep(&t, NULL);
  }
}

// The member wait's barrier. A dispatch names the member it calls with a plain store and
// no fence (dp_read_calling), in either mode, then reads the member's removed flag: only a
// barrier on every thread orders the two for the wait's scan. membarrier is one; where it
// is missing or has failed — for sections that began before the failure too — the wait
// fences, pauses for SETTLE_NS (the timing assumption: every store buffer has drained, and
// every dispatch that read the flag after the fence sees it set) and fences again.
// Model: Q_WAIT_BARRIER in Q_WAIT_MEMBER (BUG_MEMBER_WAIT_NO_PAUSE is the fence alone).
static void barrier_for_member_wait(void) {
#if DP_HAVE_MEMBARRIER
  if (__atomic_load_n(&dp_membarrier_mode, __ATOMIC_ACQUIRE) == 1 && membarrier_everywhere())
    return;
#endif
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  struct timespec t = {0, SETTLE_NS};
  while (nanosleep(&t, &t) != 0 && errno == EINTR) {
  }
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

// Model: Q_WAIT_MEMBER.
void dp_wait_member_idle(const void *domain, const void *member) {
  pthread_once(&key_once, make_key);
  uint64_t target = __atomic_add_fetch(&dp_global_epoch, 1, __ATOMIC_SEQ_CST);  // Q_WAIT_BUMP
  barrier_for_member_wait();                                                   // Q_WAIT_BARRIER
  wait_for_slots(domain, member, target);                                      // Q_WAIT_SCAN
}

// Model: Q_WAIT_DOMAIN (the same steps).
void dp_wait_domain_idle(const void *domain) {
  pthread_once(&key_once, make_key);
  uint64_t target = __atomic_add_fetch(&dp_global_epoch, 1, __ATOMIC_SEQ_CST);
  barrier_for_wait();
  wait_for_slots(domain, NULL, target);
}

void dp_reclaim_wait(void) {
  if (dp_in_read_section()) dp_fatal("dp_reclaim_wait: called inside a read section");
  // Everything retired before this bump has an older epoch: wait until none is left.
  uint64_t target = __atomic_add_fetch(&dp_global_epoch, 1, __ATOMIC_SEQ_CST);
  for (unsigned spins = 0;; spins++) {
    dp_reclaim();
    // Items are on the list, in a batch being reclaimed, or freed.
    pthread_mutex_lock(&retire_lock);
    bool older = reclaiming > 0;
    // Each list is in epoch order: its head is its oldest item.
    for (dp_domain_list *l = domain_lists; l && !older; l = l->all_next)
      older = l->head != NULL && l->head->epoch < target;
    pthread_mutex_unlock(&retire_lock);
    if (!older) return;
    struct timespec t = {0, (spins < 10 ? 20 : 1000) * 1000};
    nanosleep(&t, NULL);
  }
}
