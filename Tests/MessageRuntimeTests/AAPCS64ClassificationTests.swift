import Testing

@testable import MessageRuntime

/// AAPCS64's classification of unions, checked on any host (the logic is plain Swift; the
/// AArch64 build runs it for real): a union is a homogeneous floating-point aggregate when
/// its members, by position, are up to four of one floating-point type, and then travels
/// in vector registers; any other union of up to 16 bytes travels in integer registers.
/// Register replay (`RegisterPlan.AAPCS64`) and libffi's stand-in type agree.
@Suite("AAPCS64 unions") struct AAPCS64ClassificationTests {
  func type(_ s: String) throws -> TypeEncoding { try TypeEncoding(parsing: s) }

  /// The register bank and register of each piece of argument 2 in `v@:<t>`.
  func argumentRegisters(_ t: String) throws -> [String] {
    let plan = try #require(
      RegisterPlan.AAPCS64.plan(returnType: .void, arguments: [.object, .selector, type(t)]))
    return plan.pieces.filter { $0.argument == 2 }.map {
      "\($0.bank == .gp ? "x" : "v")\($0.register)@\($0.offset)+\($0.size)"
    }
  }

  /// Each case: encoding, expected HFA (member size, count) or nil, replay registers,
  /// libffi stand-in codes.
  static let cases: [(String, (Int, Int)?, [String], [Character])] = [
    ("(?=ff)", (4, 1), ["v0@0+4"], ["f"]),  // one float in s0, not two in x0
    ("{?=(?=ff)f}", (4, 2), ["v0@0+4", "v1@4+4"], []),  // s0, s1
    ("(?=fd)", nil, ["x2@0+8"], ["Q"]),  // mixed types: not an HFA, x-register (libffi had d0)
    ("(?=dd)", (8, 1), ["v0@0+8"], ["d"]),
    ("(?=f[2f])", (4, 2), ["v0@0+4", "v1@4+4"], ["f", "f"]),
    ("(?=fi)", nil, ["x2@0+4"], ["I"]),
    ("(?=[4d]d)", (8, 4), ["v0@0+8", "v1@8+8", "v2@16+8", "v3@24+8"], ["d", "d", "d", "d"]),
    ("{?=ff}", (4, 2), ["v0@0+4", "v1@4+4"], []),
    ("{?=fffff}", nil, [], []),  // five floats: not an HFA; 20 bytes: by reference
  ]

  @Test(arguments: 0..<9) func unionsAreClassifiedAsAAPCS64Says(_ index: Int) throws {
    let (encoding, expected, registers, codes) = Self.cases[index]
    let t = try type(encoding)
    let hfa = RegisterPlan.AAPCS64.hfa(t)
    #expect(hfa?.size == expected?.0 && hfa?.count == expected?.1, "\(encoding)")
    if registers.isEmpty {
      #expect(
        RegisterPlan.AAPCS64.plan(returnType: .void, arguments: [.object, .selector, t]) == nil)
    } else {
      #expect(try argumentRegisters(encoding) == registers, "\(encoding)")
    }
    if !codes.isEmpty {
      let layout = try t.layout()
      let scalars = layout.size <= 16 ? try ScalarMap.flatten(t) : []
      #expect(
        FFIType.unionSlotCodes(t, layout: layout, scalars: scalars, abi: .aapcs64) == codes,
        "\(encoding)")
    }
  }

  @Test func unionResultsComeBackWhereAAPCS64PutsThem() throws {
    // `(?=ff)` returns in s0 (the vector result class), `(?=fd)` in x0.
    let hfaResult = try #require(
      RegisterPlan.AAPCS64.plan(returnType: type("(?=ff)"), arguments: [.object, .selector]))
    #expect(hfaResult.resultPieces == [.init(offset: 0, size: 4, word: 0)])
    let gpResult = try #require(
      RegisterPlan.AAPCS64.plan(returnType: type("(?=fd)"), arguments: [.object, .selector]))
    #expect(hfaResult.returnClass != gpResult.returnClass)
  }

  @Test func systemVKeepsItsPerEightbyteRule() throws {
    // On x86-64 `(?=fd)` is SSE (xmm0): its stand-in stays a double.
    let t = try type("(?=fd)")
    let layout = try t.layout()
    #expect(
      FFIType.unionSlotCodes(t, layout: layout, scalars: try ScalarMap.flatten(t), abi: .sysV)
        == ["d"])
  }
}
