// dp_ffi.h — the libffi surface MessageRuntime needs, and register replay.
// No policy: these functions build and call what they are asked to.

#ifndef DP_FFI_H
#define DP_FFI_H

#if __has_include(<ffi.h>)
#include <ffi.h>
#elif __has_include(<ffi/ffi.h>)
#include <ffi/ffi.h>
#else
#error "libffi not found: install the libffi development files (Debian/Ubuntu: apt-get install libffi-dev; Fedora: dnf install libffi-devel)"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "dp_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The libffi type for a scalar ObjC type code (c C s S i I l L q Q f d D B v and 'p'
/// for any pointer), or NULL for any other code.
ffi_type *dp_ffi_scalar_type(char code);

/// A struct type over `count` element types (copied), for libffi to lay out and
/// classify. Free with dp_ffi_struct_free. Never NULL.
ffi_type *dp_ffi_struct_create(ffi_type *const *elements, size_t count);
void dp_ffi_struct_free(ffi_type *type);

/// A prepared call interface (ffi_prep_cif with the default ABI). Returns NULL and sets
/// *status to libffi's status on failure. The argument-type array is copied. Free with
/// dp_ffi_cif_free.
ffi_cif *dp_ffi_cif_create(ffi_type *rtype, ffi_type *const *atypes, unsigned nargs,
                           int *status);
void dp_ffi_cif_free(ffi_cif *cif);

/// The size and alignment libffi computed for a type (valid after a cif using it was
/// prepared, or for scalars).
size_t dp_ffi_type_size(const ffi_type *type);
unsigned short dp_ffi_type_alignment(const ffi_type *type);

/// `ffi_call`.
void dp_ffi_call(ffi_cif *cif, dp_imp fn, void *rvalue, void **avalue);

/// The handler a closure runs: libffi's closure signature.
typedef void (*dp_ffi_handler)(ffi_cif *cif, void *ret, void **args, void *user_data);

/// A libffi closure: executable code at *code that calls handler(cif, ret, args,
/// user_data). NULL on failure. Free with dp_ffi_closure_free.
void *dp_ffi_closure_create(ffi_cif *cif, dp_ffi_handler handler, void *user_data,
                            dp_imp *code);
void dp_ffi_closure_free(void *closure);

// MARK: Register replay

// A call whose arguments all travel in registers is made by loading every argument
// register (by a replay program, below) and calling through a function type that takes
// them all; unused registers carry zeros that the callee ignores. Float bits are moved, never
// converted. Only on ABIs where integer and floating-point registers are assigned
// independently (x86-64 System V, AArch64 AAPCS64).
#if defined(__x86_64__) && !defined(_WIN32)
#define DP_REPLAY_SUPPORTED 1
#define DP_GP_REGS 6
#define DP_FP_REGS 8
#elif defined(__aarch64__) && !defined(_WIN32) && !defined(__APPLE__)
#define DP_REPLAY_SUPPORTED 1
#define DP_GP_REGS 8
#define DP_FP_REGS 8
#else
#define DP_REPLAY_SUPPORTED 0
#define DP_GP_REGS 6
#define DP_FP_REGS 8
#endif

/// Which registers carry the return value.
typedef enum dp_return_class {
  DP_RET_GP = 0,     // void, integers, pointers, aggregates in 1–2 integer registers
  DP_RET_FP = 1,     // float/double, aggregates in 1–2 vector registers (x86-64)
  DP_RET_GP_FP = 2,  // x86-64: first eightbyte integer, second SSE
  DP_RET_FP_GP = 3,  // x86-64: first eightbyte SSE, second integer
  DP_RET_FP4 = 4,    // AArch64: homogeneous float aggregate in up to 4 vector registers
} dp_return_class;

/// Whether this build can replay registers (DP_REPLAY_SUPPORTED) and how many.
int dp_replay_supported(void);
int dp_replay_gp_count(void);
int dp_replay_fp_count(void);

/// One step of a replay program: `size` bytes of argument `argument` at `offset` within
/// it (at `frame_offset` in a contiguous frame) go to register `reg` of the integer
/// (`fp` = 0) or floating-point (`fp` = 1) bank, sign-extended from 1 or 2 bytes when
/// `sign_extend` is set (clang callees rely on callers extending signed char/short).
typedef struct dp_replay_step {
  uint32_t frame_offset;
  uint16_t argument;
  uint8_t offset;
  uint8_t size;
  uint8_t fp;
  uint8_t reg;
  uint8_t sign_extend;
  uint8_t slot;  // reg for the integer bank, DP_GP_REGS + reg for the floating-point one
} dp_replay_step;

/// A signature's register plan, compiled for C: argument steps, then result steps (for
/// a result step, `offset` is the offset in the result and `reg` the result word: for
/// GP/FP the two return registers in order, for GP_FP/FP_GP the two eightbytes in memory
/// order, for FP4 the four vector registers).
typedef struct dp_replay_program {
  dp_return_class ret_class;
  uint32_t nsteps;
  uint32_t nresults;
  const char *types;  // the signature's canonical encoding (interned)
  dp_replay_step steps[];  // nsteps argument steps, then nresults result steps
} dp_replay_program;

/// Allocates a program with room for the steps (free with dp_replay_program_free).
dp_replay_program *dp_replay_program_create(uint32_t nsteps, uint32_t nresults);
void dp_replay_program_free(dp_replay_program *program);
/// The program's steps (Swift does not see flexible array members).
dp_replay_step *dp_replay_program_steps(dp_replay_program *program);

/// Calls `imp` with the arguments at `args[i]` by the program; writes the result.
void dp_replay_args(dp_imp imp, const dp_replay_program *program, void *const *args,
                    void *result);

/// The typed-send fast path: finds `sel` in `obj`'s own methods or its class cache; if
/// the method's types are the program's, calls it with the arguments laid out in `frame`
/// (self at 0, _cmd at 8) and returns true. False on a cache miss or other types, having
/// called nothing (the caller takes the general path).
bool dp_send_frame(dp_id obj, dp_sel sel, const dp_replay_program *program, const void *frame,
                   void *result);

#ifdef __cplusplus
}
#endif

#endif  // DP_FFI_H
