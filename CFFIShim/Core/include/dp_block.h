// dp_block.h — copying and releasing blocks (`@?` arguments) for Invocation's
// retainArguments, through the process's blocks runtime when it has one.

#ifndef DP_BLOCK_H
#define DP_BLOCK_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// `_Block_copy(block)`: a heap copy of a stack block, or the block itself retained. NULL
/// when the process has no blocks runtime (then no block can exist to be copied) or for
/// NULL.
const void *dp_block_copy(const void *block);
/// `_Block_release(block)` for a result of dp_block_copy (nothing for NULL or without a
/// blocks runtime).
void dp_block_release(const void *block);
/// Whether the process has a blocks runtime (libBlocksRuntime, or libobjc's).
bool dp_blocks_runtime_present(void);

#ifdef __cplusplus
}
#endif

#endif  // DP_BLOCK_H
