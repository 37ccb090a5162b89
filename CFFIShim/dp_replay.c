// Register replay: call an IMP whose arguments all travel in registers by loading
// every argument register from a frame. See dp_ffi.h.

#include "dp_ffi.h"

#include <string.h>

int dp_replay_supported(void) { return DP_REPLAY_SUPPORTED; }
int dp_replay_gp_count(void) { return DP_GP_REGS; }
int dp_replay_fp_count(void) { return DP_FP_REGS; }

#if DP_REPLAY_SUPPORTED

typedef struct { uint64_t a, b; } gp2;
typedef struct { double a, b; } fp2;
typedef struct { uint64_t a; double b; } gpfp;
typedef struct { double a; uint64_t b; } fpgp;
typedef struct { double a, b, c, d; } fp4;

#if defined(__x86_64__)
#define GP_PARAMS uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t
#define GP_ARGS(r) r->gp[0], r->gp[1], r->gp[2], r->gp[3], r->gp[4], r->gp[5]
#else
#define GP_PARAMS uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t
#define GP_ARGS(r) r->gp[0], r->gp[1], r->gp[2], r->gp[3], r->gp[4], r->gp[5], r->gp[6], r->gp[7]
#endif
#define FP_PARAMS double, double, double, double, double, double, double, double
#define FP_ARGS(r) r->fp[0], r->fp[1], r->fp[2], r->fp[3], r->fp[4], r->fp[5], r->fp[6], r->fp[7]

#define REPLAY(T) (((T(*)(GP_PARAMS, FP_PARAMS))imp)(GP_ARGS(regs), FP_ARGS(regs)))

void dp_replay_call(dp_imp imp, const dp_reg_frame *regs, dp_return_class ret_class,
                    uint64_t ret[4]) {
  switch (ret_class) {
    case DP_RET_GP: {
      gp2 r = REPLAY(gp2);
      memcpy(ret, &r, sizeof r);
      break;
    }
    case DP_RET_FP: {
      fp2 r = REPLAY(fp2);
      memcpy(ret, &r, sizeof r);
      break;
    }
    case DP_RET_GP_FP: {
      gpfp r = REPLAY(gpfp);
      memcpy(ret, &r, sizeof r);
      break;
    }
    case DP_RET_FP_GP: {
      fpgp r = REPLAY(fpgp);
      memcpy(ret, &r, sizeof r);
      break;
    }
    case DP_RET_FP4: {
      fp4 r = REPLAY(fp4);
      memcpy(ret, &r, sizeof r);
      break;
    }
  }
}

#else

void dp_replay_call(dp_imp imp, const dp_reg_frame *regs, dp_return_class ret_class,
                    uint64_t ret[4]) {
  (void)imp; (void)regs; (void)ret_class; (void)ret;
  dp_fatal("dp_replay_call: register replay is not supported on this ABI");
}

#endif
