internal import DelegateProxyCFFIShim

/// How a call travels when some arguments or the result are passed in memory but a
/// route entry can still replay it with a plain C call (x86-64 System V): the caller's
/// stack-argument area is copied verbatim to each target as a by-value block of words,
/// and a result over 16 bytes comes back through the caller's hidden result pointer,
/// which every target writes in turn. Signatures whose arguments all travel in
/// registers have a ``RegisterPlan`` instead; anything else (a `long double` result, a
/// stack area over `DP_ROUTE_MAX_STACK_WORDS` words, other ABIs) takes libffi.
struct MemoryReplay: Sendable, Equatable {
  /// The return class of a result that comes back in registers (`dp_return_class`).
  var returnClass: UInt32
  /// Words of the caller's stack-argument area.
  var stackWords: Int
  /// Whether the result is returned through a hidden pointer (first integer register).
  var indirectResult: Bool
  /// Floating-point argument registers used.
  var fpCount: Int

  /// The replay shape of `types`, or nil when a route entry cannot replay them (or when
  /// a ``RegisterPlan`` covers them).
  static func make(returnType: TypeEncoding, arguments: [TypeEncoding]) -> MemoryReplay? {
    // DP_ROUTE_STACK_SUPPORTED: x86-64 System V.
    #if arch(x86_64) && !os(Windows)
      typealias SysV = RegisterPlan.SysV
      var returnClass = UInt32(DP_RET_GP.rawValue)
      var indirect = false
      if returnType.unqualified != .void {
        guard let layout = try? returnType.layout() else { return nil }
        if let classes = SysV.classify(returnType) {
          guard let rc = SysV.returnClass(of: classes) else { return nil }
          returnClass = rc
        } else {
          // Up to 16 bytes, only a `long double` makes a result leave the registers, and
          // it comes back in x87 st(0), which no entry here carries.
          guard layout.size > 16 else { return nil }
          indirect = true
        }
      }
      // Arguments take registers in order, all or nothing each; the rest go to the stack
      // area in order, in 8-byte slots, 16-aligned when their type is.
      var gp = indirect ? 1 : 0
      var fp = 0
      var stack = 0
      for arg in arguments {
        guard let layout = try? arg.layout(), layout.size > 0 else { return nil }
        if let classes = SysV.classify(arg) {
          let needGP = classes.filter { $0 == .integer }.count
          let needFP = classes.count - needGP
          if gp + needGP <= 6 && fp + needFP <= 8 {
            gp += needGP
            fp += needFP
            continue
          }
        }
        let alignment = max(8, layout.alignment)
        stack = (stack + alignment - 1) / alignment * alignment + (layout.size + 7) / 8 * 8
      }
      let words = stack / 8
      guard words <= Int(DP_ROUTE_MAX_STACK_WORDS), words > 0 || indirect else { return nil }
      return MemoryReplay(
        returnClass: returnClass, stackWords: words, indirectResult: indirect, fpCount: fp)
    #else
      return nil
    #endif
  }
}
