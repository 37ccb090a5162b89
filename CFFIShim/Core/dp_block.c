// Blocks for Invocation's retainArguments: the runtime does not link a blocks runtime
// (the C driver and users' C programs may have none); it uses the one the process has.
// A block cannot exist without one (its isa is the runtime's _NSConcreteStackBlock), so
// where the weak references below are NULL there is nothing to copy.

#include "dp_block.h"

#include <stddef.h>

extern void *_Block_copy(const void *block) __attribute__((weak));
extern void _Block_release(const void *block) __attribute__((weak));

const void *dp_block_copy(const void *block) {
  if (!block || !_Block_copy) return NULL;
  return _Block_copy(block);
}

void dp_block_release(const void *block) {
  if (block && _Block_release) _Block_release(block);
}

bool dp_blocks_runtime_present(void) { return _Block_copy != NULL && _Block_release != NULL; }
