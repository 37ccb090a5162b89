// The two IMPs dp_msg_lookup returns when there is no method to run: one for a NULL
// receiver (returns zero, as messaging nil does in Objective-C) and one that traps
// for an unrecognized selector with the message Cocoa prints.

#include "dp_layout.h"

#include <stdio.h>
#include <stdlib.h>

_Noreturn void dp_fatal(const char *message) {
  fprintf(stderr, "%s\n", message);
  fflush(stderr);
  abort();
}

// The trap cannot read self/_cmd from its own argument registers: for a call that
// returns a large struct the hidden result pointer comes first and shifts them. The
// resolver records, for this thread, what it could not resolve just before handing
// out the trap; the trap reports that.
static _Thread_local dp_id pending_obj;
static _Thread_local dp_sel pending_sel;
static _Thread_local const char *pending_class;

void dp_note_unrecognized(dp_id obj, dp_sel sel, const char *class_name) {
  pending_obj = obj;
  pending_sel = sel;
  pending_class = class_name;
}

static _Noreturn void unrecognized_trap(void) {
  char message[512];
  snprintf(message, sizeof message, "-[%s %s]: unrecognized selector sent to instance %p",
           pending_class ? pending_class : "?", pending_sel ? pending_sel->name : "?",
           (void *)pending_obj);
  dp_fatal(message);
}

dp_imp dp_unrecognized_imp(void) { return (dp_imp)unrecognized_trap; }

// Returning zero in every return register needs assembly: C cannot clear both the
// integer and the floating-point result registers from one function.
#if defined(__x86_64__)
__asm__(
    ".text\n"
    ".p2align 4\n"
    "dp_nil_imp_body:\n"
    "  xorl %eax, %eax\n"
    "  xorl %edx, %edx\n"
    "  xorps %xmm0, %xmm0\n"
    "  xorps %xmm1, %xmm1\n"
    "  ret\n");
#elif defined(__aarch64__)
__asm__(
    ".text\n"
    ".p2align 2\n"
    "dp_nil_imp_body:\n"
    "  mov x0, #0\n"
    "  mov x1, #0\n"
    "  movi d0, #0\n"
    "  movi d1, #0\n"
    "  movi d2, #0\n"
    "  movi d3, #0\n"
    "  ret\n");
#endif

#if defined(__x86_64__) || defined(__aarch64__)
extern void dp_nil_imp_body(void);
dp_imp dp_nil_imp(void) { return dp_nil_imp_body; }
#else
static long nil_body(void) { return 0; }
dp_imp dp_nil_imp(void) { return (dp_imp)nil_body; }
#endif
