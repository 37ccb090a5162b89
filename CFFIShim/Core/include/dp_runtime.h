// dp_runtime.h — the C face of the DelegateProxy message runtime.
//
// What C sees of the runtime: selectors (`dp_sel`, interned, compared by identity),
// object handles (`dp_id`, whose first word is the class), IMPs (plain C function
// pointers `R (*)(dp_id self, dp_sel _cmd, args...)`) and `dp_msg_lookup`, the
// `objc_msg_lookup` of this runtime. The policy (method resolution through the
// superclass chain, forwarding, errors) lives in the Swift module MessageRuntime,
// which installs it here with `dp_set_resolver`. The functions MessageRuntime itself
// implements for C callers (dp_class_add_method, dp_class_lookup, dp_responds_to,
// dp_conforms_to) are declared in dp_message_runtime.h, in the CMessageRuntime target.
//
// Every field named with a leading underscore is private to the runtime; read the
// public ones only through the functions below.

#ifndef DP_RUNTIME_H
#define DP_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dp_autorelease.h"
#include "dp_quiesce_inline.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A selector (`SEL`): a method name, interned once and compared by pointer identity.
typedef const struct dp_selector *dp_sel;

/// An implementation: a C function pointer called as `R imp(dp_id self, dp_sel _cmd, ...)`
/// with the method's own argument and return types.
typedef void (*dp_imp)(void);

/// A class (`Class`). Created and owned by a Swift `RuntimeClass`.
typedef struct dp_class dp_class;

/// An object handle: what C sees as `id`. Its first word is its class (`dp_class *`);
/// the rest is private to the runtime. Owned by a Swift `RuntimeObject`.
typedef struct dp_object *dp_id;

/// A selector → method table (private layout; see dp_layout.h).
typedef struct dp_method_table dp_method_table;

// MARK: Selectors

/// Interns `name` and returns its selector (`sel_registerName`). Thread-safe.
/// Selectors live for the life of the process.
dp_sel dp_sel_register_name(const char *name);
/// Like `dp_sel_register_name` for a name of `length` bytes that need not be NUL-terminated.
dp_sel dp_sel_register_name_n(const char *name, size_t length);
/// The selector named `name` if it was registered, else NULL (`sel_getUid` that never
/// registers).
dp_sel dp_sel_lookup_name(const char *name);
/// The selector's name (`sel_getName`); valid for the life of the process.
const char *dp_sel_get_name(dp_sel sel);
/// How many distinct selectors have been registered.
size_t dp_sel_count(void);

// MARK: Objects and classes

/// The class of `obj` (`object_getClass`); NULL for NULL.
dp_class *dp_object_get_class(dp_id obj);
/// The class's name (`class_getName`).
const char *dp_class_get_name(const dp_class *cls);

// MARK: Messaging

/// The implementation `obj` runs for `sel` (`objc_msg_lookup`): its own methods first,
/// then its class's (through the superclass chain), then the forwarding IMP for the
/// signature the object gives. Never NULL: an unknown selector yields an IMP that traps
/// with "-[Class sel]: unrecognized selector sent to instance 0x…", and a NULL receiver
/// yields an IMP that returns zero (messaging nil), as in Objective-C.
dp_imp dp_msg_lookup(dp_id obj, dp_sel sel);

/// Opens a message section for `obj` on the calling thread (nestable): until the matching
/// dp_msg_section_end, an IMP looked up for `obj` is not freed, even if its method is
/// replaced or removed meanwhile (a replaced method's code is reclaimed after every
/// section that could have looked it up has ended; nobody waits for that). DP_MSG_SEND
/// opens one around its lookup and call; a caller of dp_msg_lookup that may race with a
/// method change opens one itself. Returns 0 (a value for DP_MSG_SEND's guard variable).
int dp_msg_section_begin(dp_id obj);
/// dp_msg_section_begin for DP_MSG_SEND: `frame` is the caller's (__builtin_frame_address(0)),
/// so that a route or callback entry can tell the section was left by unwinding (longjmp).
int dp_msg_section_begin_at(dp_id obj, const void *frame);
/// Ends the innermost message section of the calling thread.
void dp_msg_section_end(void);
/// DP_MSG_SEND's cleanup: ends the section its guard variable stands for (inlined).
static inline __attribute__((always_inline)) void dp_msg_section_cleanup(int *guard) {
  (void)guard;
  dp_read_exit_inline();
}
/// DP_MSG_SEND's section entry, inlined (dp_msg_section_begin_at).
static inline __attribute__((always_inline)) int dp_msg_section_enter_(dp_id obj,
                                                                       const void *frame) {
  dp_read_enter_at_inline(obj, frame);
  return 0;
}

/// The IMP dp_msg_lookup answers for a nil receiver or one being deallocated (dp_nil_imp():
/// zero in every result register).
extern void (*const dp_msg_nil_imp)(void);
/// The most bytes of result DP_MSG_SEND can answer zero for without calling (1 MiB, the
/// runtime's frame limit), and those zero bytes (never written: not `const` only so that
/// they take no room in the binary).
#define DP_ZERO_RESULT_MAX (1 << 20)
extern unsigned char dp_zero_result[DP_ZERO_RESULT_MAX];

#ifdef __cplusplus
}  // extern "C"
/// DP_MSG_SEND's zero of type T (C++).
template <typename T>
static inline T dp_zero_value_() {
  static_assert(sizeof(T) <= DP_ZERO_RESULT_MAX, "DP_MSG_SEND: result too large");
  return *reinterpret_cast<const T *>(static_cast<const void *>(dp_zero_result));
}
template <>
inline void dp_zero_value_<void>() {}
#define DP_ZERO_OF_(call) dp_zero_value_<decltype(call)>()
#define DP_RESULT_FITS_(call) static_assert(true, "checked by dp_zero_value_")
extern "C" {
#else
/// DP_MSG_SEND's zero of the type of `call` (never evaluated): void for void, else the
/// type's bytes from dp_zero_result.
#define DP_IS_VOID_(call) __builtin_types_compatible_p(__typeof__(call), void)
#define DP_NONVOID_TYPE_(call) __typeof__(__builtin_choose_expr(DP_IS_VOID_(call), 0, call))
#define DP_ZERO_OF_(call)                                                                 \
  __builtin_choose_expr(                                                                 \
      DP_IS_VOID_(call), (void)0,                                                        \
      *(const DP_NONVOID_TYPE_(call) *)(const void *)dp_zero_result)
#define DP_RESULT_FITS_(call)                                          \
  _Static_assert(sizeof(DP_NONVOID_TYPE_(call)) <= DP_ZERO_RESULT_MAX, \
                 "DP_MSG_SEND: a result over DP_ZERO_RESULT_MAX bytes")
#endif

/// Sends a message from C: `DP_MSG_SEND(int64_t (*)(dp_id, dp_sel, double), obj, sel, 2.5)`.
/// The function type must match the method's signature exactly, as with `objc_msgSend`.
/// An object result is autoreleased: live until the calling thread's innermost
/// `dp_autoreleasepool_pop` (dp_autorelease.h), or its exit; the caller does not release it.
/// The lookup and the call run in a message section (dp_msg_section_begin), so a method
/// replaced by another thread meanwhile is not freed under the call. A nil receiver, or
/// one being deallocated, answers zero for every result type — a struct returned through a
/// hidden pointer and `long double` included — without a call (the arguments are then not
/// evaluated). A GNU C statement expression (GCC, Clang); `obj` and `sel` are evaluated
/// more than once.
#define DP_MSG_SEND(FunctionType, obj, sel, ...)                                        \
  __extension__({                                                                       \
    DP_RESULT_FITS_(((FunctionType)0)((obj), (sel), ##__VA_ARGS__));                    \
    int dp_msg_guard_ __attribute__((cleanup(dp_msg_section_cleanup), unused)) =        \
        dp_msg_section_enter_((obj), __builtin_frame_address(0));                       \
    dp_imp dp_msg_imp_ = dp_msg_lookup((obj), (sel));                                   \
    __builtin_expect(dp_msg_imp_ == dp_msg_nil_imp, 0)                                  \
        ? DP_ZERO_OF_(((FunctionType)dp_msg_imp_)((obj), (sel), ##__VA_ARGS__))         \
        : ((FunctionType)dp_msg_imp_)((obj), (sel), ##__VA_ARGS__);                     \
  })

// MARK: Runtime internals used by MessageRuntime (no policy here)

/// The resolver MessageRuntime installs: called on a cache miss; returns the IMP to run.
typedef dp_imp (*dp_resolver_fn)(dp_id obj, dp_sel sel);
void dp_set_resolver(dp_resolver_fn resolver);

/// Allocates an empty method table with room for at least `capacity` entries.
dp_method_table *dp_method_table_create(uint32_t capacity);
/// Finds `sel` in `table` (NULL table allowed): its IMP, or NULL when absent.
dp_imp dp_method_table_find_imp(const dp_method_table *table, dp_sel sel);
/// Adds an entry. The caller serialises writers and has made sure the table has room
/// (`dp_method_table_has_room`). Readers may run concurrently.
void dp_method_table_insert(dp_method_table *table, dp_sel sel, dp_imp imp, const char *types);
/// Adds an entry that carries a context pointer for its IMP (see dp_route.h).
void dp_method_table_insert_context(dp_method_table *table, dp_sel sel, dp_imp imp,
                                    const char *types, void *context);
/// Whether one more entry keeps the table at most 3/4 full.
bool dp_method_table_has_room(const dp_method_table *table);
/// A new table with twice the capacity holding every entry of `table`.
dp_method_table *dp_method_table_grow(const dp_method_table *table);
/// Like dp_lookup_entry, returning the IMP and the canonical types; false on a miss.
bool dp_lookup_method(dp_id obj, dp_sel sel, dp_imp *imp, const char **types);
/// Frees a table (a `free_fn` for dp_retire_in).
void dp_method_table_free(void *table);
/// How many method tables exist (made and not yet freed): for tests of reclamation.
uint64_t dp_method_tables_live(void);

/// Class: create/destroy, cache publish (the old cache is retired: freed after a grace period).
dp_class *dp_class_create(const char *name, dp_class *superclass, void *owner);
void dp_class_destroy(dp_class *cls);
dp_method_table *dp_class_cache(const dp_class *cls);
void dp_class_publish_cache(dp_class *cls, dp_method_table *cache);
void *dp_class_owner(const dp_class *cls);
void dp_class_set_owner(dp_class *cls, void *owner);

/// Object handle: create/destroy, per-object table publish, owner and context access.
dp_id dp_object_create(dp_class *cls, void *owner);
void dp_object_destroy(dp_id obj);
void *dp_object_owner(dp_id obj);
/// Retains the Swift object `owner` and returns it, or returns NULL if it is being
/// deallocated (the Swift runtime's swift_tryRetain, the check a weak load makes).
void *dp_owner_try_retain(void *owner);
void dp_object_set_owner(dp_id obj, void *owner);
dp_method_table *dp_object_methods(dp_id obj);
void dp_object_publish_methods(dp_id obj, dp_method_table *table);
void *dp_object_context(dp_id obj);
void dp_object_set_context(dp_id obj, void *context);

/// The IMP that traps for an unrecognized selector, and the IMP that returns zero for a
/// NULL receiver. `dp_note_unrecognized` records, for the calling thread, which receiver
/// and selector the trap will name (the trap cannot trust its own argument registers:
/// a struct-returning call shifts them).
dp_imp dp_unrecognized_imp(void);
dp_imp dp_nil_imp(void);
void dp_note_unrecognized(dp_id obj, dp_sel sel, const char *class_name);
/// Like dp_note_unrecognized, with the whole message the trap prints (copied): what the
/// receiver's own `doesNotRecognize` says.
void dp_note_unrecognized_message(dp_id obj, dp_sel sel, const char *message);
/// Prints `message` to stderr and aborts. The one way the C path reports misuse.
_Noreturn void dp_fatal(const char *message);

#ifdef __cplusplus
}
#endif

#endif // DP_RUNTIME_H
