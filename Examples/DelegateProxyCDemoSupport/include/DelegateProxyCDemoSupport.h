// A stand-in for a C library that talks to objects through the runtime's C API.
#ifndef CDEMO_SUPPORT_H
#define CDEMO_SUPPORT_H

#include "dp_message_runtime.h"

/// The C library's callback type: `double convert(id self, SEL _cmd, double value)`.
typedef double (*cdemo_convert_fn)(dp_id self, dp_sel _cmd, double value);

/// Calls `fn` for each value, as a C library calls its callback; prints each result.
void cdemo_run_conversions(cdemo_convert_fn fn, dp_id target, dp_sel sel, const double *values,
                           int count);

/// Sends `convert:` to `target` the C way (DP_MSG_SEND) and returns the result.
double cdemo_send_convert(dp_id target, double value);

/// Registers `scale` (d@:), implemented here in C, on the class named `class_name`.
bool cdemo_add_scale_method(const char *class_name);

#endif
