// See BlocksFromC.h. The layout is the Block ABI's (clang's "Block Implementation
// Specification"): isa, flags, reserved, invoke, descriptor, then the captured values.

#include "BlocksFromC.h"

#include <stdint.h>
#include <string.h>

enum { BLOCK_HAS_COPY_DISPOSE = 1 << 25 };

extern void *_NSConcreteStackBlock[32];
extern void *_NSConcreteMallocBlock[32];

typedef struct test_block {
  void *isa;
  volatile int32_t flags;
  int32_t reserved;
  int (*invoke)(struct test_block *, int);
  const struct test_descriptor *descriptor;
  int addend;  // the captured value
} test_block;

typedef struct test_descriptor {
  unsigned long reserved;
  unsigned long size;
  void (*copy)(void *dst, const void *src);
  void (*dispose)(const void *block);
} test_descriptor;

static int copies, disposes;  // atomic
static void copy_helper(void *dst, const void *src) {
  (void)dst, (void)src;
  __atomic_add_fetch(&copies, 1, __ATOMIC_RELAXED);
}
static void dispose_helper(const void *block) {
  (void)block;
  __atomic_add_fetch(&disposes, 1, __ATOMIC_RELAXED);
}
static int add_captured(test_block *b, int x) { return x + b->addend; }

static const test_descriptor descriptor = {0, sizeof(test_block), copy_helper, dispose_helper};

void dp_test_with_stack_block(int addend, void (*body)(const void *, void *), void *context) {
  test_block block = {(void *)_NSConcreteStackBlock, BLOCK_HAS_COPY_DISPOSE, 0, add_captured,
                      &descriptor, addend};
  body(&block, context);
  // The frame ends here: a kept pointer to the stack block would now call garbage.
  memset((void *)&block, 0xA5, sizeof block);
  __asm__ volatile("" : : "r"(&block) : "memory");
}

int dp_test_call_block(const void *block, int x) {
  test_block *b = (test_block *)block;
  return b->invoke(b, x);
}

int dp_test_block_is_heap(const void *block) {
  return ((const test_block *)block)->isa == (void *)_NSConcreteMallocBlock;
}

int dp_test_block_copies(void) { return __atomic_load_n(&copies, __ATOMIC_RELAXED); }
int dp_test_block_disposes(void) { return __atomic_load_n(&disposes, __ATOMIC_RELAXED); }
