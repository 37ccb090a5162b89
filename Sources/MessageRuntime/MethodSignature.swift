@_spi(Validation) import DelegateProxyRuntimeCore
internal import DelegateProxyCFFIShim

/// The types of a method's return value and arguments (`NSMethodSignature`), with
/// their sizes, alignments and the frame an `Invocation` keeps them in.
///
/// Arguments include the receiver (`self`, index 0) and the selector (`_cmd`, index 1).
/// Signatures are interned: there is one instance per distinct canonical encoding, so
/// two signatures are equal exactly when they are the same object, and the prepared
/// libffi call interface (`ffi_cif`) is made once and shared. Immutable and thread-safe.
public final class MethodSignature: Hashable, Sendable, CustomStringConvertible {
  /// The canonical encoding, e.g. `q@:qd` (no offsets, no qualifiers, no names).
  public let encoding: String
  /// The return type.
  public let returnType: TypeEncoding
  /// The argument types, `self` and `_cmd` included.
  public let argumentTypes: [TypeEncoding]
  /// Size and alignment of each argument.
  @_spi(Validation) public let argumentLayouts: [TypeLayout]
  /// Size and alignment of the return value (size 0 for void).
  @_spi(Validation) public let returnLayout: TypeLayout
  /// Byte offset of each argument in an invocation's frame.
  package let argumentOffsets: [Int]
  /// Bytes of argument storage an invocation keeps (`frameLength`).
  public let frameLength: Int
  /// Bytes of return-value storage an invocation keeps (at least what libffi and
  /// register replay write).
  @_spi(Validation) public let returnBufferLength: Int

  // The four raw pointers below are nonisolated(unsafe) because pointers are not Sendable:
  // each is allocated and filled in init, never written afterwards, and never freed
  // (signatures are interned for the life of the process), so sharing them is reading.
  /// The encoding as a C string, for method tables (lives as long as the signature).
  nonisolated(unsafe) let cTypes: UnsafeMutablePointer<CChar>
  /// The prepared libffi call interface; immutable after preparation.
  nonisolated(unsafe) let cif: UnsafeMutablePointer<ffi_cif>
  /// How the call travels when every argument is in a register; nil → libffi.
  let registerPlan: RegisterPlan?
  /// How a route replays the call when it has no register plan but a C entry can still
  /// carry its memory arguments and result; nil → libffi (or a register plan).
  let memoryReplay: MemoryReplay?
  /// `registerPlan` compiled for C (`dp_replay_program`), nil when there is no plan.
  nonisolated(unsafe) let replayProgram: UnsafeMutablePointer<dp_replay_program>?
  /// `argumentOffsets` as a buffer, for inlined typed sends (no array traffic).
  @usableFromInline nonisolated(unsafe) let _argumentOffsetTable: UnsafeMutablePointer<Int>
  /// Bytes a typed send reserves on the stack: frame, result, argument pointers.
  @usableFromInline let _sendBufferSize: Int
  /// The libffi call interface `call` uses instead of `cif` when a struct argument would
  /// hit a libffi bug (see `SplitFFICall`); nil almost always.
  let splitCall: SplitFFICall?
  /// The forwarding IMP for this signature, made on first use by
  /// `Runtime.forwardingIMP(for:)`; it lives as long as the signature (for the process).
  let forwarding = Lock<ClosureIMP?>(nil)
  /// The libffi route entry for this signature, made on first use (see `Route`); the
  /// closure lives as long as the signature (for the process).
  let routeEntry = Lock<IMP?>(nil)

  /// The number of arguments, `self` and `_cmd` included (`numberOfArguments`).
  public var numberOfArguments: Int { argumentTypes.count }
  /// Whether the method returns nothing.
  package var returnsVoid: Bool { returnType == .void }
  /// Whether the method returns an object (`@`): its result is autoreleased for the
  /// caller (see the DocC article *Object results*).
  @usableFromInline let _returnsObject: Bool
  /// Whether calls with this signature can be replayed register for register (all
  /// arguments and the result in registers on a supported ABI).
  package var travelsInRegisters: Bool { registerPlan != nil }
  /// Whether calls with this signature, though they pass arguments or the result in
  /// memory, can still be replayed by a route's C entry (x86-64: up to 16 words of stack
  /// arguments, results through the caller's pointer, no `long double` result).
  package var replaysThroughMemory: Bool { memoryReplay != nil }

  private static let interned = Lock<[String: MethodSignature]>([:])

  /// The largest argument or result passed by value (64 KiB). Larger values are refused
  /// with a typed error: building and calling such signatures would cost time and memory
  /// in proportion to the value (an encoding of a few bytes can describe gigabytes).
  package static let maximumValueSize = 65_536

  /// The most bytes a signature's arguments may take in a frame (1 MiB): every value may
  /// be within ``maximumValueSize`` while their sum is not, and a call copies the whole
  /// frame onto the stack. A larger one is refused with ``RuntimeError/frameTooLarge(encoding:size:limit:)``.
  @_spi(Validation) public static let maximumFrameSize = 1 << 20

  /// How many spellings other than the canonical one `parse` remembers (old-style
  /// encodings with offsets, qualifiers): beyond that the remembered spellings are
  /// forgotten, so input with ever new spellings of the same types cannot grow the table.
  /// Canonical signatures stay interned for the process (method tables point at them).
  static let maximumAliases = 1024
  private static let aliases = Lock<[String: MethodSignature]>([:])
  /// How many spellings `parse` remembers now (for tests of the bound).
  static var aliasCount: Int { aliases.withLock { $0.count } }

  /// The signature for an ObjC method encoding such as `v@:@`, `q@:qd` or the old-style
  /// `v24@0:8@16`. Throws a typed error that names the problem and its position.
  public static func parse(_ encoding: String) throws(RuntimeError) -> MethodSignature {
    if let found = interned.withLock({ $0[encoding] }) { return found }
    if let found = aliases.withLock({ $0[encoding] }) { return found }
    let types: [TypeEncoding]
    do { types = try TypeEncoding.parseMethodTypes(encoding) } catch {
      throw .invalidEncoding(error)
    }
    guard types.count >= 1 else {
      throw .invalidSignature(encoding: encoding, reason: "no return type")
    }
    let signature = try make(returnType: types[0], arguments: Array(types.dropFirst()))
    if signature.encoding != encoding {
      aliases.withLock { table in
        if table.count >= maximumAliases { table.removeAll(keepingCapacity: true) }
        table[encoding] = signature
      }
    }
    return signature
  }

  /// The signature with these types; `arguments` includes `self` (`@`) and `_cmd` (`:`).
  public static func make(returnType: TypeEncoding, arguments: [TypeEncoding]) throws(RuntimeError)
    -> MethodSignature
  {
    let ret = returnType.unqualified
    let args = arguments.map(\.unqualified)
    let canonical = ret.canonicalString + args.map(\.canonicalString).joined()
    if let found = interned.withLock({ $0[canonical] }) { return found }
    let made = try MethodSignature(canonical: canonical, returnType: ret, arguments: args)
    return interned.withLock { table in
      if let raced = table[canonical] { return raced }
      table[canonical] = made
      return made
    }
  }

  /// The bytes `arguments` take laid out as a frame (for the error that names it).
  private static func frameSize(of arguments: [TypeEncoding]) -> Int {
    var frame = 0
    for t in arguments {
      guard let layout = try? t.layout() else { continue }
      frame = (frame + layout.alignment - 1) / layout.alignment * layout.alignment
      frame += max(layout.size, 1)
    }
    return frame
  }

  private init(canonical: String, returnType: TypeEncoding, arguments: [TypeEncoding])
    throws(RuntimeError)
  {
    guard arguments.count >= 2 else {
      throw .invalidSignature(
        encoding: canonical,
        reason:
          "a method takes at least self and _cmd (found \(arguments.count) argument\(arguments.count == 1 ? "" : "s"))"
      )
    }
    func check(_ t: TypeEncoding, _ what: String) throws(RuntimeError) -> TypeLayout {
      if case .array = t {
        throw .invalidSignature(
          encoding: canonical,
          reason: "\(what) is an array (\(t)); C passes arrays as pointers — use ^T")
      }
      let layout: TypeLayout
      do { layout = try t.layout() } catch {
        throw .invalidSignature(encoding: canonical, reason: "\(what): \(error)")
      }
      guard layout.size <= MethodSignature.maximumValueSize else {
        throw .invalidSignature(
          encoding: canonical,
          reason:
            "\(what) is \(layout.size) bytes; values passed by value are limited to \(MethodSignature.maximumValueSize) bytes"
        )
      }
      return layout
    }
    var layouts: [TypeLayout] = []
    var offsets: [Int] = []
    var frame = 0
    for (i, t) in arguments.enumerated() {
      if t == .void {
        throw .invalidSignature(encoding: canonical, reason: "argument \(i) is void")
      }
      let layout = try check(t, "argument \(i)")
      frame = (frame + layout.alignment - 1) / layout.alignment * layout.alignment
      offsets.append(frame)
      layouts.append(layout)
      frame += max(layout.size, 1)
      // Checked as it grows: the sum is bounded before it could overflow.
      guard frame <= MethodSignature.maximumFrameSize else {
        throw .frameTooLarge(
          encoding: canonical, size: MethodSignature.frameSize(of: arguments),
          limit: MethodSignature.maximumFrameSize)
      }
    }
    let retLayout =
      returnType == .void
      ? TypeLayout(size: 0, alignment: 1, fieldOffsets: []) : try check(returnType, "return type")

    var ffiArgs: [UnsafeMutablePointer<ffi_type>?] = []
    for t in arguments { ffiArgs.append(try FFIType.type(for: t)) }
    let ffiRet = try FFIType.returnType(for: returnType)
    var status: Int32 = 0
    let cif = ffiArgs.withUnsafeBufferPointer {
      dp_ffi_cif_create(ffiRet, $0.baseAddress, UInt32($0.count), &status)
    }
    guard let cif else { throw .ffiPreparationFailed(encoding: canonical, status: status) }

    self.encoding = canonical
    self.returnType = returnType
    self._returnsObject = returnType.unqualified == .object
    self.argumentTypes = arguments
    self.argumentLayouts = layouts
    self.returnLayout = retLayout
    self.argumentOffsets = offsets
    self.frameLength = (frame + 15) & ~15
    self.returnBufferLength = max((retLayout.size + 15) & ~15, 32)
    self.cif = cif
    self.cTypes = makeCString(canonical)
    let plan = RegisterPlan.make(returnType: returnType, arguments: arguments)
    self.registerPlan = plan
    self.memoryReplay =
      plan == nil ? MemoryReplay.make(returnType: returnType, arguments: arguments) : nil
    let types = self.cTypes
    self.replayProgram = plan.map { MethodSignature.compile($0, offsets: offsets, types: types) }
    self._argumentOffsetTable = .allocate(capacity: offsets.count)
    self._argumentOffsetTable.initialize(from: offsets, count: offsets.count)
    self._sendBufferSize =
      self.frameLength + self.returnBufferLength + offsets.count
      * MemoryLayout<UnsafeRawPointer>.stride
    self.splitCall = SplitFFICall.make(
      returnType: returnType, arguments: arguments, ffiReturn: ffiRet, ffiArguments: ffiArgs)
  }

  /// Interned signatures live for the life of the process (the table holds them); an
  /// un-interned one (see `makeUninterned`) frees its call interface here.
  deinit {
    if let replayProgram { dp_replay_program_free(replayProgram) }
    _argumentOffsetTable.deallocate()
    dp_ffi_cif_free(cif)
    if let splitCall { dp_ffi_cif_free(splitCall.cif) }
    cTypes.deallocate()
  }

  /// Builds a signature without interning it — everything `parse` checks and prepares,
  /// freed when the value goes away. For fuzzing and validation of untrusted input;
  /// do not install such a signature in a method table.
  @_spi(Validation)
  public static func makeUninterned(_ encoding: String) throws(RuntimeError) -> MethodSignature {
    let types: [TypeEncoding]
    do { types = try TypeEncoding.parseMethodTypes(encoding) } catch {
      throw .invalidEncoding(error)
    }
    let ret = types[0].unqualified
    let args = types.dropFirst().map(\.unqualified)
    let canonical = ret.canonicalString + args.map(\.canonicalString).joined()
    return try MethodSignature(canonical: canonical, returnType: ret, arguments: args)
  }

  public var description: String { encoding }

  public static func == (a: MethodSignature, b: MethodSignature) -> Bool { a === b }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

  /// Whether this signature's encoding is `types` (an interned C string, compared by
  /// pointer first).
  func matches(cTypes other: UnsafePointer<CChar>?) -> Bool {
    guard let other else { return false }
    if UnsafePointer(cTypes) == other { return true }
    return String(cString: other) == encoding
  }

  // MARK: Calling

  /// Compiles a register plan into a C replay program (see `dp_replay_program`).
  private static func compile(
    _ plan: RegisterPlan, offsets: [Int], types: UnsafeMutablePointer<CChar>
  ) -> UnsafeMutablePointer<dp_replay_program> {
    let program = dp_replay_program_create(
      UInt32(plan.pieces.count), UInt32(plan.resultPieces.count))!
    program.pointee.ret_class = dp_return_class(plan.returnClass)
    program.pointee.types = UnsafePointer(types)
    let steps = dp_replay_program_steps(program)!
    for (i, piece) in plan.pieces.enumerated() {
      steps[i] = dp_replay_step(
        frame_offset: UInt32(offsets[piece.argument] + piece.offset),
        argument: UInt16(piece.argument),
        offset: UInt8(piece.offset), size: UInt8(piece.size), fp: piece.bank == .fp ? 1 : 0,
        reg: UInt8(piece.register), sign_extend: piece.signExtend ? 1 : 0,
        slot: UInt8(piece.bank == .fp ? Int(DP_GP_REGS) + piece.register : piece.register))
    }
    for (i, piece) in plan.resultPieces.enumerated() {
      steps[plan.pieces.count + i] = dp_replay_step(
        frame_offset: 0, argument: 0, offset: UInt8(piece.offset), size: UInt8(piece.size), fp: 0,
        reg: UInt8(piece.word), sign_extend: 0, slot: 0)
    }
    return program
  }

  /// Calls `imp` with the arguments at `arguments[i]` and writes the result to `result`
  /// (at least `returnBufferLength` bytes, 16-byte aligned). Register replay when the
  /// signature has a plan, libffi otherwise.
  ///
  /// Safe as long as each `arguments[i]` points at a value of `argumentTypes[i]` and
  /// `imp` really has this signature — which `Runtime` checks before calling here.
  func call(
    _ imp: IMP, arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
    result: UnsafeMutableRawPointer
  ) {
    if let replayProgram {
      dp_replay_args(imp.rawValue, replayProgram, arguments, result)
    } else if let splitCall {
      splitCall.call(imp, arguments: arguments, result: result)
    } else {
      dp_ffi_call(cif, imp.rawValue, result, arguments)
    }
  }
}
