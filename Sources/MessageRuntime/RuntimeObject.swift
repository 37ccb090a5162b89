internal import DelegateProxyCFFIShim

/// An object that can receive messages: it owns a C handle (what C sees as `id`,
/// whose first word is its class) that points back to it (`NSObject`'s role).
///
/// Subclass it to make a receiver, or use it directly and give it methods of its own.
/// Override `methodSignature(for:)` and `forwardInvocation(_:)` to handle messages
/// the class has no method for — or subclass `ForwardingProxy`, which has none.
///
/// A receiver is used from whatever thread sends to it; like an `NSObject`, a subclass
/// protects its own mutable state.
// @unchecked Sendable: its own stored state is `let`s (the class, the C handle, whose
// fields C reads and writes atomically) and a `Lock`. A non-final class cannot be checked
// by the compiler, so each subclass restates the conformance for its own state.
open class RuntimeObject: @unchecked Sendable, CustomStringConvertible {
  /// The object's class (`object_getClass`).
  public let runtimeClass: RuntimeClass
  /// The C handle; freed in deinit.
  let handle: OpaquePointer

  private struct OwnState {
    var methods: [Selector: Method] = [:]
    var protocols: [RuntimeProtocol] = []
    var deallocationHandlers: [UInt64: @Sendable (OpaquePointer) -> Void] = [:]
    var nextHandler: UInt64 = 0
  }
  private let own = Lock(OwnState())

  /// A receiver of class `runtimeClass`.
  public init(class runtimeClass: RuntimeClass = .root) {
    self.runtimeClass = runtimeClass
    handle = dp_object_create(runtimeClass.raw, nil)
    // Unretained: the object owns the handle. See object(rawValue:) for how a message
    // arriving after the last strong reference went away is refused.
    dp_object_set_owner(handle, Unmanaged.passUnretained(self).toOpaque())
    Runtime.install()
  }

  deinit {
    // First let holders of the raw handle (routes, proxies) drop it and wait out
    // dispatches in flight; then free the handle and its tables.
    let handlers = own.withLock { s in
      defer { s.deallocationHandlers.removeAll() }
      return Array(s.deallocationHandlers.values)
    }
    for handler in handlers { handler(handle) }
    dp_object_destroy(handle)
  }

  /// Registers `handler` to run when this object is deallocated, before its C handle is
  /// freed, with that handle. Code that keeps the raw handle (a route target) removes it
  /// here. Returns a token for ``removeDeallocationHandler(_:)``.
  @discardableResult
  package func addDeallocationHandler(_ handler: @escaping @Sendable (OpaquePointer) -> Void)
    -> UInt64
  {
    own.withLock { s in
      s.nextHandler += 1
      s.deallocationHandlers[s.nextHandler] = handler
      return s.nextHandler
    }
  }

  /// Removes a handler registered with ``addDeallocationHandler(_:)``.
  package func removeDeallocationHandler(_ token: UInt64) {
    _ = own.withLock { $0.deallocationHandlers.removeValue(forKey: token) }
  }

  /// The object's C handle, a `dp_id` (`id` in `dp_runtime.h`): what C code sends
  /// messages to and receives as `self`. Swift imports `dp_id` as `OpaquePointer`, so it
  /// passes to such C functions as it is: `c_send(object.rawValue, selector.rawValue)`.
  ///
  /// Valid while this object lives: the object owns the handle and frees it in its
  /// deinit. It does not keep the object alive — whoever hands it to C keeps a strong
  /// reference to the object for as long as C may use it. A message that reaches the
  /// handle once the object's deinit has begun gets the answer of a dead receiver (zero)
  /// rather than a crash, until the handle is freed. ``object(rawValue:)`` turns it back.
  public var rawValue: OpaquePointer { handle }

  /// The object whose C handle (``rawValue``) is `rawValue`, or nil for nil or once that
  /// object is being deallocated. `rawValue` must be a handle of a live object of this
  /// runtime (one whose deinit has not finished): for example `self` in a method
  /// called from C, or a handle C received from Swift while Swift keeps its object.
  public static func object(rawValue handle: OpaquePointer?) -> RuntimeObject? {
    guard let handle, let owner = dp_object_owner(handle) else { return nil }
    // swift_tryRetain fails atomically once the strong count has reached zero (deinit
    // begun), the check a weak load makes — without a weak reference, whose side table
    // would put every retain and release of the object on the runtime's slow path.
    guard let retained = dp_owner_try_retain(owner) else { return nil }
    return Unmanaged<RuntimeObject>.fromOpaque(retained).takeRetainedValue()
  }

  /// The class name behind a C handle, for messages.
  static func className(forHandle handle: OpaquePointer) -> String {
    String(cString: dp_class_get_name(dp_object_get_class(handle)))
  }

  // MARK: Forwarding hooks

  /// The signature of the method this object runs for `selector`
  /// (`methodSignatureForSelector:`): its own or its class's method; nil when it has
  /// none. Override to accept messages you forward.
  open func methodSignature(for selector: Selector) -> MethodSignature? {
    if let m = own.withLock({ $0.methods[selector] }) { return m.signature }
    return (runtimeClass.method(for: selector) ?? RootMethods.method(for: selector))?.signature
  }

  /// The signature for a message whose Swift sender declared its types (`proposed`: a
  /// typed `Message`'s or an `Invocation`'s signature). The default is
  /// `methodSignature(for:)`, whatever was proposed. A forwarder that accepts messages
  /// it knows nothing about (a proxy that drops unanswered messages) overrides it to take
  /// the sender's types; a C sender proposes nothing and gets `methodSignature(for:)`.
  open func methodSignature(for selector: Selector, proposed: MethodSignature)
    -> MethodSignature?
  {
    methodSignature(for: selector)
  }

  /// The object a message this object has no method for is sent to instead, before full
  /// forwarding (`forwardingTargetForSelector:`): a non-nil result other than `self`
  /// becomes the message's receiver, with the same arguments, and neither
  /// `methodSignature(for:)` nor `forwardInvocation(_:)` runs; nil or `self` (the default
  /// is nil) sends the message through full forwarding. Asked for every such message
  /// (Swift, `Invocation` and C senders alike), so the answer may change; it is not
  /// asked for `respondsToSelector:`/`conformsToProtocol:`, which every object answers.
  open func forwardingTarget(for selector: Selector) -> RuntimeObject? { nil }

  /// Handles a message the object has no method for (`forwardInvocation:`), with the
  /// signature `methodSignature(for:)` gave. Set the invocation's return value; the
  /// caller receives it. The default throws `.unrecognizedSelector`.
  ///
  /// Errors thrown here reach a Swift sender; a C sender cannot receive an error, so
  /// the process stops with the error's description.
  open func forwardInvocation(_ invocation: Invocation) throws {
    throw doesNotRecognize(invocation.selector ?? Selector("<no selector>"))
  }

  /// The error for a message this object cannot handle (`doesNotRecognizeSelector:`).
  open func doesNotRecognize(_ selector: Selector) -> RuntimeError {
    .unrecognizedSelector(className: runtimeClass.name, selector: selector)
  }

  /// Whether the object handles `selector` (`respondsToSelector:`): a method of its
  /// own or of its class, or one every object answers (`respondsToSelector:`,
  /// `conformsToProtocol:`). Proxies override this to answer for what they forward. The
  /// message `respondsToSelector:`, sent from C or Swift, runs this.
  open func responds(to selector: Selector) -> Bool {
    own.withLock { $0.methods[selector] != nil } || runtimeClass.instancesRespond(to: selector)
      || RootMethods.method(for: selector) != nil
  }

  /// Whether the object conforms to `proto` (`conformsToProtocol:`): declared by the
  /// object itself or its class. The message `conformsToProtocol:` (with the protocol's
  /// name) runs this.
  open func conforms(to proto: RuntimeProtocol) -> Bool {
    own.withLock { $0.protocols.contains { $0.inherits(from: proto) } }
      || runtimeClass.conforms(to: proto)
  }

  // MARK: Methods of its own

  /// Gives this object its own method for `selector`, consulted before its class's
  /// (replacing an earlier one of its own). Returns the method it replaced.
  @discardableResult
  public func setMethod(_ selector: Selector, imp: IMP, signature: MethodSignature) -> Method? {
    setOwn(Method(selector: selector, signature: signature, imp: imp))
  }

  /// Gives this object its own method implemented by a Swift closure.
  @discardableResult
  public func setMethod(
    _ selector: Selector, signature: MethodSignature,
    body: @escaping @Sendable (Invocation) -> Void
  ) throws(RuntimeError) -> Method? {
    let closure = try ClosureIMP(signature: signature, body: body)
    return setOwn(
      Method(selector: selector, signature: signature, imp: closure.imp, closure: closure))
  }

  /// Removes this object's own method for `selector`; its class's shows through again.
  @discardableResult
  public func removeMethod(_ selector: Selector) -> Method? {
    own.withLock { s in
      let old = s.methods.removeValue(forKey: selector)
      if let old {
        publish(s.methods)
        old.retireCode(in: UnsafeRawPointer(handle))
      }
      return old
    }
  }

  /// This object's own method for `selector`, if it has one.
  func ownMethod(for selector: Selector) -> Method? { own.withLock { $0.methods[selector] } }

  /// The method that runs for `selector` on this object: its own, else its class's.
  public func method(for selector: Selector) -> Method? {
    ownMethod(for: selector) ?? runtimeClass.method(for: selector)
  }

  /// The methods this object has of its own.
  package var ownMethods: [Method] { own.withLock { Array($0.methods.values) } }

  /// Declares that this object conforms to `proto`.
  public func addProtocol(_ proto: RuntimeProtocol) {
    own.withLock { s in
      if !s.protocols.contains(where: { $0 === proto }) { s.protocols.append(proto) }
    }
  }

  @discardableResult
  func setOwn(_ method: Method) -> Method? {
    own.withLock { s in
      let old = s.methods.updateValue(method, forKey: method.selector)
      publish(s.methods)
      // Only sends to this object can be calling it: retired in its domain.
      old?.retireCode(in: UnsafeRawPointer(handle))
      return old
    }
  }

  /// Publishes a fresh immutable table of `methods` for C lookups (called under `own`).
  private func publish(_ methods: [Selector: Method]) {
    if methods.isEmpty {
      dp_object_publish_methods(handle, nil)
      return
    }
    let table = dp_method_table_create(UInt32(methods.count))!
    for (sel, m) in methods {
      dp_method_table_insert_context(
        table, sel.raw, m.imp.rawValue, m.signature.cTypes,
        m.route.map { UnsafeMutableRawPointer($0.raw) })
    }
    dp_object_publish_methods(handle, table)
  }

  // MARK: Messaging

  /// The implementation this object runs for `selector` (`methodForSelector:`): a real
  /// C function pointer, possibly the forwarding IMP. Throws when the object has
  /// neither a method nor a signature for the selector.
  public func imp(for selector: Selector) throws(RuntimeError) -> IMP {
    switch try Runtime.dispatch(rawValue, selector) {
    case .method(let imp, _): return imp
    case .forward(_, let signature):
      return try Runtime.forwardingIMP(for: signature)
    case .resend(let target):
      // The forwarding IMP re-sends to the target when called; it needs the target's types.
      guard let signature = target.methodSignature(for: selector) else {
        throw target.doesNotRecognize(selector)
      }
      return try Runtime.forwardingIMP(for: signature)
    }
  }

  open var description: String { "<\(runtimeClass.name): \(handle)>" }
}
