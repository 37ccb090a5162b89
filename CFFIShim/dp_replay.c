// Register replay: call an IMP whose arguments all travel in registers by loading
// every argument register from a frame. See dp_ffi.h.

#include "dp_ffi.h"

#include <stdlib.h>

#include <string.h>

#include "dp_layout.h"
#include "dp_regs.h"

int dp_replay_supported(void) { return DP_REPLAY_SUPPORTED; }
int dp_replay_gp_count(void) { return DP_GP_REGS; }
int dp_replay_fp_count(void) { return DP_FP_REGS; }

#if DP_REPLAY_SUPPORTED

#if defined(__x86_64__)
#define GP_ARGS(r) r->gp[0], r->gp[1], r->gp[2], r->gp[3], r->gp[4], r->gp[5]
#else
#define GP_ARGS(r) r->gp[0], r->gp[1], r->gp[2], r->gp[3], r->gp[4], r->gp[5], r->gp[6], r->gp[7]
#endif
#define FP_ARGS(r) r->fp[0], r->fp[1], r->fp[2], r->fp[3], r->fp[4], r->fp[5], r->fp[6], r->fp[7]

#define REPLAY(T) (((DP_REPLAY_FN(T))imp)(GP_ARGS(regs), FP_ARGS(regs)))

void dp_replay_call(dp_imp imp, const dp_reg_frame *regs, dp_return_class ret_class,
                    uint64_t ret[4]) {
  switch (ret_class) {
    case DP_RET_GP: {
      dp_gp2 r = REPLAY(dp_gp2);
      memcpy(ret, &r, sizeof r);
      break;
    }
    case DP_RET_FP: {
      dp_fp2 r = REPLAY(dp_fp2);
      memcpy(ret, &r, sizeof r);
      break;
    }
    case DP_RET_GP_FP: {
      dp_gpfp r = REPLAY(dp_gpfp);
      memcpy(ret, &r, sizeof r);
      break;
    }
    case DP_RET_FP_GP: {
      dp_fpgp r = REPLAY(dp_fpgp);
      memcpy(ret, &r, sizeof r);
      break;
    }
    case DP_RET_FP4: {
      dp_fp4 r = REPLAY(dp_fp4);
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

static inline void load_step(dp_reg_frame *regs, const dp_replay_step *s, const unsigned char *src) {
  uint64_t word = load_bytes(src, s->size);
  if (s->sign_extend) word = s->size == 1 ? (uint64_t)(int64_t)(int8_t)word : (uint64_t)(int64_t)(int16_t)word;
  if (s->fp)
    memcpy(&regs->fp[s->reg], &word, 8);
  else
    regs->gp[s->reg] = word;
}

static inline void run(dp_imp imp, const dp_replay_program *p, const dp_reg_frame *regs, void *result) {
  uint64_t words[4];
  dp_replay_call(imp, regs, p->ret_class, words);
  const dp_replay_step *r = p->steps + p->nsteps;
  for (uint32_t i = 0; i < p->nresults; i++)
    store_bytes((unsigned char *)result + r[i].offset, words[r[i].reg], r[i].size);
}

void dp_replay_args(dp_imp imp, const dp_replay_program *p, void *const *args, void *result) {
  dp_reg_frame regs;
  memset(&regs, 0, sizeof regs);
  for (uint32_t i = 0; i < p->nsteps; i++) {
    const dp_replay_step *s = &p->steps[i];
    load_step(&regs, s, (const unsigned char *)args[s->argument] + s->offset);
  }
  run(imp, p, &regs, result);
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
#define WORD_CALL(T, out)                                                \
  do {                                                                   \
    T r = ((DP_REPLAY_FN(T))imp)(WORD_GP(words), WORD_FP(words));        \
    memcpy(out, &r, sizeof r);                                           \
  } while (0)
#endif

// The typed-send path, kept short: the lookup inlined, each step a load of its size into
// its register slot (precomputed), one call, the result words stored.
bool dp_send_frame(dp_id obj, dp_sel sel, const dp_replay_program *p, const void *frame,
                   void *result) {
#if DP_REPLAY_SUPPORTED
  if (__builtin_expect(!obj, 0)) return false;
  const dp_method_entry *e = dp_lookup_entry_inline(obj, sel);
  if (!e || (e->types != p->types && (!e->types || strcmp(e->types, p->types) != 0))) return false;
  dp_imp imp = e->imp;
  uint64_t words[DP_GP_REGS + DP_FP_REGS] = {0};
  const unsigned char *f = frame;
  for (uint32_t i = 0, n = p->nsteps; i < n; i++) {
    const dp_replay_step *s = &p->steps[i];
    const unsigned char *src = f + s->frame_offset;
    uint64_t w;
    switch (s->size | (s->sign_extend << 4)) {
      case 8: memcpy(&w, src, 8); break;
      case 4: { uint32_t v; memcpy(&v, src, 4); w = v; break; }
      case 2: { uint16_t v; memcpy(&v, src, 2); w = v; break; }
      case 1: w = *src; break;
      case 0x12: { int16_t v; memcpy(&v, src, 2); w = (uint64_t)(int64_t)v; break; }
      case 0x11: w = (uint64_t)(int64_t)(int8_t)*src; break;
      default: w = load_bytes(src, s->size); break;
    }
    words[s->slot] = w;
  }
  uint64_t out[4];
  switch (p->ret_class) {
    case DP_RET_GP: WORD_CALL(dp_gp2, out); break;
    case DP_RET_FP: WORD_CALL(dp_fp2, out); break;
    case DP_RET_GP_FP: WORD_CALL(dp_gpfp, out); break;
    case DP_RET_FP_GP: WORD_CALL(dp_fpgp, out); break;
    case DP_RET_FP4: WORD_CALL(dp_fp4, out); break;
  }
  const dp_replay_step *r = p->steps + p->nsteps;
  for (uint32_t i = 0; i < p->nresults; i++)
    store_bytes((unsigned char *)result + r[i].offset, out[r[i].reg], r[i].size);
  return true;
#else
  (void)obj, (void)sel, (void)p, (void)frame, (void)result;
  return false;
#endif
}
