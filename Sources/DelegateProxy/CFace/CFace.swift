import MessageRuntime
import Synchronization

/// The C face of a ``DelegateMulticast``: the one runtime object C code messages
/// (`multicast.runtime.proxy()`), whose method for each protocol method runs **the
/// multicast's own dispatch** — the table the multicast publishes, its policies and fold,
/// queues, observers, blocking, nesting and injected members, exactly as a Swift caller's
/// call does — and writes the answer back. There is no second member table and nothing to
/// rebuild when the multicast changes: a C call reads what a Swift call reads.
///
/// Each method's IMP is, in order of preference:
/// - the `@convention(c)` function `@Delegate` generated for the method
///   (``__CFaceFunction``): a plain C call that calls the method on the multicast;
/// - the static C entry of the signature's return class (``__SwiftEntryObject``), which
///   decodes the argument registers (``__CFaceFrame``) and runs the method's generated C
///   call (`__cCalls`) on the multicast;
/// - for a signature whose arguments or result travel in memory, a libffi closure that
///   does the same from an ``Invocation``.
///
/// The face holds the multicast unowned (the multicast owns the face): each C call takes
/// one strong reference to it for the call (`tryRetain`, as a dispatch does for a weakly
/// held delegate). Once the multicast's deinit has begun a C call through the face — a
/// `CallbackAdapter` may keep it — answers zero and calls nobody.
@usableFromInline
final class CFace: __SwiftEntryObject, @unchecked Sendable {
  // @unchecked Sendable: every stored property is immutable after init.

  /// The multicast as its protocol's existential, stored at +0 (the multicast owns this
  /// face): valid while `object` keeps the multicast's memory.
  @usableFromInline let existential: UnsafeMutableRawPointer
  /// The multicast, unowned: keeps its memory allocated, so `tryRetain` is safe after its
  /// deinit began.
  @usableFromInline let object: UnownedObject
  /// The protocol's methods as C reaches them, and their generated C calls.
  let methods: CFaceMethods
  /// By method index: whether the multicast responds to the method (its own
  /// `responds(to:)`), asked while holding a strong reference to the multicast.
  private let answers: @Sendable (Int) -> Bool
  /// The multicast's ``MulticastOptions/silentWhenEmpty``, mirrored here under the
  /// multicast's state lock: a selector the protocol does not have is answered with zero
  /// instead of trapping.
  let isSilent = Atomic<Bool>(false)

  /// The face of `multicast`: one method per protocol method.
  init<Delegate, Handles>(
    _ multicast: DelegateMulticast<Delegate, Handles>
  ) throws(DelegateProxyError) {
    let description = multicast.protocolDescription
    let proto = try description.runtimeProtocol()
    // Only a protocol declared with `@Delegate(cFace: true)` has C entry points.
    guard let provider = type(of: multicast) as? any __CFaceProviding.Type,
      let calls = provider.erasedCCalls as? [__CFaceCall<Delegate>]
    else { throw .noCFace(protocol: description.name) }
    let entries = provider.__cFunctions
    guard calls.count == description.methods.count, let delegate = multicast as? Delegate else {
      fatalError(
        "\(description.name): the multicast has \(calls.count) C calls for \(description.methods.count) methods; declare the protocol with @Delegate"
      )
    }
    let plans = description.methods.map { m in
      CFaceMethod(m, signature: proto.requirement(for: m.selector)!.signature)
    }
    // An entry whose guesses do not fit (a parameter it took for a class instance is a
    // struct) is not used: that method's calls go through frames.
    let fitting = description.methods.indices.map { i -> __CFaceFunction? in
      guard i < entries.count, let entry = entries[i], entry.fits(description.methods[i]) else {
        return nil
      }
      return entry
    }
    methods = CFaceMethods(plans: plans, calls: calls, entries: fitting)
    let stored = UnsafeMutablePointer<Delegate>.allocate(capacity: 1)
    stored.initialize(to: delegate)
    // The stored copy took a strong reference to the multicast; give it back (+0).
    Unmanaged.passUnretained(multicast).release()
    existential = UnsafeMutableRawPointer(stored)
    object = UnownedObject(multicast)
    // unowned(unsafe): asked only while `responds(to:)` holds a strong reference.
    answers = { [unowned(unsafe) multicast] index in multicast.responds(methodAt: index) }
    super.init(class: CFace.faceClass)
    addProtocol(proto)
    for (index, plan) in plans.enumerated() {
      if let entry = fitting[index] {
        // The generated C function of the method's own signature: C calls it directly.
        setMethod(plan.selector, imp: entry.imp, signature: plan.signature)
      } else if !setEntryMethod(plan.selector, signature: plan.signature) {
        // Arguments or result in memory: libffi's closure path, decoding from the
        // invocation. Unowned: the method belongs to this face.
        _ = try? setMethod(plan.selector, signature: plan.signature) {
          [unowned self] invocation in
          self.call(index, __CFaceFrame(method: plan, invocation: invocation))
        }
      }
    }
  }

  deinit {
    // Not deinitialized: the stored multicast is +0 (see init).
    existential.deallocate()
    object.releaseUnowned()
  }

  /// Whether the multicast handles `selector` from C as it would from Swift: for a
  /// protocol method, the multicast's own ``DelegateMulticast/responds(to:)`` (some live
  /// member implements it, or an observer watches a `void` method).
  override func responds(to selector: Selector) -> Bool {
    guard let index = methods.index(of: selector) else { return super.responds(to: selector) }
    guard object.tryRetain() else { return false }
    defer { object.release() }
    return answers(index)
  }

  /// A selector of the protocol has its method's signature; under `silentWhenEmpty` any
  /// other is taken as `void` with object arguments (`AIMultiDelegate`'s "any signature"),
  /// so a C caller's unknown message reaches ``forwardInvocation(_:)`` and is dropped.
  override func methodSignature(for selector: Selector) -> MethodSignature? {
    if let known = super.methodSignature(for: selector) { return known }
    guard isSilent.load(ordering: .relaxed) else { return nil }
    return MulticastOptions.silentSignature(for: selector)
  }

  /// A Swift sender's declared signature for a selector the protocol does not have, under
  /// `silentWhenEmpty` (so its result is zeroed at its real size).
  override func methodSignature(for selector: Selector, proposed: MethodSignature)
    -> MethodSignature?
  {
    if let known = super.methodSignature(for: selector) { return known }
    return isSilent.load(ordering: .relaxed) ? proposed : nil
  }

  /// A message the protocol does not have: answered with zero under `silentWhenEmpty`,
  /// else the unrecognized-selector error.
  override func forwardInvocation(_ invocation: Invocation) throws {
    guard isSilent.load(ordering: .relaxed) else { return try super.forwardInvocation(invocation) }
    invocation.withUnsafeReturnValue { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
  }

  /// A C call that arrived through the static entry of its return class.
  override func receive(_ selector: Selector, frame: __SwiftEntryFrame) {
    guard let index = methods.index(of: selector) else { return }
    call(index, __CFaceFrame(method: methods.plans[index], registers: frame.base))
  }

  /// Runs the method `index`'s generated C call on the multicast: it reads the arguments
  /// from `frame`, calls the multicast's method (its dispatch) and writes the answer back.
  /// Once the multicast's deinit has begun, writes zero.
  func call(_ index: Int, _ frame: __CFaceFrame) {
    guard let existential = retainedMulticast() else {
      frame.invocation?._withUnsafeGuaranteedRef { inv in
        inv.withUnsafeReturnValue { buffer in
          if let base = buffer.baseAddress {
            base.initializeMemory(as: UInt8.self, repeating: 0, count: buffer.count)
          }
        }
      }
      return
    }
    methods.calls[index](existential, frame)
  }

  /// The stored multicast (``existential``) with one strong reference taken for a call
  /// (which ``withMulticast(_:as:_:)`` gives back), or nil once its deinit has begun.
  @inlinable func retainedMulticast() -> UnsafeMutableRawPointer? {
    object.tryRetain() ? existential : nil
  }

  /// The runtime class of every C face: a root class with no methods of its own (each
  /// face's methods are its own), named for error messages.
  static let faceClass: RuntimeClass = try! RuntimeClass(name: "DelegateProxy.CFace")

  /// The face whose handle C passed as `self` (+0: the caller keeps the face alive).
  @inlinable
  static func face(ofHandle handle: UnsafeMutableRawPointer?) -> Unmanaged<CFace> {
    // Only the face installs generated entries: the handle's receiver is one.
    Unmanaged<CFace>.fromOpaque(__SwiftEntryObject.receiver(ofHandle: handle).toOpaque())
  }

  /// Calls `body` with the multicast stored at `existential` as its protocol's
  /// existential, owning the strong reference ``retainedMulticast()`` took: the value
  /// made from the stored bits plus that reference is moved into the call and released
  /// after it (reading `pointee` would copy it: one more retain and release).
  @inlinable
  static func withMulticast<Delegate, Result>(
    _ existential: UnsafeMutableRawPointer, as: Delegate.Type, _ body: (Delegate) -> Result
  ) -> Result {
    withUnsafeTemporaryAllocation(of: Delegate.self, capacity: 1) { slot in
      let value = slot.baseAddress!
      UnsafeMutableRawPointer(value).copyMemory(
        from: UnsafeRawPointer(existential), byteCount: MemoryLayout<Delegate>.size)
      return body(value.move())
    }
  }
}

/// What a generated entry answers once the multicast's deinit has begun: zero. Every generated entry's result is a C scalar or pointer, so it has one.
@usableFromInline
func cFaceDetachedAnswer<Result>(
  _ face: Unmanaged<CFace>, method: Int, as: Result.Type
) -> Result {
  let selector = face._withUnsafeGuaranteedRef { $0.methods.plans[method].selector }
  return ZeroValue.value(Result.self, for: selector.name)
}

/// The C face: C code reaches a multicast's plain Swift delegates through real C function
/// pointers. Only a protocol declared with `@Delegate(cFace: true)` has one (its multicast
/// conforms to ``__CFaceProviding``); for any other, `cFace()` throws
/// ``DelegateProxyError/noCFace(protocol:)``.
///
/// ```swift
/// let proxy = SensorDelegateMulticast()                    // @Delegate(cFace: true)
/// proxy.add(display)                                       // plain Swift classes
/// c_library_set_reading_callback(                          // a C library's one slot
///   try proxy.runtime.imp(for: \.sensorDidRead).rawValue, try proxy.runtime.rawValue(),
///   proxy.runtime.selector(for: \.sensorDidRead).rawValue)
/// ```
/// ```c
/// // C: calls it as any IMP; a Swift object travels as void *, a struct by value
/// ((void (*)(dp_id, dp_sel, void *, struct reading))imp)(self, cmd, sensor, r);
/// ```
///
/// Behind `rawValue()` is `proxy()`, one runtime object whose method for each protocol
/// method runs the multicast's own dispatch — the table it publishes, its policies,
/// queues, observers and blocking, as a Swift call does — so there is one engine under
/// both faces. For a method of C scalars, pointers and class instances, the method is the
/// `@convention(c)` function of its own signature that `@Delegate` generates
/// (`__CFaceFunction`): a plain C call into the multicast's method; for others (structs
/// by value), a static C entry per return class that decodes the registers
/// (``__SwiftEntryObject``). A removed or deallocated delegate is never called from C
/// either: the dispatch is the Swift one. The C face keeps nothing alive.
///
/// A Swift class instance travels as its address (+0, `void *` in C), a struct by value
/// in its C layout (`{Reading=di}`). Signatures whose arguments or result do not travel
/// in registers reach the delegates through libffi closures instead of entries.
extension DelegateMulticast {
  /// The C face, made on first use.
  func cFace() throws(DelegateProxyError) -> CFace {
    if let face = state.withLock({ $0.cFace }) { return face }
    // Made outside the lock (it asks the multicast nothing under it); the first one
    // stored wins.
    let made = try CFace(self)
    return state.withLock { s in
      if let face = s.cFace { return face }
      made.isSilent.store(s.options.contains(.silentWhenEmpty), ordering: .relaxed)
      s.cFace = made
      return made
    }
  }
}
