/*
 * grace_period.pml — the runtime's read sections and grace periods (dp_quiesce), with the
 * dispatch loops, removals, deinits and releases that rely on them. Checked by
 * Scripts/model-check.sh; Model/README.md explains the abstraction and the properties.
 *
 * Step names (Q_…, S_…, R_…, DR_…, CB_…) appear in the C and Swift code's comments, so
 * either side can be found from the other.
 *
 * Threads (processes):
 *   Sender   (thread 0)  a dispatch: MulticastProxy.deliver (MessageDispatch.swift) /
 *                        DelegateMulticast.send over a route list (dp_route.c's entry
 *                        loop); then a C library calling a callback adapter
 *                        (dp_callback.c's entries / closure_handler).
 *   Remover  (thread 1)  MulticastProxy.remove (MulticastProxy+Membership.swift
 *                        removeEntries), possibly from inside a dispatch of its own (a
 *                        delegate removing from its call); then a CallbackAdapter's last
 *                        release (CallbackRecord.deinit, CallbackAdapter.swift).
 *   Deferred (thread 2)  DeferredRelease's queue (DeferredRelease.swift), then later calls
 *                        of dp_reclaim (any later dp_synchronize / dp_retire /
 *                        Quiescence.reclaim in the process).
 *   Flusher(t)           thread t's store buffer draining to memory at any moment.
 *
 * Code map (lines as of commit 4bf8067; dp_quiesce's own steps, Q_…, are also named in
 * comments at their lines in CFFIShim/dp_quiesce.c and include/dp_quiesce*.h):
 *   S_ENTER/S_EXIT     Quiescence.readSection (MulticastProxy.swift:367), dp_route.c:54,
 *                      DelegateMulticast.swift:151
 *   S_LOAD             currentTable (MulticastProxy.swift:376); route->list (dp_route.c:62);
 *                      published.load (DelegateMulticast.swift:152)
 *   S_RETAIN           entry.delegate (MessageDispatch.swift:61); tryRetain
 *                      (DelegateMulticast.swift:165)
 *   S_CHECK            entry.isRemoved (MessageDispatch.swift:70); t->node->removed
 *                      (dp_route.c:78); responder.isRemoved (DelegateMulticast.swift:163)
 *   S_CALL             invocation.invoke(target:) (MessageDispatch.swift:78); the target's
 *                      IMP (dp_route.c:81)
 *   S_RELEASE_PREV     Invocation.invoke(target:)'s `previous` (Invocation.swift:311-313);
 *                      responder.object.release() (DelegateMulticast.swift:172)
 *   S_FINISH           finish(fold, index, list, table) (DelegateMulticast.swift:179)
 *   R_LOCK..R_UNLOCK   removeEntries (MulticastProxy+Membership.swift:168-175): markRemoved
 *                      (171 → Route.swift:114 dp_route_node_mark_removed, :120
 *                      DeferredRelease.release), rebuildResponders (173)
 *   R_RETIRE_LIST      dp_route_set_targets (dp_route.c:355-366: publish, dp_retire(old))
 *   R_GRACE            Quiescence.synchronize() (MulticastProxy+Membership.swift:177)
 *   R_RELEASE_GONE     withExtendedLifetime(released) (MulticastProxy+Membership.swift:178)
 *   R_RELEASE_TABLE    DelegateMulticast.retire (DelegateMulticast.swift:325)
 *   R_RETIRE_NODE      RouteMembership.deinit → dp_route_node_retire (Route.swift:81)
 *   DI_*               RouteMembership.watch's deallocation handler (Route.swift:104-106)
 *   DR_*               DeferredRelease.release (DeferredRelease.swift:17-19)
 *   CB_ENTER..CB_EXIT  DEFINE_CALLBACK_ENTRY (dp_callback.c:287-325), closure_handler
 *   CB_RELEASE..FREE   CallbackRecord.deinit (CallbackAdapter.swift:404-405), then its
 *                      `receiver` let is released
 *
 * Members of the proxy, in route order:
 *   D  a weakly held delegate whose last outside reference goes during its own call, so
 *      the dispatch's reference is the last one: releasing it runs D's deinit on the
 *      dispatch's thread, inside its read section; the deinit (a deallocation handler:
 *      RouteMembership.watch) marks D removed and waits out a grace period.
 *   A  a weakly held delegate ("victim"), removed by the Remover; its method may take the
 *      proxy's lock (a delegate that adds another member from its call).
 *   S  a strongly held delegate, removed with A; the removal's list of gone entries holds
 *      its last reference, and its deinit waits out a grace period.
 *
 * Memory-ordering abstraction (see README): total store order with one store-buffer slot
 * per thread for the stores the protocol orders with fences — a reader's `state` and
 * `waiting`. A buffered store is invisible to other threads until drained (by the thread's
 * Flusher at any time, by a fence of its own, or by a writer's membarrier, which drains
 * every thread at once). Every other shared store is seq_cst or is followed by a full
 * barrier before the thread's next shared load, and is modelled as immediately visible.
 *
 * Compile-time switches (spin -D…):
 *   MEMBARRIER            writers use membarrier, readers do not fence (else: fence mode)
 *   BUG_2152b30           the removed check before the release of the previous target
 *   BUG_e5e0d80           removal releases gone members (deinit, grace period) under the lock
 *   BUG_WAIT_FENCE        no fence after `waiting = 0` (also part of 2152b30's fix)
 *   BUG_NO_READER_FENCE   fence mode without the reader's fence on entry
 *   BUG_LOCAL_BARRIER     membarrier mode whose writer barrier is only a local fence
 *   BUG_NO_WAITING        writers ignore `waiting` (two removals inside dispatch)
 *   BUG_RECLAIM_NO_SNAPSHOT  dp_reclaim as committed: frees what was retired after its scan
 *   BUG_ADAPTER_NO_GRACE  (ADAPTER) the receiver released without a grace period
 *   ADAPTER               the callback-adapter scenario instead of the dispatch one
 *   NO_CLOSURE_CHECK      drop (b)'s closure assertion, so that a bug variant's shortest
 *                         trail shows property (a) itself failing
 *   FINDING_SWIFT_TABLE   DelegateMulticast.send's unretained table after a nested grace
 *                         period (see README: open finding)
 */

#define NR 2          /* threads that enter read sections: Sender, Remover */
#define NT 3          /* all threads: + Deferred */
#define T_SEND 0
#define T_REMOVE 1
#define T_DEFER 2

#define D 0
#define A 1
#define S 2
#define NM 3
#define NONE 255

/* Retired C memory (dp_retire): the old route list, A's route node. */
#define L0 0
#define NODE_A 1
#define NI 2

#define LOC_STATE 0
#define LOC_WAITING 1

/* ---- dp_quiesce's shared state ---- */
byte epoch = 1;         /* dp_global_epoch */
byte state[NT];         /* dp_reader.state as memory holds it */
bit waiting[NT];        /* dp_reader.waiting */
bit sb_full[NT];        /* store buffer: one slot per reader thread */
bit sb_loc[NT];
byte sb_val[NT];

bit retired[NI];        /* dp_retire'd */
bit freed[NI];          /* freed by dp_reclaim */
byte tag[NI];           /* dp_deferred.epoch */
byte pending;           /* retired_count */

/* ---- the proxy ---- */
byte list = 0;          /* published route list: 0 = [D, A, S], 1 = [D] */
byte lock = NONE;       /* the proxy's lock (MulticastProxy.state) */
bit removed[NM];        /* route node's removed flag (RouteMembership) */
bit dead[NM];           /* deinit began (tryRetain fails) */
byte rc[NM];            /* strong references */
bit returned[NM];       /* remove(m) has returned to its caller */
bit queued;             /* A's closure methods handed to DeferredRelease */
bit closure_freed;      /* ... and released */
bit swift_freed;        /* the Swift table of list 0 released (DelegateMulticast.retire) */

/* ---- a callback adapter (dp_callback) ---- */
bit receiver = 1;       /* dp_callback.receiver != NULL */
bit receiver_freed;     /* the receiver object released (CallbackRecord's `receiver`) */

/* ---- progress, for the liveness property ---- */
bit send_done, remove_done, defer_done;

/* ---------------------------------------------------------------- memory model */

inline drain(t) {
  if
  :: t < NR && sb_full[t] ->
     if
     :: sb_loc[t] == LOC_STATE -> state[t] = sb_val[t]
     :: else -> waiting[t] = sb_val[t]
     fi;
     sb_full[t] = 0
  :: else -> skip
  fi
}

/* A relaxed/release store that may stay in the thread's buffer (TSO). */
inline buffered_store(t, loc, v) {
  atomic { drain(t); sb_loc[t] = loc; sb_val[t] = v; sb_full[t] = 1 }
}

/* full_barrier_everywhere (dp_quiesce.c): membarrier makes every running thread pass a
 * full barrier before it returns; the fallback fences the calling thread only. */
inline barrier_everywhere(t) {
#if defined(MEMBARRIER) && !defined(BUG_LOCAL_BARRIER)
  atomic { drain(0); drain(1) }
#else
  atomic { drain(t) }
#endif
}

/* Another thread reads reader r's record: r's buffered store may have drained by then
 * or not (draining lazily, when someone looks, gives every observable order). */
inline observe(r) {
  if
  :: drain(r)
  :: skip
  fi
}

#ifdef BUG_NO_WAITING
#define QUIET(r) (state[r] == 0 || state[r] >= target)
#else
#define QUIET(r) (state[r] == 0 || state[r] >= target || waiting[r])
#endif

/* Q_SYNC_WAIT: dp_synchronize's spin on one reader record (a blocking wait here, so a
 * wait that never ends is a deadlock the search reports); the reader's buffered store
 * may drain while it spins. */
inline wait_for(r) {
  do
  :: QUIET(r) -> break
  :: atomic { sb_full[r] -> drain(r) }
  od
}

/* ---------------------------------------------------------------- dp_quiesce */

/* Q_ENTER: dp_read_enter_inline (dp_quiesce_inline.h). */
inline read_enter(t) {
  if
  :: nest == 0 ->
     buffered_store(t, LOC_STATE, epoch);     /* Q_ENTER_STATE: state = epoch (relaxed) */
#if !defined(MEMBARRIER) && !defined(BUG_NO_READER_FENCE)
     atomic { drain(t) }                      /* Q_ENTER_FENCE: seq_cst thread fence */
#endif
  :: else -> skip
  fi;
  nest++
}

/* Q_EXIT: dp_read_exit_inline. */
inline read_exit(t) {
  nest--;
  if
  :: nest == 0 -> buffered_store(t, LOC_STATE, 0)   /* Q_EXIT_STATE (release) */
  :: else -> skip
  fi
}

/* Q_RECLAIM: dp_reclaim. Locals: r, oldest, i, snap. Only what was retired before the
 * scan began may be freed by it: a reader may enter after the scan, load a pointer a
 * writer then unpublishes and retires, and the scan did not see that reader. */
inline reclaim(t) {
  atomic { snap = epoch; quiet = (pending == 0) };   /* Q_RECLAIM_SNAPSHOT */
#ifdef BUG_RECLAIM_NO_SNAPSHOT
  quiet = 0;
  snap = 255;
#endif
  if
  :: quiet -> skip   /* nothing retired before the snapshot: nothing this call may free */
  :: else ->
     barrier_everywhere(t);                   /* Q_RECLAIM_BARRIER */
     /* Q_RECLAIM_SCAN: the oldest active state, one record at a time. */
     atomic { observe(0); oldest = (state[0] != 0 -> state[0] : 255) };
     atomic {
       observe(1);
       if
       :: state[1] != 0 && state[1] < oldest -> oldest = state[1]
       :: else -> skip
       fi
     };
     atomic {                                 /* Q_RECLAIM_FREE: epoch < oldest, snapshot */
       i = 0;
       do
       :: i < NI ->
          if
          :: retired[i] && !freed[i] && tag[i] < oldest && tag[i] < snap ->
             freed[i] = 1; pending--
          :: else -> skip
          fi;
          i++
       :: else -> break
       od
     }
  fi
}

/* Q_RETIRE: dp_retire — tagged with the epoch before a bump; never blocks. */
inline retire(t, item) {
  atomic { drain(t); tag[item] = epoch; epoch++; retired[item] = 1; pending++ }
}

/* Q_SYNC: dp_synchronize. Locals: inside, target, r, oldest, i. */
inline synchronize(t) {
  inside = (nest > 0);
  if
  :: inside -> waiting[t] = 1                 /* Q_SYNC_WAITING (seq_cst) */
  :: else -> skip
  fi;
  atomic { drain(t); epoch++; target = epoch }   /* Q_SYNC_BUMP (seq_cst add_fetch) */
  barrier_everywhere(t);                      /* Q_SYNC_BARRIER */
  /* Q_SYNC_SCAN: every other reader's record, in turn. */
  if
  :: t != 0 -> wait_for(0)
  :: else -> skip
  fi;
  if
  :: t != 1 -> wait_for(1)
  :: else -> skip
  fi;
  if
  :: inside ->
#ifdef BUG_WAIT_FENCE
     buffered_store(t, LOC_WAITING, 0)      /* seq_cst store, no fence: later loads pass it */
#else
     atomic { drain(t); waiting[t] = 0 }     /* Q_SYNC_UNWAIT: store, then seq_cst fence */
#endif
  :: else -> skip
  fi;
  reclaim(t)                                  /* Q_SYNC_RECLAIM */
}

/* ---------------------------------------------------------------- objects */

/* A deinit that waits out a grace period (RuntimeObject's deallocation handlers:
 * RouteMembership.watch marks the membership removed, then Quiescence.synchronize). */
inline deinit(t, m) {
  dead[m] = 1;                                /* DI_BEGIN: tryRetain fails from here */
  removed[m] = 1;                             /* DI_MARK */
  synchronize(t)                              /* DI_GRACE */
}

/* Drops a strong reference; the last one runs the deinit on this thread. */
inline release(t, m) {
  atomic { rc[m]--; dying = (rc[m] == 0) };
  if
  :: dying -> deinit(t, m)
  :: else -> skip
  fi
}

/* ---------------------------------------------------------------- Sender (thread 0) */

/* S_CALL: the call of member m starts; properties (a) and (b) are checked at that moment.
 * D's last outside reference goes during its call; A's method may take the proxy's lock
 * (a delegate adding another member from its call: MulticastProxy.add). */
inline call(m) {
  atomic {
    assert(!returned[m]);                     /* (a) no call after remove returned */
    assert(!dead[m]);                         /* no call of an object whose deinit began */
#ifndef NO_CLOSURE_CHECK
    assert(!(m == A && closure_freed));       /* (b) the method closure it runs is alive */
#endif
    if
    :: m == D -> rc[D]--
    :: else -> skip
    fi
  };
  if
  :: m == A ->
     if
     :: skip ->                               /* S_CALL_LOCK: it does */
        atomic { lock == NONE -> lock = T_SEND };
        lock = NONE
     :: skip
     fi
  :: else -> skip
  fi
}

/* The list must be live whenever the dispatch reads it (route list: dp_retire'd). */
#ifdef FINDING_SWIFT_TABLE
#define LIST_LIVE(tb) (!(tb == 0 && (freed[L0] || swift_freed)))
#else
#define LIST_LIVE(tb) (!(tb == 0 && freed[L0]))
#endif

/* S_RETAIN: `entry.delegate` / UnownedObject.tryRetain — fails once the deinit began. */
inline retain(m) {
  atomic {
    assert(LIST_LIVE(tb));                    /* (b) the entry is read from the list */
    got = !dead[m];
    if
    :: got -> rc[m]++
    :: else -> skip
    fi
  }
}

/* S_CHECK: the member's removed flag, read through its route node. */
inline check(m) {
  atomic {
    assert(LIST_LIVE(tb));
    assert(!(m == A && freed[NODE_A]));       /* (b) the route node */
    rm = removed[m]
  }
}

proctype Sender() {
  byte nest, tb, m, prev = NONE, target, r, oldest, i, snap, count;
  bool quiet, inside, dying, got, rm, recv;

#ifndef ADAPTER
  read_enter(T_SEND);                         /* S_ENTER */
  atomic { tb = list; count = (tb == 0 -> 3 : 1); m = 0 };   /* S_LOAD */
  do
  :: m < count ->
#ifdef BUG_2152b30
     /* Before 2152b30: the removed check first; then Invocation.invoke(target:) released
      * the previous target when it took the new one, before the call. */
     check(m);
     if
     :: !rm ->
        retain(m);
        if
        :: got ->
           if
           :: prev != NONE -> release(T_SEND, prev)       /* S_RELEASE_PREV (before) */
           :: else -> skip
           fi;
           prev = m;
           call(m)
        :: else -> skip
        fi
     :: else -> skip
     fi;
#else
     retain(m);
     if
     :: got ->
        check(m);                                          /* last step before the call */
        if
        :: rm -> release(T_SEND, m)                        /* S_SKIP */
        :: else ->
           call(m);
           if
           :: prev != NONE -> release(T_SEND, prev)       /* S_RELEASE_PREV (after) */
           :: else -> skip
           fi;
           prev = m
        fi
     :: else -> skip
     fi;
#endif
     m++
  :: else -> break
  od;
  assert(LIST_LIVE(tb));                      /* S_FINISH: the fold's result reads it */
  if
  :: prev != NONE -> release(T_SEND, prev)    /* S_RELEASE_LAST */
  :: else -> skip
  fi;
  read_exit(T_SEND);                          /* S_EXIT */
#endif
#ifdef ADAPTER
  /* A C library calls a callback adapter (dp_callback.c's entries). */
  read_enter(T_SEND);                         /* CB_ENTER */
  recv = receiver;                            /* CB_LOAD: record->receiver */
  if
  :: recv -> assert(!receiver_freed)          /* CB_CALL: (b) the receiver is alive */
  :: else -> skip                             /* released: the entry traps */
  fi;
  read_exit(T_SEND);                          /* CB_EXIT */
#endif
  atomic { drain(T_SEND); send_done = 1 }     /* the thread ends (its stores drain) */
}

/* ---------------------------------------------------------------- Remover (thread 1) */

proctype Remover() {
  byte nest, target, r, oldest, i, snap;
  bool quiet, inside, dying;

  if
  :: read_enter(T_REMOVE)                     /* R_NESTED: from inside a dispatch */
  :: skip
  fi;
#ifndef ADAPTER
  atomic { lock == NONE -> lock = T_REMOVE }  /* R_LOCK: state.withLock */
  /* R_MARK: markRemoved (seq_cst; the kept closures go to DeferredRelease); R_PUBLISH:
   * rebuildResponders / dp_route_set_targets publishes the list without A and S. */
  atomic { removed[A] = 1; removed[S] = 1; queued = 1 };
  list = 1;
  retire(T_REMOVE, L0);                       /* R_RETIRE_LIST: dp_route_set_targets */
#ifdef BUG_e5e0d80
  release(T_REMOVE, S);                       /* the gone entries released under the lock */
#endif
  atomic { drain(T_REMOVE); lock = NONE };    /* R_UNLOCK */
  synchronize(T_REMOVE);                      /* R_GRACE */
  returned[A] = 1; returned[S] = 1;           /* R_RETURNED: remove's guarantee holds */
#ifndef BUG_e5e0d80
  release(T_REMOVE, S);                       /* R_RELEASE_GONE: withExtendedLifetime */
#endif
  swift_freed = 1;                            /* R_RELEASE_TABLE (DelegateMulticast.retire) */
  retire(T_REMOVE, NODE_A);                   /* R_RETIRE_NODE: RouteMembership.deinit */
#else
  /* The last adapter of a callback record goes (CallbackRecord.deinit). */
  receiver = 0;                               /* CB_RELEASE: dp_callback_release (seq_cst) */
#ifndef BUG_ADAPTER_NO_GRACE
  synchronize(T_REMOVE);                      /* CB_GRACE */
#endif
  receiver_freed = 1;                         /* CB_FREE: the record's receiver released */
#endif
  if
  :: nest > 0 -> read_exit(T_REMOVE)
  :: else -> skip
  fi;
  atomic { drain(T_REMOVE); remove_done = 1 }
}

/* ---------------------------------------------------------------- Deferred (thread 2) */

proctype Deferred() {
  byte nest, target, r, oldest, i, snap;
  bool quiet, inside;

  queued;                                     /* DR_QUEUE: DeferredRelease.release */
  synchronize(T_DEFER);                       /* DR_GRACE */
  closure_freed = 1;                          /* DR_DROP */
  /* A later reclaim (any later dp_synchronize / dp_retire / Quiescence.reclaim), once
   * the other threads are done: it must free everything retired. */
  (send_done && remove_done);
  reclaim(T_DEFER);                           /* RC_RECLAIM */
  defer_done = 1
}

init {
  atomic {
    rc[D] = 1; rc[A] = 1; rc[S] = 1;
    run Sender();
    run Remover();
#ifndef ADAPTER
    run Deferred()
#else
    defer_done = 1
#endif
  }
}

/* (d) Every removal, release and retirement completes (with weak fairness). */
ltl done { <> (send_done && remove_done && defer_done && pending == 0) }
