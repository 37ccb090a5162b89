// dp_swift_runtime.h — everything the package assumes about the Swift runtime it runs on,
// in one place: the runtime entry points it calls (declared below, and nowhere else) and
// the ABI facts its Swift code relies on (listed below; the code that relies on one names
// it, e.g. "RT5"). Each item says where the runtime or the ABI defines it (paths in the
// swiftlang/swift repository), what the package relies on, where, and the test in
// Tests/MessageRuntimeTests/SwiftRuntimeAssumptionTests.swift that fails if a toolchain
// changes it — so a changed toolchain fails a named test, not a user's program.
//
// RT1  swift_tryRetain(object) — include/swift/Runtime/HeapObject.h ("Atomically
//      increments the reference count of an object, unless it has already been
//      destroyed. Returns nil if the object is dead."), stdlib/public/runtime/HeapObject.cpp.
//      Relied on: while the object is alive it returns the object with one more strong
//      reference; once its deinit has begun (the strong count reached zero) it returns
//      NULL and changes no count, atomically against a concurrent last release; it may be
//      called on an object whose memory an unowned reference keeps (RT2).
//      Used by: dp_swift_try_retain (dp_swift_object.h: MessageRuntime's UnownedObject, the
//      multicasts' weakly held members), dp_owner_try_retain (dp_method_table.c).
//      Tests: "RT1 tryRetain on a live object takes one strong reference",
//             "RT1 tryRetain fails while the object's deinit runs",
//             "RT1 tryRetain fails after deinit, memory kept by an unowned reference".
// RT2  swift_unownedRetain / swift_unownedRelease(object) — HeapObject.h, and
//      stdlib/public/SwiftShims/swift/shims/RefCount.h (its object lifecycle: after deinit
//      the memory is freed only when the unowned count reaches zero).
//      Relied on: each adds / drops one unowned reference; while one is held the memory
//      stays allocated after deinit, so RT1 can be asked and answers NULL.
//      Used by: dp_swift_unowned_retain / _release (UnownedObject).
//      Tests: "RT2 unowned retain and release count one each",
//             "RT1 tryRetain fails after deinit, memory kept by an unowned reference".
// RT3  swift_release(object) — HeapObject.h. Relied on: drops the strong reference RT1
//      took (running deinit when it was the last). Used by: dp_swift_release
//      (SwiftEntry.swift, ClosureIMP.swift, dp_autorelease.c).
//      Test: "RT1 tryRetain on a live object takes one strong reference".
// RT4  swift_retainCount / swift_unownedRetainCount(object) — HeapObject.h (exported for
//      debugging). Only the tests call them, to observe RT1–RT3 and RT5.
// RT5  An existential of a class instance holds the reference in its inline buffer with
//      exactly one strong reference — docs/ABI/TypeLayout.rst ("Existential Container
//      Layout": a class reference fits the fixed-size buffer inline). Relied on: a
//      multicast member stores its delegate as `UnsafeMutablePointer<any P>` initialized
//      from the object and then released once (Unmanaged.release), so the stored
//      existential is +0 and is never deinitialized, only deallocated; `pointee` reads
//      copy it at +1, balanced by the compiler.
//      Used by: SwiftMember.swift, SwiftResponder.swift (Sources/DelegateProxy/SwiftProtocols).
//      Tests: "RT5 an object's existential holds one strong reference",
//             "RT5 a +0 existential calls and lets the object die".
// RT6  The reflection SPI `_forEachField(of:options:_:)` (`@_spi(Reflection) import Swift`)
//      — stdlib/public/core/ReflectionMirror.swift. Relied on: for a struct type it visits
//      each stored property in declaration order with its name, byte offset and type, and
//      returns true. Used by: DelegateValueType.swift (a struct's C form).
//      Test: "RT6 _forEachField walks a struct's stored properties".
// RT7  The first word of a type's metadata is its kind — docs/ABI/TypeMetadata.rst
//      ("Common Metadata Layout"), include/swift/ABI/MetadataKind.def: struct 0x200,
//      enum 0x201, optional 0x202, function 0x302. Read with unsafeBitCast of the
//      metatype to a pointer. Used by: DelegateValueType.swift (MetadataKind),
//      CallbackFunctionType.swift. Test: "RT7 metadata kinds".
// RT8  Function type metadata — include/swift/ABI/Metadata.h (TargetFunctionTypeMetadata),
//      include/swift/ABI/MetadataValues.h (FunctionTypeFlags): word 1 the flags (parameter
//      count in bits 0–15, convention in bits 16–23, C = 3), word 2 the result's metadata,
//      words 3… the parameters'. Used by: CallbackFunctionType.swift.
//      Test: "RT8 a @convention(c) function type's metadata".
// RT9  `_isPOD(T.self)` — stdlib/public/core/Builtin.swift (Builtin.ispod): true for a
//      trivially copyable type. Used by: DelegateValueType.swift.
//      Test: "RT9 _isPOD tells trivial types from reference-holding ones".
// RT10 A `@convention(c)` function value is one bare C function pointer — docs/ABI/
//      TypeLayout.rst ("Function Types": thin functions are a single pointer). Relied on:
//      unsafeBitCast between such a value and a raw pointer in either direction.
//      Used by: IMP.swift, RootMethods.swift, CallbackAdapter.swift, CFaceFunction.swift.
//      Test: "RT10 a @convention(c) function is one C function pointer".
// RT11 (libdispatch, not the Swift runtime) `dispatch_queue_get_label` bound with
//      `@_silgen_name` — dispatch/queue.h. Relied on: Swift's calling convention passes
//      its one pointer argument and result as C's does. Used by: DelegateProxyTesting's
//      CallContext.swift. Test: "RT11 dispatch_queue_get_label through @_silgen_name".
// RT12 An existential's size tells a class-bound one from an opaque one — docs/ABI/
//      TypeLayout.rst ("Existential Container Layout"): a class-bound existential is one
//      reference plus one witness table per protocol; an opaque one carries a three-word
//      inline buffer and the type's metadata before its witness tables (four words or
//      more). Relied on: `MemoryLayout<any P>.size` is under four words exactly when `P`
//      is class-bound (one protocol). Used by: SwiftRuntimeLayout.swift (a multicast's
//      default retention: weak for a class-bound protocol, strong otherwise).
//      Test: "RT12 an existential's size tells class-bound from opaque".

#ifndef DP_SWIFT_RUNTIME_H
#define DP_SWIFT_RUNTIME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// Exported by the Swift runtime (libswiftCore), which every program linking this target
// loads. `void *` stands for the runtime's HeapObject *.

/// RT1: a strong reference unless deinit has begun (NULL then).
extern void *swift_tryRetain(void *object);
/// RT2: one unowned reference more / less.
extern void swift_unownedRetain(void *object);
extern void swift_unownedRelease(void *object);
/// RT3: one strong reference less.
extern void swift_release(void *object);
/// RT4: the strong and unowned counts, for the tests that check RT1–RT3 and RT5.
extern size_t swift_retainCount(void *object);
extern size_t swift_unownedRetainCount(void *object);

#ifdef __cplusplus
}
#endif

#endif  // DP_SWIFT_RUNTIME_H
