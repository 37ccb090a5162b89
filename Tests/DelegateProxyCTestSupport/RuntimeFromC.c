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
