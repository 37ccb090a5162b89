// Static C entries into Swift. See dp_swift_entry.h.

#include "dp_swift_entry.h"

#include <stddef.h>
#include <string.h>

#include "dp_layout.h"
#include "dp_regs.h"

// dp_swift_entry.h mirrors the handle's leading words (dp_layout.h, in Core/) for its
// inline context accessor.
_Static_assert(offsetof(struct dp_object, context) == offsetof(dp_object_head, context),
               "dp_object_head is out of step with struct dp_object");

static dp_swift_entry_handler entry_handler;  // atomic; set once

void dp_swift_entry_set_handler(dp_swift_entry_handler handler) {
  __atomic_store_n(&entry_handler, handler, __ATOMIC_RELEASE);
}

#if DP_REPLAY_SUPPORTED

// Stores the registers (float ones bit for bit) and calls the handler.
static inline void enter(dp_swift_frame *f, DP_GP_PARAMS, DP_FP_PARAMS) {
  const uint64_t gp[] = {a0, a1, DP_GP_REST};
  const double fp[] = {DP_FP_ARGS};
  memcpy(f->gp, gp, sizeof f->gp);
  memcpy(f->fp, fp, sizeof f->fp);
  memset(f->result, 0, sizeof f->result);
  __atomic_load_n(&entry_handler, __ATOMIC_ACQUIRE)(f);
}

// One entry per return class: the result words become the class's result registers.
#define DEFINE_SWIFT_ENTRY(NAME, T)                 \
  static T NAME(DP_GP_PARAMS, DP_FP_PARAMS) {       \
    dp_swift_frame f;                               \
    enter(&f, a0, a1, DP_GP_REST, DP_FP_ARGS);      \
    T r;                                            \
    _Static_assert(sizeof r <= sizeof f.result, ""); \
    memcpy(&r, f.result, sizeof r);                 \
    return r;                                       \
  }

DEFINE_SWIFT_ENTRY(swift_entry_gp2, dp_gp2)
DEFINE_SWIFT_ENTRY(swift_entry_fp2, dp_fp2)
DEFINE_SWIFT_ENTRY(swift_entry_gpfp, dp_gpfp)
DEFINE_SWIFT_ENTRY(swift_entry_fpgp, dp_fpgp)
#if defined(__aarch64__)
DEFINE_SWIFT_ENTRY(swift_entry_fp4, dp_fp4)
#endif

dp_imp dp_swift_entry(dp_return_class rc) {
  switch (rc) {
    case DP_RET_GP: return (dp_imp)swift_entry_gp2;
    case DP_RET_FP: return (dp_imp)swift_entry_fp2;
    case DP_RET_GP_FP: return (dp_imp)swift_entry_gpfp;
    case DP_RET_FP_GP: return (dp_imp)swift_entry_fpgp;
#if defined(__aarch64__)
    case DP_RET_FP4: return (dp_imp)swift_entry_fp4;
#endif
    default: return NULL;
  }
}

#else
dp_imp dp_swift_entry(dp_return_class rc) {
  (void)rc;
  return NULL;
}
#endif
