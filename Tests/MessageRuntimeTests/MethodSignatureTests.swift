import Testing

@_spi(Validation) @testable import MessageRuntime

@Suite("Method signatures") struct MethodSignatureTests {
  @Test func internedPerCanonicalEncoding() throws {
    let a = try MethodSignature.parse("v24@0:8@16")
    let b = try MethodSignature.parse("v@:@")
    let c = try MethodSignature.make(returnType: .void, arguments: [.object, .selector, .object])
    #expect(a === b && b === c)
    #expect(a.encoding == "v@:@")
    #expect(a.numberOfArguments == 3)
    #expect(a.argumentOffsets == [0, 8, 16])
    #expect(a.frameLength == 32)
    // Qualifiers and names do not change the ABI, so they do not make a new signature.
    #expect(
      try MethodSignature.parse("Vv@:r^{CGPoint=dd}") === MethodSignature.parse("v@:^{CGPoint=dd}"))
  }

  @Test func hugeValuesAreRefusedWithATypedError() {
    #expect {
      try MethodSignature.parse("v@:{S=[999999999c]}")
    } throws: { error in
      guard case RuntimeError.invalidSignature(_, let reason) = error else { return false }
      return reason.contains("999999999 bytes") && reason.contains("limited to 65536")
    }
    // Nested arrays whose flattening would be exponential (found by the fuzzer).
    let nested = "v@:{A=[9{B=[9{C=[9{D=[9{E=[9{F=[9d]}]}]}]}]}]}"
    #expect(throws: RuntimeError.self) { try MethodSignature.parse(nested) }
    let justUnder = "v@:{A=[8{B=[8{C=[128d]}]}]}"  // 64 KiB exactly: accepted, in memory
    #expect(throws: Never.self) { try MethodSignature.parse(justUnder) }
    #expect((try? MethodSignature.parse(justUnder))?.travelsInRegisters == false)
  }

  @Test func framesOverTheLimitAreRefusedWithTheirSize() {
    // Every value within maximumValueSize, their sum 13 MB: a call would put it all on
    // the stack.
    let huge = "v@:" + String(repeating: "{?=[65536c]}", count: 200)
    #expect {
      try MethodSignature.parse(huge)
    } throws: { error in
      guard case RuntimeError.frameTooLarge(_, let size, let limit) = error else { return false }
      return size == 16 + 200 * 65_536 && limit == 1 << 20
        && "\(error)".contains("\(16 + 200 * 65_536) bytes")
    }
    // 16 + 15 × 64 KiB fits in 1 MiB; one more value does not.
    let fits = "v@:" + String(repeating: "{?=[65536c]}", count: 15)
    #expect(throws: Never.self) { try MethodSignature.makeUninterned(fits) }
    #expect(throws: RuntimeError.self) { try MethodSignature.makeUninterned(fits + "{?=[65536c]}") }
  }

  @Test func spellingsOtherThanTheCanonicalOneAreRememberedBoundedly() throws {
    // Old-style encodings with ever new offsets name one signature; `parse` remembers
    // at most `maximumAliases` of them.
    let canonical = try MethodSignature.parse("v@:q")
    for n in 0..<(MethodSignature.maximumAliases * 2) {
      #expect(try MethodSignature.parse("v\(n)@0:8q16") === canonical)
      #expect(MethodSignature.aliasCount <= MethodSignature.maximumAliases)
    }
  }

  @Test func fewerThanTwoArgumentsOrVoidArgumentsAreRefused() {
    #expect(throws: RuntimeError.self) { try MethodSignature.parse("v@") }
    #expect(throws: RuntimeError.self) { try MethodSignature.parse("v@:v") }
    #expect {
      try MethodSignature.parse("v@:{CGPoint=dd")
    } throws: { error in
      guard case RuntimeError.invalidEncoding(let e) = error else { return false }
      return e.position == 14 && e.description.contains("{CGPoint=dd")
    }
  }
}
