// abi_test.c — the C layer on its own, per ABI: register replay, routes, callback entries
// and grace periods.
//
// Built from CFFIShim's sources with no Swift, by Scripts/aarch64.sh: natively on x86-64
// and with aarch64-linux-gnu-gcc for AArch64 (run under qemu-aarch64). Each case is a
// plain C function called once directly and once through the layer under test; the
// register plans are written out here by hand from each ABI's rules (System V AMD64 and
// AAPCS64), so a classification either ABI does differently is checked on that ABI.
//
// Prints one line per check ("ok …" / "FAIL …") and exits 1 if any failed.

#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dp_callback.h"
#include "dp_ffi.h"
#include "dp_quiesce.h"
#include "dp_route.h"
#include "dp_runtime.h"

#if !DP_REPLAY_SUPPORTED
#error "abi_test covers the ABIs with register replay (x86-64 System V, AArch64)"
#endif

#if defined(__x86_64__)
#define ABI_NAME "x86-64 System V"
#else
#define ABI_NAME "AArch64 AAPCS64"
#endif

static int failures;
static int checks;

#define CHECK(cond, ...)                          \
  do {                                            \
    checks++;                                     \
    if (cond) {                                   \
      printf("ok   ");                            \
    } else {                                      \
      failures++;                                 \
      printf("FAIL ");                            \
    }                                             \
    printf(__VA_ARGS__);                          \
    printf("  [%s:%d]\n", __FILE__, __LINE__);    \
  } while (0)

// The Swift runtime and MessageRuntime normally provide these; the C layer alone needs
// stand-ins (the driver never calls the reference-count ones).
void *swift_tryRetain(void *object) { return object; }
void swift_unownedRetain(void *object) { (void)object; }
void swift_unownedRelease(void *object) { (void)object; }
void swift_release(void *object) { (void)object; }
static dp_imp resolve_nothing(dp_id obj, dp_sel sel) {
  (void)obj, (void)sel;
  return dp_nil_imp();
}

// MARK: replay programs, written by hand

typedef struct {
  dp_replay_program *p;
  uint32_t next;
} plan;

static plan plan_create(dp_return_class rc, uint32_t nsteps, uint32_t nresults) {
  plan p = {dp_replay_program_create(nsteps, nresults), 0};
  p.p->ret_class = rc;
  p.p->types = "";
  return p;
}

// Argument `argument`, bytes [offset, offset + size), to register `reg` of a bank.
static void arg_step(plan *p, uint16_t argument, uint8_t offset, uint8_t size, int fp, uint8_t reg,
                     int sign_extend) {
  dp_replay_step *s = &dp_replay_program_steps(p->p)[p->next++];
  s->argument = argument;
  s->offset = offset;
  s->size = size;
  s->fp = (uint8_t)fp;
  s->reg = reg;
  s->sign_extend = (uint8_t)sign_extend;
  s->slot = (uint8_t)(fp ? DP_GP_REGS + reg : reg);
}

// Result bytes [offset, offset + size) come from result word `word`.
static void result_step(plan *p, uint8_t offset, uint8_t size, uint8_t word) {
  dp_replay_step *s = &dp_replay_program_steps(p->p)[p->next++];
  s->offset = offset;
  s->size = size;
  s->reg = word;
}

// self and _cmd: the first two integer registers.
static void receiver_steps(plan *p) {
  arg_step(p, 0, 0, 8, 0, 0, 0);
  arg_step(p, 1, 0, 8, 0, 1, 0);
}

static dp_id self_id = (dp_id)0x5e1f;
static dp_sel cmd_sel;

// MARK: callees

static int64_t add_qd(dp_id self, dp_sel cmd, int64_t a, double b) {
  return (self == self_id && cmd == cmd_sel) ? a * 1000 + (int64_t)(b * 10) : -1;
}

// Integer widths and signedness, float and double interleaved.
static double mixed6(dp_id self, dp_sel cmd, signed char c, float f, short s, double d,
                     unsigned char uc, int i) {
  if (self != self_id || cmd != cmd_sel) return -1;
  return c + f * 2 + s * 3 + d * 4 + uc * 5 + i * 6;
}

#if defined(__aarch64__)
// Seven integer arguments after self and _cmd's neighbours: past x86-64's six registers.
static double mixed(dp_id self, dp_sel cmd, signed char c, float f, short s, double d,
                    unsigned char uc, int i, unsigned short us, float f2) {
  if (self != self_id || cmd != cmd_sel) return -1;
  return c + f * 2 + s * 3 + d * 4 + uc * 5 + i * 6 + us * 7 + f2 * 8;
}
#endif

typedef struct { double x, y; } point;
typedef struct { int64_t n; double v; } int_double;  // x86-64: INTEGER, SSE; AArch64: 2 GP
typedef struct { double a, b, c, d; } quad;          // AArch64: HFA of 4; x86-64: memory

static point point_scale(dp_id self, dp_sel cmd, point p, double k) {
  (void)self, (void)cmd;
  return (point){p.x * k, p.y * k};
}

static int_double int_double_swap(dp_id self, dp_sel cmd, int_double a, int64_t extra) {
  (void)self, (void)cmd;
  return (int_double){(int64_t)a.v + extra, (double)a.n};
}

#if defined(__aarch64__)
static quad quad_make(dp_id self, dp_sel cmd, double base) {
  (void)self, (void)cmd;
  return (quad){base, base + 1, base + 2, base + 3};
}

// AArch64 has eight integer argument registers: six arguments after self and _cmd.
static int64_t six(dp_id self, dp_sel cmd, int64_t a, int64_t b, int64_t c, int64_t d, int64_t e,
                   int64_t f) {
  (void)self, (void)cmd;
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f;
}
#endif

// MARK: register replay

static void test_replay(void) {
  cmd_sel = dp_sel_register_name("replay:case:");
  void *self_arg = &self_id;
  void *cmd_arg = &cmd_sel;

  {  // q@:qd
    plan p = plan_create(DP_RET_GP, 4, 1);
    receiver_steps(&p);
    arg_step(&p, 2, 0, 8, 0, 2, 0);
    arg_step(&p, 3, 0, 8, 1, 0, 0);
    result_step(&p, 0, 8, 0);
    int64_t a = 42;
    double b = 2.5;
    void *args[] = {self_arg, cmd_arg, &a, &b};
    int64_t r = 0;
    dp_replay_args((dp_imp)add_qd, p.p, args, &r);
    CHECK(r == add_qd(self_id, cmd_sel, a, b), "replay q@:qd = %lld", (long long)r);
    dp_replay_program_free(p.p);
  }
#if defined(__aarch64__)
  {  // d@:cfsdCiSf — AArch64 only: x86-64 passes the seventh integer argument on the stack
    plan p = plan_create(DP_RET_FP, 10, 1);
    receiver_steps(&p);
    arg_step(&p, 2, 0, 1, 0, 2, 1);  // signed char, sign-extended
    arg_step(&p, 3, 0, 4, 1, 0, 0);  // float: its bits, not converted
    arg_step(&p, 4, 0, 2, 0, 3, 1);  // short, sign-extended
    arg_step(&p, 5, 0, 8, 1, 1, 0);  // double
    arg_step(&p, 6, 0, 1, 0, 4, 0);  // unsigned char
    arg_step(&p, 7, 0, 4, 0, 5, 0);  // int
    arg_step(&p, 8, 0, 2, 0, 6, 0);  // unsigned short
    arg_step(&p, 9, 0, 4, 1, 2, 0);  // float
    result_step(&p, 0, 8, 0);
    signed char c = -3;
    float f = 1.25f;
    short s = -300;
    double d = 0.5;
    unsigned char uc = 200;
    int i = -70000;
    unsigned short us = 60000;
    float f2 = -2.75f;
    void *args[] = {self_arg, cmd_arg, &c, &f, &s, &d, &uc, &i, &us, &f2};
    double r = 0;
    dp_replay_args((dp_imp)mixed, p.p, args, &r);
    double want = mixed(self_id, cmd_sel, c, f, s, d, uc, i, us, f2);
    CHECK(r == want, "replay d@:cfsdCiSf = %g (direct %g)", r, want);
    dp_replay_program_free(p.p);
  }
#endif
  {  // d@:cfsdCi — fits both ABIs' registers
    plan p = plan_create(DP_RET_FP, 8, 1);
    receiver_steps(&p);
    arg_step(&p, 2, 0, 1, 0, 2, 1);
    arg_step(&p, 3, 0, 4, 1, 0, 0);
    arg_step(&p, 4, 0, 2, 0, 3, 1);
    arg_step(&p, 5, 0, 8, 1, 1, 0);
    arg_step(&p, 6, 0, 1, 0, 4, 0);
    arg_step(&p, 7, 0, 4, 0, 5, 0);
    result_step(&p, 0, 8, 0);
    signed char c = -3;
    float f = 1.25f;
    short s = -300;
    double d = 0.5;
    unsigned char uc = 200;
    int i = -70000;
    void *args[] = {self_arg, cmd_arg, &c, &f, &s, &d, &uc, &i};
    double r = 0;
    dp_replay_args((dp_imp)mixed6, p.p, args, &r);
    double want = mixed6(self_id, cmd_sel, c, f, s, d, uc, i);
    CHECK(r == want, "replay d@:cfsdCi = %g (direct %g)", r, want);
    dp_replay_program_free(p.p);
  }
  {  // {point=dd}@:{point=dd}d — both ABIs: two floating-point registers each way
    plan p = plan_create(DP_RET_FP, 5, 2);
    receiver_steps(&p);
    arg_step(&p, 2, 0, 8, 1, 0, 0);
    arg_step(&p, 2, 8, 8, 1, 1, 0);
    arg_step(&p, 3, 0, 8, 1, 2, 0);
    result_step(&p, 0, 8, 0);
    result_step(&p, 8, 8, 1);
    point pt = {1.5, -4};
    double k = 3;
    void *args[] = {self_arg, cmd_arg, &pt, &k};
    point r = {0, 0};
    dp_replay_args((dp_imp)point_scale, p.p, args, &r);
    CHECK(r.x == 4.5 && r.y == -12, "replay {point=dd}@:{point=dd}d = {%g, %g}", r.x, r.y);
    dp_replay_program_free(p.p);
  }
  {  // {int_double=qd}@:{int_double=qd}q — the ABIs classify this struct differently
#if defined(__x86_64__)
    // System V: eightbyte 0 INTEGER, eightbyte 1 SSE, in the argument and in the result.
    plan p = plan_create(DP_RET_GP_FP, 5, 2);
    receiver_steps(&p);
    arg_step(&p, 2, 0, 8, 0, 2, 0);
    arg_step(&p, 2, 8, 8, 1, 0, 0);
    arg_step(&p, 3, 0, 8, 0, 3, 0);
#else
    // AAPCS64: a 16-byte composite that is not homogeneous goes in two integer registers.
    plan p = plan_create(DP_RET_GP, 5, 2);
    receiver_steps(&p);
    arg_step(&p, 2, 0, 8, 0, 2, 0);
    arg_step(&p, 2, 8, 8, 0, 3, 0);
    arg_step(&p, 3, 0, 8, 0, 4, 0);
#endif
    result_step(&p, 0, 8, 0);
    result_step(&p, 8, 8, 1);
    int_double a = {7, 40.0};
    int64_t extra = 2;
    void *args[] = {self_arg, cmd_arg, &a, &extra};
    int_double r = {0, 0};
    dp_replay_args((dp_imp)int_double_swap, p.p, args, &r);
    CHECK(r.n == 42 && r.v == 7.0, "replay {int_double=qd}@:{int_double=qd}q = {%lld, %g}",
          (long long)r.n, r.v);
    dp_replay_program_free(p.p);
  }
#if defined(__aarch64__)
  {  // {quad=dddd}@:d — AArch64 returns a homogeneous aggregate of four in d0–d3
    plan p = plan_create(DP_RET_FP4, 3, 4);
    receiver_steps(&p);
    arg_step(&p, 2, 0, 8, 1, 0, 0);
    for (uint8_t w = 0; w < 4; w++) result_step(&p, (uint8_t)(8 * w), 8, w);
    double base = 10;
    void *args[] = {self_arg, cmd_arg, &base};
    quad r = {0, 0, 0, 0};
    dp_replay_args((dp_imp)quad_make, p.p, args, &r);
    CHECK(r.a == 10 && r.b == 11 && r.c == 12 && r.d == 13,
          "replay {quad=dddd}@:d (FP4) = {%g, %g, %g, %g}", r.a, r.b, r.c, r.d);
    dp_replay_program_free(p.p);
  }
  {  // q@:qqqqqq — every one of AArch64's eight integer argument registers
    plan p = plan_create(DP_RET_GP, 8, 1);
    receiver_steps(&p);
    for (uint16_t i = 2; i < 8; i++) arg_step(&p, i, 0, 8, 0, (uint8_t)i, 0);
    result_step(&p, 0, 8, 0);
    int64_t v[6] = {1, 2, 3, 4, 5, 6};
    void *args[] = {self_arg, cmd_arg, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]};
    int64_t r = 0;
    dp_replay_args((dp_imp)six, p.p, args, &r);
    CHECK(r == 91, "replay q@:qqqqqq (x2–x7) = %lld", (long long)r);
    dp_replay_program_free(p.p);
  }
#endif
  CHECK(dp_replay_gp_count() == DP_GP_REGS && dp_replay_fp_count() == 8,
        "replay uses %d integer and %d floating-point registers", dp_replay_gp_count(),
        dp_replay_fp_count());
}

// MARK: routes

// Each target records the order it was called in and answers its own value.
#define TARGETS 3
static dp_id targets[TARGETS];
static _Atomic int calls[TARGETS];
static int order[16];
static int order_count;

static int target_index(dp_id self) {
  for (int i = 0; i < TARGETS; i++)
    if (targets[i] == self) return i;
  return -1;
}

static int64_t route_qd(dp_id self, dp_sel cmd, int64_t a, double b) {
  (void)cmd;
  int i = target_index(self);
  atomic_fetch_add(&calls[i], 1);
  if (order_count < 16) order[order_count++] = i;
  return (i + 1) * 100 + a + (int64_t)b;
}

static bool route_bool(dp_id self, dp_sel cmd, int64_t answer_mask) {
  (void)cmd;
  int i = target_index(self);
  if (order_count < 16) order[order_count++] = i;
  return (answer_mask >> i) & 1;
}

static double route_dd(dp_id self, dp_sel cmd, double x, float y) {
  (void)cmd;
  int i = target_index(self);
  if (order_count < 16) order[order_count++] = i;
  return x * (i + 1) + y;
}

static point route_point(dp_id self, dp_sel cmd, point p, int_double m) {
  (void)cmd;
  int i = target_index(self);
  if (order_count < 16) order[order_count++] = i;
  return (point){p.x + m.n * (i + 1), p.y + m.v};
}

#if defined(__aarch64__)
static quad route_quad(dp_id self, dp_sel cmd, double base) {
  (void)cmd;
  int i = target_index(self);
  if (order_count < 16) order[order_count++] = i;
  return (quad){base + i, base + i + 1, base + i + 2, base + i + 3};
}
#endif

#if DP_ROUTE_STACK_SUPPORTED
static int64_t route_stack(dp_id self, dp_sel cmd, int64_t a, int64_t b, int64_t c, int64_t d,
                           int64_t e, int64_t f, int64_t g) {
  (void)cmd;
  int i = target_index(self);
  if (order_count < 16) order[order_count++] = i;
  return i * 1000000 + a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g;
}
#endif

static dp_class *target_class;
static dp_class *proxy_class;

static void add_class_method(dp_class *cls, const char *name, dp_imp imp, const char *types) {
  dp_method_table *t = dp_class_cache(cls);
  if (!dp_method_table_has_room(t)) {
    t = dp_method_table_grow(t);
    dp_method_table_insert(t, dp_sel_register_name(name), imp, types);
    dp_class_publish_cache(cls, t);
  } else {
    dp_method_table_insert(t, dp_sel_register_name(name), imp, types);
  }
}

// A proxy object whose own method for `name` is the route's entry.
static dp_id route_proxy(const char *name, dp_route *route, const char *types) {
  dp_id proxy = dp_object_create(proxy_class, NULL);
  dp_method_table *t = dp_method_table_create(4);
  dp_method_table_insert_context(t, dp_sel_register_name(name), dp_route_entry(route), types,
                                 route);
  dp_object_publish_methods(proxy, t);
  return proxy;
}

static dp_route_node *nodes[TARGETS];

static dp_route *make_route(dp_reducer reducer, dp_return_class rc, uint32_t result_size,
                            uint32_t fp, uint32_t stack_words, ffi_cif *cif, dp_imp ffi_entry) {
  return dp_route_create(reducer, rc, result_size, fp, stack_words, false, cif, ffi_entry, NULL, DP_ANY_DOMAIN);
}

static void set_all_targets(dp_route *r, const char *name) {
  dp_imp imps[TARGETS];
  for (int i = 0; i < TARGETS; i++) imps[i] = dp_msg_lookup(targets[i], dp_sel_register_name(name));
  dp_route_set_targets(r, TARGETS, targets, imps, nodes);
}

static void reset_calls(void) {
  order_count = 0;
  for (int i = 0; i < TARGETS; i++) atomic_store(&calls[i], 0);
}

typedef int64_t (*qd_fn)(dp_id, dp_sel, int64_t, double);

static int64_t fallback_qd(dp_id self, dp_sel cmd, int64_t a, double b) {
  (void)self, (void)cmd;
  return -(a * 1000 + (int64_t)(b * 100));
}

static void test_routes(void) {
  target_class = dp_class_create("Target", NULL, NULL);
  proxy_class = dp_class_create("Proxy", NULL, NULL);
  add_class_method(target_class, "add:to:", (dp_imp)route_qd, "q@:qd");
  add_class_method(target_class, "should:", (dp_imp)route_bool, "B@:q");
  add_class_method(target_class, "scale:by:", (dp_imp)route_dd, "d@:df");
  add_class_method(target_class, "move:by:", (dp_imp)route_point, "{point=dd}@:{point=dd}{int_double=qd}");
#if defined(__aarch64__)
  add_class_method(target_class, "quad:", (dp_imp)route_quad, "{quad=dddd}@:d");
#endif
#if DP_ROUTE_STACK_SUPPORTED
  add_class_method(target_class, "stack:", (dp_imp)route_stack, "q@:qqqqqqq");
#endif
  for (int i = 0; i < TARGETS; i++) {
    targets[i] = dp_object_create(target_class, NULL);
    nodes[i] = dp_route_node_create();
  }
  dp_sel add = dp_sel_register_name("add:to:");

  // Register routes: every target in order; last / first rule.
  static const dp_reducer rules[] = {DP_REDUCER_LAST, DP_REDUCER_FIRST};
  for (int k = 0; k < 2; k++) {
    {
      dp_route *r = make_route(rules[k], DP_RET_GP, 8, 1, 0, NULL, NULL);
      CHECK(r != NULL, "route q@:qd created (rule %d)", rules[k]);
      set_all_targets(r, "add:to:");
      dp_id proxy = route_proxy("add:to:", r, "q@:qd");
      reset_calls();
      int64_t v = DP_MSG_SEND(qd_fn, proxy, add, 5, 2.75);
      if (rules[k] == DP_REDUCER_LAST)
        CHECK(v == 307 && order_count == 3 && order[0] == 0 && order[1] == 1 && order[2] == 2,
              "route q@:qd last: %lld from %d calls in order", (long long)v, order_count);
      else
        CHECK(v == 107 && order_count == 1 && order[0] == 0,
              "route q@:qd first: %lld from %d call", (long long)v, order_count);
      dp_object_destroy(proxy);
      dp_route_retire(r);
    }
  }

  // Boolean rules read word 0 of each result.
  {
    typedef bool (*bool_fn)(dp_id, dp_sel, int64_t);
    dp_sel should = dp_sel_register_name("should:");
    struct { dp_reducer rule; int64_t mask; bool want; const char *name; } cases[] = {
        {DP_REDUCER_ALL_TRUE, 7, true, "all true, all yes"},
        {DP_REDUCER_ALL_TRUE, 5, false, "all true, one no"},
        {DP_REDUCER_ANY_TRUE, 2, true, "any true, one yes"},
        {DP_REDUCER_ANY_TRUE, 0, false, "any true, none"},
        {DP_REDUCER_FIRST_NON_NIL, 6, true, "first non-nil"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
      dp_route *r = make_route(cases[c].rule, DP_RET_GP, 1, 0, 0, NULL, NULL);
      set_all_targets(r, "should:");
      dp_id proxy = route_proxy("should:", r, "B@:q");
      reset_calls();
      bool v = DP_MSG_SEND(bool_fn, proxy, should, cases[c].mask);
      CHECK(v == cases[c].want && order_count == 3, "route B@:q %s: %d after %d calls",
            cases[c].name, v, order_count);
      dp_object_destroy(proxy);
      dp_route_retire(r);
    }
  }

  // Floating-point result and a float argument.
  {
    typedef double (*dd_fn)(dp_id, dp_sel, double, float);
    dp_route *r = make_route(DP_REDUCER_LAST, DP_RET_FP, 8, 2, 0, NULL, NULL);
    set_all_targets(r, "scale:by:");
    dp_id proxy = route_proxy("scale:by:", r, "d@:df");
    reset_calls();
    double v = DP_MSG_SEND(dd_fn, proxy, dp_sel_register_name("scale:by:"), 1.5, 0.25f);
    CHECK(v == 4.75 && order_count == 3, "route d@:df last: %g", v);
    dp_object_destroy(proxy);
    dp_route_retire(r);
  }

  // Structs by value, classified per ABI: a point (two FP registers) and an int_double
  // (x86-64: one GP + one FP; AArch64: two GP). The route passes every register on.
  {
    typedef point (*pt_fn)(dp_id, dp_sel, point, int_double);
    dp_route *r = make_route(DP_REDUCER_LAST, DP_RET_FP, 16, 8, 0, NULL, NULL);
    set_all_targets(r, "move:by:");
    dp_id proxy = route_proxy("move:by:", r, "{point=dd}@:{point=dd}{int_double=qd}");
    reset_calls();
    point v = DP_MSG_SEND(pt_fn, proxy, dp_sel_register_name("move:by:"), ((point){1, 2}),
                          ((int_double){10, 0.5}));
    CHECK(v.x == 31 && v.y == 2.5 && order_count == 3, "route {point}@:{point}{int_double}: {%g, %g}",
          v.x, v.y);
    dp_object_destroy(proxy);
    dp_route_retire(r);
  }

#if defined(__aarch64__)
  {  // AArch64 FP4 return class through a route
    typedef quad (*quad_fn)(dp_id, dp_sel, double);
    dp_route *r = make_route(DP_REDUCER_LAST, DP_RET_FP4, 32, 1, 0, NULL, NULL);
    CHECK(r != NULL, "route {quad=dddd}@:d created (FP4)");
    set_all_targets(r, "quad:");
    dp_id proxy = route_proxy("quad:", r, "{quad=dddd}@:d");
    reset_calls();
    quad v = DP_MSG_SEND(quad_fn, proxy, dp_sel_register_name("quad:"), 1.0);
    CHECK(v.a == 3 && v.b == 4 && v.c == 5 && v.d == 6 && order_count == 3,
          "route {quad=dddd}@:d last: {%g, %g, %g, %g}", v.a, v.b, v.c, v.d);
    dp_object_destroy(proxy);
    dp_route_retire(r);
  }
#else
  CHECK(dp_route_create(DP_REDUCER_LAST, DP_RET_FP4, 32, 1, 0, false, NULL, NULL, NULL, DP_ANY_DOMAIN) == NULL,
        "no FP4 register entry off AArch64");
#endif

#if DP_ROUTE_STACK_SUPPORTED
  {  // x86-64: the seventh argument is on the stack; the route replays one stack word.
    typedef int64_t (*st_fn)(dp_id, dp_sel, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                             int64_t);
    dp_route *r = make_route(DP_REDUCER_LAST, DP_RET_GP, 8, 0, 3, NULL, NULL);
    CHECK(r != NULL, "route q@:qqqqqqq with 3 stack words created");
    set_all_targets(r, "stack:");
    dp_id proxy = route_proxy("stack:", r, "q@:qqqqqqq");
    reset_calls();
    int64_t v = DP_MSG_SEND(st_fn, proxy, dp_sel_register_name("stack:"), 1, 2, 3, 4, 5, 6, 7);
    CHECK(v == 2000140 && order_count == 3, "route q@:qqqqqqq (stack) last: %lld", (long long)v);
    dp_object_destroy(proxy);
    dp_route_retire(r);
  }
#else
  CHECK(dp_route_create(DP_REDUCER_LAST, DP_RET_GP, 8, 0, 3, false, NULL, NULL, NULL, DP_ANY_DOMAIN) == NULL,
        "no stack-argument entries off x86-64 (libffi routes carry them)");
#endif

  // The libffi route: one closure per signature, ffi_call per target.
  {
    ffi_type *atypes[] = {&ffi_type_pointer, &ffi_type_pointer, &ffi_type_sint64, &ffi_type_double};
    int status = 0;
    ffi_cif *cif = dp_ffi_cif_create(&ffi_type_sint64, atypes, 4, &status);
    void *closure = NULL;
    dp_imp entry = cif ? dp_route_ffi_entry_create(cif, &closure) : NULL;
    CHECK(entry != NULL, "libffi route entry for q@:qd");
    dp_route *r = make_route(DP_REDUCER_LAST, DP_RET_GP, 8, 8, 0, cif, entry);
    set_all_targets(r, "add:to:");
    dp_id proxy = route_proxy("add:to:", r, "q@:qd");
    reset_calls();
    int64_t v = DP_MSG_SEND(qd_fn, proxy, add, 5, 2.75);
    CHECK(v == 307 && order_count == 3, "libffi route q@:qd last: %lld", (long long)v);

    // A removed node is skipped by the very next dispatch.
    dp_route_node_mark_removed(nodes[2]);
    reset_calls();
    v = DP_MSG_SEND(qd_fn, proxy, add, 5, 2.75);
    CHECK(v == 207 && order_count == 2 && dp_route_node_is_removed(nodes[2]),
          "libffi route skips a removed target: %lld from %d calls", (long long)v, order_count);
    dp_object_destroy(proxy);
    dp_route_retire(r);
    dp_ffi_closure_free(closure);
    dp_ffi_cif_free(cif);
  }
  {  // The register entry skips a removed target too.
    dp_route *r = make_route(DP_REDUCER_LAST, DP_RET_GP, 8, 1, 0, NULL, NULL);
    set_all_targets(r, "add:to:");
    dp_id proxy = route_proxy("add:to:", r, "q@:qd");
    reset_calls();
    int64_t v = DP_MSG_SEND(qd_fn, proxy, add, 5, 2.75);
    CHECK(v == 207 && order_count == 2 && dp_route_target_count(r) == 3,
          "register route skips a removed target: %lld from %d calls", (long long)v, order_count);
    dp_object_destroy(proxy);
    dp_route_retire(r);
  }
  // A route whose targets are all removed runs its fallback with the caller's arguments
  // (register entry and libffi entry alike); without one it answers zero.
  {
    for (int i = 0; i < TARGETS; i++) dp_route_node_mark_removed(nodes[i]);
    dp_route *r = dp_route_create(DP_REDUCER_LAST, DP_RET_GP, 8, 1, 0, false, NULL, NULL,
                                  (dp_imp)fallback_qd, DP_ANY_DOMAIN);
    set_all_targets(r, "add:to:");
    dp_id proxy = route_proxy("add:to:", r, "q@:qd");
    reset_calls();
    int64_t v = DP_MSG_SEND(qd_fn, proxy, add, 5, 2.75);
    CHECK(v == -5275 && order_count == 0 && dp_route_would_fall_back(proxy, add),
          "emptied register route runs its fallback: %lld", (long long)v);
    dp_object_destroy(proxy);
    dp_route_retire(r);

    ffi_type *atypes[] = {&ffi_type_pointer, &ffi_type_pointer, &ffi_type_sint64, &ffi_type_double};
    int status = 0;
    ffi_cif *cif = dp_ffi_cif_create(&ffi_type_sint64, atypes, 4, &status);
    void *closure = NULL;
    dp_imp entry = dp_route_ffi_entry_create(cif, &closure);
    r = dp_route_create(DP_REDUCER_LAST, DP_RET_GP, 8, 8, 0, false, cif, entry,
                        (dp_imp)fallback_qd, DP_ANY_DOMAIN);
    set_all_targets(r, "add:to:");
    proxy = route_proxy("add:to:", r, "q@:qd");
    v = DP_MSG_SEND(qd_fn, proxy, add, 5, 2.75);
    CHECK(v == -5275, "emptied libffi route runs its fallback: %lld", (long long)v);
    dp_object_destroy(proxy);
    dp_route_retire(r);
    dp_ffi_closure_free(closure);
    dp_ffi_cif_free(cif);

    r = make_route(DP_REDUCER_LAST, DP_RET_GP, 8, 1, 0, NULL, NULL);
    set_all_targets(r, "add:to:");
    proxy = route_proxy("add:to:", r, "q@:qd");
    v = DP_MSG_SEND(qd_fn, proxy, add, 5, 2.75);
    CHECK(v == 0 && !dp_route_would_fall_back(proxy, add),
          "emptied route without a fallback answers zero: %lld", (long long)v);
    dp_object_destroy(proxy);
    dp_route_retire(r);
  }

  // Fresh nodes for the concurrency test.
  for (int i = 0; i < TARGETS; i++) {
    dp_route_node_retire(nodes[i], DP_ANY_DOMAIN);
    nodes[i] = dp_route_node_create();
  }
}

// MARK: callback entries

// Library-shaped callbacks (a context pointer somewhere among the arguments, no self or
// _cmd) through a callback record's register entry, to a route proxy or a plain object.
static int64_t route_q4(dp_id self, dp_sel cmd, int64_t a, int64_t b, int64_t c, int64_t d) {
  (void)cmd;
  int i = target_index(self);
  if (order_count < 16) order[order_count++] = i;
  return (i + 1) * 10000 + a * 1000 + b * 100 + c * 10 + d;
}
static uint64_t route_write(dp_id self, dp_sel cmd, const char *p, uint64_t size, uint64_t n) {
  (void)cmd;
  int i = target_index(self);
  if (order_count < 16) order[order_count++] = i;
  return (uint64_t)(i + 1) * 1000 + (uint64_t)p[0] + size * n;
}

static void test_callbacks(void) {
  add_class_method(target_class, "q4:", (dp_imp)route_q4, "q@:qqqq");
  add_class_method(target_class, "write:size:count:", (dp_imp)route_write, "Q@:*QQ");
  dp_sel add = dp_sel_register_name("add:to:");
  dp_sel q4 = dp_sel_register_name("q4:");
  dp_sel write = dp_sel_register_name("write:size:count:");
  typedef int64_t (*first_qd)(void *, int64_t, double);
  typedef int64_t (*last_qd)(int64_t, double, void *);
  typedef int64_t (*last_q4)(int64_t, int64_t, int64_t, int64_t, void *);
  typedef uint64_t (*last_write)(const char *, uint64_t, uint64_t, void *);

  static const dp_reducer rules[] = {DP_REDUCER_LAST, DP_REDUCER_FIRST};
  for (int k = 0; k < 2; k++) {
    dp_route *qd = dp_route_create(rules[k], DP_RET_GP, 8, 1, 0, false, NULL, NULL,
                                   (dp_imp)fallback_qd, DP_ANY_DOMAIN);
    set_all_targets(qd, "add:to:");
    dp_route *r4 = make_route(rules[k], DP_RET_GP, 8, 0, 0, NULL, NULL);
    set_all_targets(r4, "q4:");
    dp_route *rw = make_route(rules[k], DP_RET_GP, 8, 0, 0, NULL, NULL);
    set_all_targets(rw, "write:size:count:");
    dp_id proxy = dp_object_create(proxy_class, NULL);
    dp_method_table *t = dp_method_table_create(8);
    dp_method_table_insert_context(t, add, dp_route_entry(qd), "q@:qd", qd);
    dp_method_table_insert_context(t, q4, dp_route_entry(r4), "q@:qqqq", r4);
    dp_method_table_insert_context(t, write, dp_route_entry(rw), "Q@:*QQ", rw);
    dp_object_publish_methods(proxy, t);

    // One record, four slots: the context first or last, 1, 3 and 4 message registers.
    dp_callback *cb = dp_callback_create(proxy);
    dp_callback_set_slot(cb, 0, add, "first qd");
    dp_callback_set_message_registers(cb, 0, 1);
    dp_callback_set_slot(cb, 1, add, "last qd");
    dp_callback_set_message_registers(cb, 1, 1);
    dp_callback_set_slot(cb, 2, q4, "last q4");
    dp_callback_set_message_registers(cb, 2, 4);
    dp_callback_set_slot(cb, 3, write, "last write");
    dp_callback_set_message_registers(cb, 3, 3);
    first_qd f0 = (first_qd)dp_callback_register_entry(0, DP_RET_GP, 0, false, 1);
    last_qd f1 = (last_qd)dp_callback_register_entry(1, DP_RET_GP, 1, false, 1);
    last_q4 f2 = (last_q4)dp_callback_register_entry(2, DP_RET_GP, 4, false, 0);
    last_write f3 = (last_write)dp_callback_register_entry(3, DP_RET_GP, 3, false, 0);
    CHECK(f0 && f1 && f2 && f3, "callback register entries exist (rule %d)", rules[k]);
    if (!f0 || !f1 || !f2 || !f3) continue;
    bool last = rules[k] == DP_REDUCER_LAST;
    int want_calls = last ? 3 : 1;
    for (int round = 0; round < 2; round++) {  // the first call caches the route
      reset_calls();
      int64_t v = f0(cb, 5, 2.75);
      CHECK(v == (last ? 307 : 107) && order_count == want_calls && order[0] == 0,
            "callback context first q,d (rule %d, call %d): %lld", rules[k], round, (long long)v);
      reset_calls();
      v = f1(5, 2.75, cb);
      CHECK(v == (last ? 307 : 107) && order_count == want_calls,
            "callback context last q,d (rule %d, call %d): %lld", rules[k], round, (long long)v);
      reset_calls();
      v = f2(1, 2, 3, 4, cb);
      CHECK(v == (last ? 31234 : 11234) && order_count == want_calls,
            "callback context last q,q,q,q (rule %d, call %d): %lld", rules[k], round,
            (long long)v);
      reset_calls();
      uint64_t w = f3("A", 3, 4, cb);
      CHECK(w == (last ? 3077u : 1077u) && order_count == want_calls,
            "callback context last *,Q,Q (rule %d, call %d): %llu", rules[k], round,
            (unsigned long long)w);
    }
    // A removed target is skipped; with none left the route's fallback answers.
    dp_route_node_mark_removed(nodes[2]);
    reset_calls();
    int64_t v = f1(5, 2.75, cb);
    CHECK(v == (last ? 207 : 107) && order_count == (last ? 2 : 1),
          "callback skips a removed target (rule %d): %lld", rules[k], (long long)v);
    dp_route_node_mark_removed(nodes[0]);
    dp_route_node_mark_removed(nodes[1]);
    reset_calls();
    v = f0(cb, 5, 2.75);
    CHECK(v == -5275 && order_count == 0, "callback with every target removed falls back (rule %d): %lld",
          rules[k], (long long)v);
    for (int i = 0; i < TARGETS; i++) {
      dp_route_node_retire(nodes[i], DP_ANY_DOMAIN);
      nodes[i] = dp_route_node_create();
    }
    // The receiver's table changes: the next call finds the new route, not the cached one.
    dp_route *only = make_route(DP_REDUCER_LAST, DP_RET_GP, 8, 1, 0, NULL, NULL);
    dp_route_set_targets(only, 1, &targets[1], (dp_imp[]){(dp_imp)route_qd}, &nodes[1]);
    dp_method_table *t2 = dp_method_table_create(8);
    dp_method_table_insert_context(t2, add, dp_route_entry(only), "q@:qd", only);
    dp_object_publish_methods(proxy, t2);
    reset_calls();
    v = f0(cb, 5, 2.75);
    CHECK(v == 207 && order_count == 1 && order[0] == 1,
          "callback follows a new method table (rule %d): %lld", rules[k], (long long)v);
    dp_callback_release(cb);
    dp_wait_domain_idle(cb);
    dp_object_destroy(proxy);
    dp_route_retire(qd);
    dp_route_retire(r4);
    dp_route_retire(rw);
    dp_route_retire(only);
  }

  // A plain object: its method, called once with the context removed.
  dp_callback *cb = dp_callback_create(targets[2]);
  dp_callback_set_slot(cb, 0, write, "plain write");
  dp_callback_set_message_registers(cb, 0, 3);
  last_write f = (last_write)dp_callback_register_entry(0, DP_RET_GP, 3, false, 0);
  reset_calls();
  uint64_t w = f("A", 3, 4, cb);
  CHECK(w == 3077 && order_count == 1 && order[0] == 2, "callback to a plain object: %llu",
        (unsigned long long)w);
  dp_callback_release(cb);
  dp_wait_domain_idle(cb);
}

// MARK: read sections and deferred reclamation

static _Atomic int freed;
static void count_free(void *p) {
  free(p);
  atomic_fetch_add(&freed, 1);
}

static _Atomic int reader_state;  // 0 start, 1 inside a read section, 2 may leave
static const char domain_a = 'a', domain_b = 'b';  // two domains: their addresses

static void *hold_read_section(void *arg) {
  (void)arg;
  dp_read_enter(&domain_a);
  atomic_store(&reader_state, 1);
  while (atomic_load(&reader_state) != 2) sched_yield();
  dp_read_exit();
  return NULL;
}

// Readers dispatch through a route while a writer removes targets: once the writer's
// dp_wait_member_idle (the scoped wait) returns, a removed target is never called again.
static _Atomic int stop;
static _Atomic int dead[TARGETS];
static _Atomic int late_calls;
static _Atomic long dispatches;

static int64_t guarded_qd(dp_id self, dp_sel cmd, int64_t a, double b) {
  (void)cmd, (void)a, (void)b;
  int i = target_index(self);
  if (atomic_load(&dead[i])) atomic_fetch_add(&late_calls, 1);
  return i;
}

static dp_id concurrent_proxy;

static void *dispatch_loop(void *arg) {
  (void)arg;
  dp_sel sel = dp_sel_register_name("guarded:");
  while (!atomic_load(&stop)) {
    DP_MSG_SEND(qd_fn, concurrent_proxy, sel, 1, 1.0);
    atomic_fetch_add(&dispatches, 1);
  }
  return NULL;
}

static void test_quiescence(void) {
  printf("info membarrier: %s\n", dp_quiesce_uses_membarrier() ? "yes" : "no (readers fence)");

  // Retired memory outlives the read sections of its domain that began before it, and only
  // those: a section of another domain delays nothing, and nobody waits.
  atomic_store(&reader_state, 0);
  pthread_t holder;
  pthread_create(&holder, NULL, hold_read_section, NULL);
  while (atomic_load(&reader_state) != 1) sched_yield();
  dp_reclaim_wait();
  int before = atomic_load(&freed);
  dp_retire_in(&domain_a, malloc(16), count_free);
  dp_retire_in(&domain_b, malloc(16), count_free);
  dp_reclaim();
  CHECK(atomic_load(&freed) == before + 1,
        "an open section of domain a keeps a's retired memory, not b's (%d freed)",
        atomic_load(&freed) - before);
  dp_retire(malloc(16), count_free);  // every domain: kept too
  dp_reclaim();
  CHECK(atomic_load(&freed) == before + 1, "memory retired in every domain is kept too");
  // A reader that never leaves delays only what it protects, and a pass does not rescan
  // what it keeps item by item: 10,000 items held in domain a, 10,000 free in domain b.
  enum { MANY = 10000 };
  int many_before = atomic_load(&freed);
  for (int i = 0; i < MANY; i++) {
    dp_retire_in(&domain_a, malloc(16), count_free);
    dp_retire_in(&domain_b, malloc(16), count_free);
  }
  dp_reclaim();
  CHECK(atomic_load(&freed) == many_before + MANY,
        "with a section of domain a open, b's 10,000 items are freed and a's kept (%d freed)",
        atomic_load(&freed) - many_before);
  dp_reclaim();
  CHECK(dp_reclaim_last_examined() <= 4,
        "a pass over 10,000 held items looks at %llu of them (one per domain with items)",
        (unsigned long long)dp_reclaim_last_examined());
  atomic_store(&reader_state, 2);
  pthread_join(holder, NULL);
  dp_reclaim_wait();
  CHECK(atomic_load(&freed) == before + 3 + 2 * MANY, "retired memory freed once the section ended");

  // Removal under concurrent dispatch.
  add_class_method(target_class, "guarded:", (dp_imp)guarded_qd, "q@:qd");
  dp_route *r = make_route(DP_REDUCER_LAST, DP_RET_GP, 8, 1, 0, NULL, NULL);
  set_all_targets(r, "guarded:");
  concurrent_proxy = route_proxy("guarded:", r, "q@:qd");
  enum { READERS = 3 };
  pthread_t readers[READERS];
  for (int i = 0; i < READERS; i++) pthread_create(&readers[i], NULL, dispatch_loop, NULL);
  while (atomic_load(&dispatches) < 1000) sched_yield();  // the readers are running
  for (int round = 0; round < 200; round++) {
    int victim = round % TARGETS;
    // Remove: mark, publish the list without it, wait for the calls to it in flight (the
    // scoped wait: calls to the other targets are not waited for), then "free".
    dp_route_node_mark_removed(nodes[victim]);
    dp_id live[TARGETS];
    dp_imp imps[TARGETS];
    dp_route_node *live_nodes[TARGETS];
    uint32_t n = 0;
    for (int i = 0; i < TARGETS; i++) {
      if (i == victim) continue;
      live[n] = targets[i];
      imps[n] = (dp_imp)guarded_qd;
      live_nodes[n++] = nodes[i];
    }
    dp_route_set_targets(r, n, live, imps, live_nodes);
    dp_wait_member_idle(DP_ANY_DOMAIN, nodes[victim]);
    atomic_store(&dead[victim], 1);
    // Re-add under a fresh node.
    dp_route_node_retire(nodes[victim], DP_ANY_DOMAIN);
    nodes[victim] = dp_route_node_create();
    atomic_store(&dead[victim], 0);
    set_all_targets(r, "guarded:");
  }
  atomic_store(&stop, 1);
  for (int i = 0; i < READERS; i++) pthread_join(readers[i], NULL);
  CHECK(atomic_load(&late_calls) == 0 && atomic_load(&dispatches) > 0,
        "no call reaches a removed target after dp_wait_member_idle (%ld dispatches, 200 removals, "
        "%d late calls)",
        atomic_load(&dispatches), atomic_load(&late_calls));
  dp_object_destroy(concurrent_proxy);
  dp_route_retire(r);
  dp_reclaim_wait();
  CHECK(dp_reclaim() == 0, "every retired route, list and node freed once their readers left");
}

// MARK: messaging nil (issue #37, item 4)

typedef struct {
  int64_t a, b, c, d, e;
} nil_big40;
typedef struct {
  double x, y;
} nil_point;

// A nil receiver, and one the resolver answers the nil IMP for (what it answers for a
// receiver being deallocated), answer zero through DP_MSG_SEND for every result type: a
// struct returned through a hidden pointer (sret / x8) and long double (x87 st(0) on
// x86-64) included.
static void test_nil_messages(void) {
  dp_sel probe = dp_sel_register_name("nilProbe:");
  dp_class *cls = dp_class_create("NoMethods", NULL, NULL);
  dp_id none = dp_object_create(cls, NULL);
  dp_id receivers[2] = {NULL, none};
  for (int i = 0; i < 2; i++) {
    dp_id obj = receivers[i];
    const char *who = i == 0 ? "nil" : "a receiver answered by the nil IMP";
    volatile nil_big40 big;
    memset((void *)&big, 0xab, sizeof big);
    big = DP_MSG_SEND(nil_big40 (*)(dp_id, dp_sel, int64_t), obj, probe, 1);
    CHECK(big.a == 0 && big.b == 0 && big.c == 0 && big.d == 0 && big.e == 0,
          "%s: a 40-byte struct (hidden result pointer) answers zero", who);
    long double sum = 0;
    for (int k = 0; k < 20; k++)  // more than the x87 stack holds: a push or pop too many shows
      sum += DP_MSG_SEND(long double (*)(dp_id, dp_sel, int64_t), obj, probe, k);
    CHECK(sum == 0.0L, "%s: long double answers zero, 20 times (%Lg)", who, sum);
    nil_point p = DP_MSG_SEND(nil_point (*)(dp_id, dp_sel, int64_t), obj, probe, 2);
    CHECK(p.x == 0 && p.y == 0, "%s: a two-double struct answers zero", who);
    double d = DP_MSG_SEND(double (*)(dp_id, dp_sel, int64_t), obj, probe, 3);
    int64_t q = DP_MSG_SEND(int64_t (*)(dp_id, dp_sel, int64_t), obj, probe, 4);
    CHECK(d == 0 && q == 0, "%s: double and int64 answer zero", who);
    DP_MSG_SEND(void (*)(dp_id, dp_sel, int64_t), obj, probe, 5);
    CHECK(!dp_in_read_section(), "%s: no message section left open", who);
  }
  dp_object_destroy(none);
}

// MARK: unwinding through an entry (issue #37, item 5)

static jmp_buf escape_point;

static int64_t escaping_qd(dp_id self, dp_sel cmd, int64_t a, double b) {
  (void)self, (void)cmd, (void)a, (void)b;
  longjmp(escape_point, 1);
}

// A C callback that longjmps out (libpng's and libjpeg's error style) leaves the route
// entry that called it without its exit: the thread stays marked reading until its next
// entry, which closes the stale section; then what its domain retired is freed.
static void test_unwinding(void) {
  add_class_method(target_class, "escape:to:", (dp_imp)escaping_qd, "q@:qd");
  dp_route *r = make_route(DP_REDUCER_LAST, DP_RET_GP, 8, 1, 0, NULL, NULL);
  set_all_targets(r, "escape:to:");
  dp_id proxy = route_proxy("escape:to:", r, "q@:qd");
  dp_sel escape = dp_sel_register_name("escape:to:");
  qd_fn escaping_entry = (qd_fn)dp_msg_lookup(proxy, escape);
  uint64_t dropped = dp_stale_sections_dropped();
  if (setjmp(escape_point) == 0) {
    escaping_entry(proxy, escape, 1, 0);
    CHECK(0, "the callback's longjmp returned");
  }
  CHECK(dp_in_read_section(), "a longjmp through a route entry leaves its section open for now");

  dp_route *ok = make_route(DP_REDUCER_LAST, DP_RET_GP, 8, 1, 0, NULL, NULL);
  set_all_targets(ok, "add:to:");
  dp_id other = route_proxy("add:to:", ok, "q@:qd");
  dp_sel add = dp_sel_register_name("add:to:");
  int64_t answer = ((qd_fn)dp_msg_lookup(other, add))(other, add, 1, 0);
  const char *entry = dp_stale_sections_last_entry();
  CHECK(answer == TARGETS * 100 + 1 && dp_stale_sections_dropped() == dropped + 1 &&
            !dp_in_read_section(),
        "the next entry closes the stale section (%llu closed, by %s) and answers %lld",
        (unsigned long long)(dp_stale_sections_dropped() - dropped), entry ? entry : "none",
        (long long)answer);
  int before = atomic_load(&freed);
  dp_retire_in(proxy, malloc(16), count_free);
  dp_reclaim_wait();
  CHECK(atomic_load(&freed) == before + 1, "memory retired in the unwound entry's domain is freed");
  dp_object_destroy(proxy);
  dp_object_destroy(other);
  dp_route_retire(r);
  dp_route_retire(ok);
  dp_reclaim_wait();

  // The same through a callback entry (a library calling back with its context last):
  // its one section (naming the record's and the receiver's domains) is left open by the
  // longjmp and closed by the thread's next callback entry, which names itself.
  typedef int64_t (*last_qd)(int64_t, double, void *);
  dp_callback *escaping = dp_callback_create(targets[0]);
  dp_callback_set_slot(escaping, 0, escape, "escaping qd");
  dp_callback_set_message_registers(escaping, 0, 1);
  dp_callback *plain = dp_callback_create(targets[1]);
  dp_callback_set_slot(plain, 0, add, "plain qd");
  dp_callback_set_message_registers(plain, 0, 1);
  last_qd entry_qd = (last_qd)dp_callback_register_entry(0, DP_RET_GP, 1, false, 1);
  CHECK(entry_qd != NULL, "callback register entry for q,d with the context last");
  if (!entry_qd) return;
  dropped = dp_stale_sections_dropped();
  if (setjmp(escape_point) == 0) {
    entry_qd(1, 0, escaping);
    CHECK(0, "the callback's longjmp returned");
  }
  CHECK(dp_in_read_section(), "a longjmp through a callback entry leaves its sections open for now");
  reset_calls();
  answer = entry_qd(5, 2.75, plain);
  entry = dp_stale_sections_last_entry();
  CHECK(answer == 207 && dp_stale_sections_dropped() == dropped + 1 && !dp_in_read_section() &&
            entry && strncmp(entry, "callback entry", 14) == 0,
        "the next callback entry closes the stale section (%llu closed, by %s) and answers %lld",
        (unsigned long long)(dp_stale_sections_dropped() - dropped), entry ? entry : "none",
        (long long)answer);
  before = atomic_load(&freed);
  dp_retire_in(escaping, malloc(16), count_free);
  dp_retire_in(targets[0], malloc(16), count_free);
  dp_reclaim_wait();
  CHECK(atomic_load(&freed) == before + 2,
        "memory retired in the unwound callback's domains (record, receiver) is freed");
  dp_callback_release(escaping);
  dp_callback_release(plain);
  dp_wait_domain_idle(escaping);
  dp_wait_domain_idle(plain);
}

// MARK: unions, HFAs and mixed aggregates through every C path (issue #37, item 4)

// One signature with the three shapes the ABIs classify differently, each path compared
// with a direct C call of the method:
// - `(u_fd=fd)`, a union of float and double: x86-64 SSE (xmm); AArch64 not homogeneous
//   (two base types), so an integer register;
// - `{f3=fff}`: x86-64 two SSE eightbytes (xmm, xmm); AArch64 an HFA of three (s, s, s);
// - `{mix=if}`: one eightbyte with an int, so x86-64 INTEGER; AArch64 an integer register.
// The result is the union again (x86-64 xmm0, AArch64 x0).
typedef union {
  float f;
  double d;
} u_fd;
typedef struct {
  float a, b, c;
} f3;
typedef struct {
  int32_t i;
  float f;
} mix;
typedef u_fd (*agg_fn)(dp_id, dp_sel, u_fd, f3, mix);
static const char agg_types[] = "(u_fd=fd)@:(u_fd=fd){f3=fff}{mix=if}";

static u_fd agg_method(dp_id self, dp_sel cmd, u_fd u, f3 h, mix m) {
  (void)cmd;
  int i = target_index(self);
  if (i >= 0 && order_count < 16) order[order_count++] = i;
  u_fd r;
  r.d = u.d + h.a + h.b * 10 + h.c * 100 + m.i * 1000 + m.f * 10000 + (i + 1) * 100000.0;
  return r;
}

// The register plan of agg_types, by hand from each ABI's rules; frame offsets are
// those of agg_frame (self at 0, _cmd at 8, then the arguments).
typedef struct {
  dp_id self;
  dp_sel cmd;
  u_fd u;
  f3 h;
  mix m;
} agg_frame;

static void agg_step(plan *p, uint16_t argument, uint32_t base, uint8_t offset, uint8_t size,
                     int fp, uint8_t reg) {
  arg_step(p, argument, offset, size, fp, reg, 0);
  dp_replay_program_steps(p->p)[p->next - 1].frame_offset = base + offset;
}

static plan agg_plan(void) {
#if defined(__x86_64__)
  plan p = plan_create(DP_RET_FP, 6, 1);
  agg_step(&p, 0, offsetof(agg_frame, self), 0, 8, 0, 0);
  agg_step(&p, 1, offsetof(agg_frame, cmd), 0, 8, 0, 1);
  agg_step(&p, 2, offsetof(agg_frame, u), 0, 8, 1, 0);  // xmm0
  agg_step(&p, 3, offsetof(agg_frame, h), 0, 8, 1, 1);  // xmm1: a, b
  agg_step(&p, 3, offsetof(agg_frame, h), 8, 4, 1, 2);  // xmm2: c
  agg_step(&p, 4, offsetof(agg_frame, m), 0, 8, 0, 2);  // rdx: i, f
#else
  plan p = plan_create(DP_RET_GP, 7, 1);
  agg_step(&p, 0, offsetof(agg_frame, self), 0, 8, 0, 0);
  agg_step(&p, 1, offsetof(agg_frame, cmd), 0, 8, 0, 1);
  agg_step(&p, 2, offsetof(agg_frame, u), 0, 8, 0, 2);  // x2
  agg_step(&p, 3, offsetof(agg_frame, h), 0, 4, 1, 0);  // s0
  agg_step(&p, 3, offsetof(agg_frame, h), 4, 4, 1, 1);  // s1
  agg_step(&p, 3, offsetof(agg_frame, h), 8, 4, 1, 2);  // s2
  agg_step(&p, 4, offsetof(agg_frame, m), 0, 8, 0, 3);  // x3
#endif
  result_step(&p, 0, 8, 0);
  p.p->types = agg_types;
  return p;
}

// The libffi description MessageRuntime's FFIType gives these types: the union as a
// stand-in struct whose slot is what the ABI classifies it as (FFIType.unionStandIn).
static ffi_type *agg_elements_u[2], *agg_elements_h[4], *agg_elements_m[3];
static ffi_type agg_u, agg_h, agg_m;
static ffi_cif *agg_cif(void) {
#if defined(__x86_64__)
  agg_elements_u[0] = &ffi_type_double;
#else
  agg_elements_u[0] = &ffi_type_uint64;
#endif
  agg_elements_h[0] = agg_elements_h[1] = agg_elements_h[2] = &ffi_type_float;
  agg_elements_m[0] = &ffi_type_sint32;
  agg_elements_m[1] = &ffi_type_float;
  agg_u = (ffi_type){0, 0, FFI_TYPE_STRUCT, agg_elements_u};
  agg_h = (ffi_type){0, 0, FFI_TYPE_STRUCT, agg_elements_h};
  agg_m = (ffi_type){0, 0, FFI_TYPE_STRUCT, agg_elements_m};
  static ffi_type *atypes[5];
  atypes[0] = atypes[1] = &ffi_type_pointer;
  atypes[2] = &agg_u;
  atypes[3] = &agg_h;
  atypes[4] = &agg_m;
  int status;
  return dp_ffi_cif_create(&agg_u, atypes, 5, &status);
}

// A forwarding proxy's IMP, as MessageRuntime's: a libffi closure that turns the call
// into its arguments (an invocation) and sends them to the target with ffi_call.
static void forward_to_target(ffi_cif *cif, void *ret, void **args, void *user_data) {
  dp_id target = user_data;
  dp_sel sel = *(dp_sel *)args[1];
  void *resent[5] = {&target, args[1], args[2], args[3], args[4]};
  dp_ffi_call(cif, dp_msg_lookup(target, sel), ret, resent);
}

static void test_aggregates(void) {
  add_class_method(target_class, "agg:h:m:", (dp_imp)agg_method, agg_types);
  dp_sel sel = dp_sel_register_name("agg:h:m:");
  u_fd u;
  u.d = 0.5;
  f3 h = {1, 2, 3};
  mix m = {4, 5};
  double want[TARGETS];
  for (int i = 0; i < TARGETS; i++) want[i] = agg_method(targets[i], sel, u, h, m).d;
  reset_calls();
  CHECK(want[1] == 254321.5, "direct C call (%s) = %.1f", agg_types, want[1]);

  plan p = agg_plan();
  {  // The invocation's replay (dp_replay_args).
    void *args[] = {&targets[1], &sel, &u, &h, &m};
    u_fd r = {0};
    dp_replay_args((dp_imp)agg_method, p.p, args, &r);
    CHECK(r.d == want[1], "invocation replay %s = %.1f (direct %.1f)", agg_types, r.d, want[1]);
  }
  ffi_cif *cif = agg_cif();
  CHECK(cif != NULL, "libffi cif for %s", agg_types);
  if (!cif) return;
  {  // The invocation's libffi call (dp_ffi_call), with FFIType's union stand-in.
    void *args[] = {&targets[1], &sel, &u, &h, &m};
    u_fd r = {0};
    dp_ffi_call(cif, (dp_imp)agg_method, &r, args);
    CHECK(r.d == want[1], "invocation libffi call %s = %.1f (direct %.1f)", agg_types, r.d,
          want[1]);
  }
  {  // The typed send's fast path (dp_send_frame).
    agg_frame frame = {targets[1], sel, u, h, m};
    u_fd r = {0};
    bool sent = dp_send_frame(targets[1], sel, p.p, &frame, &r);
    CHECK(sent && r.d == want[1], "dp_send_frame %s = %.1f (direct %.1f)", agg_types, r.d,
          want[1]);
  }
  {  // A two-target route (register entry), last answer wins, both called in order.
#if defined(__x86_64__)
    dp_return_class rc = DP_RET_FP;  // the union in xmm0
#else
    dp_return_class rc = DP_RET_GP;  // the union in x0
#endif
    dp_route *r = make_route(DP_REDUCER_LAST, rc, 8, 3, 0, NULL, NULL);
    dp_imp imps[2] = {dp_msg_lookup(targets[0], sel), dp_msg_lookup(targets[1], sel)};
    dp_route_set_targets(r, 2, targets, imps, nodes);
    dp_id proxy = route_proxy("agg:h:m:", r, agg_types);
    reset_calls();
    u_fd v = DP_MSG_SEND(agg_fn, proxy, sel, u, h, m);
    CHECK(v.d == want[1] && order_count == 2 && order[0] == 0 && order[1] == 1,
          "two-target route %s = %.1f after %d calls (direct %.1f)", agg_types, v.d, order_count,
          want[1]);
    dp_object_destroy(proxy);
    dp_route_retire(r);
  }
  {  // A C call into a forwarding proxy (a libffi closure re-sending to its target).
    dp_imp code = NULL;
    void *closure = dp_ffi_closure_create(cif, forward_to_target, targets[2], &code);
    CHECK(closure != NULL, "forwarding closure for %s", agg_types);
    if (closure) {
      dp_id proxy = dp_object_create(proxy_class, NULL);
      dp_method_table *t = dp_method_table_create(4);
      dp_method_table_insert(t, sel, code, agg_types);
      dp_object_publish_methods(proxy, t);
      reset_calls();
      u_fd v = DP_MSG_SEND(agg_fn, proxy, sel, u, h, m);
      CHECK(v.d == want[2] && order_count == 1 && order[0] == 2,
            "C call into a forwarding proxy %s = %.1f (direct %.1f)", agg_types, v.d, want[2]);
      dp_object_destroy(proxy);
      dp_ffi_closure_free(closure);
    }
  }
  dp_ffi_cif_free(cif);
  dp_replay_program_free(p.p);
  dp_reclaim_wait();
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);  // each line out before a trap, if one stops the run
  printf("abi_test: %s, %d integer + %d floating-point argument registers\n", ABI_NAME,
         DP_GP_REGS, DP_FP_REGS);
  dp_set_resolver(resolve_nothing);
  test_replay();
  test_routes();
  test_callbacks();
  test_quiescence();
  test_nil_messages();
  test_unwinding();
  test_aggregates();
  printf("abi_test: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
