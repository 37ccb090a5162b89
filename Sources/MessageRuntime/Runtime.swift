internal import DelegateProxyCFFIShim

/// Message lookup and the resolver the C side calls on a cache miss
/// (`objc_msg_lookup`, `class_getMethodImplementation`, `_objc_msgForward`).
public enum Runtime {
  /// What a message to a receiver does.
  enum Dispatch {
    /// Run this IMP; `types` is the method's canonical encoding.
    case method(IMP, UnsafePointer<CChar>?)
    /// No method: the receiver forwards messages with this signature.
    case forward(RuntimeObject, MethodSignature)
    /// No method: the receiver's `forwardingTarget(for:)` named another object, to which
    /// the message is sent again as it is (`forwardingTargetForSelector:`).
    case resend(RuntimeObject)
  }

  /// Installs the resolver into the C runtime (once).
  static func install() { _ = installed }
  private static let installed: Void = { dp_set_resolver(resolve) }()

  /// The implementation `object` runs for `selector` (`objc_msg_lookup`): never nil;
  /// a forwarding IMP when the object forwards, a trapping IMP when it cannot handle the
  /// message. Use `RuntimeObject.imp(for:)` for a checked answer.
  ///
  /// A closure-made IMP is reclaimed a grace period after its method is replaced or
  /// removed: calling it later is safe only from inside a read section of `object` that
  /// was open when it was looked up (what typed sends, `Invocation` and C's `DP_MSG_SEND`
  /// do; C: `dp_msg_section_begin`).
  public static func lookup(_ object: RuntimeObject, _ selector: Selector) -> IMP {
    IMP(dp_msg_lookup(object.handle, selector.raw)!)
  }

  /// Finds what a message does, for Swift senders: method (through the caches), or
  /// forwarding; throws `.unrecognizedSelector` otherwise.
  static func dispatch(
    _ handle: OpaquePointer, _ selector: Selector, proposed: MethodSignature? = nil
  ) throws(RuntimeError) -> Dispatch {
    let obj = handle
    var imp: dp_imp? = nil
    var types: UnsafePointer<CChar>? = nil
    if dp_lookup_method(obj, selector.raw, &imp, &types), let imp {
      // A route emptied of targets that forwards when empty: as if it were not there.
      if !dp_route_would_fall_back(obj, selector.raw) { return .method(IMP(imp), types) }
    }
    if let method = resolveMethod(obj, selector) {
      return .method(method.imp, UnsafePointer(method.signature.cTypes))
    }
    guard let receiver = RuntimeObject.object(rawValue: handle) else {
      throw .unrecognizedSelector(
        className: RuntimeObject.className(forHandle: handle), selector: selector)
    }
    if let target = receiver.forwardingTarget(for: selector), target !== receiver {
      return .resend(target)
    }
    let declared =
      proposed.map { receiver.methodSignature(for: selector, proposed: $0) }
      ?? receiver.methodSignature(for: selector)
    guard let signature = declared else {
      throw receiver.doesNotRecognize(selector)
    }
    return .forward(receiver, signature)
  }

  /// Delivers a message whose arguments are at `arguments[i]`: runs the receiver's method
  /// (after checking its types are `signature`) or, when the receiver forwards, calls
  /// `forward` with the receiver and the signature it declared. The one place Swift
  /// senders (invocations, typed messages) turn a dispatch into a call.
  static func deliver(
    _ handle: OpaquePointer, _ selector: Selector, _ signature: MethodSignature,
    arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>, result: UnsafeMutableRawPointer,
    forward: (RuntimeObject, MethodSignature) throws -> Void
  ) throws {
    // The lookup and the call in one read section of the receiver: a method replaced or
    // removed meanwhile is retired, not freed under the call (RuntimeClass.install).
    let dispatched: Dispatch
    do {
      _ = Quiescence.enter(UnsafeRawPointer(handle))
      dispatched = try dispatch(handle, selector, proposed: signature)
    } catch {
      Quiescence.exit()
      throw error
    }
    switch dispatched {
    case .method(let imp, let types):
      defer { Quiescence.exit() }
      guard signature.matches(cTypes: types) else {
        throw RuntimeError.signatureMismatch(
          selector: selector, expected: types.map { String(cString: $0) } ?? "?",
          found: signature.encoding)
      }
      signature.call(imp, arguments: arguments, result: result)
    case .forward(let receiver, let declared):
      // Nothing looked up is called: the forwarder's code runs outside the section.
      Quiescence.exit()
      try forward(receiver, declared)
    case .resend(let target):
      Quiescence.exit()
      // The same frame, `self` replaced by the target for the re-sent message (restored
      // after: the frame is the caller's or an invocation's).
      let slot = arguments[0]!
      let original = slot.load(as: OpaquePointer?.self)
      slot.storeBytes(of: target.rawValue, as: OpaquePointer?.self)
      defer { slot.storeBytes(of: original, as: OpaquePointer?.self) }
      try withExtendedLifetime(target) {
        try deliver(
          target.rawValue, selector, signature, arguments: arguments, result: result,
          forward: forward)
      }
    }
  }

  /// The signature a C caller's message to `receiver` is forwarded with: the
  /// `forwardingTarget(for:)`'s own (the forwarding IMP re-sends to it), else the
  /// receiver's `methodSignature(for:)`.
  static func forwardingSignature(_ receiver: RuntimeObject, _ selector: Selector)
    -> MethodSignature?
  {
    if let target = receiver.forwardingTarget(for: selector), target !== receiver,
      let signature = target.methodSignature(for: selector)
    {
      return signature
    }
    return receiver.methodSignature(for: selector)
  }

  /// The method found through the class chain, cached in the receiver's class; for a
  /// selector with none, that verdict is cached in the class instead (until a method of the
  /// class or a superclass changes), so forwarding it again skips the search.
  private static func resolveMethod(_ obj: OpaquePointer, _ selector: Selector) -> Method? {
    guard let cls = RuntimeClass.class(rawValue: dp_object_get_class(obj)) else { return nil }
    let (generation, forwarded) = cls.lookupState(for: selector)
    if forwarded { return nil }
    guard let method = cls.method(for: selector) ?? RootMethods.method(for: selector) else {
      cls.noteForwarded(selector, ifGeneration: generation)
      return nil
    }
    cls.cache(method, for: selector, ifGeneration: generation)
    return method
  }

  /// The C resolver: method, else the forwarding IMP for the receiver's signature,
  /// else the trap that names class and selector.
  private static let resolve: dp_resolver_fn = { obj, sel in
    let selector = Selector(raw: sel!)
    if let method = resolveMethod(obj!, selector) { return method.imp.rawValue }
    let receiver = RuntimeObject.object(rawValue: obj)
    // A receiver being deallocated (its handle still valid, its last strong reference
    // gone) gets nothing and answers zero, as on every other path; no trap.
    if receiver == nil && dp_object_owner(obj) != nil { return dp_nil_imp() }
    if let receiver,
      let signature = forwardingSignature(receiver, selector),
      let imp = try? forwardingIMP(for: signature)
    {
      return imp.rawValue
    }
    if let receiver {
      // The receiver's doesNotRecognize names the message (`doesNotRecognizeSelector:`):
      // an override may name another class or say something else entirely.
      let message: String
      switch receiver.doesNotRecognize(selector) {
      case .unrecognizedSelector(let className, let named):
        message = "-[\(className) \(named.name)]: unrecognized selector sent to instance \(obj!)"
      case let error:
        message = "\(error)"
      }
      dp_note_unrecognized_message(obj, sel, message)
    } else {
      dp_note_unrecognized(obj, sel, dp_class_get_name(dp_object_get_class(obj)))
    }
    return dp_unrecognized_imp()
  }

  /// The forwarding IMP for a signature: a libffi closure, made once per signature,
  /// that turns a call into an `Invocation` and re-sends it to the receiver's
  /// `forwardingTarget(for:)` when that names another object, else hands it to the
  /// receiver's `forwardInvocation(_:)` (`_objc_msgForward`). Callable from C.
  package static func forwardingIMP(for signature: MethodSignature) throws(RuntimeError) -> IMP {
    try signature.forwarding.withLock { made throws(RuntimeError) -> IMP in
      if let made { return made.imp }
      let closure = try ClosureIMP(signature: signature) { invocation in
        // A receiver being deallocated gets nothing and answers zero (see Message).
        guard let receiver = invocation.target else {
          invocation.zeroReturnValue()
          return
        }
        do {
          // Asked at each call, as Objective-C's forwarding asks at each message: the
          // answer may change, and a cached IMP is called for every receiver of the class.
          if let selector = invocation.selector,
            let target = receiver.forwardingTarget(for: selector), target !== receiver
          {
            try invocation.resend(to: target)
          } else {
            try receiver.forwardInvocation(invocation)
          }
        } catch {
          // A C caller cannot receive an error: this is the C path's only answer.
          dp_fatal("\(error)")
        }
      }
      made = closure
      return closure.imp
    }
  }
}

// MARK: - The C API implemented in Swift (declared in dp_runtime.h)

@_cdecl("dp_class_add_method")
func dp_class_add_method_impl(
  _ cls: OpaquePointer?, _ sel: OpaquePointer?, _ imp: (@convention(c) () -> Void)?,
  _ types: UnsafePointer<CChar>?
) -> Bool {
  guard let c = RuntimeClass.class(rawValue: cls), let sel, let imp, let types else {
    return false
  }
  do {
    try c.addMethod(
      Selector(rawValue: sel), imp: IMP(imp),
      types: String(cString: types))
    return true
  } catch { return false }
}

@_cdecl("dp_class_lookup")
func dp_class_lookup_impl(_ name: UnsafePointer<CChar>?) -> OpaquePointer? {
  guard let name else { return nil }
  return RuntimeClass.named(String(cString: name))?.rawValue
}

@_cdecl("dp_responds_to")
func dp_responds_to_impl(_ obj: OpaquePointer?, _ sel: OpaquePointer?) -> Bool {
  guard let o = RuntimeObject.object(rawValue: obj), let sel else { return false }
  return o.responds(to: Selector(rawValue: sel))
}

@_cdecl("dp_conforms_to")
func dp_conforms_to_impl(_ obj: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> Bool {
  guard let o = RuntimeObject.object(rawValue: obj), let name,
    let p = RuntimeProtocol.named(String(cString: name))
  else { return false }
  return o.conforms(to: p)
}
