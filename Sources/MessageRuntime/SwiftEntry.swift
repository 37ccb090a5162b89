// Public: receiver(ofHandle:) is inlined into DelegateProxy's C entries.
public import DelegateProxyCFFIShim

/// A receiver whose methods are implemented in Swift and entered through static C
/// entries (one per return class, `dp_swift_entry.c`) instead of libffi closures: each
/// method's IMP is a real C function that stores the caller's argument registers in a
/// ``__SwiftEntryFrame`` and calls ``receive(_:frame:)``. C routes replay straight into it.
///
/// Subclass it and override ``receive(_:frame:)``; install methods with
/// ``setEntryMethod(_:signature:)``. Only signatures that travel in registers have an
/// entry (see `MethodSignature.travelsInRegisters`); give others a closure method
/// (``RuntimeObject/setMethod(_:signature:body:)``).
///
/// The handle's context (`dp_object_context`) points at this object, unretained: whoever
/// hands the handle to C keeps the object alive while C may call it (a route target is
/// removed from its routes, and dispatches waited out, before its deinit finishes).
open class __SwiftEntryObject: RuntimeObject, @unchecked Sendable {
  // @unchecked Sendable: no state of its own beyond RuntimeObject's.

  /// A receiver of class `runtimeClass` whose handle leads C entries back to it.
  public override init(class runtimeClass: RuntimeClass = .root) {
    super.init(class: runtimeClass)
    _ = __SwiftEntryObject.installHandler
    dp_object_set_context(handle, Unmanaged.passUnretained(self).toOpaque())
  }

  /// Installs a method for `selector` whose IMP is the static entry for `signature`'s
  /// return class. Returns false (installing nothing) when the signature does not travel
  /// in registers or this build has no entries.
  @discardableResult
  package func setEntryMethod(_ selector: Selector, signature: MethodSignature) -> Bool {
    guard let plan = signature.registerPlan,
      let entry = dp_swift_entry(dp_return_class(plan.returnClass))
    else { return false }
    setMethod(selector, imp: IMP(entry), signature: signature)
    return true
  }

  /// Handles one message that arrived through an entry. `selector` is the call's `_cmd`;
  /// read the arguments from `frame` and write the result into it. Runs on the caller's
  /// thread; must not throw or trap for a message it cannot serve (write no result: the
  /// caller receives zero). The default does nothing.
  open func receive(_ selector: Selector, frame: __SwiftEntryFrame) {}

  /// The receiver whose handle C passed as `self` to one of its methods (+0), for C
  /// functions installed as its IMPs with ``RuntimeObject/setMethod(_:imp:signature:)``.
  /// `handle` must be the handle of a live `__SwiftEntryObject` (as a C route passes it).
  @inlinable
  package static func receiver(ofHandle handle: UnsafeMutableRawPointer?)
    -> Unmanaged<__SwiftEntryObject>
  {
    // The context was set in init to this object, unretained (see the type).
    Unmanaged.fromOpaque(dp_object_context_inline(OpaquePointer(handle))!)
  }

  /// Installs the one handler every entry calls (once per process).
  private static let installHandler: Void = dp_swift_entry_set_handler(swiftEntryHandler)
}

/// The handler the C entries call: finds the receiver from self's context.
private func swiftEntryHandler(_ frame: UnsafeMutablePointer<dp_swift_frame>?) {
  guard let frame else { return }
  let raw = UnsafeMutableRawPointer(frame)
  // self and _cmd are the first two integer registers.
  guard let handle = OpaquePointer(bitPattern: raw.load(as: UInt.self)),
    let sel = OpaquePointer(bitPattern: raw.load(fromByteOffset: 8, as: UInt.self)),
    let context = dp_object_context(handle)
  else { return }
  // No method body runs once the receiver's deinit has begun (a subclass's state may be
  // half torn down): the message answers the zero the entry put in the result words. The
  // context is the owner (set in init), so the strong reference is taken on it.
  guard let retained = dp_owner_try_retain(context) else { return }
  defer { dp_swift_release(retained) }
  Unmanaged<__SwiftEntryObject>.fromOpaque(context)._withUnsafeGuaranteedRef {
    $0.receive(Selector(raw: sel), frame: __SwiftEntryFrame(raw))
  }
}

/// The registers of one call that entered Swift through a ``__SwiftEntryObject`` entry:
/// the integer registers, the floating-point registers (as bits) and the result words.
/// Valid only during ``__SwiftEntryObject/receive(_:frame:)``.
public struct __SwiftEntryFrame {
  /// The frame's first byte (a `dp_swift_frame`). Byte offsets into it come from
  /// `MethodSignature.entryArgumentSlots` and `MethodSignature.entryResultSlots`.
  package let base: UnsafeMutableRawPointer

  init(_ base: UnsafeMutableRawPointer) { self.base = base }
}

/// Where some bytes of an argument or of the result sit in a ``__SwiftEntryFrame``.
package struct SwiftEntrySlot: Sendable, Equatable {
  /// The message argument the bytes belong to, counted from 0 after `self` and `_cmd`
  /// (as ``Invocation``'s indices are); 0 in the result's slots.
  package let argument: Int
  /// The bytes' offset within the value.
  package let offset: Int
  /// How many bytes (at most 8, from the slot's first byte).
  package let size: Int
  /// The slot's byte offset from the frame's start.
  package let frameOffset: Int
}

extension MethodSignature {
  /// Where each message argument's bytes travel in a ``__SwiftEntryFrame``, in register
  /// order (`self` and `_cmd`, in the first two integer registers, are not listed); nil
  /// when the signature does not travel in registers.
  package var entryArgumentSlots: [SwiftEntrySlot]? {
    guard let plan = registerPlan else { return nil }
    let fpBase = Int(DP_GP_REGS) * 8
    return plan.pieces.filter { $0.argument >= 2 }.map { p in
      SwiftEntrySlot(
        argument: p.argument - 2, offset: p.offset, size: p.size,
        frameOffset: p.bank == .gp ? p.register * 8 : fpBase + p.register * 8)
    }
  }

  /// Where the result's bytes go in a ``__SwiftEntryFrame``; nil when the signature does
  /// not travel in registers, empty for `void`.
  package var entryResultSlots: [SwiftEntrySlot]? {
    guard let plan = registerPlan else { return nil }
    let resultBase = (Int(DP_GP_REGS) + Int(DP_FP_REGS)) * 8
    return plan.resultPieces.map { p in
      SwiftEntrySlot(
        argument: 0, offset: p.offset, size: p.size, frameOffset: resultBase + p.word * 8)
    }
  }
}
