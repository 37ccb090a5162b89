#include "DelegateProxyCDemoSupport.h"

#include <stdio.h>

void cdemo_run_conversions(cdemo_convert_fn fn, dp_id target, dp_sel sel, const double *values,
                           int count) {
  for (int i = 0; i < count; i++) {
    double result = fn(target, sel, values[i]);
    printf("   [C library] callback(%g) = %g\n", values[i], result);
  }
}

double cdemo_send_convert(dp_id target, double value) {
  return DP_MSG_SEND(double (*)(dp_id, dp_sel, double), target,
                     dp_sel_register_name("convert:"), value);
}

static double scale(dp_id self, dp_sel _cmd) {
  (void)self;
  (void)_cmd;
  return 1.8;
}

bool cdemo_add_scale_method(const char *class_name) {
  dp_class *cls = dp_class_lookup(class_name);
  return cls && dp_class_add_method(cls, dp_sel_register_name("scale"), (dp_imp)scale, "d@:");
}
