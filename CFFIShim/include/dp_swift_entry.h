// dp_swift_entry.h — static C entries into Swift: IMPs that hand every argument register
// to one Swift handler.
//
// An entry is a real C function of the register-replay shape (it takes every integer and
// floating-point argument register, dp_regs.h), one per return class. It stores the
// registers in a frame on its stack, zeroes the frame's result words, calls the handler
// installed with dp_swift_entry_set_handler, and returns the result words in the
// registers of its return class. Which object and method the call is for the handler
// reads from the frame (self is gp[0], _cmd gp[1]). No policy, no lookup here.
//
// Only signatures whose arguments and result all travel in registers may use an entry
// (MethodSignature's register plan says which bytes of which argument sit where).

#ifndef DP_SWIFT_ENTRY_H
#define DP_SWIFT_ENTRY_H

#include <stdint.h>

#include "dp_ffi.h"
#include "dp_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The registers of one call, as an entry received them, and the result words the
/// handler writes (word i is the i-th register of the return class: rax/rdx, xmm0/xmm1,
/// rax/xmm0, xmm0/rax; x0/x1 or d0–d3 on AArch64). Float registers are kept as their
/// bits (a float argument is in the low 4 bytes of its slot).
typedef struct dp_swift_frame {
  uint64_t gp[DP_GP_REGS];
  uint64_t fp[DP_FP_REGS];
  uint64_t result[4];
} dp_swift_frame;

/// The one Swift function every entry calls.
typedef void (*dp_swift_entry_handler)(dp_swift_frame *frame);

/// Installs the handler (once, before any entry is installed as an IMP).
void dp_swift_entry_set_handler(dp_swift_entry_handler handler);

/// The entry for `ret_class`, or NULL when this build cannot replay registers.
dp_imp dp_swift_entry(dp_return_class ret_class);

/// The leading words of an object handle (dp_layout.h's struct dp_object, checked there),
/// so that C functions into Swift find their receiver without a call.
typedef struct dp_object_head {
  void *isa;
  void *owner;
  void *methods;
  void *context;
} dp_object_head;

/// dp_object_context, inline: what a C function installed as a Swift receiver's IMP
/// reads once per call to find the receiver from `self`.
static inline __attribute__((always_inline)) void *dp_object_context_inline(dp_id obj) {
  return __atomic_load_n(&((dp_object_head *)obj)->context, __ATOMIC_ACQUIRE);
}

#ifdef __cplusplus
}
#endif

#endif  // DP_SWIFT_ENTRY_H
