/*
 * grace_period.pml — the runtime's read sections with domains, deferred reclamation and
 * scoped waits (dp_quiesce), with the dispatch loops, removals, deinits and adapter
 * releases that rely on them. Checked by Scripts/model-check.sh; Model/README.md explains
 * the abstraction and the properties.
 *
 * Step names (Q_…, S_…, R_…, DI_…, CB_…) appear in the C and Swift code's comments, so
 * either side can be found from the other (the script checks every Q_ step against
 * CFFIShim/Core/dp_quiesce.c and Core/include/dp_quiesce*.h).
 *
 * Threads (processes):
 *   Sender    (thread 0) a dispatch: DelegateMulticast.sendFast / Member.withDelegate /
 *                        a C route entry (dp_route.c, DP_TARGET_REMOVED) over multicast
 *                        X's published table — or over an unrelated multicast Y's. Its
 *                        member B's method may wait for the user's lock L (which the
 *                        Remover may hold) or never return. With ADAPTER: a C library
 *                        calling a callback adapter (dp_callback.c's entries).
 *   Remover   (thread 1) X.remove(A) (MulticastEngine.removeMembers → update →
 *                        Retired.release), plain or waiting (remove(_:waitingForCallsInFlight:),
 *                        MulticastProxy.remove), possibly holding L, possibly from inside
 *                        A's own call (a delegate removing itself). With ADAPTER: the last
 *                        adapter of a callback record goes (CallbackRecord.deinit).
 *   Reclaimer (thread 2) dp_quiesce.c's reclaimer thread: dp_reclaim, again whenever
 *                        something it waits for may have changed.
 * A store buffer per reader thread drains when its owner fences, when another thread
 * looks (observe) or when a membarrier passes.
 *
 * Members of X's first table TBL0, in order: A (strongly held; the table is its last
 * reference once removed, so freeing the table runs A's deinit and its route
 * membership's deallocation handler), then B (the delegate that may block).
 *
 * Memory-ordering abstraction (see README): total store order with one store-buffer slot
 * per reader thread for the stores the protocol orders with fences or barriers — a slot's
 * epoch (entry, exit) and its member (dp_read_calling). Every other shared store is
 * seq_cst, or precedes such a store in program order where only the later one is read
 * (a slot's domain, published by the epoch's release store), and is modelled as visible
 * at once.
 *
 * Compile-time switches (spin -D…):
 *   MEMBARRIER                 the reclaiming side uses membarrier, readers do not fence
 *                              (else: fence mode)
 *   ADAPTER                    the callback-adapter scenario instead of the dispatch one
 *   BUG_WRITER_WAITS           remove waits for every other thread's read section, as
 *                              dp_synchronize / dp_synchronize_all did
 *   BUG_WAIT_DOMAIN            the scoped wait waits for the member's whole multicast
 *                              (its domain) instead of calls to the member
 *   BUG_WAIT_SELF              the scoped wait does not skip the caller's own slots
 *   BUG_RECLAIM_SKIP_SELF      dp_free_or_retire's scan skips the caller's own slots
 *   BUG_RECLAIM_EPOCH_STRICT   a slot holds an item only if it began strictly before
 *                              the item's epoch (< instead of <=)
 *   BUG_RECLAIM_NO_SNAPSHOT    dp_reclaim judges items retired after its scan
 *   BUG_RECLAIM_ANY_DOMAIN     every open slot holds every item (domains ignored: the
 *                              old process-wide grace period)
 *   BUG_WRONG_DOMAIN           X's table retired in its publication's own domain instead
 *                              of the receiver's, which C route dispatches read in
 *   BUG_NO_READER_FENCE        fence mode without the reader's fence on entry
 *   BUG_MEMBER_WAIT_NO_PAUSE   the member wait trusting a local fence where no membarrier
 *                              passed (fence mode, or after a failed membarrier): the
 *                              reader names its member without a fence, in either mode
 *   BUG_CALLING_AFTER_CHECK    the member named after its removed check
 *   NO_FOREVER                 B never blocks forever (it may still wait for L): a bug
 *                              variant's shortest trail is then the lock cycle
 *   MB_FAIL                    (MEMBARRIER) membarrier may fail once after registration,
 *                              in any writer's barrier (this scenario's, or an unrelated
 *                              one's at any moment: the Reclaimer's extra branch), with
 *                              dispatches entered before it still open; with FIX_MB_SETTLE,
 *                              the code's settling pause (finding 3)
 *   BUG_LOCAL_BARRIER          membarrier mode whose barrier is only a local fence
 *   BUG_ADAPTER_NO_DOMAIN_WAIT (ADAPTER) the receiver released without waiting for the
 *                              record's readers
 *   CLOSING                    X's owner may be deallocated after the removal (X_DEINIT):
 *                              without a C face its domain is closing and B's node in X
 *                              is freed at once (dp_domain_closing), with one it is retired
 *   BUG_CLOSING_WITH_CFACE     (CLOSING) the domain declared closing although X has a C
 *                              face: its routes read the nodes without holding X
 */

#define NR 2          /* reader threads: Sender, Remover */
#define NT 3          /* all threads: + Reclaimer */
#define T_SEND 0
#define T_REMOVE 1
#define T_RECLAIM 2

/* Domains (a slot's or a retired item's). 0: none. */
#define DX 1          /* multicast X: its receiver's handle, shared by its publication */
#define DY 2          /* an unrelated multicast Y */
#define DP 3          /* X's publication's own identity (BUG_WRONG_DOMAIN) */
#define DREC 4        /* a callback record (ADAPTER) */
#define DANY 5        /* DP_ANY_DOMAIN */

/* Members (a slot's member). 0: none. */
#define MA 1
#define MB 2

/* Retired memory. */
#define TBL0 0        /* X's table [A, B] (Publication.replace → Retired.release) */
#define CLOS_A 1      /* A's closure method (RouteMembership.markRemoved → DeferredRelease) */
#define NODE_A 2      /* A's route node (RouteMembership.deinit → dp_route_node_retire) */
#define NODE_B 3      /* B's node in X (CLOSING: freed or retired by X's deinit) */
#define NI 4

#ifdef BUG_WRONG_DOMAIN
#define TBL_DOMAIN DP
#else
#define TBL_DOMAIN DX
#endif

#define LOC_EPOCH 0
#define LOC_MEMBER 1
#define FREE 255

/* ---- dp_quiesce's shared state: one slot per reader thread (nesting is not modelled
 * beyond one section per thread) ---- */
byte epoch = 1;         /* dp_global_epoch */
bit settled;            /* FIX_MB_SETTLE: the pause after a failed membarrier is over */
#ifdef MEMBARRIER
bit mb_mode = 1;        /* dp_membarrier_mode == 1 */
#else
bit mb_mode = 0;
#endif
byte sdom[NT];          /* slot.domain */
byte smem[NT];          /* slot.member */
byte sep[NT];           /* slot.epoch as memory holds it: 0 free */
bit sb_full[NT];        /* store buffer: one entry per thread */
bit sb_loc[NT];
byte sb_val[NT];

bit retired[NI];        /* dp_retire_in'd */
bit freed[NI];          /* freed (by dp_reclaim, or at once by dp_free_or_retire) */
byte tag[NI];           /* dp_deferred.epoch */
byte idom[NI];          /* dp_deferred.domain */
byte pending;           /* retired_count */
bit kick;               /* the reclaimer has something to retry: a retirement, or a
                         * section's exit reaching memory */

/* ---- multicast X and the user's lock ---- */
byte list = 0;          /* X's published table: 0 = TBL0 [A, B], 1 = [B] */
bit removed_a;          /* A's removed flag (its route node) */
bit a_dead;             /* A's deinit began */
byte lockL = FREE;      /* the user's lock L */
bit returned;           /* remove(A) has returned to its caller */
bit waited;             /* ... in the waiting form */

/* ---- X's owner (CLOSING): the multicast object, deallocated once nothing holds it ---- */
bit holds_x;            /* the Sender's Swift dispatch of X holds X (DelegateMulticast.__send) */
bit x_cface;            /* X has a C face: its routes read its nodes without holding X */
bit x_dead;             /* X's deinit ran */

/* ---- a callback adapter ---- */
bit receiver = 1;       /* dp_callback.receiver != NULL */
bit receiver_freed;     /* CallbackRecord's receiver released */

/* ---- progress ---- */
bit send_done, remove_done;
bit forever;            /* B never returns */
bit forever_x;          /* ... inside a read section of X */

/* ---------------------------------------------------------------- memory model */

inline drain(t) {
  if
  :: sb_full[t] ->
     if
     :: sb_loc[t] == LOC_EPOCH ->
        sep[t] = sb_val[t];
        if
        :: sb_val[t] == 0 -> kick = 1        /* an exit the reclaimer may be waiting for */
        :: else -> skip
        fi
     :: else -> smem[t] = sb_val[t]
     fi;
     sb_full[t] = 0
  :: else -> skip
  fi
}

/* A relaxed/release store that may stay in the thread's buffer (TSO, FIFO). */
inline buffered_store(t, loc, v) {
  atomic { drain(t); sb_loc[t] = loc; sb_val[t] = v; sb_full[t] = 1 }
}

/* full_barrier_everywhere (dp_quiesce.c): membarrier makes every running thread pass a
 * full barrier before it returns; the fence fallback fences the calling thread only.
 * With MB_FAIL the expedited command may fail once after registration: readers fence on
 * entry from their next section on (mb_mode = 0), the caller fences locally, and `ok`
 * says no barrier reached the readers. `mb` says a membarrier passed. */
inline barrier_everywhere(t) {
#if defined(MEMBARRIER) && !defined(BUG_LOCAL_BARRIER)
  atomic {
    if
    :: mb_mode -> drain(0); drain(1); ok = 1; mb = 1
#ifdef MB_FAIL
    :: mb_mode -> mb_mode = 0; drain(t); ok = 0; mb = 0
#endif
#ifdef FIX_MB_SETTLE
    :: !mb_mode -> drain(t); ok = settled; mb = 0
#else
    :: !mb_mode -> drain(t); ok = 1; mb = 0
#endif
    fi
  };
#ifdef FIX_MB_SETTLE
  /* The proposed fix: the thread whose membarrier failed pauses (the timing assumption:
   * every buffer drains), then lets fence-mode scans be trusted. */
  if
  :: !ok && !settled -> atomic { drain(0); drain(1); settled = 1 }
  :: else -> skip
  fi
#endif
  skip
#else
  atomic { drain(t); ok = 1; mb = 0 }
#endif
}

/* barrier_for_wait: after a failed membarrier, a pause of a millisecond before the scan,
 * for the stores of sections entered before the switch to leave their buffers — a timing
 * assumption the model states as: every buffer has drained. */
inline barrier_for_wait(t) {
  barrier_everywhere(t);
  if
  :: !ok -> atomic { drain(0); drain(1) }
  :: else -> skip
  fi
}

/* barrier_for_member_wait: a reader names its member with a plain store, in either mode
 * (Q_CALLING), so the member wait needs a barrier on every thread: membarrier, or where
 * none passed (fence mode, a failed membarrier — for sections entered before the failure
 * too) a pause of a millisecond between two fences, which the model states as: every
 * buffer has drained (the timing assumption of barrier_for_wait). */
inline barrier_for_member_wait(t) {
  barrier_everywhere(t);
#ifndef BUG_MEMBER_WAIT_NO_PAUSE
  if
  :: !mb -> atomic { drain(0); drain(1) }
  :: else -> skip
  fi
#else
  if                                         /* barrier_for_wait's rule: a pause only while */
  :: !ok -> atomic { drain(0); drain(1) }    /* the scan is untrusted */
  :: else -> skip
  fi
#endif
}

/* The reader's own entry fence (fence mode, or membarrier mode after the switch). */
#ifdef MEMBARRIER
#define READER_FENCES (!mb_mode)
#else
#define READER_FENCES 1
#endif

/* Another thread reads reader r's slot: r's buffered store may have drained by then or
 * not (draining lazily, when someone looks, gives every observable order). */
inline observe(r) {
  if
  :: drain(r)
  :: skip
  fi
}

#define MEETS(a, b) ((a) == (b) || (a) == DANY || (b) == DANY)

/* Whether reader r's slot holds an item of domain d retired at epoch e (domain_held,
 * dp_reclaim's judgement). */
#ifdef BUG_RECLAIM_EPOCH_STRICT
#define EPOCH_HOLDS(s, e) ((s) != 0 && (s) < (e))
#else
#define EPOCH_HOLDS(s, e) ((s) != 0 && (s) <= (e))
#endif
#ifdef BUG_RECLAIM_ANY_DOMAIN
#define HOLDS(s, sd, e, d) (EPOCH_HOLDS(s, e))
#else
#define HOLDS(s, sd, e, d) (EPOCH_HOLDS(s, e) && MEETS(sd, d))
#endif

/* ---------------------------------------------------------------- dp_quiesce */

/* Q_ENTER: dp_read_enter_inline (dp_quiesce_inline.h). The domain and member stores come
 * first and reach memory no later than the epoch's release store. */
inline read_enter(t, d) {
  atomic {
    drain(t); sdom[t] = d; smem[t] = 0;
    sb_loc[t] = LOC_EPOCH; sb_val[t] = epoch; sb_full[t] = 1   /* Q_ENTER_STATE */
  };
#ifndef BUG_NO_READER_FENCE
  atomic {                                   /* Q_ENTER_FENCE: seq_cst thread fence */
    if
    :: READER_FENCES -> drain(t)
    :: else -> skip
    fi
  }
#endif
}

/* Q_EXIT: dp_read_exit_inline. */
inline read_exit(t) {
  buffered_store(t, LOC_EPOCH, 0)            /* Q_EXIT_STATE (release) */
}

/* Q_CALLING: dp_read_calling — the member named before its removed check: a store, no
 * fence and no test of the mode, in either mode (the member wait's barrier orders it). */
inline read_calling(t, m) {
  buffered_store(t, LOC_MEMBER, m)
}

/* Q_RETIRE: dp_retire_in — tagged with the epoch before a seq_cst bump; never blocks. */
inline retire_in(t, item, d) {
  atomic {
    drain(t); tag[item] = epoch; epoch++; idom[item] = d;
    retired[item] = 1; pending++; kick = 1
  }
}

/* The scoped waits' spin on reader r's slot: a blocking wait here, so a wait that never
 * ends is a deadlock the search reports; r's buffered store may drain meanwhile. */
#ifdef BUG_WAIT_DOMAIN
#define MEMBER_MATCH(r, m) (sdom[r] == DX)
#else
#define MEMBER_MATCH(r, m) (smem[r] == (m))
#endif
#define BUSY(r, match) (sep[r] != 0 && sep[r] < target && (match))

inline spin_until_quiet(r, match) {
  do
  :: !BUSY(r, match) -> break
  :: atomic { sb_full[r] -> drain(r) }
  od
}

/* Q_WAIT_MEMBER: dp_wait_member_idle (wait_for_slots with a member). */
inline wait_member_idle(t, m) {
  atomic { drain(t); epoch++; target = epoch };   /* Q_WAIT_BUMP (seq_cst add_fetch) */
  barrier_for_member_wait(t);                     /* Q_WAIT_BARRIER */
  /* Q_WAIT_SCAN: every other thread's slots, in turn */
#ifndef BUG_WAIT_SELF
  if
  :: t != 0 -> spin_until_quiet(0, MEMBER_MATCH(0, m))
  :: else -> skip
  fi;
  if
  :: t != 1 -> spin_until_quiet(1, MEMBER_MATCH(1, m))
  :: else -> skip
  fi
#else
  spin_until_quiet(0, MEMBER_MATCH(0, m));
  spin_until_quiet(1, MEMBER_MATCH(1, m))
#endif
}

/* Q_WAIT_DOMAIN: dp_wait_domain_idle (wait_for_slots with a domain). */
inline wait_domain_idle(t, d) {
  atomic { drain(t); epoch++; target = epoch };   /* Q_WAIT_BUMP */
  barrier_for_wait(t);                            /* Q_WAIT_BARRIER */
  if                                              /* Q_WAIT_SCAN */
  :: t != 0 -> spin_until_quiet(0, MEETS(sdom[0], d))
  :: else -> skip
  fi;
  if
  :: t != 1 -> spin_until_quiet(1, MEETS(sdom[1], d))
  :: else -> skip
  fi
}

/* What freeing an item does beyond the memory: TBL0 held A's last reference, so A's
 * deinit runs on the freeing thread — its route membership's deallocation handler
 * (RouteMembership.watch) marks it removed and waits for A's calls in flight elsewhere,
 * then the membership's deinit retires A's route node in every domain. */
inline free_effects(t, item) {
  if
  :: item == TBL0 ->
     a_dead = 1;                               /* DI_BEGIN */
     removed_a = 1;                            /* DI_MARK */
     wait_member_idle(t, MA);                  /* DI_WAIT */
     retire_in(t, NODE_A, DANY)                /* DI_RETIRE_NODE (dp_retire) */
  :: else -> skip
  fi
}

/* Q_FREE_OR_RETIRE: dp_free_or_retire — free now, on this thread, if no slot of the
 * domain (the caller's own included) began before the bump; else retire. Never waits. */
inline free_or_retire(t, item, d) {
  atomic { drain(t); e0 = epoch; epoch++ };      /* Q_FREE_OR_RETIRE_BUMP */
  barrier_everywhere(t);                         /* Q_FREE_OR_RETIRE_BARRIER */
  /* Q_FREE_OR_RETIRE_SCAN: domain_held, one thread's slot at a time */
#ifdef BUG_RECLAIM_SKIP_SELF
  held = 0;
  if
  :: t != 0 -> atomic { observe(0); held = HOLDS(sep[0], sdom[0], e0, d) }
  :: else -> skip
  fi;
  if
  :: t != 1 -> atomic { observe(1); held = held || HOLDS(sep[1], sdom[1], e0, d) }
  :: else -> skip
  fi;
#else
  atomic { observe(0); held = HOLDS(sep[0], sdom[0], e0, d) };
  atomic { observe(1); held = held || HOLDS(sep[1], sdom[1], e0, d) };
#endif
  if
  :: ok && !held -> freed[item] = 1; free_effects(t, item)
  :: else -> retire_in(t, item, d)
  fi
}

/* Q_RECLAIM: dp_reclaim. Only what was retired before the barrier may be judged by the
 * scan after it: the batch is taken off the list first. */
inline reclaim(t) {
#ifndef BUG_RECLAIM_NO_SNAPSHOT
  atomic {                                       /* Q_RECLAIM_SNAPSHOT */
    i = 0;
    do
    :: i < NI -> batch[i] = (retired[i] && !freed[i]); i++
    :: else -> break
    od
  };
#endif
  barrier_everywhere(t);                         /* Q_RECLAIM_BARRIER */
  if
  :: !ok ->                                      /* nothing judged: all back, kick */
     atomic { batch[0] = 0; batch[1] = 0; batch[2] = 0; batch[3] = 0; kick = 1 };
     goto reclaimed
  :: else -> skip
  fi;
  /* Q_RECLAIM_SCAN: every open slot, one thread's at a time */
  atomic { observe(0); e0 = sep[0]; d0 = sdom[0] };
  atomic { observe(1); e1 = sep[1]; d1 = sdom[1] };
  atomic {
#ifdef BUG_RECLAIM_NO_SNAPSHOT
    /* The batch taken after the scan: an item retired since is judged by it. */
    i = 0;
    do
    :: i < NI -> batch[i] = (retired[i] && !freed[i]); i++
    :: else -> break
    od;
#endif
    i = 0;
    do
    :: i < NI ->
       if
       :: batch[i] && !HOLDS(e0, d0, tag[i], idom[i]) && !HOLDS(e1, d1, tag[i], idom[i]) ->
          freed[i] = 1; pending--                /* Q_RECLAIM_FREE */
       :: else -> batch[i] = 0                   /* still readable: back on the list */
       fi;
       i++
    :: else -> break
    od
  };
  /* The free functions run after the judgement, with no lock held. */
  i = 0;
  do
  :: i < NI ->
     if
     :: batch[i] -> batch[i] = 0; free_effects(t, i)
     :: else -> skip
     fi;
     i++
  :: else -> break
  od;
reclaimed:
  skip
}

/* ---------------------------------------------------------------- Sender (thread 0) */

#define TABLE_LIVE(tb) (!(tb == 0 && freed[TBL0]))

/* S_CALL: the call of member m starts; properties (a) and (b) are checked at that moment. */
inline call_starts(m) {
  atomic {
    if
    :: m == MA ->
       assert(!(returned && waited));         /* (a) none after a waiting remove returned */
       assert(!late);                         /* (a) none in a dispatch begun after remove */
       assert(!a_dead);                       /* (b) the member object is alive */
       assert(!freed[CLOS_A])                 /* (b) the closure method it runs */
    :: else -> skip
    fi
  }
}

proctype Sender() {
  byte dom, tb, m, target;
  bit late, rm;

#ifndef ADAPTER
  if
  :: dom = DX                                 /* a dispatch of X */
  :: dom = DY                                 /* of an unrelated multicast Y, member B */
  fi;
#ifdef CLOSING
  /* Who reads X: a Swift dispatch, which holds X for the call; or (with a C face) a C
   * route, which holds no reference to X; or, X gone without a C face, nobody (Y then). */
  if
  :: dom == DX ->
     if
     :: atomic { !x_dead -> holds_x = 1 }     /* S_HOLD */
     :: x_cface -> skip
     :: atomic { x_dead && !x_cface -> dom = DY }
     fi
  :: else -> skip
  fi;
#endif
  atomic { read_enter(T_SEND, dom); late = returned };   /* S_ENTER */
  if
  :: dom == DX -> tb = (x_dead -> 3 : list)  /* S_LOAD: the published table (3: the list
                                              * X's deinit left its C routes, empty) */
  :: else -> tb = 2
  fi;
  m = (tb == 0 -> MA : (tb == 3 -> MB + 1 : MB));
  do
  :: m <= MB ->
     assert(TABLE_LIVE(tb));                  /* (b) the entry is read from the table */
#ifdef BUG_CALLING_AFTER_CHECK
     atomic { assert(!(m == MA && freed[NODE_A])); rm = (m == MA && removed_a) };
     read_calling(T_SEND, m);
#else
     read_calling(T_SEND, m);                 /* S_CALLING (Q_CALLING) */
     atomic {                                 /* S_CHECK: the last step before the call */
       assert(TABLE_LIVE(tb));
       assert(!(m == MA && freed[NODE_A]));   /* (b) the route node */
       assert(!(dom == DX && m == MB && freed[NODE_B]));   /* (b) B's node in X */
       rm = (m == MA && removed_a)
     };
#endif
     if
     :: !rm ->
        call_starts(m);
        if
        :: m == MB ->
           if
           :: skip                            /* B returns */
           :: skip ->                         /* S_LOCK: B waits for L */
              atomic { lockL == FREE -> lockL = T_SEND };
              lockL = FREE
#ifndef NO_FOREVER
           :: forever = 1; forever_x = (dom == DX);
end_blocked: (0)                              /* B never returns */
#endif
           fi
        :: else -> skip
        fi
     :: else -> skip
     fi;
     m++
  :: else -> break
  od;
  assert(TABLE_LIVE(tb));                     /* S_FINISH: the fold reads the table */
  read_exit(T_SEND);                          /* S_EXIT */
#ifdef CLOSING
  holds_x = 0;                                /* __send's reference to X ends */
#endif
#else
  /* A C library calls a callback adapter (dp_callback.c's entries). */
  atomic { read_enter(T_SEND, DREC); late = 0 };   /* CB_ENTER */
  if
  :: receiver -> assert(!receiver_freed)      /* CB_LOAD, CB_CALL: (b) the receiver */
  :: else -> skip                             /* released: the entry traps */
  fi;
  read_exit(T_SEND);                          /* CB_EXIT */
#endif
  atomic { drain(T_SEND); send_done = 1 }     /* the thread ends (its stores drain) */
}

/* ---------------------------------------------------------------- Remover (thread 1) */

proctype Remover() {
  byte tb, target, e0;
  bit nested, holding, waiting, held, ok, mb;

#ifndef ADAPTER
  if
  :: skip
  :: nested = 1;                              /* R_NESTED: from A's own call */
     read_enter(T_REMOVE, DX);
     tb = list;
     read_calling(T_REMOVE, MA)
  fi;
  if
  :: skip
  :: skip ->                                  /* R_USER_LOCK: the caller holds L */
     atomic { lockL == FREE -> lockL = T_REMOVE }; holding = 1
  fi;
  if
  :: waiting = 0                              /* remove(_:) of a @Delegate multicast */
  :: waiting = 1                              /* remove(_:waitingForCallsInFlight: true) */
  fi;
  /* Under X's state lock, which nothing holds while waiting: */
  removed_a = 1;                              /* R_MARK (seq_cst) */
  retire_in(T_REMOVE, CLOS_A, DX);            /* R_RETIRE_CLOSURE: DeferredRelease.release */
  list = 1;                                   /* R_PUBLISH: Publication.replace */
  /* After the state lock: */
#ifdef BUG_WRITER_WAITS
  /* The old dp_synchronize: every other thread's read section begun before. */
  atomic { drain(T_REMOVE); epoch++; target = epoch };
  barrier_everywhere(T_REMOVE);
  spin_until_quiet(T_SEND, 1);
#endif
  free_or_retire(T_REMOVE, TBL0, TBL_DOMAIN); /* R_RELEASE: Retired.release */
  if
  :: waiting -> wait_member_idle(T_REMOVE, MA)   /* R_WAIT: removeMembers(waiting…) */
  :: else -> skip
  fi;
  atomic { returned = 1; waited = waiting };  /* R_RETURNED */
  if
  :: holding -> lockL = FREE
  :: else -> skip
  fi;
  if
  :: nested ->
     assert(TABLE_LIVE(tb));                  /* A's dispatch goes on reading its table */
     read_exit(T_REMOVE)
  :: else -> skip
  fi;
#ifdef CLOSING
  /* X_DEINIT: the remover's reference to X was the last (or not: skip). X's deinit
   * declares its domain closing when X has no C face — every reader of the domain holds
   * X, so none is open — and the release of its members' memberships then frees their
   * nodes at once (Quiescence.closing → dp_domain_closing, dp_route_node_retire); with a
   * C face they are retired in X's domain (its routes may still be reading them). */
  if
  :: atomic { !holds_x && !x_dead -> x_dead = 1 };
#ifdef BUG_CLOSING_WITH_CFACE
     freed[NODE_B] = 1                        /* X_CLOSING: even with a C face */
#else
     if
     :: !x_cface -> freed[NODE_B] = 1         /* X_CLOSING: freed at once */
     :: else -> retire_in(T_REMOVE, NODE_B, DX)   /* after x_dead: the routes unpublished */
     fi
#endif
  :: skip
  fi;
#endif
#else
  if
  :: skip
  :: nested = 1; read_enter(T_REMOVE, DY)     /* R_NESTED: inside an unrelated dispatch */
  fi;
  receiver = 0;                               /* CB_RELEASE: dp_callback_release (seq_cst) */
#ifndef BUG_ADAPTER_NO_DOMAIN_WAIT
  wait_domain_idle(T_REMOVE, DREC);           /* CB_WAIT: Quiescence.waitForReaders */
#endif
  receiver_freed = 1;                         /* CB_FREE: the record's receiver released */
  if
  :: nested -> read_exit(T_REMOVE)
  :: else -> skip
  fi;
#endif
  atomic { drain(T_REMOVE); remove_done = 1 }
}

/* ---------------------------------------------------------------- Reclaimer (thread 2) */

/* reclaimer_main: dp_reclaim whenever something it may be waiting for has changed (a
 * retirement, an exit reaching memory): the code's retries with back-off, minus those
 * that cannot free more than the last pass did. Idle: a valid end state. */
proctype Reclaimer() {
  byte i, e0, d0, e1, d1, target;
  bit batch[NI], ok, mb;

end_idle:
  do
  :: atomic { kick -> kick = 0 };
     reclaim(T_RECLAIM)
#ifdef MB_FAIL
  /* Any writer's barrier may be the one whose membarrier fails — an unrelated
   * multicast's, at any moment, before this scenario's remove marks A too: readers fence
   * on entry from then on; the failing thread pauses (FIX_MB_SETTLE). */
  :: atomic { mb_mode -> mb_mode = 0; drain(T_RECLAIM) };
#ifdef FIX_MB_SETTLE
     atomic { drain(0); drain(1); settled = 1 }
#else
     skip
#endif
#endif
  od
}

init {
  atomic {
#ifdef CLOSING
    if
    :: x_cface = 1
    :: skip
    fi;
#endif
    run Sender();
    run Remover();
#ifndef ADAPTER
    run Reclaimer()
#endif
  }
}

/* (d) The removal always completes, the dispatch unless a delegate never returns, and
 * everything retired is freed — except, while a delegate never returns, what its read
 * section holds: everything of its own domain and what was retired in every domain
 * (A's route node); X's table and closure are freed even then when that section is Y's. */
#ifndef ADAPTER
ltl done {
  <> (remove_done && (send_done || forever) &&
      (pending == 0 || forever_x || (forever && freed[TBL0] && freed[CLOS_A])))
}
#else
ltl done { <> (remove_done && send_done) }
#endif
