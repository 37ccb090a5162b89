internal import DelegateProxyCFFIShim

/// Builds libffi type descriptors from type encodings. Descriptors are cached by
/// canonical encoding and never freed: signatures are interned for the life of the
/// process and their prepared call interfaces point at these.
///
/// This file and `MethodSignature`'s call code are the only places that hold libffi
/// pointers; nothing public exposes them.
enum FFIType {
  /// An immortal libffi type pointer. Sendable because nothing ever writes through it
  /// after construction (libffi fills size/alignment once, under `cache`'s lock).
  struct Handle: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<ffi_type>
  }

  private static let cache = Lock<[TypeEncoding: Handle]>([:])

  /// The libffi type for a value of `type` passed or returned by value.
  static func type(for type: TypeEncoding) throws(RuntimeError) -> UnsafeMutablePointer<ffi_type> {
    let t = type.unqualified
    if let scalar = scalarCode(t) {
      guard let p = dp_ffi_scalar_type(scalar) else {
        throw .invalidSignature(
          encoding: t.canonicalString,
          reason: "libffi cannot pass \(t.canonicalString) on this platform")
      }
      return p
    }
    if let cached = cache.withLock({ $0[t] }) { return cached.pointer }
    let built = Handle(pointer: try aggregate(t))
    let kept = cache.withLock { table -> Handle in
      if let existing = table[t] { return existing }
      table[t] = built
      return built
    }
    if kept.pointer != built.pointer { dp_ffi_struct_free(built.pointer) }
    return kept.pointer
  }

  /// The libffi type for a result of `type`.
  ///
  /// On x86-64 this refuses a 16-byte aggregate that mixes `long double` with other
  /// members, such as `(?=Dq)`: the ABI returns it in memory, but libffi returns every
  /// 16-byte aggregate with a `long double` in it in rax:rdx, and no libffi type describes
  /// a 16-byte result in memory. (As an argument it travels in memory and is fine.)
  static func returnType(for type: TypeEncoding) throws(RuntimeError) -> UnsafeMutablePointer<
    ffi_type
  > {
    let built = try self.type(for: type)
    #if arch(x86_64)
      let t = type.unqualified
      if scalarCode(t) == nil, let layout = try? t.layout(), layout.size == 16,
        layout.alignment == 16,
        built != dp_ffi_scalar_type(CChar(UInt8(ascii: "D")))
      {
        throw .invalidSignature(
          encoding: t.canonicalString,
          reason: "a 16-byte result mixing long double with other members is returned in memory, "
            + "which libffi cannot describe")
      }
    #endif
    return built
  }

  /// The scalar code `dp_ffi_scalar_type` understands, or nil for aggregates.
  static func scalarCode(_ t: TypeEncoding) -> CChar? {
    let code: Character
    switch t {
    case .char: code = "c"
    case .unsignedChar: code = "C"
    case .bool: code = "B"
    case .short: code = "s"
    case .unsignedShort: code = "S"
    case .int: code = "i"
    case .unsignedInt: code = "I"
    case .long: code = "l"
    case .unsignedLong: code = "L"
    case .longLong: code = "q"
    case .unsignedLongLong: code = "Q"
    case .float: code = "f"
    case .double: code = "d"
    case .longDouble: code = "D"
    case .void: code = "v"
    case .cString, .object, .block, .classObject, .selector, .pointer: code = "p"
    case .qualified(_, let inner): return scalarCode(inner)
    default: return nil
    }
    return CChar(code.asciiValue!)
  }

  private static func aggregate(_ t: TypeEncoding) throws(RuntimeError) -> UnsafeMutablePointer<
    ffi_type
  > {
    #if arch(x86_64)
      // A struct or union that is one `long double` (`{?=D}`, `(?=D)`) travels exactly
      // as a `long double`: in memory as an argument, in x87 st(0) as a result. libffi
      // would return a struct of one long double in memory (sret) instead.
      if (try? t.layout().size) == 16, let scalars = try? ScalarMap.flatten(t), !scalars.isEmpty,
        scalars.allSatisfy({ $0.kind == .x87 && $0.offset == 0 }),
        let longDouble = dp_ffi_scalar_type(CChar(UInt8(ascii: "D")))
      {
        return longDouble
      }
    #endif
    switch t {
    case .structure(_, let fields?):
      // libffi has no array type: an array member is its element repeated.
      var elements: [UnsafeMutablePointer<ffi_type>?] = []
      for field in fields { try appendFlattened(field, to: &elements) }
      if elements.isEmpty {
        throw .invalidSignature(
          encoding: t.canonicalString, reason: "an empty struct cannot be passed by value")
      }
      return elements.withUnsafeBufferPointer { dp_ffi_struct_create($0.baseAddress, $0.count) }
    case .union:
      return try unionStandIn(t)
    default:
      throw .invalidSignature(
        encoding: t.canonicalString, reason: "\(t.canonicalString) cannot be passed by value")
    }
  }

  private static func appendFlattened(
    _ t: TypeEncoding, to elements: inout [UnsafeMutablePointer<ffi_type>?]
  ) throws(RuntimeError) {
    switch t.unqualified {
    case .array(let count, let element):
      let e = try type(for: element)
      for _ in 0..<count { elements.append(e) }
    default:
      elements.append(try type(for: t))
    }
  }

  /// libffi cannot describe a union. What the ABI needs is its size, alignment and, per
  /// eightbyte, whether any member puts integer data there (then the eightbyte travels
  /// in an integer register) or only floating-point data (a vector register). A struct
  /// of alignment-sized slots, each an integer unless every member covering it is
  /// floating point, has exactly that classification.
  private static func unionStandIn(_ t: TypeEncoding) throws(RuntimeError) -> UnsafeMutablePointer<
    ffi_type
  > {
    let layout: TypeLayout
    do { layout = try t.layout() } catch { throw .invalidEncoding(error) }
    guard layout.size > 0 else {
      throw .invalidSignature(
        encoding: t.canonicalString, reason: "an empty union cannot be passed by value")
    }
    // Only a union of at most 16 bytes travels in registers, so only then does the
    // class of each slot matter; flattening a larger one could be huge (arrays).
    let scalars = layout.size <= 16 ? try ScalarMap.flatten(t) : []
    #if arch(x86_64)
      // A union with a `long double` member (and another kind of member: see
      // `aggregate`) is 16-aligned and, by the x87 merge rule, always passed and returned
      // in memory. A struct of `long double`s has that size, alignment and class.
      if layout.alignment == 16, let longDouble = dp_ffi_scalar_type(CChar(UInt8(ascii: "D"))) {
        let elements = [UnsafeMutablePointer<ffi_type>?](
          repeating: longDouble, count: layout.size / 16)
        return elements.withUnsafeBufferPointer { dp_ffi_struct_create($0.baseAddress, $0.count) }
      }
    #endif
    #if arch(arm64)
      let codes = unionSlotCodes(t, layout: layout, scalars: scalars, abi: .aapcs64)
    #else
      let codes = unionSlotCodes(t, layout: layout, scalars: scalars, abi: .sysV)
    #endif
    let elements = codes.map { dp_ffi_scalar_type(CChar($0.asciiValue!)) }
    return elements.withUnsafeBufferPointer { dp_ffi_struct_create($0.baseAddress, $0.count) }
  }

  /// The calling conventions a union's stand-in is built for.
  enum UnionABI { case sysV, aapcs64 }

  /// The scalar codes of a union's stand-in struct (see `unionStandIn`), for `abi`.
  ///
  /// System V classifies per eightbyte: a slot is floating point when every member
  /// covering it is. AAPCS64 classifies the whole union: a homogeneous floating-point
  /// aggregate (``RegisterPlan/AAPCS64/hfa(_:)``) is that many members of its type, in
  /// vector registers; any other union travels in integer registers (or memory), so every
  /// slot is an integer — libffi would take a struct of floating-point slots for an HFA
  /// (`(?=fd)` as `struct{double}`, d0, where the ABI uses x0).
  static func unionSlotCodes(
    _ t: TypeEncoding, layout: TypeLayout, scalars: [ScalarMap.Scalar], abi: UnionABI
  ) -> [Character] {
    if abi == .aapcs64, let (member, count) = RegisterPlan.AAPCS64.hfa(t) {
      return Array(repeating: member == 8 ? "d" : "f", count: count)
    }
    let slot = min(layout.alignment, 8)
    var codes: [Character] = []
    var offset = 0
    while offset < layout.size {
      let covering = scalars.filter { $0.offset < offset + slot && $0.offset + $0.size > offset }
      let allFloat =
        abi == .sysV && !covering.isEmpty && covering.allSatisfy { $0.kind == .float }
      switch (slot, allFloat) {
      case (8, true): codes.append("d")
      case (4, true): codes.append("f")
      case (8, false): codes.append("Q")
      case (4, false): codes.append("I")
      case (2, _): codes.append("S")
      default: codes.append("C")
      }
      offset += slot
    }
    return codes
  }
}

/// The scalars a type is made of, at their byte offsets: what the ABI classifies.
struct ScalarMap {
  enum Kind { case integer, float, x87 }
  struct Scalar: Equatable {
    var offset: Int
    var size: Int
    var kind: Kind
  }

  static func flatten(_ t: TypeEncoding) throws(RuntimeError) -> [Scalar] {
    var out: [Scalar] = []
    try flatten(t, at: 0, into: &out)
    return out
  }

  private static func layout(_ t: TypeEncoding) throws(RuntimeError) -> TypeLayout {
    do { return try t.layout() } catch { throw .invalidEncoding(error) }
  }

  private static func flatten(_ t: TypeEncoding, at base: Int, into out: inout [Scalar])
    throws(RuntimeError)
  {
    switch t.unqualified {
    case .structure(_, let fields?):
      let offsets = try layout(t).fieldOffsets
      for (field, offset) in zip(fields, offsets) {
        try flatten(field, at: base + offset, into: &out)
      }
    case .union(_, let fields?):
      for field in fields { try flatten(field, at: base, into: &out) }
    case .array(let count, let element):
      let size = try layout(element).size
      for i in 0..<count { try flatten(element, at: base + i * size, into: &out) }
    case .float, .double:
      out.append(Scalar(offset: base, size: try layout(t).size, kind: .float))
    case .longDouble:
      out.append(Scalar(offset: base, size: 16, kind: .x87))
    default:
      out.append(Scalar(offset: base, size: try layout(t).size, kind: .integer))
    }
  }
}

/// A call interface that works around a libffi bug on x86-64 (libffi issue #574, fixed in
/// libffi 3.4.7 by pull request #848): `ffi_call` copies a 9–16-byte struct whose first
/// eightbyte goes to the last integer register (r9) with the struct's full size, so its
/// second eightbyte overwrites the value of the first SSE argument register (xmm0).
///
/// Such a struct always has an INTEGER and an SSE eightbyte (two INTEGER ones would not
/// fit in one register), and passing it in registers is, at the machine level, the same
/// as passing its eightbytes as two scalar arguments — a 64-bit integer in r9 and a float
/// or double in the next SSE register. The split call interface does that. Harmless on a
/// fixed libffi: it describes the same call.
// @unchecked Sendable: `cif` is prepared once, owned by the immortal (interned) signature
// that holds this value, and only read by ffi_call afterwards.
struct SplitFFICall: @unchecked Sendable {
  /// The call interface with every affected struct split in two.
  let cif: UnsafeMutablePointer<ffi_cif>
  /// For each argument of `cif`: the signature's argument it comes from, and the offset
  /// in that argument.
  let sourceArgument: [Int]
  let sourceOffset: [Int]

  /// The split interface, or nil when no argument hits the bug.
  static func make(
    returnType: TypeEncoding, arguments: [TypeEncoding], ffiReturn: UnsafeMutablePointer<ffi_type>?,
    ffiArguments: [UnsafeMutablePointer<ffi_type>?]
  ) -> SplitFFICall? {
    #if arch(x86_64)
      // Assign registers the way libffi does; a result in memory takes rdi first.
      var gp = 0
      var fp = 0
      if returnType != .void, FFIType.scalarCode(returnType) == nil,
        ffiReturn != dp_ffi_scalar_type(CChar(UInt8(ascii: "D"))),
        RegisterPlan.SysV.classify(returnType) == nil
      {
        gp = 1
      }
      var affected: Set<Int> = []
      for (index, arg) in arguments.enumerated() {
        guard let classes = RegisterPlan.SysV.classify(arg), let size = try? arg.layout().size
        else { continue }
        let needGP = classes.filter { $0 == .integer }.count
        let needFP = classes.count - needGP
        guard gp + needGP <= 6, fp + needFP <= 8 else { continue }  // on the stack
        if size > 8, classes == [.integer, .sse], gp == 5, fp > 0 { affected.insert(index) }
        gp += needGP
        fp += needFP
      }
      guard !affected.isEmpty else { return nil }

      var types: [UnsafeMutablePointer<ffi_type>?] = []
      var sourceArgument: [Int] = []
      var sourceOffset: [Int] = []
      for (index, type) in ffiArguments.enumerated() {
        if affected.contains(index), let size = try? arguments[index].layout().size {
          types.append(dp_ffi_scalar_type(CChar(UInt8(ascii: "Q"))))
          types.append(dp_ffi_scalar_type(CChar(UInt8(ascii: size - 8 <= 4 ? "f" : "d"))))
          sourceArgument += [index, index]
          sourceOffset += [0, 8]
        } else {
          types.append(type)
          sourceArgument.append(index)
          sourceOffset.append(0)
        }
      }
      var status: Int32 = 0
      let cif = types.withUnsafeBufferPointer {
        dp_ffi_cif_create(ffiReturn, $0.baseAddress, UInt32($0.count), &status)
      }
      guard let cif else { return nil }
      return SplitFFICall(cif: cif, sourceArgument: sourceArgument, sourceOffset: sourceOffset)
    #else
      return nil
    #endif
  }

  /// `ffi_call` through the split interface with the signature's `arguments`.
  func call(
    _ imp: IMP, arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
    result: UnsafeMutableRawPointer
  ) {
    withUnsafeTemporaryAllocation(of: UnsafeMutableRawPointer?.self, capacity: sourceArgument.count)
    { split in
      for k in sourceArgument.indices { split[k] = arguments[sourceArgument[k]]! + sourceOffset[k] }
      dp_ffi_call(cif, imp.rawValue, result, split.baseAddress)
    }
  }
}
