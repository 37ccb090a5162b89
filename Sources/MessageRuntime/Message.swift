internal import DelegateProxyCFFIShim

/// A message declared once with its Swift argument and result types: the encoding is
/// derived from them, sends and implementations are checked by the compiler, and the
/// dispatch stays dynamic.
///
/// ```swift
/// let rows = Message<Int, RuntimeObject?, Int>("tableView:numberOfRowsInSection:")
/// try dataSourceClass.addMethod(rows) { receiver, table, section in 3 }
/// let n = try rows.send(to: dataSource, nil, 0)   // 3
/// ```
///
/// `Result` is the return type (`Void` for none); the arguments follow, without `self`
/// and `_cmd`.
public struct Message<Result, each Argument: MessageArgument>: Sendable, CustomStringConvertible {
  /// The message's selector.
  public let selector: Selector
  /// The signature derived from the Swift types.
  public let signature: MethodSignature
  @usableFromInline let loadResult: @Sendable (UnsafeRawPointer) -> Result
  private let storeResult: @Sendable (Result, UnsafeMutableRawPointer) -> Void
  /// When the arguments, as a Swift tuple, are laid out exactly as the frame after
  /// `self` and `_cmd` and each is its own C representation or an object reference: the
  /// frame offsets of the object references (converted to handles after the copy).
  /// Nil otherwise: each argument is stored on its own.
  @usableFromInline let _packedObjectOffsets: [Int]?

  private init(
    selector: Selector, returnType: TypeEncoding, swiftResult: Any.Type?,
    load: @escaping @Sendable (UnsafeRawPointer) -> Result,
    store: @escaping @Sendable (Result, UnsafeMutableRawPointer) -> Void
  ) {
    var types: [TypeEncoding] = []
    var swiftTypes: [Any.Type] = []
    for t in repeat (each Argument).self {
      types.append(t.typeEncoding)
      swiftTypes.append(t)
    }
    precondition(
      selector.argumentCount == types.count,
      "Message \"\(selector.name)\": the selector takes \(selector.argumentCount) argument(s) but \(types.count) type(s) were declared"
    )
    do {
      for (t, swift) in zip(types, swiftTypes) { try Message.checkLayout(swift, t) }
      if let swiftResult { try Message.checkLayout(swiftResult, returnType) }
      signature = try MethodSignature.make(
        returnType: returnType, arguments: [.object, .selector] + types)
    } catch {
      preconditionFailure("Message \"\(selector.name)\": \(error)")
    }
    self.selector = selector
    self.loadResult = load
    self.storeResult = store
    self._packedObjectOffsets = Message.packedObjectOffsets(signature)
  }

  /// See `_packedObjectOffsets`. A Swift tuple places each element at the next multiple
  /// of its alignment after the previous one's size, as C places arguments in the frame;
  /// with every size and alignment checked equal to the encoding's, the offsets agree
  /// once the tuple starts at an offset aligned for all of them (16).
  private static func packedObjectOffsets(_ signature: MethodSignature) -> [Int]? {
    var representations: [MessageArgumentRepresentation] = []
    var alignments: [Int] = []
    for t in repeat (each Argument).self {
      representations.append(t.representation)
      func alignment<T>(_: T.Type) -> Int { MemoryLayout<T>.alignment }
      alignments.append(alignment(t))
    }
    let offsets = signature.argumentOffsets.dropFirst(2)
    let frameEnd =
      zip(offsets, signature.argumentLayouts.dropFirst(2)).map { $0 + $1.size }.max() ?? 16
    guard !representations.contains(.stored), alignments.allSatisfy({ $0 <= 16 }),
      offsets.first.map({ $0 == 16 }) ?? true,
      MemoryLayout<(repeat each Argument)>.size == frameEnd - 16
    else { return nil }
    return zip(representations, offsets).compactMap { $0 == .objectHandle ? $1 : nil }
  }

  /// A Swift type's size and alignment must be its encoding's, or values would be
  /// copied with the wrong width.
  private static func checkLayout(_ swift: Any.Type, _ encoding: TypeEncoding) throws(RuntimeError)
  {
    func open<T>(_: T.Type) -> (Int, Int) { (MemoryLayout<T>.size, MemoryLayout<T>.alignment) }
    let (size, alignment) = _openExistential(swift, do: open)
    let layout: TypeLayout
    do { layout = try encoding.layout() } catch { throw .invalidEncoding(error) }
    if size != layout.size || alignment != layout.alignment {
      throw .layoutMismatch(
        type: "\(swift)", encoding: encoding.canonicalString, swiftSize: size,
        encodedSize: layout.size)
    }
  }

  public var description: String { "\(selector.name) \(signature.encoding)" }

  // MARK: Sending

  /// Sends the message to `receiver` and returns its result: the receiver's method, or
  /// its `forwardInvocation(_:)` if it forwards. Throws `.unrecognizedSelector` when it
  /// does neither, `.signatureMismatch` when its method has other types, and whatever
  /// a forwarder throws.
  ///
  /// Inlinable so that storing the arguments is specialised for their types in the
  /// caller; everything after that is one non-generic call.
  ///
  /// An object result is the caller's: the method autoreleased it (see
  /// ``AutoreleasePool``), the returned reference keeps it, and what the call left in the
  /// thread's pool is drained before `send` returns.
  @inlinable
  public func send(to receiver: RuntimeObject, _ arguments: repeat each Argument) throws -> Result {
    guard signature._returnsObject else { return try _send(to: receiver, repeat each arguments) }
    let token = AutoreleasePool._push()
    defer { AutoreleasePool._pop(token) }
    return try _send(to: receiver, repeat each arguments)
  }

  /// `send(to:_:)` without the pool.
  @inlinable
  func _send(to receiver: RuntimeObject, _ arguments: repeat each Argument) throws -> Result {
    let sig = signature
    if let objectOffsets = _packedObjectOffsets {
      // The arguments as one tuple, copied into the frame at once: storing them one by
      // one goes through each type's witnesses, as pack expansions are not specialised.
      let packed = (repeat each arguments)
      return try withUnsafeTemporaryAllocation(byteCount: sig._sendBufferSize, alignment: 16) {
        buffer in
        let frame = buffer.baseAddress!
        withUnsafeBytes(of: packed) { bytes in
          // The references stay alive in `packed` until the message returns.
          if let source = bytes.baseAddress {
            (frame + 16).copyMemory(from: source, byteCount: bytes.count)
          }
        }
        if !objectOffsets.isEmpty { Message._objectsToHandles(frame, objectOffsets) }
        try _deliver(to: receiver, frame: frame)
        return loadResult(UnsafeRawPointer(frame + sig.frameLength))
      }
    }
    return try withUnsafeTemporaryAllocation(byteCount: sig._sendBufferSize, alignment: 16) {
      buffer in
      // One stack block: the frame (self, _cmd, arguments at their offsets), the result,
      // then room for the argument pointers the general path needs.
      let frame = buffer.baseAddress!
      var slot = sig._argumentOffsetTable + 2
      // A pack expansion of a generic call specialises per argument type and borrows
      // each argument (a `for … in repeat each` loop copies them through value witnesses).
      repeat _store(each arguments, frame, &slot)
      try _deliver(to: receiver, frame: frame)
      return loadResult(UnsafeRawPointer(frame + sig.frameLength))
    }
  }

  /// Replaces the object references at `offsets` in `frame` with their handles.
  @usableFromInline
  static func _objectsToHandles(_ frame: UnsafeMutableRawPointer, _ offsets: [Int]) {
    for offset in offsets {
      // A reference copied out of a live tuple: borrowed, never released from here.
      guard let reference = frame.load(fromByteOffset: offset, as: UnsafeRawPointer?.self) else {
        continue
      }
      let object = Unmanaged<RuntimeObject>.fromOpaque(reference).takeUnretainedValue()
      frame.storeBytes(of: object.rawValue, toByteOffset: offset, as: OpaquePointer.self)
    }
  }

  /// Stores one argument at the frame offset `slot` points to, and advances `slot`.
  @inlinable @inline(__always)
  func _store<T: MessageArgument>(
    _ value: borrowing T, _ frame: UnsafeMutableRawPointer, _ slot: inout UnsafeMutablePointer<Int>
  ) {
    value.store(to: frame + slot.pointee)
    slot += 1
  }

  /// Delivers a message whose arguments are in `frame`: a C fast path (method cache probe,
  /// types check and register replay in one call) when the signature travels in
  /// registers, else the general path (lookup, libffi or forwarding).
  @usableFromInline
  func _deliver(to receiver: RuntimeObject, frame: UnsafeMutableRawPointer) throws {
    let sig = signature
    let result = frame + sig.frameLength
    frame.storeBytes(of: receiver.rawValue, as: OpaquePointer.self)
    frame.storeBytes(of: selector.rawValue, toByteOffset: 8, as: OpaquePointer.self)
    if let program = sig.replayProgram,
      dp_send_frame(receiver.handle, selector.raw, program, frame, result)
    {
      return
    }
    result.initializeMemory(as: UInt8.self, repeating: 0, count: sig.returnBufferLength)
    let n = sig.numberOfArguments
    let pointers = (result + sig.returnBufferLength).bindMemory(
      to: UnsafeMutableRawPointer?.self, capacity: n)
    for i in 0..<n { pointers[i] = frame + sig.argumentOffsets[i] }
    try Runtime.deliver(receiver.rawValue, selector, sig, arguments: pointers, result: result) {
      forwarder, declared in
      guard declared === sig else {
        throw RuntimeError.signatureMismatch(
          selector: selector, expected: declared.encoding, found: sig.encoding)
      }
      try Invocation.withBorrowedFrame(signature: sig, arguments: pointers, result: result) {
        try forwarder.forwardInvocation($0)
      }
    }
  }

  /// Whether `receiver` responds to this message with exactly these types.
  package func isUnderstood(by receiver: RuntimeObject) -> Bool {
    receiver.methodSignature(for: selector) === signature
  }

  // MARK: Implementing

  /// An invocation handler that unpacks the arguments, runs `body` and stores its
  /// result — what a closure IMP for this message runs.
  func handler(
    _ body: @escaping @Sendable (RuntimeObject, repeat each Argument) -> Result
  ) -> @Sendable (Invocation) -> Void {
    let store = storeResult
    let returnsObject = signature._returnsObject
    return { invocation in
      var index = 2
      func next<T: MessageArgument>(_: T.Type) -> T {
        defer { index += 1 }
        return T.load(from: invocation.rawArgument(index))
      }
      // The receiver is being deallocated (its last strong reference is gone): the
      // message is not delivered, as a weak reference would not have delivered it.
      guard let receiver = invocation.target else {
        invocation.zeroReturnValue()
        return
      }
      let value = body(receiver, repeat next((each Argument).self))
      store(value, invocation.rawResult)
      // A new object's only reference may be `value`: the invocation holds it until it
      // is autoreleased for the caller.
      if returnsObject { invocation.keepReturnedObject(value) }
    }
  }
}

extension Message where Result == Void {
  /// Declares a message that returns nothing.
  public init(_ selector: Selector) {
    self.init(
      selector: selector, returnType: .void, swiftResult: nil, load: { _ in () }, store: { _, _ in }
    )
  }
}

extension Message where Result: MessageArgument {
  /// Declares a message that returns `Result`.
  public init(_ selector: Selector) {
    self.init(
      selector: selector, returnType: Result.typeEncoding, swiftResult: Result.self,
      load: { Result.load(from: $0) }, store: { $0.store(to: $1) })
  }
}

extension RuntimeClass {
  /// Adds a method for `message`, implemented by `body`; the receiver comes first, then
  /// the message's arguments. Throws if the class already defines the selector.
  public func addMethod<R, each A: MessageArgument>(
    _ message: Message<R, repeat each A>,
    _ body: @escaping @Sendable (RuntimeObject, repeat each A) -> R
  ) throws(RuntimeError) {
    try addMethod(message.selector, signature: message.signature, body: message.handler(body))
  }

  /// Sets (adds or replaces) the method for `message`.
  @discardableResult
  public func replaceMethod<R, each A: MessageArgument>(
    _ message: Message<R, repeat each A>,
    _ body: @escaping @Sendable (RuntimeObject, repeat each A) -> R
  ) throws(RuntimeError) -> Method? {
    try replaceMethod(message.selector, signature: message.signature, body: message.handler(body))
  }
}

extension RuntimeObject {
  /// Gives this object its own method for `message` (a "dynamic delegate" assembled
  /// from closures). Returns the method it replaced.
  @discardableResult
  public func setMethod<R, each A: MessageArgument>(
    _ message: Message<R, repeat each A>,
    _ body: @escaping @Sendable (RuntimeObject, repeat each A) -> R
  ) throws(RuntimeError) -> Method? {
    try setMethod(message.selector, signature: message.signature, body: message.handler(body))
  }
}
