import MessageRuntime
import Synchronization

/// A plain Swift delegate as the runtime sees it: a receiver whose methods are the
/// protocol's (the optional ones its class is not known to lack), each a static C entry
/// (``SwiftEntryObject``) that reads the C call's arguments, calls the delegate and
/// writes its result back — no libffi closure on the register path.
///
/// It holds the delegate's ``DelegateMember`` (so the delegate as the multicast does:
/// unowned unless strong), never calls a removed member or one whose deinit has begun,
/// and holds nothing that leads back to the multicast.
final class DelegateCAdapter<Delegate>: SwiftEntryObject, @unchecked Sendable {
  // @unchecked Sendable: `member` and `methods` are immutable; `installed` and
  // `membership` are behind locks; `face` is an atomic flag holder.

  let member: DelegateMember<Delegate>
  let methods: DelegateCMethods<Delegate>
  /// Set when a call learned that the delegate's class lacks an optional method.
  let face: DelegateCFaceFlags
  /// The selectors installed as methods (by method index).
  private let installed: Lock<[Bool]>
  /// The adapter's membership in the runtime proxy's routes, once added.
  let membership = Lock<RouteMembership?>(nil)

  init(
    member: DelegateMember<Delegate>, methods: DelegateCMethods<Delegate>, face: DelegateCFaceFlags
  ) {
    self.member = member
    self.methods = methods
    self.face = face
    installed = Lock([Bool](repeating: false, count: methods.plans.count))
    super.init()
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
          || !DelegateOptional.isKnownMissing(plan.selector.name, typeID: member.typeID)
        guard wanted != installed[index] else { continue }
        changed = true
        installed[index] = wanted
        guard wanted else {
          removeMethod(plan.selector)
          continue
        }
        if !setEntryMethod(plan.selector, signature: plan.signature) {
          // Arguments or result in memory: libffi's closure path, decoding from the
          // invocation. Unowned: the method belongs to this adapter.
          _ = try? setMethod(plan.selector, signature: plan.signature) {
            [unowned self] invocation in
            self.call(index, DelegateCFrame(method: plan, invocation: invocation))
          }
        }
      }
      return changed
    }
  }

  override func receive(_ selector: Selector, frame: SwiftEntryFrame) {
    guard let index = methods.index(of: selector) else { return }
    call(index, DelegateCFrame(method: methods.plans[index], registers: frame.base))
  }

  /// Calls the delegate's method `index` unless it was removed or is being deallocated
  /// (then the C caller receives zero, and the adapter leaves the routes).
  private func call(_ index: Int, _ frame: DelegateCFrame) {
    // The removed check is the last step before the call (see Quiescence).
    guard !member.isRemoved else { return leave(index, frame) }
    // One strong reference for the call (a strong member's object is alive, so this
    // succeeds for it too), handed to the delegate value below and released with it.
    guard member.object.tryRetain() else { return leave(index, frame) }
    let delegate = withUnsafeTemporaryAllocation(of: Delegate.self, capacity: 1) { value in
      // The slot holds the existential at +0: its bits plus the reference just taken make
      // an owned value, without a second retain.
      UnsafeMutableRawPointer(value.baseAddress!).copyMemory(
        from: member.slot, byteCount: MemoryLayout<Delegate>.size)
      return value.baseAddress!.move()
    }
    let optional = methods.plans[index].isOptional
    let learned = optional ? DelegateOptional.learned.load(ordering: .acquiring) : 0
    methods.calls[index](delegate, frame)
    if optional && DelegateOptional.learned.load(ordering: .acquiring) != learned {
      face.needsSync.store(true, ordering: .releasing)
    }
  }

  /// Stops the routes from calling this adapter again (its member is gone).
  private func leave(_ index: Int, _ frame: DelegateCFrame) {
    methods.plans[index].answerForGoneMember(frame)
    membership.withLock { $0 }?.markRemoved()
    face.needsSync.store(true, ordering: .releasing)
  }
}

/// What every adapter of one multicast shares: the protocol's methods as C reaches them
/// and the generated calls, by method index.
final class DelegateCMethods<Delegate>: Sendable {
  let plans: [DelegateCMethod]
  let calls: [DelegateCCall<Delegate>]
  /// The selectors, for finding a method from `_cmd` (protocols are short: a scan).
  private let selectors: [Selector]

  init(plans: [DelegateCMethod], calls: [DelegateCCall<Delegate>]) {
    self.plans = plans
    self.calls = calls
    selectors = plans.map(\.selector)
  }

  func index(of selector: Selector) -> Int? {
    for i in selectors.indices where selectors[i] == selector { return i }
    return nil
  }
}
