import MessageRuntime
import Synchronization

/// The C call of one protocol method on one delegate, as `@Delegate` generates it: reads
/// the arguments from the frame, calls the delegate, writes the result.
public typealias DelegateCCall<Delegate> = @Sendable (Delegate, DelegateCFrame) -> Void

/// The arguments and result of one C call reaching a plain Swift delegate (through
/// ``DelegateMulticast/imp(for:)`` and the multicast's runtime proxy), in their C form.
///
/// Generated code reads each argument as its Swift type and writes the result:
///
/// ```swift
/// { d, f in f.setResult(d.sensorShouldStart(f.argument(0))) }
/// ```
///
/// A Swift class instance arrives as the pointer C passed (the object, +0); a struct as
/// its C bytes, converted to the Swift layout (``DelegateValueType``). Valid only while
/// the call runs.
public struct DelegateCFrame {
  /// How the method's values sit in the frame (+0: the adapter keeps it alive).
  @usableFromInline let method: Unmanaged<DelegateCMethod>
  /// The entry's register frame, or nil for a call that arrived as an invocation.
  @usableFromInline let registers: UnsafeMutableRawPointer?
  /// The invocation of a call that does not travel in registers (+0).
  @usableFromInline let invocation: Unmanaged<Invocation>?

  init(method: DelegateCMethod, registers: UnsafeMutableRawPointer) {
    self.method = .passUnretained(method)
    self.registers = registers
    invocation = nil
  }

  init(method: DelegateCMethod, invocation: Invocation) {
    self.method = .passUnretained(method)
    registers = nil
    self.invocation = .passUnretained(invocation)
  }

  /// The method's parameter at `index` (0 is the first parameter after `_cmd`), as the
  /// Swift type the protocol declares.
  @inlinable
  public func argument<T>(_ index: Int) -> T {
    if let registers {
      // A value that sits whole in one register and has the same bytes in Swift: load it.
      let offset = method._withUnsafeGuaranteedRef { $0.directArguments[index] }
      if offset >= 0 { return registers.load(fromByteOffset: offset, as: T.self) }
    }
    return method._withUnsafeGuaranteedRef { $0.decode(index, from: self, as: T.self) }
  }

  /// Sets the call's result (the value the method returned).
  @inlinable
  public func setResult<T>(_ value: T) {
    if let registers {
      let offset = method._withUnsafeGuaranteedRef { $0.directResult }
      if offset >= 0 {
        // The frame's result words start zeroed: the C value's tail stays zero.
        withUnsafeBytes(of: value) { bytes in
          (registers + offset).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        }
        return
      }
    }
    method._withUnsafeGuaranteedRef { $0.encode(value, into: self) }
  }
}

/// One method of a Swift delegate protocol as C calls reach it: its selector, signature,
/// and where each parameter and the result sit in a ``SwiftEntryFrame``.
@usableFromInline
final class DelegateCMethod: @unchecked Sendable {
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
  /// Whether the method's policy folds with all-true: a member found gone mid-dispatch
  /// then answers true (neutral), not zero, to the C route's fold.
  let goneAnswersTrue = Atomic<Bool>(false)

  init(_ description: DelegateMethodDescription, signature: MethodSignature) {
    selector = description.selector
    self.signature = signature
    isOptional = !description.isRequired
    let parameters = description.parameters.map(\.type)
    let slots = signature.entryArgumentSlots ?? []
    let argumentSlots = parameters.indices.map { i in slots.filter { $0.argument == i } }
    let resultSlots = signature.entryResultSlots ?? []
    directArguments = parameters.indices.map { i in
      DelegateCMethod.directOffset(
        argumentSlots[i], parameters[i], signature.argumentLayouts[i + 2].size)
    }
    directResult =
      signature.returnsVoid
      ? -1
      : DelegateCMethod.directOffset(resultSlots, description.result, signature.returnLayout.size)
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
  func decode<T>(_ index: Int, from frame: DelegateCFrame, as: T.Type) -> T {
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

  /// Writes the answer of a member found gone: zero (the frame's start), or true when
  /// the policy folds with all-true.
  func answerForGoneMember(_ frame: DelegateCFrame) {
    guard goneAnswersTrue.load(ordering: .relaxed), let registers = frame.registers,
      let slot = resultSlots.first
    else { return }
    registers.storeBytes(of: 1 as UInt8, toByteOffset: slot.frameOffset, as: UInt8.self)
  }

  /// Writes `value` as the call's C result.
  @usableFromInline
  func encode<T>(_ value: T, into frame: DelegateCFrame) {
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
