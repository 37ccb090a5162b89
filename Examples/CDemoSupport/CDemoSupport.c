#include "CDemoSupport.h"

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

// MARK: libtransfer

int64_t cdemo_transfer_run(const char *label, int64_t total, int64_t chunk,
                           const cdemo_transfer_callbacks *callbacks) {
  int64_t done = 0;
  int pieces = (int)((total + chunk - 1) / chunk);
  printf("   [libtransfer] start \"%s\": %lld bytes in %d chunk%s\n", label, (long long)total, pieces,
         pieces == 1 ? "" : "s");
  for (int i = 1; done < total; i++) {
    done += chunk < total - done ? chunk : total - done;
    double fraction = (double)done / (double)total;
    printf("   [libtransfer] chunk %d/%d sent; calls on_progress(%.2f)\n", i, pieces, fraction);
    callbacks->on_progress(callbacks->target, callbacks->progress_sel, fraction, label);
    bool go_on = callbacks->should_continue(callbacks->target, callbacks->should_continue_sel, done);
    printf("   [libtransfer] should_continue(%lld) returned %s\n", (long long)done,
           go_on ? "true" : "false");
    if (!go_on) {
      printf("   [libtransfer] cancelled after %lld of %lld bytes\n", (long long)done, (long long)total);
      return done;
    }
  }
  printf("   [libtransfer] \"%s\" complete\n", label);
  return done;
}
