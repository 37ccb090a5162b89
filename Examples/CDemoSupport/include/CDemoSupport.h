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

// MARK: libtransfer — a C library with a one-slot callback table

/// Called after each chunk: `void on_progress(id self, SEL _cmd, double fraction, const char *label)`.
typedef void (*cdemo_progress_fn)(dp_id self, dp_sel _cmd, double fraction, const char *label);

/// Asked after each chunk whether to go on: `BOOL should_continue(id self, SEL _cmd, int64_t bytes_done)`.
typedef bool (*cdemo_should_continue_fn)(dp_id self, dp_sel _cmd, int64_t bytes_done);

/// The library's callback table: ONE target and one function per event — a C library's
/// usual `void *context` plus function pointers, shaped as messages (self, _cmd, …).
typedef struct cdemo_transfer_callbacks {
  dp_id target;
  dp_sel progress_sel;
  cdemo_progress_fn on_progress;
  dp_sel should_continue_sel;
  cdemo_should_continue_fn should_continue;
} cdemo_transfer_callbacks;

/// Transfers `total` bytes named `label` in `chunk`-byte pieces. After each piece it calls
/// `on_progress`, then `should_continue`, and stops when that answers false. Prints what
/// it does; returns the bytes transferred.
int64_t cdemo_transfer_run(const char *label, int64_t total, int64_t chunk,
                           const cdemo_transfer_callbacks *callbacks);

#endif
