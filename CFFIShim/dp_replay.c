// Register replay: call an IMP whose arguments all travel in registers by loading
// every argument register from a frame. See dp_ffi.h.

#include "dp_ffi.h"

#include <stdlib.h>

#include <string.h>

#include "dp_layout.h"
#include "dp_quiesce.h"
#include "dp_regs.h"
#include "dp_route.h"

int dp_replay_supported(void) { return DP_REPLAY_SUPPORTED; }
int dp_replay_gp_count(void) { return DP_GP_REGS; }
int dp_replay_fp_count(void) { return DP_FP_REGS; }

// MARK: replay programs

dp_replay_program *dp_replay_program_create(uint32_t nsteps, uint32_t nresults) {
  dp_replay_program *p =
      calloc(1, sizeof *p + (size_t)(nsteps + nresults) * sizeof(dp_replay_step));
  if (!p) dp_fatal("dp_replay_program_create: out of memory");
  p->nsteps = nsteps;
  p->nresults = nresults;
  return p;
}

void dp_replay_program_free(dp_replay_program *p) { free(p); }

dp_replay_step *dp_replay_program_steps(dp_replay_program *p) { return p->steps; }

// Copies of 1, 2, 4 or 8 bytes as single loads/stores (a variable-size memcpy is a call).
static inline uint64_t load_bytes(const unsigned char *src, unsigned size) {
  uint8_t b1; uint16_t b2; uint32_t b4; uint64_t b8 = 0;
  switch (size) {
    case 8: memcpy(&b8, src, 8); return b8;
    case 4: memcpy(&b4, src, 4); return b4;
    case 2: memcpy(&b2, src, 2); return b2;
    case 1: memcpy(&b1, src, 1); return b1;
    default: memcpy(&b8, src, size); return b8;
  }
}

static inline void store_bytes(unsigned char *dst, uint64_t word, unsigned size) {
  switch (size) {
    case 8: memcpy(dst, &word, 8); break;
    case 4: { uint32_t v = (uint32_t)word; memcpy(dst, &v, 4); break; }
    case 2: { uint16_t v = (uint16_t)word; memcpy(dst, &v, 2); break; }
    case 1: *dst = (uint8_t)word; break;
    default: memcpy(dst, &word, size); break;
  }
}

#if DP_REPLAY_SUPPORTED
static inline double word_double(uint64_t w) {
  double d;
  memcpy(&d, &w, 8);
  return d;
}
#if defined(__x86_64__)
#define WORD_GP(w) w[0], w[1], w[2], w[3], w[4], w[5]
#else
#define WORD_GP(w) w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]
#endif
#define WORD_FP(w)                                                                        \
  word_double(w[DP_GP_REGS]), word_double(w[DP_GP_REGS + 1]), word_double(w[DP_GP_REGS + 2]), \
      word_double(w[DP_GP_REGS + 3]), word_double(w[DP_GP_REGS + 4]),                     \
      word_double(w[DP_GP_REGS + 5]), word_double(w[DP_GP_REGS + 6]),                     \
      word_double(w[DP_GP_REGS + 7])
#define WORD_CALL(T)                                                       \
  do {                                                                     \
    T r = ((DP_REPLAY_FN(T))imp)(WORD_GP(words), WORD_FP(words));          \
    memcpy(out, &r, sizeof r);                                             \
  } while (0)

// One argument step: the value at `src`, of the step's size, zero- or sign-extended.
static inline uint64_t load_word(const dp_replay_step *s, const unsigned char *src) {
  switch (s->size | (s->sign_extend << 4)) {
    case 8: { uint64_t v; memcpy(&v, src, 8); return v; }
    case 4: { uint32_t v; memcpy(&v, src, 4); return v; }
    case 2: { uint16_t v; memcpy(&v, src, 2); return v; }
    case 1: return *src;
    case 0x12: { int16_t v; memcpy(&v, src, 2); return (uint64_t)(int64_t)v; }
    case 0x11: return (uint64_t)(int64_t)(int8_t)*src;
    default: return load_bytes(src, s->size);
  }
}

// Calls `imp` with every argument register taken from `words` (integer registers, then
// floating-point ones, by slot) and stores the result words the program names. Unused
// registers carry zeros that the callee ignores.
static inline void call_words(dp_imp imp, const dp_replay_program *p,
                              const uint64_t words[DP_GP_REGS + DP_FP_REGS], void *result) {
  uint64_t out[4];
  switch (p->ret_class) {
    case DP_RET_GP: WORD_CALL(dp_gp2); break;
    case DP_RET_FP: WORD_CALL(dp_fp2); break;
    case DP_RET_GP_FP: WORD_CALL(dp_gpfp); break;
    case DP_RET_FP_GP: WORD_CALL(dp_fpgp); break;
    case DP_RET_FP4: WORD_CALL(dp_fp4); break;
  }
  const dp_replay_step *r = p->steps + p->nsteps;
  for (uint32_t i = 0; i < p->nresults; i++)
    store_bytes((unsigned char *)result + r[i].offset, out[r[i].reg], r[i].size);
}
#endif

void dp_replay_args(dp_imp imp, const dp_replay_program *p, void *const *args, void *result) {
#if DP_REPLAY_SUPPORTED
  uint64_t words[DP_GP_REGS + DP_FP_REGS] = {0};
  for (uint32_t i = 0; i < p->nsteps; i++) {
    const dp_replay_step *s = &p->steps[i];
    words[s->slot] = load_word(s, (const unsigned char *)args[s->argument] + s->offset);
  }
  call_words(imp, p, words, result);
#else
  (void)imp, (void)p, (void)args, (void)result;
  dp_fatal("dp_replay_args: register replay is not supported on this ABI");
#endif
}

// The typed-send path, kept short: the lookup inlined, each step a load into its
// register slot, one call.
bool dp_send_frame(dp_id obj, dp_sel sel, const dp_replay_program *p, const void *frame,
                   void *result) {
#if DP_REPLAY_SUPPORTED
  if (__builtin_expect(!obj, 0)) return false;
  // The lookup and the call in one read section of the receiver: a method replaced
  // meanwhile is retired, not freed under the call (dp_method_table.c).
  dp_read_enter_at_inline(obj, __builtin_frame_address(0));
  const dp_method_entry *e = dp_lookup_entry_inline(obj, sel);
  if (!e || (e->types != p->types && (!e->types || strcmp(e->types, p->types) != 0)) ||
      // An emptied route with a fallback: the sender's general path answers (and can throw).
      (e->context && dp_route_would_fall_back(obj, sel))) {
    dp_read_exit_inline();
    return false;
  }
  uint64_t words[DP_GP_REGS + DP_FP_REGS] = {0};
  const unsigned char *f = frame;
  for (uint32_t i = 0, n = p->nsteps; i < n; i++) {
    const dp_replay_step *s = &p->steps[i];
    words[s->slot] = load_word(s, f + s->frame_offset);
  }
  call_words(e->imp, p, words, result);
  dp_read_exit_inline();
  return true;
#else
  (void)obj, (void)sel, (void)p, (void)frame, (void)result;
  return false;
#endif
}
