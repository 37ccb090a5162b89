// Blocks made the way clang's -fblocks makes them (the Block ABI's literal layout, on the
// stack, with copy and dispose helpers that count), for Invocation.retainArguments' tests:
// the package compiles its C without -fblocks.

#ifndef DP_TEST_BLOCKS_FROM_C_H
#define DP_TEST_BLOCKS_FROM_C_H

#ifdef __cplusplus
extern "C" {
#endif

/// Calls `body(block, context)` with a stack block `int (^)(int)` that adds `addend`,
/// then overwrites the block's memory before returning (a stack block is gone then).
void dp_test_with_stack_block(int addend, void (*body)(const void *block, void *context),
                              void *context);
/// Calls a block made by dp_test_with_stack_block (or a copy of it) with `x`.
int dp_test_call_block(const void *block, int x);
/// Whether `block` is a heap block (its isa is the blocks runtime's malloc-block class).
int dp_test_block_is_heap(const void *block);
/// How many times the blocks' copy and dispose helpers ran (process-wide).
int dp_test_block_copies(void);
int dp_test_block_disposes(void);

#ifdef __cplusplus
}
#endif

#endif
