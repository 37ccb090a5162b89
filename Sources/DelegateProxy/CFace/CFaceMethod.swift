@_spi(Validation) import MessageRuntime  // argumentLayouts, returnLayout (SPI: the fuzzer package reads them)

/// One method of a Swift delegate protocol as C calls reach it: its selector, signature,
/// and where each parameter and the result sit in a ``__SwiftEntryFrame``.
@usableFromInline
final class CFaceMethod: @unchecked Sendable {
  // @unchecked Sendable: every property is immutable after init.

  let selector: Selector
  let signature: MethodSignature
  let isOptional: Bool
  let parameters: [DelegateValueType]
  let result: DelegateValueType
  /// Per parameter: the frame byte offset of a value that sits whole in one register
  /// with the same bytes in Swift and C; -1 when it must be gathered or converted.
  @usableFromInline let directArguments: [Int]
  /// The frame byte offset of such a result; -1 otherwise (and for `void`).
  @usableFromInline let directResult: Int
  /// Per parameter, its register slots (empty when the call does not travel in registers).
  let argumentSlots: [[SwiftEntrySlot]]
  let resultSlots: [SwiftEntrySlot]

  init(_ description: MethodDescription, signature: MethodSignature) {
    selector = description.selector
    self.signature = signature
    isOptional = !description.isRequired
    let parameters = description.parameters.map(\.type)
    let slots = signature.entryArgumentSlots ?? []
    let argumentSlots = parameters.indices.map { i in slots.filter { $0.argument == i } }
    let resultSlots = signature.entryResultSlots ?? []
    directArguments = parameters.indices.map { i in
      CFaceMethod.directOffset(
        argumentSlots[i], parameters[i], signature.argumentLayouts[i + 2].size)
    }
    directResult =
      signature.returnsVoid
      ? -1
      : CFaceMethod.directOffset(resultSlots, description.result, signature.returnLayout.size)
    self.parameters = parameters
    self.argumentSlots = argumentSlots
    self.resultSlots = resultSlots
    result = description.result
  }

  /// The frame offset of a value of `type` and C size `cSize` held whole in one slot,
  /// whose Swift bytes are its C bytes; -1 otherwise.
  private static func directOffset(
    _ slots: [SwiftEntrySlot], _ type: DelegateValueType, _ cSize: Int
  )
    -> Int
  {
    guard slots.count == 1, slots[0].offset == 0, slots[0].size == cSize, type.isBitwiseInC else {
      return -1
    }
    return slots[0].frameOffset
  }

  /// The parameter at `index`, gathered from its registers (or the invocation) and
  /// converted from its C form.
  @usableFromInline
  func decode<T>(_ index: Int, from frame: __CFaceFrame, as: T.Type) -> T {
    let type = parameters[index]
    if let invocation = frame.invocation {
      return invocation._withUnsafeGuaranteedRef { inv in
        // The index is in range: the signature was built from these parameters.
        try! inv.withUnsafeArgument(at: index) { type.readC(from: $0.baseAddress!, as: T.self) }
      }
    }
    // Register slots hold at most 32 bytes of one argument (AArch64: a 4-double HFA).
    return withUnsafeTemporaryAllocation(byteCount: 32, alignment: 16) { buffer in
      let c = buffer.baseAddress!
      c.initializeMemory(as: UInt8.self, repeating: 0, count: 32)
      for slot in argumentSlots[index] {
        (c + slot.offset).copyMemory(
          from: frame.registers! + slot.frameOffset, byteCount: slot.size)
      }
      return type.readC(from: c, as: T.self)
    }
  }

  /// Writes `value` as the call's C result.
  @usableFromInline
  func encode<T>(_ value: T, into frame: __CFaceFrame) {
    if let invocation = frame.invocation {
      invocation._withUnsafeGuaranteedRef { inv in
        inv.withUnsafeReturnValue { buffer in
          guard let base = buffer.baseAddress else { return }
          base.initializeMemory(as: UInt8.self, repeating: 0, count: buffer.count)
          result.writeC(value, to: base)
        }
      }
      return
    }
    withUnsafeTemporaryAllocation(byteCount: 32, alignment: 16) { buffer in
      let c = buffer.baseAddress!
      c.initializeMemory(as: UInt8.self, repeating: 0, count: 32)
      result.writeC(value, to: c)
      for slot in resultSlots {
        (frame.registers! + slot.frameOffset).copyMemory(
          from: c + slot.offset, byteCount: slot.size)
      }
    }
  }
}

/// A multicast's protocol methods as C reaches them and their generated C calls, by method
/// index, with the protocol's existential type erased (the C face's per-message path is
/// not generic).
final class CFaceMethods: Sendable {
  let plans: [CFaceMethod]
  /// Each takes the address of the multicast's stored existential, with one strong
  /// reference taken for the call (which it releases), and the frame, and runs the
  /// method's generated C call on the multicast.
  let calls: [@Sendable (UnsafeMutableRawPointer, __CFaceFrame) -> Void]
  /// The selectors, for finding a method from `_cmd` (protocols are short: a scan).
  private let selectors: [Selector]

  /// By method index: the generated C function of the method's own signature, where
  /// there is one and its guesses fit the protocol's types (see `__CFaceFunction`).
  let entries: [__CFaceFunction?]

  init<Delegate>(
    plans: [CFaceMethod], calls: [__CFaceCall<Delegate>], entries: [__CFaceFunction?]
  ) {
    self.plans = plans
    self.entries = entries
    self.calls = calls.map { call in
      { existential, frame in
        CFace.withMulticast(existential, as: Delegate.self) { multicast in call(multicast, frame) }
      }
    }
    selectors = plans.map(\.selector)
  }

  func index(of selector: Selector) -> Int? {
    for i in selectors.indices where selectors[i] == selector { return i }
    return nil
  }
}
