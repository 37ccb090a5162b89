// The two IMPs dp_msg_lookup returns when there is no method to run: one for a NULL
// receiver (returns zero, as messaging nil does in Objective-C) and one that traps
// for an unrecognized selector with the message Cocoa prints.

#include "dp_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Noreturn void dp_fatal(const char *message) {
  fprintf(stderr, "%s\n", message);
  fflush(stderr);
  abort();
}

// The resolver records, for this thread, what it could not resolve just before handing
// out the trap (and the receiver's own message, when its doesNotRecognize says more).
// The trap trusts that record only when its argument registers show the same call:
// an IMP a caller cached earlier may be called for another receiver or selector.
static _Thread_local dp_id pending_obj;
static _Thread_local dp_sel pending_sel;
static _Thread_local const char *pending_class;
static _Thread_local char *pending_message;

void dp_note_unrecognized(dp_id obj, dp_sel sel, const char *class_name) {
  pending_obj = obj;
  pending_sel = sel;
  pending_class = class_name;
  free(pending_message);
  pending_message = NULL;
}

void dp_note_unrecognized_message(dp_id obj, dp_sel sel, const char *message) {
  dp_note_unrecognized(obj, sel, NULL);
  pending_message = message ? strdup(message) : NULL;
}

// self and _cmd are the first two integer arguments, or the second and third when a
// large struct result's hidden pointer comes first (x86-64): the registered selector
// among them says which (pointers are compared, never read, until one is known).
static _Noreturn void unrecognized_trap(void *a0, void *a1, void *a2) {
  dp_id obj = NULL;
  dp_sel sel = NULL;
  if (dp_sel_is_registered(a1)) {
    obj = a0;
    sel = a1;
  } else if (dp_sel_is_registered(a2)) {
    obj = a1;
    sel = a2;
  }
  bool recorded = sel == NULL || (obj == pending_obj && sel == pending_sel);
  // A trap IMP a caller cached for another message: resolve this one again, so that the
  // receiver's own doesNotRecognize (an override) is what is printed, for this selector.
  if (!recorded && obj) {
    (void)dp_msg_lookup(obj, sel);
    recorded = obj == pending_obj && sel == pending_sel;
  }
  if (recorded && pending_message) dp_fatal(pending_message);
  if (recorded) {
    obj = pending_obj;
    sel = pending_sel;
  }
  const char *class_name = recorded && pending_class ? pending_class
                           : obj ? dp_class_get_name(dp_object_get_class(obj))
                                 : "?";
  char message[512];
  snprintf(message, sizeof message, "-[%s %s]: unrecognized selector sent to instance %p",
           class_name, sel ? sel->name : "?", (void *)obj);
  dp_fatal(message);
}

dp_imp dp_unrecognized_imp(void) { return (dp_imp)unrecognized_trap; }

// Returning zero in every return register needs assembly: C cannot clear both the
// integer and the floating-point result registers from one function. The label is a
// global hidden symbol, not a local one: a GOT reference to a local label is made against
// the section plus an addend, which a static AArch64 link resolved to the section's start
// (dp_nil_imp answered dp_fatal's address at -O0; found by abi_test's nil cases).
#if defined(__x86_64__)
__asm__(
    ".text\n"
    ".p2align 4\n"
    ".globl dp_nil_imp_body\n"
    ".hidden dp_nil_imp_body\n"
    ".type dp_nil_imp_body, @function\n"
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
    ".globl dp_nil_imp_body\n"
    ".hidden dp_nil_imp_body\n"
    ".type dp_nil_imp_body, %function\n"
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
#else
static long nil_body(void) { return 0; }
#define dp_nil_imp_body ((dp_imp)nil_body)
#endif
dp_imp dp_nil_imp(void) { return dp_nil_imp_body; }

// The nil IMP zeroes the result registers only: it cannot know whether its caller passed
// a hidden result pointer (sret, x8) or expects st(0), and writing either when the caller
// did not would corrupt it. DP_MSG_SEND knows the result type: it compares the IMP with
// this one and answers these zero bytes instead of calling (.bss: no file or page cost
// until read).
void (*const dp_msg_nil_imp)(void) = dp_nil_imp_body;
unsigned char dp_zero_result[DP_ZERO_RESULT_MAX];
