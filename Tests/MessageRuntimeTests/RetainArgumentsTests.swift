import DelegateProxyCTestSupport
import DelegateProxyTestSupport
import Testing

@testable import MessageRuntime

/// `retainArguments` — "If the receiver hasn't already done so, retains the target and
/// all object arguments of the receiver and copies all of its C-string arguments and
/// blocks. If a return value has been set, this is also retained."
@Suite("retainArguments") struct RetainArgumentsTests {
  @Test func retainArgumentsRetainsTheReturnValue() throws {
    let make = Message<RuntimeObject?>("make")
    weak var weakResult: RuntimeObject?
    let inv = Invocation(signature: make.signature, selector: make.selector)
    do {
      // Written as bytes (as a forwarder moving answers does): not kept until retained.
      let result = RuntimeObject()
      weakResult = result
      try inv.setReturnBytes(withUnsafeBytes(of: result.rawValue) { Array($0) })
      inv.retainArguments()
    }
    #expect(weakResult != nil)
    #expect(try inv.returnValue(as: RuntimeObject?.self) === weakResult)
    // A return value set after retaining is retained too, and the previous one let go.
    do {
      let later = RuntimeObject()
      try inv.setReturnBytes(withUnsafeBytes(of: later.rawValue) { Array($0) })
      weakResult = later
    }
    #expect(weakResult != nil)
    #expect(try inv.returnValue(as: RuntimeObject?.self) === weakResult)
  }

  @Test func retainArgumentsCopiesBlocks() throws {
    #expect(dp_blocks_runtime_present())
    let copiesBefore = dp_test_block_copies()
    let disposesBefore = dp_test_block_disposes()
    var kept: Invocation? = nil
    withUnsafeMutablePointer(to: &kept) { slot in
      dp_test_with_stack_block(
        5,
        { block, context in
          // A message `run:` (v@:@?) whose block argument is a stack block.
          let inv = Invocation(signature: try! MethodSignature.parse("v@:@?"))
          try! inv.setArgumentBytes(withUnsafeBytes(of: block) { Array($0) }, at: 0)
          inv.retainArguments()
          context!.assumingMemoryBound(to: Invocation?.self).pointee = inv
        }, slot)
    }
    do {
      let inv = try #require(kept)
      // The stack block's frame is gone (overwritten); the invocation holds a heap copy.
      let copy = try #require(
        try inv.withUnsafeArgument(at: 0) { $0.load(as: UnsafeRawPointer?.self) })
      #expect(dp_test_block_is_heap(copy) != 0)
      #expect(dp_test_call_block(copy, 10) == 15)
      #expect(dp_test_block_copies() == copiesBefore + 1)
      // A copy of the invocation retains the same heap block (the copy helper does not
      // run again); retaining twice copies nothing more.
      let other = inv.copy()
      inv.retainArguments()
      #expect(dp_test_block_copies() == copiesBefore + 1)
      #expect(try other.withUnsafeArgument(at: 0) { $0.load(as: UnsafeRawPointer?.self) } == copy)
      #expect(dp_test_block_disposes() == disposesBefore)
    }
    // Released with the last invocation that holds it: dispose runs once.
    kept = nil
    #expect(dp_test_block_disposes() == disposesBefore + 1)
  }
}
