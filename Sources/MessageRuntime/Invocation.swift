internal import DelegateProxyCFFIShim

/// A message as a value (`NSInvocation`): a signature, a target, a selector, every
/// argument and the return value, to be read, changed, invoked, copied and sent
/// elsewhere.
///
/// Argument indices count the message's own arguments from 0, as everywhere in this
/// package (DelegateProxy's `MessageSnapshot` and `DelegateCFrame`, ``CallbackContext``): in
/// `tableView:heightForRow:`, argument 0 is the table view and 1 the row. The target
/// (`self`) and the selector (`_cmd`), which Objective-C's `NSInvocation` numbers 0 and
/// 1, have accessors of their own: ``target`` and ``selector``. (``MethodSignature``'s
/// arrays describe the C function, so they list `self` and `_cmd` first: argument `k`'s
/// type is `signature.argumentTypes[k + 2]`.) Values are read and written either as Swift
/// types (checked against the signature) or as raw bytes.
///
/// An invocation handed to `forwardInvocation(_:)` views the caller's own argument
/// storage and is valid only during that call; if the forwarder keeps a reference,
/// the invocation copies the arguments into storage of its own before the call
/// returns. An invocation is not thread-safe and not `Sendable`; to use one on another
/// thread, make a `copy()` — a copy owns its frame and has its arguments retained — and
/// hand it over as the only reference (for instance captured by a `sending` closure such
/// as `Task.detached`'s, which the compiler checks).
public final class Invocation: CustomStringConvertible {
  /// The types of the message.
  public private(set) var signature: MethodSignature
  /// Pointer to each argument's value (libffi's `avalue`).
  private(set) var arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  /// The return-value buffer (`signature.returnBufferLength` bytes).
  private(set) var result: UnsafeMutableRawPointer
  /// The block that holds arguments, frame and result when this invocation owns them;
  /// nil while it views a caller's frame.
  private var storage: UnsafeMutableRawPointer?
  /// The target, kept alive while it is this invocation's target (unlike
  /// `NSInvocation`, whose target dangles unless arguments are retained).
  private var targetObject: RuntimeObject?
  /// Objects kept alive by `retainArguments()`, by C argument index (0 = target, 1 =
  /// selector, message arguments from 2; the public accessors add 2).
  private var retainedObjects: [Int: AnyObject] = [:]
  /// C strings copied by `retainArguments()`, by C argument index.
  private var copiedStrings: [Int: UnsafeMutablePointer<CChar>] = [:]
  /// Blocks (`@?`) copied by `retainArguments()` (`_Block_copy`), by C argument index;
  /// released (`_Block_release`) with the invocation's storage.
  private var copiedBlocks: [Int: UnsafeRawPointer] = [:]
  /// The object the return value names, kept alive while it is this invocation's
  /// return value: set by `setReturnValue(_:)` and by `invoke()` (see ``AutoreleasePool``).
  /// Raw byte writes set the bytes only; nothing dereferences bytes as a handle.
  private var returnedObject: RuntimeObject?
  /// Whether `retainArguments()` was called (`argumentsRetained`).
  package private(set) var argumentsRetained = false

  /// An invocation for `signature` with every argument and the result zeroed.
  public init(signature: MethodSignature) {
    self.signature = signature
    (storage, arguments, result) = Invocation.allocateStorage(for: signature)
  }

  /// An invocation for `signature` whose selector is set to `selector`.
  public convenience init(signature: MethodSignature, selector: Selector) {
    self.init(signature: signature)
    self.selector = selector
  }

  private init(
    borrowing signature: MethodSignature, arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
    result: UnsafeMutableRawPointer
  ) {
    self.signature = signature
    self.arguments = arguments
    self.result = result
    self.storage = nil
  }

  deinit { releaseOwned() }

  private func releaseOwned() {
    for (_, s) in copiedStrings { s.deallocate() }
    copiedStrings.removeAll()
    for (_, b) in copiedBlocks { dp_block_release(b) }
    copiedBlocks.removeAll()
    storage?.deallocate()
    storage = nil
  }

  /// One block: the pointer array, then the frame, then the result buffer.
  private static func allocateStorage(for signature: MethodSignature) -> (
    UnsafeMutableRawPointer, UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutableRawPointer
  ) {
    let n = signature.numberOfArguments
    let pointersBytes = (n * MemoryLayout<UnsafeRawPointer>.stride + 15) & ~15
    let total = pointersBytes + signature.frameLength + signature.returnBufferLength
    let block = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 16)
    block.initializeMemory(as: UInt8.self, repeating: 0, count: total)
    let pointers = block.bindMemory(to: UnsafeMutableRawPointer?.self, capacity: n)
    let frame = block + pointersBytes
    for i in 0..<n { pointers[i] = frame + signature.argumentOffsets[i] }
    return (block, pointers, frame + signature.frameLength)
  }

  // MARK: Target and selector

  /// The receiver (argument 0), as C sees it (`dp_id`); nil for none.
  package var targetHandle: OpaquePointer? {
    get { arguments[0]!.load(as: OpaquePointer?.self) }
    set {
      arguments[0]!.storeBytes(of: newValue, as: OpaquePointer?.self)
      targetObject = RuntimeObject.object(rawValue: newValue)
    }
  }

  /// The receiver (argument 0) (`target`). The invocation keeps it alive.
  public var target: RuntimeObject? {
    get { RuntimeObject.object(rawValue: targetHandle) }
    set { targetHandle = newValue?.rawValue }
  }

  /// The selector (argument 1) (`selector`).
  public var selector: Selector? {
    get { arguments[1]!.load(as: OpaquePointer?.self).map(Selector.init(rawValue:)) }
    set { arguments[1]!.storeBytes(of: newValue?.rawValue, as: OpaquePointer?.self) }
  }

  // MARK: Typed access

  /// How many arguments the message has, not counting `self` and `_cmd`: valid indices
  /// are `0..<argumentCount`.
  package var argumentCount: Int { signature.numberOfArguments - 2 }

  /// The message's argument at `index` (0 is its first argument, after `self` and `_cmd`)
  /// as `T`; `T`'s encoding must fit the signature's.
  public func argument<T: MessageArgument>(at index: Int, as type: T.Type = T.self)
    throws(RuntimeError) -> T
  {
    let c = try checkIndex(index)
    try checkType(T.typeEncoding, against: signature.argumentTypes[c], position: index)
    return T.load(from: arguments[c]!)
  }

  /// Sets the message's argument at `index` (0 is its first argument, after `self` and
  /// `_cmd`; `setArgument:atIndex:` with `index + 2`). With arguments retained, an object
  /// is retained and a C string copied.
  public func setArgument<T: MessageArgument>(_ value: T, at index: Int) throws(RuntimeError) {
    let c = try checkIndex(index)
    try checkType(T.typeEncoding, against: signature.argumentTypes[c], position: index)
    value.store(to: arguments[c]!)
    if argumentsRetained { retainArgument(at: c) }
  }

  /// The return value as `T` (`getReturnValue:`). An object that a method returned
  /// (``invoke()``) or that was set with ``setReturnValue(_:)`` stays alive as long as it
  /// is this invocation's return value.
  public func returnValue<T: MessageArgument>(as type: T.Type = T.self) throws(RuntimeError) -> T {
    try checkType(T.typeEncoding, against: signature.returnType, position: -1)
    return T.load(from: result)
  }

  /// Sets the return value (`setReturnValue:`). An object is kept alive while it is the
  /// return value, and reaches a caller of a forwarded message alive (autoreleased).
  public func setReturnValue<T: MessageArgument>(_ value: T) throws(RuntimeError) {
    try checkType(T.typeEncoding, against: signature.returnType, position: -1)
    value.store(to: result)
    keepReturnedObject(value)
  }

  // MARK: Raw bytes

  /// The bytes of the message's argument at `index` (0 is its first argument, after
  /// `self` and `_cmd`), its type's size.
  public func argumentBytes(at index: Int) throws(RuntimeError) -> [UInt8] {
    let c = try checkIndex(index)
    let size = signature.argumentLayouts[c].size
    return Array(UnsafeRawBufferPointer(start: arguments[c]!, count: size))
  }

  /// Replaces the bytes of the message's argument at `index` (0 is its first argument,
  /// after `self` and `_cmd`); `bytes` must be exactly its size.
  public func setArgumentBytes(_ bytes: [UInt8], at index: Int) throws(RuntimeError) {
    let c = try checkIndex(index)
    let size = signature.argumentLayouts[c].size
    guard bytes.count == size else {
      throw .typeMismatch(
        position: index, expected: "\(size) bytes of \(signature.argumentTypes[c])",
        found: "\(bytes.count) bytes")
    }
    bytes.withUnsafeBytes { arguments[c]!.copyMemory(from: $0.baseAddress!, byteCount: size) }
    if argumentsRetained { retainArgument(at: c) }
  }

  /// The bytes of the return value (its type's size; empty for void).
  public var returnBytes: [UInt8] {
    Array(UnsafeRawBufferPointer(start: result, count: signature.returnLayout.size))
  }

  /// Replaces the bytes of the return value; `bytes` must be exactly its size.
  public func setReturnBytes(_ bytes: [UInt8]) throws(RuntimeError) {
    guard bytes.count == signature.returnLayout.size else {
      throw .typeMismatch(
        position: -1, expected: "\(signature.returnLayout.size) bytes of \(signature.returnType)",
        found: "\(bytes.count) bytes")
    }
    bytes.withUnsafeBytes { result.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
    returnedObject = nil
    if argumentsRetained { retainReturnValue() }
  }

  /// Sets the return value's bytes and keeps `object` (the object they name, if any)
  /// alive as the return value: for code that moves answers as bytes.
  package func setReturnBytes(_ bytes: [UInt8], keeping object: AnyObject?) throws(RuntimeError) {
    try setReturnBytes(bytes)
    keepReturnedObject(object)
  }

  /// Calls `body` with a pointer to the message's argument at `index` (0 is its first
  /// argument, after `self` and `_cmd`), its type's size, writable.
  package func withUnsafeArgument<R>(
    at index: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> R
  ) throws -> R {
    let c = try checkIndex(index)
    return try body(
      UnsafeMutableRawBufferPointer(start: arguments[c]!, count: signature.argumentLayouts[c].size))
  }

  /// Calls `body` with a pointer to the return value (its type's size, writable).
  package func withUnsafeReturnValue<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R)
    rethrows
    -> R
  {
    try body(UnsafeMutableRawBufferPointer(start: result, count: signature.returnLayout.size))
  }

  /// Sets the return value to zero bytes (the answer of a message not delivered).
  func zeroReturnValue() {
    result.initializeMemory(as: UInt8.self, repeating: 0, count: signature.returnLayout.size)
    returnedObject = nil
  }

  /// Keeps `value` alive as the return value when it is the object the return value
  /// names (a typed write: the value is the object itself, never bytes taken for one).
  func keepReturnedObject<T>(_ value: T) {
    guard signature._returnsObject else { return }
    let object = value as? RuntimeObject
    returnedObject =
      object.map { $0.rawValue == result.load(as: OpaquePointer?.self) } == true ? object : nil
  }

  /// Unchecked pointer to an argument's storage by C index (`self` 0, `_cmd` 1, the
  /// message's arguments from 2), for code that has checked the types.
  func rawArgument(_ index: Int) -> UnsafeMutableRawPointer { arguments[index]! }
  /// Unchecked pointer to the return storage.
  var rawResult: UnsafeMutableRawPointer { result }

  /// Checks a message argument index; returns its C index (`index + 2`).
  private func checkIndex(_ index: Int) throws(RuntimeError) -> Int {
    guard index >= 0, index < argumentCount else {
      throw .argumentIndexOutOfRange(
        index: index, count: argumentCount, signature: signature.encoding)
    }
    return index + 2
  }

  private func checkType(_ swift: TypeEncoding, against declared: TypeEncoding, position: Int)
    throws(RuntimeError)
  {
    guard declared.accepts(swift) else {
      throw .typeMismatch(
        position: position, expected: declared.canonicalString, found: swift.canonicalString)
    }
  }

  // MARK: Retaining and copying

  /// Keeps every object argument (and the target) alive, copies every C string and
  /// block (`@?`, with `_Block_copy`) argument, and keeps an object return value alive, so
  /// the invocation stays valid after the caller's values go away (`retainArguments`:
  /// "retains the receiver and all object arguments … and copies all of its C-string
  /// arguments and blocks. If a return value has been set, this is also retained").
  /// Arguments and return values set later are retained and copied too. A block is
  /// copied only where the process has a blocks runtime (`_Block_copy`; Swift's own
  /// toolchain ships one, and no block exists without one); else it is kept as it is.
  public func retainArguments() {
    detach()
    argumentsRetained = true
    for i in 0..<signature.numberOfArguments { retainArgument(at: i) }
    retainReturnValue()
  }

  /// Keeps the object the return value's bytes name alive (a value written as raw bytes
  /// is otherwise not kept: nothing dereferences bytes as a handle until retained).
  private func retainReturnValue() {
    guard signature._returnsObject,
      let handle = result.load(as: OpaquePointer?.self), returnedObject?.rawValue != handle
    else { return }
    returnedObject = RuntimeObject.object(rawValue: handle)
  }

  private func retainArgument(at index: Int) {
    switch signature.argumentTypes[index] {
    case .object:
      retainedObjects[index] = RuntimeObject.object(
        rawValue: arguments[index]!.load(as: OpaquePointer?.self))
    case .classObject:
      retainedObjects[index] = RuntimeClass.class(
        rawValue: arguments[index]!.load(as: OpaquePointer?.self))
    case .cString:
      copiedStrings[index]?.deallocate()
      copiedStrings[index] = nil
      if let s = arguments[index]!.load(as: UnsafePointer<CChar>?.self) {
        let n = cStringLength(s)
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: n + 1)
        copy.initialize(from: s, count: n + 1)
        copiedStrings[index] = copy
        arguments[index]!.storeBytes(of: UnsafePointer(copy), as: UnsafePointer<CChar>?.self)
      }
    case .block:
      let slot = arguments[index]!
      let block = slot.load(as: UnsafeRawPointer?.self)
      // Already this invocation's copy (retained twice, or set again unchanged): kept.
      if let block, copiedBlocks[index] == block { return }
      if let old = copiedBlocks.removeValue(forKey: index) { dp_block_release(old) }
      guard let block, let copy = dp_block_copy(block) else { return }
      copiedBlocks[index] = UnsafeRawPointer(copy)
      slot.storeBytes(of: UnsafeRawPointer(copy), as: UnsafeRawPointer?.self)
    default:
      break
    }
  }

  /// An independent invocation with the same signature, arguments and return value,
  /// owning its frame, with its arguments retained. It shares nothing with this one, so
  /// it is returned `sending`: the caller may hand it to another thread (a `sending`
  /// closure, a task) as long as it keeps no other reference.
  public func copy() -> sending Invocation {
    // Region analysis sees the byte copies below (through this invocation's raw argument
    // pointers) as connecting `other` to `self`. They copy bytes only: `other` is a new
    // object that owns its storage and retains its own references, so nothing of `self`
    // is reachable from it.
    nonisolated(unsafe) let other = Invocation(signature: signature)
    for i in 0..<signature.numberOfArguments {
      other.arguments[i]!.copyMemory(
        from: arguments[i]!, byteCount: signature.argumentLayouts[i].size)
    }
    other.result.copyMemory(from: result, byteCount: signature.returnLayout.size)
    other.returnedObject = returnedObject
    other.retainArguments()
    return other
  }

  /// Moves a borrowed frame into storage of this invocation's own.
  private func detach() {
    guard storage == nil else { return }
    let (block, pointers, newResult) = Invocation.allocateStorage(for: signature)
    for i in 0..<signature.numberOfArguments {
      pointers[i]!.copyMemory(from: arguments[i]!, byteCount: signature.argumentLayouts[i].size)
    }
    // A borrowed result buffer may be exactly the value's size (a caller's struct).
    newResult.copyMemory(from: result, byteCount: signature.returnLayout.size)
    storage = block
    arguments = pointers
    result = newResult
  }

  // MARK: Invoking

  /// Sends the message to `target` (`invokeWithTarget:`); the result lands in the
  /// return value. Runs the target's method, or its `forwardInvocation(_:)`.
  ///
  /// The previous target is released after the call, not before: its deinit could
  /// otherwise run between a caller's last check and the call (see `Quiescence`).
  public func invoke(target: RuntimeObject) throws {
    let previous = targetObject
    self.target = target
    defer { withExtendedLifetime(previous) {} }
    try invoke()
  }

  /// Sends the message again to `other` (a `forwardingTarget(for:)`), then makes the
  /// original receiver this invocation's target again.
  func resend(to other: RuntimeObject) throws {
    let original = targetHandle
    defer { targetHandle = original }
    try invoke(target: other)
  }

  /// Sends the message to the current target (`invoke`).
  public func invoke() throws {
    guard let handle = targetHandle else {
      throw RuntimeError.invocationIncomplete("the target is nil")
    }
    guard let selector else { throw RuntimeError.invocationIncomplete("the selector is not set") }
    guard signature._returnsObject else {
      try Runtime.deliver(handle, selector, signature, arguments: arguments, result: result) {
        receiver, _ in
        try receiver.forwardInvocation(self)
      }
      return
    }
    // The method autoreleased its object result: take it over from this thread's pool,
    // then drain what the call left there.
    let token = AutoreleasePool._push()
    defer { AutoreleasePool._pop(token) }
    returnedObject = nil
    try Runtime.deliver(handle, selector, signature, arguments: arguments, result: result) {
      receiver, _ in
      try receiver.forwardInvocation(self)
    }
    if let answer = result.load(as: OpaquePointer?.self), returnedObject?.rawValue != answer {
      returnedObject = AutoreleasePool.object(withHandle: answer, since: token)
    }
  }

  // MARK: Borrowed frames (forwarding, closure IMPs)

  /// Runs `body` with an invocation that views a caller's frame — no copy and, on the
  /// common path, no allocation: each thread keeps one spare invocation for this. If
  /// `body` keeps the invocation, it is detached (given its own copy of the frame)
  /// before the frame goes away.
  static func withBorrowedFrame<R>(
    signature: MethodSignature, arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
    result: UnsafeMutableRawPointer, _ body: (Invocation) throws -> R
  ) rethrows -> R {
    var invocation: Invocation
    if let spare = dp_tls_get(Int32(DP_TLS_INVOCATION_POOL)) {
      dp_tls_set(Int32(DP_TLS_INVOCATION_POOL), nil)
      invocation = Unmanaged<Invocation>.fromOpaque(spare).takeRetainedValue()
      invocation.signature = signature
      invocation.arguments = arguments
      invocation.result = result
    } else {
      _ = poolSetup
      invocation = Invocation(borrowing: signature, arguments: arguments, result: result)
    }
    defer {
      // A body that detached the invocation (retainArguments) wrote its result to the
      // invocation's own buffer; the caller reads the borrowed one.
      if invocation.result != result {
        result.copyMemory(from: invocation.result, byteCount: signature.returnLayout.size)
      }
      if let object = invocation.returnedObject {
        // An object result goes back autoreleased: the invocation's reference ends here.
        if object.rawValue == result.load(as: OpaquePointer?.self) {
          AutoreleasePool.autorelease(object)
        }
        invocation.returnedObject = nil
      }
      if isKnownUniquelyReferenced(&invocation) {
        invocation.argumentsRetained = false
        invocation.retainedObjects.removeAll()
        invocation.targetObject = nil
        invocation.releaseOwned()
        if dp_tls_get(Int32(DP_TLS_INVOCATION_POOL)) == nil {
          dp_tls_set(Int32(DP_TLS_INVOCATION_POOL), Unmanaged.passRetained(invocation).toOpaque())
        }
      } else {
        invocation.detach()
      }
    }
    return try body(invocation)
  }

  /// Releases a thread's spare invocation when the thread exits.
  private static let poolSetup: Void = {
    dp_tls_set_destructor(Int32(DP_TLS_INVOCATION_POOL)) { spare in
      if let spare { Unmanaged<Invocation>.fromOpaque(spare).release() }
    }
  }()

  public var description: String {
    var parts: [String] = []
    for i in 2..<max(2, signature.numberOfArguments) {
      parts.append(describeValue(signature.argumentTypes[i], at: arguments[i]!))
    }
    let target = targetHandle.map { "\(RuntimeObject.className(forHandle: $0)) \($0)" } ?? "nil"
    return
      "<Invocation \(signature.encoding) -[\(target) \(selector?.name ?? "?")] (\(parts.joined(separator: ", ")))>"
  }
}

/// A short rendering of a value for diagnostics.
func describeValue(_ type: TypeEncoding, at p: UnsafeRawPointer) -> String {
  switch type {
  case .char: return "\(p.load(as: Int8.self))"
  case .unsignedChar: return "\(p.load(as: UInt8.self))"
  case .bool: return p.load(as: UInt8.self) != 0 ? "true" : "false"
  case .short: return "\(p.load(as: Int16.self))"
  case .unsignedShort: return "\(p.load(as: UInt16.self))"
  case .int, .long: return "\(p.load(as: Int32.self))"
  case .unsignedInt, .unsignedLong: return "\(p.load(as: UInt32.self))"
  case .longLong: return "\(p.load(as: Int64.self))"
  case .unsignedLongLong: return "\(p.load(as: UInt64.self))"
  case .float: return "\(p.load(as: Float.self))"
  case .double: return "\(p.load(as: Double.self))"
  case .selector:
    return p.load(as: OpaquePointer?.self).map { "@selector(\(Selector(rawValue: $0).name))" }
      ?? "nil"
  default:
    if (try? type.layout().size) == 8, FFIType.scalarCode(type) == CChar(UInt8(ascii: "p")) {
      return "\(p.load(as: UnsafeRawPointer?.self).map { "\($0)" } ?? "nil")"
    }
    return "<\(type.canonicalString)>"
  }
}
