// dp_regs.h — the shapes register replay is written in: the result types that cover each
// return class, and the parameter lists that name every argument register. Shared by the
// replay calls (dp_replay.c) and the route entries (dp_route.c). Private to CFFIShim.

#ifndef DP_REGS_H
#define DP_REGS_H

#include <string.h>

#include <stdint.h>

#include "dp_ffi.h"

#if DP_REPLAY_SUPPORTED

// A result type per return class: returning one of these reads (or sets) exactly the
// registers that class uses (rax:rdx, xmm0:xmm1, rax:xmm0, xmm0:rax; d0–d3 on AArch64).
typedef struct { uint64_t a, b; } dp_gp2;
typedef struct { double a, b; } dp_fp2;
typedef struct { uint64_t a; double b; } dp_gpfp;
typedef struct { double a; uint64_t b; } dp_fpgp;
typedef struct { double a, b, c, d; } dp_fp4;

// Every integer argument register (6 on x86-64 System V, 8 on AArch64), then every
// floating-point one (8): as a type list, as named parameters, and as arguments 2… (after
// self and _cmd) for passing them on.
#if defined(__x86_64__)
#define DP_GP_TYPES uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t
#define DP_GP_PARAMS uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5
#define DP_GP_REST a2, a3, a4, a5
#else
#define DP_GP_TYPES uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t
#define DP_GP_PARAMS \
  uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7
#define DP_GP_REST a2, a3, a4, a5, a6, a7
#endif
#define DP_FP_TYPES double, double, double, double, double, double, double, double
#define DP_FP_PARAMS \
  double f0, double f1, double f2, double f3, double f4, double f5, double f6, double f7
#define DP_FP_ARGS f0, f1, f2, f3, f4, f5, f6, f7

/// A function pointer of result type T that takes every argument register.
#define DP_REPLAY_FN(T) T (*)(DP_GP_TYPES, DP_FP_TYPES)

// Word 0 of each result type, for the route rules that test a result's truth (boolean
// and first-nonzero; integer results only): shared by route and callback entries.
static inline uint64_t word0_dp_gp2(dp_gp2 v) { return v.a; }
static inline uint64_t word0_dp_fp2(dp_fp2 v) { uint64_t w; memcpy(&w, &v.a, 8); return w; }
static inline uint64_t word0_dp_gpfp(dp_gpfp v) { return v.a; }
static inline uint64_t word0_dp_fpgp(dp_fpgp v) { uint64_t w; memcpy(&w, &v.a, 8); return w; }
#if defined(__aarch64__)
static inline uint64_t word0_dp_fp4(dp_fp4 v) { uint64_t w; memcpy(&w, &v.a, 8); return w; }
#endif

#endif  // DP_REPLAY_SUPPORTED

#endif  // DP_REGS_H
