#include "RuntimeFromC.h"

int64_t dp_test_c_send_add(dp_id obj, dp_sel sel, int64_t a, double b) {
  return DP_MSG_SEND(int64_t (*)(dp_id, dp_sel, int64_t, double), obj, sel, a, b);
}

void dp_test_c_send_void(dp_id obj, dp_sel sel) {
  DP_MSG_SEND(void (*)(dp_id, dp_sel), obj, sel);
}

dp_test_big dp_test_c_send_big(dp_id obj, dp_sel sel) {
  return DP_MSG_SEND(dp_test_big (*)(dp_id, dp_sel), obj, sel);
}

double dp_test_c_send_many(dp_id obj, dp_sel sel) {
  return DP_MSG_SEND(double (*)(dp_id, dp_sel, double, double, double, double, double, double,
                                double, double, double, double),
                     obj, sel, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
}

dp_test_big dp_test_c_send_spilled(dp_id obj, dp_sel sel) {
  dp_test_big b = {10, 20, 30, 40, 50};
  return DP_MSG_SEND(dp_test_big (*)(dp_id, dp_sel, int64_t, int64_t, int64_t, int64_t, int64_t,
                                     dp_test_big, long double),
                     obj, sel, 1, 2, 3, 4, 5, b, 0.5L);
}

static int64_t multiply(dp_id self, dp_sel _cmd, int64_t a, int64_t b) {
  (void)self;
  (void)_cmd;
  return a * b;
}

bool dp_test_c_add_multiply(const char *class_name) {
  dp_class *cls = dp_class_lookup(class_name);
  if (!cls) return false;
  return dp_class_add_method(cls, dp_sel_register_name("multiply:by:"), (dp_imp)multiply, "q@:qq");
}

bool dp_test_c_responds(dp_id obj, const char *name) {
  return dp_responds_to(obj, dp_sel_register_name(name));
}

dp_id dp_test_c_send_object(dp_id obj, dp_sel sel) {
  return DP_MSG_SEND(dp_id (*)(dp_id, dp_sel), obj, sel);
}

dp_id dp_test_c_send_object2(dp_id obj, dp_sel sel, dp_id a, dp_id b) {
  return DP_MSG_SEND(dp_id (*)(dp_id, dp_sel, dp_id, dp_id), obj, sel, a, b);
}

int64_t dp_test_c_make_then_tag(dp_id obj, dp_sel make, dp_sel tag) {
  size_t pool = dp_autoreleasepool_push();
  dp_id made = DP_MSG_SEND(dp_id (*)(dp_id, dp_sel), obj, make);
  int64_t result = made ? DP_MSG_SEND(int64_t (*)(dp_id, dp_sel), made, tag) : -1;
  dp_autoreleasepool_pop(pool);
  return result;
}

bool dp_test_c_send_responds_to_selector(dp_id obj, const char *name) {
  return DP_MSG_SEND(bool (*)(dp_id, dp_sel, dp_sel), obj,
                     dp_sel_register_name("respondsToSelector:"), dp_sel_register_name(name));
}

bool dp_test_c_send_conforms_to_protocol(dp_id obj, const char *protocol_name) {
  return DP_MSG_SEND(bool (*)(dp_id, dp_sel, const char *), obj,
                     dp_sel_register_name("conformsToProtocol:"), protocol_name);
}

void dp_test_c_call_cached_imp(dp_id obj, dp_sel first, dp_sel second) {
  dp_imp cached = dp_msg_lookup(obj, first);
  (void)dp_msg_lookup(obj, second);
  ((void (*)(dp_id, dp_sel))cached)(obj, first);
}

int64_t dp_test_constant_tick(dp_id self, dp_sel cmd, int64_t x) {
  (void)self, (void)cmd, (void)x;
  return 7;
}

double dp_test_c_send_long_double_20(dp_id obj, dp_sel sel) {
  long double sum = 0;
  for (int i = 0; i < 20; i++) sum += DP_MSG_SEND(long double (*)(dp_id, dp_sel), obj, sel);
  return (double)sum;
}
