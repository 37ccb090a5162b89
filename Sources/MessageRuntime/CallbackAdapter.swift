internal import DelegateProxyCFFIShim

/// A C function pointer of a library's own callback signature that sends a message.
///
/// ``RuntimeObject/imp(for:)`` hands out IMPs, shaped `(self, _cmd, args…)`: right for C
/// code written against this runtime, wrong for a real library, whose callbacks take a
/// context pointer first (expat's `userData`, SQLite's hooks), last (libcurl's
/// `CURLOPT_WRITEDATA`, GLib's `user_data`) or not at all. An adapter takes the library's
/// signature and where its context is, and gives back ``function`` — a C function pointer
/// of exactly that signature — and ``context``, the pointer to register beside it. Each
/// call becomes the message `selector` to `receiver`, with the context removed (or
/// replaced by a value you choose): a single object's method, or a `MulticastProxy` whose
/// policy decides who is called and what the library gets back.
///
/// ```swift
/// let start = Message<Void, UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?>(
///   "parserDidStartElement:attributes:")   // any selector with two arguments
/// let adapter = try CallbackAdapter(for: start, context: .first, receiver: proxy)
/// XML_SetUserData(parser, adapter.context)
/// XML_SetStartElementHandler(parser, try adapter.function(as: XML_StartElementHandler.self))
/// ```
///
/// **Three machineries** (``path``):
/// - ``CallbackPath/registers``: context first, last or at any index, every argument in
///   registers (x86-64 System V, AArch64) and the message fitting the integer registers
///   once `self` and `_cmd` are added — a static C entry reads the adapter from the context
///   register and replays the other registers to the receiver's IMP, looked up per call
///   in its method table; when that IMP is the receiver's register route (a
///   `MulticastProxy`'s fast path) the entry runs the route's targets itself, and keeps
///   the route it found until the receiver's methods change. No closure, lock, allocation
///   or Swift code per call: at fan-out 1 about the cost of calling the proxy's own IMP
///   from C.
/// - ``CallbackPath/libffi``: every other context callback, and adapters with a default
///   result or a context passed on — one libffi closure per adapter, `ffi_call` per
///   message (about 100 ns more per call).
/// - ``CallbackPath/bound``: callbacks with no context (`signal`, `atexit`, a `qsort`
///   comparator). The adapter's own libffi closure is the function pointer: each bound
///   adapter costs one closure (executable memory) that is never returned to libffi (see
///   *Lifetime*), and a call costs about as much as the libffi path.
///
/// **Lifetime** (as cffi's `new_handle`): the adapter keeps `receiver` alive, and the
/// library's function pointer and context are valid exactly as long as the adapter is.
/// Keep the adapter while the library may call it. When it goes away, calls still running
/// on other threads are waited out; a later call through its pointer and context does not
/// touch freed memory — it stops the process with a message naming the callback
/// signature and the message. To make that possible a released adapter leaves behind a
/// small record (and, for `.libffi`/`.bound`, its closure) for the life of the process:
/// create adapters once per library object, not per call.
///
/// The receiver's method is looked up per call, as `objc_msgSend` does: handlers added to
/// a proxy later are heard. Its types are checked when the adapter is made, against the
/// receiver's ``RuntimeObject/methodSignature(for:)`` (a multicast proxy answers its
/// members' shared signature), and a mismatch is refused
/// (``CallbackAdapterError/receiverMethodMismatch(selector:receiverClass:method:message:)``).
/// While the adapter lives, a `MulticastProxy` receiver refuses a new member whose method
/// for the selector has other types (its `signatureConflict` error, naming the adapter).
/// A method of a plain object replaced later by one of other types, or a member of a
/// proxy nested in the receiver, is not checked: the same misuse as in Objective-C.
public final class CallbackAdapter: @unchecked Sendable, CustomStringConvertible {
  // @unchecked Sendable: every stored property is immutable after init; the C record is
  // read by calls from any thread (its fields are written before the function pointer is
  // handed out and only its receiver changes, atomically, when released).

  /// The library's callback signature.
  public let callback: CallbackSignature
  /// Where the context is among the callback's arguments.
  package let contextPosition: CallbackContext
  /// The message each call sends.
  public let selector: Selector
  /// The message's signature (`self` and `_cmd` included).
  package let messageSignature: MethodSignature
  /// The object each call is sent to, kept alive by the adapter.
  package let receiver: RuntimeObject
  /// Which machinery serves calls.
  public let path: CallbackPath
  /// The function pointer to give the library, of exactly the callback's signature, as a
  /// code address; ``function(as:)`` gives it the library's own function type. Valid
  /// while this adapter lives (a static entry is valid for the process, a trampoline is
  /// freed with the adapter): keep the adapter for as long as the library may call it.
  public let function: UnsafeRawPointer
  /// The C record behind ``context``, shared by the adapters made with
  /// `sharingContextWith:`.
  private let record: CallbackRecord
  /// This adapter's slot in the record.
  private let slot: UInt32
  /// Its registration in `CallbackRequirements` (what it needs of the receiver's method).
  private let requirement: UInt64

  /// The context pointer to register with the library beside ``function`` (nil for
  /// callbacks with no context). It identifies the receiver and, with the function
  /// pointer, the message; its memory is the package's. Adapters made with
  /// `sharingContextWith:` have the same context. A `void *` in C, so it passes to the
  /// library's registration function as it is; valid while this adapter (or another
  /// adapter sharing it) lives.
  public var context: UnsafeMutableRawPointer? {
    contextPosition == .none ? nil : UnsafeMutableRawPointer(record.raw)
  }

  /// ``function`` as a C function type of your choosing — the library's own typedef,
  /// e.g. `XML_StartElementHandler.self` or
  /// `(@convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32).self` (or its optional).
  ///
  /// Refuses a type it can prove is not the callback's, from the type's runtime metadata:
  /// not a `@convention(c)` function type (a Swift closure, a block, not a function); a
  /// different number of arguments; an argument or result passed differently by the C
  /// calling convention — an integer of another width, floating point for an integer,
  /// `float` for `double`, a result where the callback has none or none where it has one.
  /// Signedness is not compared (`size_t` imports as `Int`; the callback may say `Q`), nor
  /// which pointer type (every pointer and object passes as a pointer-sized integer).
  /// Parameters whose Swift type is not a ``MessageArgument`` — an imported C struct
  /// passed by value, a C enum — and struct or `long double` types on the callback's side
  /// are not checked: a wrong one there is not caught.
  ///
  /// - Throws: ``CallbackAdapterError/functionTypeMismatch(type:callback:reason:)`` naming
  ///   the type, the callback's encoding and the first difference.
  public func function<F>(as type: F.Type) throws(CallbackAdapterError) -> F {
    if let reason = CallbackFunctionType.mismatch(F.self, callback) {
      throw .functionTypeMismatch(type: "\(F.self)", callback: callback.encoding, reason: reason)
    }
    // Proven a function type above: a C function pointer (or its optional, the same size).
    return unsafeBitCast(function, to: F.self)
  }

  /// An adapter for a callback of signature `callback` whose context is at `position`,
  /// sending `selector` to `receiver`.
  ///
  /// - Parameters:
  ///   - callback: the C library's callback type, as it calls the function pointer.
  ///   - position: where the callback carries its context (or none).
  ///   - receiver: the object the message is sent to (a ``ForwardingProxy`` such as a
  ///     multicast proxy, or any runtime object with a method for `selector`).
  ///   - selector: the message each call sends.
  ///   - messageSignature: the message's signature; by default the receiver's
  ///     (``RuntimeObject/methodSignature(for:)``), else derived from the callback (its
  ///     arguments without the context, its result).
  ///   - passContext: when true, the message receives `contextValue` where the callback
  ///     has its context (the library's slot holds the adapter's own ``context``, so pass
  ///     your user data here); by default the context is removed.
  ///   - contextValue: what the message receives in the context's place with
  ///     `passContext`.
  ///   - defaultResult: what the library gets back when the message returns nothing but
  ///     the callback returns a value (required then).
  ///   - other: an adapter whose ``context`` this one shares, for libraries that pass one
  ///     context to several callbacks (expat's `XML_SetUserData`, libuv's `handle->data`).
  ///     Its receiver must be `receiver`; up to ``maximumSharedContexts`` adapters share
  ///     a context.
  /// - Throws: ``CallbackAdapterError``: a context position outside the arguments or not
  ///   a pointer, a signature the package cannot carry, arguments or result that differ
  ///   from the message's, a void message behind a value-returning callback with no
  ///   default, a receiver whose method for `selector` has other types than the message
  ///   (``CallbackAdapterError/receiverMethodMismatch(selector:receiverClass:method:message:)``).
  public init(
    _ callback: CallbackSignature, context position: CallbackContext, receiver: RuntimeObject,
    selector: Selector, messageSignature: MethodSignature? = nil, passContext: Bool = false,
    contextValue: UnsafeMutableRawPointer? = nil, defaultResult: CallbackResult? = nil,
    sharingContextWith other: CallbackAdapter? = nil
  ) throws(CallbackAdapterError) {
    if let other, other.receiver !== receiver {
      throw .sharedContextReceiverMismatch(
        expected: other.receiver.description, found: receiver.description)
    }
    // 1. The callback's own types must be something the package can carry.
    let callbackTypes: MethodSignature
    do {
      callbackTypes = try MethodSignature.make(
        returnType: callback.returnType, arguments: [.object, .selector] + callback.argumentTypes)
    } catch {
      throw .unsupportedSignature(
        encoding: callback.encoding, reason: CallbackAdapter.reason(error))
    }
    // 2. The context.
    let contextIndex = position.index(arity: callback.arity)
    if let index = contextIndex {
      guard (0..<callback.arity).contains(index) else {
        throw .contextOutOfRange(position: index, arity: callback.arity)
      }
      switch callback.argumentTypes[index] {
      case .pointer, .cString, .object, .block: break
      case let other: throw .contextNotAPointer(position: index, found: other.canonicalString)
      }
    }
    var messageArguments = callback.argumentTypes
    if let index = contextIndex, !passContext { messageArguments.remove(at: index) }
    // 3. The message.
    let signature: MethodSignature
    if let given = messageSignature ?? receiver.methodSignature(for: selector) {
      signature = given
    } else {
      do {
        signature = try MethodSignature.make(
          returnType: callback.returnType, arguments: [.object, .selector] + messageArguments)
      } catch {
        throw .unsupportedSignature(
          encoding: callback.encoding, reason: CallbackAdapter.reason(error))
      }
    }
    let declared = Array(signature.argumentTypes.dropFirst(2))
    guard declared.count == messageArguments.count,
      zip(declared, messageArguments).allSatisfy({ $0.accepts($1) || $1.accepts($0) })
    else {
      throw .argumentMismatch(
        selector: selector, callback: messageArguments.map(\.canonicalString).joined(),
        message: declared.map(\.canonicalString).joined())
    }
    let returnsValue = callback.returnType != .void
    var useDefault = false
    if returnsValue {
      if signature.returnsVoid {
        guard defaultResult != nil else {
          throw .missingDefaultResult(
            selector: selector, callbackResult: callback.returnType.canonicalString)
        }
        useDefault = true
      } else if !(signature.returnType.accepts(callback.returnType)
        && callback.returnType.accepts(signature.returnType))
      {
        throw .resultMismatch(
          selector: selector, callback: callback.returnType.canonicalString,
          message: signature.returnType.canonicalString)
      }
    }
    if useDefault, let value = defaultResult,
      !callback.returnType.accepts(value.type) || value.bytes.count > Int(DP_CALLBACK_MAX_RESULT)
    {
      throw .defaultResultMismatch(
        callbackResult: callback.returnType.canonicalString, found: value.type.canonicalString)
    }

    // 4. The receiver's method must be the message: each call decodes its arguments as
    // `signature`. Checked and registered under one lock, which a multicast proxy also
    // takes to admit a member (see CallbackRequirements): a member whose method differs is
    // refused there from now on, whichever comes first.
    let className = receiver.runtimeClass.name
    let text =
      "callback \(callback.encoding), \(position) → -[\(className) \(selector.name)] \(signature.encoding)"
    let requirement = try CallbackRequirements.shared.withLock {
      table throws(CallbackAdapterError) -> UInt64 in
      if let method = receiver.methodSignature(for: selector, proposed: signature),
        !CallbackRequirements.compatible(method, signature)
      {
        throw .receiverMethodMismatch(
          selector: selector, receiverClass: className, method: method.encoding,
          message: signature.encoding)
      }
      return table.add(receiver, selector) { id in
        CallbackRequirements.Requirement(
          id: id, signature: signature, adapter: "CallbackAdapter <\(text)>")
      }
    }
    let withdraw = {
      CallbackRequirements.shared.withLock { $0.remove(receiver, selector, id: requirement) }
    }

    // 5. The record and the machinery.
    let record = other?.record ?? CallbackRecord(receiver: receiver)
    guard let slot = record.takeSlot() else {
      withdraw()
      throw .tooManySharedContexts(limit: CallbackAdapter.maximumSharedContexts)
    }
    dp_callback_set_slot(record.raw, slot, selector.raw, text)
    if passContext {
      dp_callback_set_context_value(record.raw, slot, UInt64(UInt(bitPattern: contextValue)))
    }
    if useDefault, let value = defaultResult {
      value.bytes.withUnsafeBytes {
        dp_callback_set_default_result(record.raw, slot, $0.baseAddress, UInt32($0.count))
      }
    }
    let chosen: (CallbackPath, UnsafeRawPointer)
    do {
      chosen = try CallbackAdapter.entry(
        record.raw, slot, callback, callbackTypes, contextIndex, passContext, signature,
        registers: !useDefault)
    } catch {
      dp_callback_release_slot(record.raw, slot)
      withdraw()
      throw error
    }
    self.callback = callback
    self.contextPosition = position
    self.selector = selector
    self.messageSignature = signature
    self.receiver = receiver
    self.path = chosen.0
    self.function = chosen.1
    self.record = record
    self.slot = slot
    self.requirement = requirement
  }

  /// An adapter for `message`: the callback's arguments are the message's with a
  /// `void *` context inserted at `position`, and it returns the message's result.
  public convenience init<Result, each Argument: MessageArgument>(
    for message: Message<Result, repeat each Argument>, context position: CallbackContext,
    receiver: RuntimeObject, passContext: Bool = false,
    contextValue: UnsafeMutableRawPointer? = nil,
    sharingContextWith other: CallbackAdapter? = nil
  ) throws(CallbackAdapterError) {
    var arguments = Array(message.signature.argumentTypes.dropFirst(2))
    if !passContext {
      switch position {
      case .first: arguments.insert(.pointer(.void), at: 0)
      case .last: arguments.append(.pointer(.void))
      case .argument(let k):
        guard (0...arguments.count).contains(k) else {
          throw .contextOutOfRange(position: k, arity: arguments.count + 1)
        }
        arguments.insert(.pointer(.void), at: k)
      case .none: break
      }
    }
    try self.init(
      CallbackSignature(returnType: message.signature.returnType, arguments: arguments),
      context: position, receiver: receiver, selector: message.selector,
      messageSignature: message.signature, passContext: passContext, contextValue: contextValue,
      sharingContextWith: other)
  }

  /// An adapter for a callback of signature `callback` sending `message`.
  public convenience init<Result, each Argument: MessageArgument>(
    _ callback: CallbackSignature, context position: CallbackContext, receiver: RuntimeObject,
    message: Message<Result, repeat each Argument>, passContext: Bool = false,
    contextValue: UnsafeMutableRawPointer? = nil, defaultResult: CallbackResult? = nil,
    sharingContextWith other: CallbackAdapter? = nil
  ) throws(CallbackAdapterError) {
    try self.init(
      callback, context: position, receiver: receiver, selector: message.selector,
      messageSignature: message.signature, passContext: passContext, contextValue: contextValue,
      defaultResult: defaultResult, sharingContextWith: other)
  }

  deinit {
    // Calls through this adapter trap from now on. The record (and the receiver) goes
    // when the last adapter sharing it does, after calls in flight are waited out.
    dp_callback_release_slot(record.raw, slot)
    CallbackRequirements.shared.withLock { $0.remove(receiver, selector, id: requirement) }
  }

  /// How many adapters can share one context (see `sharingContextWith:`).
  public static let maximumSharedContexts = Int(DP_CALLBACK_SLOTS)

  /// How many adapters were released in this process (each leaves a small record, and a
  /// closure for `.libffi`/`.bound`, so that a late call traps instead of reading freed
  /// memory).
  package static var releasedCount: Int { Int(dp_callback_released_count()) }

  public var description: String {
    "<CallbackAdapter \(callback.encoding), \(contextPosition) → \(selector.name) \(messageSignature.encoding), \(path)>"
  }

  // MARK: Machinery

  /// The register entry when the callback can take one (and `registers`: an adapter with
  /// a default result takes the closure), else a libffi closure.
  private static func entry(
    _ record: OpaquePointer, _ slot: UInt32, _ callback: CallbackSignature,
    _ callbackTypes: MethodSignature,
    _ contextIndex: Int?, _ passContext: Bool, _ message: MethodSignature, registers: Bool
  ) throws(CallbackAdapterError) -> (CallbackPath, UnsafeRawPointer) {
    if registers, let index = contextIndex,
      let plan = RegisterPlan.make(
        returnType: callback.returnType, arguments: callback.argumentTypes),
      let messagePlan = message.registerPlan,
      let piece = plan.pieces.first(where: { $0.argument == index }), piece.bank == .gp,
      messagePlan.fpCount == plan.fpCount,
      messagePlan.gpCount == plan.gpCount + (passContext ? 2 : 1),
      let code = dp_callback_register_entry(
        slot, dp_return_class(plan.returnClass), UInt32(piece.register), passContext,
        UInt32(plan.fpCount))
    {
      dp_callback_set_message_registers(record, slot, UInt32(messagePlan.gpCount - 2))
      return (.registers, unsafeBitCast(code, to: UnsafeRawPointer.self))
    }
    if message.splitCall != nil || callbackTypes.splitCall != nil {
      throw .unsupportedSignature(
        encoding: callback.encoding,
        reason: "libffi 3.4.4 misplaces a float for this signature; no register entry can carry it")
    }
    let cif = try callbackCIF(callback)
    guard
      let code = dp_callback_closure_create(
        record, slot, cif.pointer, message.cif, Int32(contextIndex ?? -1), passContext,
        callback.returnType == .void, UInt32(message.returnBufferLength))
    else { throw .closureAllocationFailed(encoding: callback.encoding) }
    return (contextIndex == nil ? .bound : .libffi, unsafeBitCast(code, to: UnsafeRawPointer.self))
  }

  /// A prepared libffi call interface for a callback signature.
  struct CIF: @unchecked Sendable {
    // Immortal: prepared once per signature, never written after, kept by `cifs`
    // (closures of released adapters still use it).
    let pointer: UnsafeMutablePointer<ffi_cif>
  }
  private static let cifs = Lock<[String: CIF]>([:])

  private static func callbackCIF(_ callback: CallbackSignature) throws(CallbackAdapterError) -> CIF
  {
    if let made = cifs.withLock({ $0[callback.encoding] }) { return made }
    var types: [UnsafeMutablePointer<ffi_type>?] = []
    let rtype: UnsafeMutablePointer<ffi_type>
    do {
      for t in callback.argumentTypes { types.append(try FFIType.type(for: t)) }
      rtype = try FFIType.returnType(for: callback.returnType)
    } catch {
      throw .unsupportedSignature(encoding: callback.encoding, reason: reason(error))
    }
    var status: Int32 = 0
    let cif = types.withUnsafeBufferPointer {
      dp_ffi_cif_create(rtype, $0.baseAddress, UInt32($0.count), &status)
    }
    guard let cif else {
      throw .unsupportedSignature(
        encoding: callback.encoding, reason: "libffi could not prepare it (ffi_status \(status))")
    }
    return cifs.withLock { table in
      if let raced = table[callback.encoding] {
        dp_ffi_cif_free(cif)
        return raced
      }
      table[callback.encoding] = CIF(pointer: cif)
      return table[callback.encoding]!
    }
  }

  /// The reason part of a runtime error about a signature.
  private static func reason(_ error: RuntimeError) -> String {
    switch error {
    case .invalidSignature(_, let reason): reason
    case .invalidEncoding(let e): "\(e)"
    default: "\(error)"
    }
  }
}

/// The C record behind one context: the receiver, kept alive, and the slots of the
/// adapters sharing it. Released when the last of them goes — after the calls through it
/// already running on other threads (its only wait, scoped to its own calls); the C record
/// itself is never freed, so a late call traps instead.
final class CallbackRecord: @unchecked Sendable {
  // @unchecked Sendable: `raw` and `receiver` are immutable; `used` is behind its lock.
  let raw: OpaquePointer
  let receiver: RuntimeObject
  private let used = Lock<UInt32>(0)

  init(receiver: RuntimeObject) {
    self.receiver = receiver
    raw = dp_callback_create(receiver.rawValue)!
  }

  /// The next free slot, or nil when every slot is taken (slots are not reused: a
  /// released one keeps trapping).
  func takeSlot() -> UInt32? {
    used.withLock { n in
      guard n < UInt32(DP_CALLBACK_SLOTS) else { return nil }
      n += 1
      return n - 1
    }
  }

  deinit {
    dp_callback_release(raw)
    // The adapter's own calls in flight (they read the receiver), nothing else: the scoped
    // wait, never for this thread's own call. The receiver is released after it.
    Quiescence.waitForReaders(of: UnsafeRawPointer(raw))
  }
}

/// Which machinery serves a ``CallbackAdapter``'s calls.
public enum CallbackPath: Sendable, Hashable, CustomStringConvertible {
  /// A static C entry that finds the adapter from the context register and replays the
  /// other argument registers to the receiver's IMP.
  case registers
  /// A libffi closure per adapter and `ffi_call` per message.
  case libffi
  /// A callback with no context: the adapter's own libffi closure (a bound trampoline).
  case bound

  public var description: String {
    switch self {
    case .registers: "registers"
    case .libffi: "libffi"
    case .bound: "bound trampoline"
    }
  }
}

/// A value a ``CallbackAdapter`` returns to the library when its message returns nothing
/// (for instance 0 from a SQLite hook served by `void` handlers).
public struct CallbackResult: Sendable, Hashable {
  /// The value's type.
  package let type: TypeEncoding
  /// Its bytes as a register holds them (narrow integers widened).
  let bytes: [UInt8]

  /// A result of a Swift value, laid out as its encoding says.
  public init<T: MessageArgument & BitwiseCopyable>(_ value: T) {
    var buffer = [UInt8](repeating: 0, count: max(8, MemoryLayout<T>.size))
    buffer.withUnsafeMutableBytes { raw in
      raw.storeBytes(of: value, as: T.self)
      widenIntegralResult(T.typeEncoding, raw.baseAddress!)
    }
    type = T.typeEncoding
    bytes = buffer
  }
}
