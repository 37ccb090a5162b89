internal import DelegateProxyCFFIShim

/// How a call's arguments and result travel when every argument is passed in registers:
/// which bytes of which argument go into which integer or floating-point register, and
/// which registers carry the result. A signature has a plan only when no argument is
/// passed in memory and the result comes back in registers; everything else takes
/// libffi's general path.
///
/// The classification follows the x86-64 System V ABI (eightbytes classified INTEGER or
/// SSE, merged per eightbyte, aggregates over 16 bytes in memory, all-or-nothing
/// register assignment per argument) and AAPCS64 (homogeneous floating-point aggregates
/// of up to four members in consecutive vector registers, other aggregates up to 16
/// bytes in integer registers, larger ones by reference).
struct RegisterPlan: Sendable, Equatable {
  enum Bank: UInt8, Sendable { case gp, fp }

  /// `size` bytes at `offset` within argument `argument` travel in register `register`
  /// of `bank`, starting at byte 0 of that register.
  struct Piece: Sendable, Equatable {
    var argument: Int
    var offset: Int
    var size: Int
    var bank: Bank
    var register: Int
    /// The piece is a whole signed `char`/`short` argument, to be sign-extended to the
    /// register: x86-64 callers extend narrow integer arguments to 32 bits and clang
    /// relies on it in the callee (unsigned ones are zero-extended by the zeroed frame).
    var signExtend = false
  }

  /// `size` bytes at `offset` within the result come from word `word` of the replay
  /// result (see `call_words` in dp_replay.c).
  struct ResultPiece: Sendable, Equatable {
    var offset: Int
    var size: Int
    var word: Int
  }

  var pieces: [Piece]
  var returnClass: UInt32  // dp_return_class
  var resultPieces: [ResultPiece]
  /// Registers used, for the fast paths that only need to know the call fits.
  var gpCount: Int
  var fpCount: Int

  /// The plan for `types` (return type first), or nil when the call needs memory.
  static func make(returnType: TypeEncoding, arguments: [TypeEncoding]) -> RegisterPlan? {
    guard dp_replay_supported() != 0 else { return nil }
    #if arch(x86_64)
      return SysV.plan(returnType: returnType, arguments: arguments)
    #elseif arch(arm64)
      return AAPCS64.plan(returnType: returnType, arguments: arguments)
    #else
      return nil
    #endif
  }

  // MARK: x86-64 System V

  enum SysV {
    enum Class { case none, integer, sse, memory }

    /// The class of each eightbyte of a value, or nil when it is passed in memory.
    static func classify(_ t: TypeEncoding) -> [Class]? {
      // Size first: anything over 16 bytes is MEMORY, and flattening it could be huge.
      guard let layout = try? t.layout(), layout.size <= 16, layout.size > 0,
        let scalars = try? ScalarMap.flatten(t)
      else { return nil }
      var classes = [Class](repeating: .none, count: (layout.size + 7) / 8)
      for s in scalars {
        if s.kind == .x87 { return nil }
        // Natural layout never straddles eightbytes; a scalar that did would be MEMORY.
        let word = s.offset / 8
        guard (s.offset + s.size - 1) / 8 == word else { return nil }
        switch (classes[word], s.kind) {
        case (_, .integer): classes[word] = .integer
        case (.none, .float): classes[word] = .sse
        default: break
        }
      }
      // An eightbyte of padding only (possible in unions) travels as SSE, like clang.
      return classes.map { $0 == .none ? .sse : $0 }
    }

    /// The return class (`dp_return_class`) of a result whose eightbytes have `classes`.
    static func returnClass(of classes: [Class]) -> UInt32? {
      switch classes {
      case [.integer], [.integer, .integer]: UInt32(DP_RET_GP.rawValue)
      case [.sse], [.sse, .sse]: UInt32(DP_RET_FP.rawValue)
      case [.integer, .sse]: UInt32(DP_RET_GP_FP.rawValue)
      case [.sse, .integer]: UInt32(DP_RET_FP_GP.rawValue)
      default: nil
      }
    }

    static func plan(returnType: TypeEncoding, arguments: [TypeEncoding]) -> RegisterPlan? {
      var pieces: [Piece] = []
      var gp = 0
      var fp = 0
      for (index, arg) in arguments.enumerated() {
        guard let classes = classify(arg), let size = try? arg.layout().size else { return nil }
        let needGP = classes.filter { $0 == .integer }.count
        let needFP = classes.count - needGP
        guard gp + needGP <= Int(dp_replay_gp_count()), fp + needFP <= Int(dp_replay_fp_count())
        else { return nil }
        let signed = arg.unqualified == .char || arg.unqualified == .short
        for (word, c) in classes.enumerated() {
          let piece = Piece(
            argument: index, offset: word * 8, size: min(8, size - word * 8),
            bank: c == .integer ? .gp : .fp, register: c == .integer ? gp : fp, signExtend: signed)
          if c == .integer { gp += 1 } else { fp += 1 }
          pieces.append(piece)
        }
      }
      var returnClass = UInt32(DP_RET_GP.rawValue)
      var resultPieces: [ResultPiece] = []
      if returnType.unqualified != .void {
        guard let classes = classify(returnType), let size = try? returnType.layout().size else {
          return nil
        }
        guard let rc = SysV.returnClass(of: classes) else { return nil }
        returnClass = rc
        for word in classes.indices {
          resultPieces.append(
            ResultPiece(offset: word * 8, size: min(8, size - word * 8), word: word))
        }
      }
      return RegisterPlan(
        pieces: pieces, returnClass: returnClass, resultPieces: resultPieces, gpCount: gp,
        fpCount: fp)
    }
  }

  // MARK: AArch64 (AAPCS64, Linux)

  enum AAPCS64 {
    /// The member size and count of a homogeneous floating-point aggregate, or nil.
    /// AAPCS64 (§5.9.5): a struct or union whose fundamental members, recursively, are all
    /// of one floating-point type, with at most four of them; a union's members overlap,
    /// so they count by position, not one per member (`(?=ff)` is one float, in s0;
    /// `{?=(?=ff)f}` two, in s0 and s1; `(?=fd)` mixes two types and is not one: x0).
    static func hfa(_ t: TypeEncoding) -> (size: Int, count: Int)? {
      switch t.unqualified {
      case .structure, .union: break
      default: return nil
      }
      guard let size = try? t.layout().size, size > 0, size <= 64,
        let scalars = try? ScalarMap.flatten(t), let first = scalars.first, first.kind == .float
      else { return nil }
      let member = first.size
      guard scalars.allSatisfy({ $0.kind == .float && $0.size == member }),
        size % member == 0, size / member <= 4
      else { return nil }
      // Every member position holds a member (no padding between them).
      let positions = Set(scalars.map(\.offset))
      guard positions.count == size / member, positions.allSatisfy({ $0 % member == 0 }) else {
        return nil
      }
      return (member, size / member)
    }

    static func plan(returnType: TypeEncoding, arguments: [TypeEncoding]) -> RegisterPlan? {
      var pieces: [Piece] = []
      var gp = 0
      var fp = 0
      let gpMax = Int(dp_replay_gp_count())
      let fpMax = Int(dp_replay_fp_count())
      for (index, arg) in arguments.enumerated() {
        // Over 64 bytes is neither an HFA nor in registers; flattening it could be huge.
        guard let size = try? arg.layout().size, size > 0, size <= 64,
          let scalars = try? ScalarMap.flatten(arg)
        else { return nil }
        if scalars.contains(where: { $0.kind == .x87 }) { return nil }  // quad in q regs
        if let (member, count) = hfa(arg) {
          guard fp + count <= fpMax else { return nil }
          for i in 0..<count {
            pieces.append(
              Piece(argument: index, offset: i * member, size: member, bank: .fp, register: fp))
            fp += 1
          }
        } else if scalars.count == 1, scalars[0].kind == .float {
          guard fp < fpMax else { return nil }
          pieces.append(Piece(argument: index, offset: 0, size: size, bank: .fp, register: fp))
          fp += 1
        } else {
          guard size <= 16 else { return nil }  // passed by reference to a copy
          let words = (size + 7) / 8
          guard gp + words <= gpMax else { return nil }
          for w in 0..<words {
            pieces.append(
              Piece(
                argument: index, offset: w * 8, size: min(8, size - w * 8), bank: .gp, register: gp)
            )
            gp += 1
          }
        }
      }
      var returnClass = UInt32(DP_RET_GP.rawValue)
      var resultPieces: [ResultPiece] = []
      if returnType.unqualified != .void {
        guard let size = try? returnType.layout().size, size <= 64,
          let scalars = try? ScalarMap.flatten(returnType),
          !scalars.contains(where: { $0.kind == .x87 })
        else { return nil }
        if let (member, count) = hfa(returnType) {
          returnClass = UInt32(DP_RET_FP4.rawValue)
          for i in 0..<count {
            resultPieces.append(ResultPiece(offset: i * member, size: member, word: i))
          }
        } else if scalars.count == 1, scalars[0].kind == .float {
          returnClass = UInt32(DP_RET_FP4.rawValue)
          resultPieces.append(ResultPiece(offset: 0, size: size, word: 0))
        } else {
          guard size <= 16 else { return nil }
          for w in 0..<((size + 7) / 8) {
            resultPieces.append(ResultPiece(offset: w * 8, size: min(8, size - w * 8), word: w))
          }
        }
      }
      return RegisterPlan(
        pieces: pieces, returnClass: returnClass, resultPieces: resultPieces, gpCount: gp,
        fpCount: fp)
    }
  }
}
