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
