import MessageRuntime
import Synchronization

/// A plain Swift delegate as the runtime sees it: a receiver whose methods are the
/// protocol's (the optional ones its class is not known to lack), each a static C entry
/// (``SwiftEntryObject``) that reads the C call's arguments, calls the delegate and
/// writes its result back — no libffi closure on the register path.
///
/// It holds the delegate's ``SwiftMember`` (so the delegate as the multicast does:
/// unowned unless strong), never calls a removed member or one whose deinit has begun,
/// and holds nothing that leads back to the multicast.
///
/// The per-message path (``CFaceReceiverCore``) is not generic: unspecialized generic
/// code would look up type metadata (the calls' function types) on every message.
final class CFaceReceiver<Delegate>: CFaceReceiverCore, @unchecked Sendable {
  // @unchecked Sendable: every property is immutable; `installed` is behind a lock.
  /// The selectors installed as methods (by method index).
  private let installed: Lock<[Bool]>

  init(member: SwiftMember<Delegate>, methods: CFaceMethods, rebuild: RebuildRequest) {
    installed = Lock([Bool](repeating: false, count: methods.plans.count))
    super.init(
      object: member.object, existential: UnsafeMutableRawPointer(member.existential),
      existentialSize: MemoryLayout<Delegate>.size, member: member, typeID: member.typeID,
      methods: methods, rebuild: rebuild)
    _ = installMethods()
  }

  /// Installs the methods the delegate answers and removes those its class turned out to
  /// lack. Returns whether anything changed.
  func installMethods() -> Bool {
    installed.withLock { installed in
      var changed = false
      for (index, plan) in methods.plans.enumerated() {
        let wanted =
          !plan.isOptional
          || !DelegateOptional.isKnownMissing(plan.selector.name, typeID: typeID)
        guard wanted != installed[index] else { continue }
        changed = true
        installed[index] = wanted
        guard wanted else {
          removeMethod(plan.selector)
          continue
        }
        if let entry = methods.entries[index] {
          // The generated C function of the method's own signature: routes call it
          // directly.
          setMethod(plan.selector, imp: entry.imp, signature: plan.signature)
        } else if !setEntryMethod(plan.selector, signature: plan.signature) {
          // Arguments or result in memory: libffi's closure path, decoding from the
          // invocation. Unowned: the method belongs to this adapter.
          _ = try? setMethod(plan.selector, signature: plan.signature) {
            [unowned self] invocation in
            self.call(index, __CFaceFrame(method: plan, invocation: invocation))
          }
        }
      }
      return changed
    }
  }
}

/// The per-message half of ``CFaceReceiver``, free of generics.
@usableFromInline
class CFaceReceiverCore: SwiftEntryObject, @unchecked Sendable {
  // @unchecked Sendable: every property is immutable.

  /// The delegate's object (kept allocated by its member) and its stored existential (+0).
  let object: UnownedObject
  let existential: UnsafeMutableRawPointer
  let existentialSize: Int
  /// The member, for its removed flag (the one the C routes read for this adapter).
  let member: Member
  /// The delegate's class, for optional methods it lacks (``SwiftMember/typeID``).
  let typeID: ObjectIdentifier
  let methods: CFaceMethods
  /// The multicast's: raised when a call found its member gone or learned a missing
  /// optional method.
  let rebuild: RebuildRequest

  init(
    object: UnownedObject, existential: UnsafeMutableRawPointer, existentialSize: Int,
    member: Member, typeID: ObjectIdentifier, methods: CFaceMethods, rebuild: RebuildRequest
  ) {
    self.object = object
    self.existential = existential
    self.existentialSize = existentialSize
    self.member = member
    self.typeID = typeID
    self.methods = methods
    self.rebuild = rebuild
    super.init()
  }

  override final func receive(_ selector: Selector, frame: SwiftEntryFrame) {
    guard let index = methods.index(of: selector) else { return }
    call(index, __CFaceFrame(method: methods.plans[index], registers: frame.base))
  }

  /// Calls the delegate's method `index` unless it was removed or is being deallocated:
  /// then, and when its class turns out to lack the (optional) method, the call is
  /// declined (`CallDecline`): the loop that made it counts no answer from it.
  final func call(_ index: Int, _ frame: __CFaceFrame) {
    // The removed check is the last step before the call (see Member.withDelegate).
    guard !member.isRemoved else { return markGone() }
    // One strong reference for the call (a strong member's object is alive, so this
    // succeeds for it too), handed to the delegate value the call takes and releases.
    guard object.tryRetain() else { return markGone() }
    let optional = methods.plans[index].isOptional
    let learned = optional ? DelegateOptional.learned.load(ordering: .acquiring) : 0
    withUnsafeTemporaryAllocation(byteCount: existentialSize, alignment: 16) { value in
      // The stored existential is at +0: its bits plus the reference just taken
      // make an owned value, which the call moves out.
      value.baseAddress!.copyMemory(from: existential, byteCount: existentialSize)
      methods.calls[index](value.baseAddress!, frame)
    }
    if optional && DelegateOptional.learned.load(ordering: .acquiring) != learned {
      learnedMissing(index)
    }
  }

  /// After an optional method's call during which something was learned missing: when it
  /// is this delegate's class that lacks it, the call (its default) gave no answer.
  final func learnedMissing(_ index: Int) {
    rebuild.raise()
    if DelegateOptional.isKnownMissing(methods.plans[index].selector.name, typeID: typeID) {
      CallDecline.decline()
    }
  }

  /// Declines the call of a gone member — its delegate's deinit has begun, or it was
  /// removed — and marks it removed, so the Swift loops and the C routes skip it from now
  /// on; asks for a rebuild that compacts it away.
  fileprivate func markGone() {
    member.markRemoved()
    rebuild.raise()
    CallDecline.decline()
  }
}

// MARK: Generated C entries (__CFaceFunction)
// Free functions, not statics of the class: a static would fetch the class metadata on
// every call.

/// Begins a generated entry's call on the adapter whose handle is `target`: the
/// delegate's existential with one strong reference taken for the call, or none when the
/// member was removed or its deinit has begun.
@usableFromInline
func cFaceEnter(_ target: UnsafeMutableRawPointer?, method: Int) -> CFaceCallToken {
  // Only adapters install generated entries: the handle's receiver is one.
  let me = Unmanaged<CFaceReceiverCore>.fromOpaque(
    SwiftEntryObject.receiver(ofHandle: target).toOpaque())
  return me._withUnsafeGuaranteedRef { receiver in
    // The removed check is the last step before the call (see Quiescence).
    // One strong reference for the call, which consumes it (a strong member's object
    // is alive, so this succeeds for it too).
    guard !receiver.member.isRemoved, receiver.object.tryRetain() else {
      return CFaceCallToken(receiver: me, existential: nil, isOptional: false, learned: 0)
    }
    let isOptional = receiver.methods.plans[method].isOptional
    let learned = isOptional ? DelegateOptional.learned.load(ordering: .acquiring) : 0
    return CFaceCallToken(
      receiver: me, existential: receiver.existential, isOptional: isOptional, learned: learned)
  }
}

/// Ends a call to an optional method begun by ``cFaceEnter(_:method:)`` (whose
/// reference the call consumed): notes that the delegate's class turned out to lack it.
@usableFromInline
func cFaceExit(_ token: CFaceCallToken, method: Int) {
  token.receiver._withUnsafeGuaranteedRef { receiver in
    if DelegateOptional.learned.load(ordering: .acquiring) != token.learned {
      receiver.learnedMissing(method)
    }
  }
}

/// What a generated entry returns for a gone member: zero, with the call declined (the
/// loop that made it counts no answer from it). The adapter leaves the routes.
@usableFromInline
func cFaceGoneAnswer<Result>(
  _ token: CFaceCallToken, method: Int, as: Result.Type
) -> Result {
  let selector = token.receiver._withUnsafeGuaranteedRef { receiver in
    receiver.markGone()
    return receiver.methods.plans[method].selector
  }
  // Every generated entry's result is a C scalar or pointer, so it has a zero.
  return ZeroValue.value(Result.self, for: selector.name)
}
