// Random signatures from the whole type grammar, each installed as a closure IMP that
// records its arguments, and called along every path: Invocation (register replay or
// libffi), a direct ffi_call of the IMP, ffi_call of a proxy's forwarding IMP,
// MethodSignature.call of the forwarding IMP (replay into a libffi closure) and an
// Invocation sent to the proxy. Then through a MulticastProxy with three delegates: its C
// route (register replay or libffi) called by replay and by ffi_call, an Invocation sent to
// it, and its general path (forwardInvocation). Every path must deliver the same argument
// leaves and return the same result.
//
// The signatures come from DelegateProxyTesting's SignatureGenerator (the grammar is
// documented there), the service users' own signature-driven tests use.
//
// Replay a failure with the seed and index from its message:
//   DP_SIGNATURE_SEED=<seed> DP_SIGNATURE_INDEX=<index> swift test --filter RandomSignature
// DP_SIGNATURE_COUNT sets how many signatures a run checks (default 1000);
// Scripts/signatures.sh checks 10,000.

import DelegateProxy
import DelegateProxyCFFIShim
import DelegateProxyTesting
import Synchronization
import Testing

@testable import MessageRuntime

/// What a closure IMP received, per call.
final class ClosureRecorder: @unchecked Sendable {
  var calls = 0
  var receiver: OpaquePointer?
  var selector: Selector?
  var arguments: [[UInt8]] = []
}

/// The result a closure IMP returns for arguments whose leaf bytes are `leaves`: each
/// scalar leaf of `type` derived from their FNV-1a hash (valid values: 0/1 booleans,
/// finite floating point). Padding is zero.
func derivedResult(_ type: TypeEncoding, leaves: [UInt8]) -> [UInt8] {
  var h: UInt64 = 0xCBF2_9CE4_8422_2325
  for b in leaves { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
  var rng = SplitMix64(seed: h)
  var out = [UInt8](repeating: 0, count: try! type.layout().size)
  for leaf in Leaves.of(type) {
    let bits = rng.next()
    let value: [UInt8]
    switch leaf.kind {
    case .bool: value = [UInt8(bits & 1)]
    case .float: value = withUnsafeBytes(of: Float(bits % 100_000) / 8) { Array($0) }
    case .double: value = withUnsafeBytes(of: Double(bits % 100_000) / 8) { Array($0) }
    case .longDouble: value = longDoubleBytes(Double(bits % 100_000), divideByThree: true)
    default: value = littleEndian(bits, count: leaf.slotSize)
    }
    out.replaceSubrange(leaf.offset..<(leaf.offset + leaf.slotSize), with: value)
  }
  return out
}

/// `ffi_call` of `imp` with the frame's arguments: the runtime's libffi route, forced even
/// where the runtime would replay registers (with its split call interface where a struct
/// argument would hit libffi's r9/xmm0 bug — see `SplitFFICall`).
func libffiCall(_ signature: MethodSignature, _ imp: IMP, _ frame: ArgumentFrame) {
  if let split = signature.splitCall {
    split.call(imp, arguments: frame.ffiArguments, result: frame.result)
  } else {
    dp_ffi_call(signature.cif, imp.rawValue, frame.result, frame.ffiArguments)
  }
}

/// What a run of the random-signature suite checked, summed over its shards.
final class SignatureTally: Sendable {
  let checked = Atomic<Int>(0)
  let refused = Atomic<Int>(0)
  let failed = Atomic<Int>(0)
  let registerRoutes = Atomic<Int>(0)
  let libffiRoutes = Atomic<Int>(0)
  let memoryRoutes = Atomic<Int>(0)
  let forwarded = Atomic<Int>(0)
  let shardsDone = Atomic<Int>(0)

  /// Called by each shard as it ends; the last one prints the run's totals.
  func shardDone(of shards: Int) {
    guard shardsDone.add(1, ordering: .sequentiallyConsistent).newValue == shards else { return }
    let c = checked.load(ordering: .sequentiallyConsistent)
    let r = refused.load(ordering: .sequentiallyConsistent)
    print(
      "random signatures: \(c) checked (\(c - r) accepted on 10 paths, \(r) refused as expected), "
        + "\(failed.load(ordering: .sequentiallyConsistent)) failing; multicast proxy: "
        + "\(registerRoutes.load(ordering: .sequentiallyConsistent)) on register routes, "
        + "\(memoryRoutes.load(ordering: .sequentiallyConsistent)) on register+memory routes, "
        + "\(libffiRoutes.load(ordering: .sequentiallyConsistent)) on libffi routes, "
        + "\(forwarded.load(ordering: .sequentiallyConsistent)) forwarded (seed \(SignatureEnvironment.seed))"
    )
  }
}

@Suite struct RandomSignatureTests {
  /// Signatures are split into this many parallel test cases.
  static let shards = 8
  static let tally = SignatureTally()

  enum Path: String, CaseIterable {
    /// `Invocation.invoke(target: target)`: register replay or libffi into the closure.
    case invocation
    /// `ffi_call` of the target's closure IMP.
    case ffiDirect
    /// `ffi_call` of the proxy's forwarding IMP (closure → forwardInvocation → invoke).
    case ffiForwarding
    /// `MethodSignature.call` of the forwarding IMP: replay when the signature has a plan.
    case callForwarding
    /// `Invocation.invoke(target: proxy)`.
    case invocationToProxy
  }

  /// The paths through a `MulticastProxy` (`.lastResponder`) with three delegates.
  enum MulticastPath: String, CaseIterable {
    /// `MethodSignature.call` of `proxy.imp(for:)`: the proxy's C route when it routes
    /// the selector (register entry or libffi closure), else its forwarding IMP.
    case callProxyIMP
    /// `ffi_call` of `proxy.imp(for:)`, as a C caller going through libffi would.
    case ffiProxyIMP
    /// `Invocation.invoke(target: proxy)`.
    case invocationToProxy
    /// `MethodSignature.call` of the forwarding IMP with the proxy as `self`: the general
    /// path (`forwardInvocation`, one `invoke` per delegate), routed selector or not.
    case forwardingToProxy
    /// `MethodSignature.call` of a route over the same delegates forced onto libffi, so
    /// signatures that replay are checked against the libffi path too.
    case libffiRoute
  }

  /// The body of a recording closure IMP: it records what it receives in `recorder` and,
  /// for a value-returning signature, answers the result derived from the argument leaves
  /// followed by `tag` (when given), so delegates of one proxy answer different values.
  static func recordingBody(
    _ recorder: ClosureRecorder, signature: MethodSignature, tag: UInt8?
  ) -> @Sendable (Invocation) -> Void {
    let n = signature.numberOfArguments
    let types = signature.argumentTypes
    return { invocation in
      recorder.calls += 1
      recorder.receiver = invocation.targetHandle
      recorder.selector = invocation.selector
      recorder.arguments = (0..<n - 2).map { try! invocation.argumentBytes(at: $0) }
      if !signature.returnsVoid {
        var leaves: [UInt8] = []
        for (k, bytes) in recorder.arguments.enumerated() {
          leaves += Leaves.bytes(bytes, of: types[k + 2])
        }
        if let tag { leaves.append(tag) }
        try! invocation.setReturnBytes(derivedResult(signature.returnType, leaves: leaves))
      }
    }
  }

  @Test(arguments: 0..<RandomSignatureTests.shards)
  func randomSignaturesAgreeOnEveryPath(shard: Int) throws {
    let seed = SignatureEnvironment.seed
    defer { Self.tally.shardDone(of: Self.shards) }
    var failures = 0
    for index in stride(from: shard, to: SignatureEnvironment.count, by: Self.shards) {
      if let only = SignatureEnvironment.onlyIndex, only != index { continue }
      Self.tally.checked.add(1, ordering: .relaxed)
      if try !check(index: index, seed: seed) {
        failures += 1
        Self.tally.failed.add(1, ordering: .relaxed)
      }
      // A systematic bug fails most signatures; a few messages are enough to replay one.
      if failures >= 5 {
        Issue.record("shard \(shard): stopping after \(failures) failing signatures (seed \(seed))")
        return
      }
    }
  }

  /// Checks random signature `index` of the run seeded with `seed`; false if it failed.
  func check(index: Int, seed: UInt64) throws -> Bool {
    var generator = SignatureGenerator(rng: .stream(seed: seed, index: index))
    let spec = generator.signature()
    let replay = "DP_SIGNATURE_SEED=\(seed) DP_SIGNATURE_INDEX=\(index) (encoding \(spec.encoding))"
    var ok = true
    func verify(
      _ condition: Bool, _ what: @autoclosure () -> String,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      if !condition {
        ok = false
        Issue.record("\(what()) — \(replay)", sourceLocation: sourceLocation)
      }
    }

    let signature: MethodSignature
    do {
      signature = try MethodSignature.make(
        returnType: spec.returnType, arguments: [.object, .selector] + spec.arguments)
    } catch {
      if let expected = spec.expectedRefusal, case .invalidSignature(_, let reason) = error {
        verify(reason.contains(expected), "refused for another reason than \(expected): \(reason)")
      } else {
        verify(false, "refused: \(error)")
      }
      if ok { Self.tally.refused.add(1, ordering: .relaxed) }
      return ok
    }
    if let expected = spec.expectedRefusal {
      verify(false, "accepted as \(signature.encoding), but it must be refused (\(expected))")
      return ok
    }

    // The canonical encoding parses back to the same interned signature.
    verify(
      (try? MethodSignature.parse(signature.encoding)) === signature,
      "canonical encoding does not round-trip")
    // Where there are no unions, the harness's leaves are the runtime's ScalarMap.
    for type in signature.argumentTypes where !Leaves.containsUnion(type) {
      let mine = Leaves.of(type).map { [$0.offset, $0.slotSize] }
      let runtime = try ScalarMap.flatten(type).map { [$0.offset, $0.size] }
      verify(mine == runtime, "leaves of \(type) differ from ScalarMap: \(mine) vs \(runtime)")
    }

    let n = signature.numberOfArguments
    let types = signature.argumentTypes
    let sel = selector(named: "random", arguments: n - 2)
    let recorder = ClosureRecorder()
    let target = RuntimeObject()
    try target.setMethod(
      sel, signature: signature, body: Self.recordingBody(recorder, signature: signature, tag: nil))
    let proxy = RetargetingProxy(target: target)
    let methodIMP = try target.imp(for: sel)
    let forwardingIMP = try proxy.imp(for: sel)
    verify(
      forwardingIMP == (try Runtime.forwardingIMP(for: signature)),
      "proxy.imp(for:) is not the forwarding IMP")

    let maker = ValueMaker(rng: generator.rng, realPointees: false)
    let frame = ArgumentFrame(signature: signature)
    var values: [[UInt8]] = []
    var expectedLeaves: [[UInt8]] = []
    for i in 2..<n {
      let value = maker.value(of: types[i])
      values.append(value)
      expectedLeaves.append(Leaves.bytes(value, of: types[i]))
      frame.set(i, value)
    }
    let expectedResult =
      signature.returnsVoid
      ? []
      : Leaves.bytes(
        derivedResult(signature.returnType, leaves: expectedLeaves.flatMap { $0 }),
        of: signature.returnType)

    for path in Path.allCases {
      recorder.calls = 0
      recorder.arguments = []
      frame.clearResult()
      let result: [UInt8]
      switch path {
      case .invocation, .invocationToProxy:
        let invocation = Invocation(signature: signature, selector: sel)
        for (k, v) in values.enumerated() { try invocation.setArgumentBytes(v, at: k) }
        try invocation.invoke(target: path == .invocation ? target : proxy)
        result = invocation.returnBytes
      case .ffiDirect:
        frame.setReceiver(target.rawValue, sel)
        libffiCall(signature, methodIMP, frame)
        result = frame.resultBytes
      case .ffiForwarding:
        frame.setReceiver(proxy.rawValue, sel)
        libffiCall(signature, forwardingIMP, frame)
        result = frame.resultBytes
      case .callForwarding:
        frame.setReceiver(proxy.rawValue, sel)
        signature.call(forwardingIMP, arguments: frame.ffiArguments, result: frame.result)
        result = frame.resultBytes
      }

      let context = "path \(path) (\(signature.travelsInRegisters ? "replay" : "libffi") signature)"
      verify(recorder.calls == 1, "the IMP ran \(recorder.calls) times: \(context)")
      verify(recorder.receiver == target.rawValue, "self is not the target: \(context)")
      verify(recorder.selector == sel, "_cmd: \(context)")
      let recorded = zip(recorder.arguments, types.dropFirst(2)).map { Leaves.bytes($0, of: $1) }
      if let detail = argumentMismatch(recorded, expectedLeaves, types) {
        verify(false, "arguments differ: \(context): \(detail)")
      }
      if !signature.returnsVoid {
        let got = Leaves.bytes(result, of: signature.returnType)
        verify(
          got == expectedResult,
          "result \(signature.returnType): \(context): expected \(hex(expectedResult)) got \(hex(got))"
        )
      }
      if !ok { break }
    }
    if !ok { return false }

    // The multicast proxy: three delegates, each an instance of its own class whose
    // closure IMP records its arguments and answers a value derived from them and its
    // position; under `.lastResponder` the proxy answers the last one's value.
    let recorders = (0..<3).map { _ in ClosureRecorder() }
    let classes = try (0..<3).map { k in
      let cls = try RuntimeClass(name: "RandomMulticast_\(seed)_\(index)_\(k)")
      try cls.addMethod(
        sel, signature: signature,
        body: Self.recordingBody(recorders[k], signature: signature, tag: UInt8(k)))
      return cls
    }
    let delegates = classes.map { RuntimeObject(class: $0) }
    let multicast = MulticastProxy(policy: .lastResponder)
    for d in delegates { try multicast.add(d) }
    let expectedMulticastResult =
      signature.returnsVoid
      ? []
      : Leaves.bytes(
        derivedResult(signature.returnType, leaves: expectedLeaves.flatMap { $0 } + [2]),
        of: signature.returnType)

    // The route the proxy installs is the one the runtime says the signature can have:
    // registers for a register-class signature, libffi (or none) otherwise.
    let expectedPath = RuntimeObject.routePath(for: signature, reducer: .last)
    if signature.travelsInRegisters {
      verify(
        expectedPath == .registers,
        "register-class signature, route path \(String(describing: expectedPath))")
    } else if signature.replaysThroughMemory {
      verify(
        expectedPath == .registersAndMemory,
        "memory-replay signature, route path \(String(describing: expectedPath))")
    } else {
      verify(
        expectedPath == .libffi || expectedPath == nil,
        "signature with no replay on path \(String(describing: expectedPath))")
    }
    let fastPath = multicast.fastPath(for: sel)
    verify(
      fastPath == expectedPath,
      "fastPath(for:) is \(String(describing: fastPath)), routePath(for:reducer:) says \(String(describing: expectedPath))"
    )
    switch fastPath {
    case .registers: Self.tally.registerRoutes.add(1, ordering: .relaxed)
    case .registersAndMemory: Self.tally.memoryRoutes.add(1, ordering: .relaxed)
    case .libffi: Self.tally.libffiRoutes.add(1, ordering: .relaxed)
    case nil: Self.tally.forwarded.add(1, ordering: .relaxed)
    }
    let proxyIMP = try multicast.imp(for: sel)
    verify(
      (proxyIMP == forwardingIMP) == (fastPath == nil),
      "proxy.imp(for:) is \(proxyIMP == forwardingIMP ? "" : "not ")the forwarding IMP on path \(String(describing: fastPath))"
    )

    // The same delegates behind a route forced onto libffi (when libffi can route it).
    let libffiRouter = RuntimeObject(class: RuntimeClass.root)
    let libffiRouted = RuntimeObject.canRoute(signature, reducer: .last, on: .libffi)
    if libffiRouted {
      try libffiRouter.setRoute(
        sel, signature: signature,
        targets: delegates.map { RouteTarget($0, membership: RouteMembership()) }, reducer: .last,
        path: .libffi)
    }

    for path in MulticastPath.allCases where path != .libffiRoute || libffiRouted {
      for r in recorders {
        r.calls = 0
        r.arguments = []
        r.receiver = nil
        r.selector = nil
      }
      frame.clearResult()
      let result: [UInt8]
      switch path {
      case .callProxyIMP, .ffiProxyIMP, .forwardingToProxy:
        frame.setReceiver(multicast.rawValue, sel)
        switch path {
        case .callProxyIMP:
          signature.call(proxyIMP, arguments: frame.ffiArguments, result: frame.result)
        case .ffiProxyIMP:
          libffiCall(signature, proxyIMP, frame)
        default:
          signature.call(forwardingIMP, arguments: frame.ffiArguments, result: frame.result)
        }
        result = frame.resultBytes
      case .libffiRoute:
        frame.setReceiver(libffiRouter.rawValue, sel)
        signature.call(
          try libffiRouter.imp(for: sel), arguments: frame.ffiArguments, result: frame.result)
        result = frame.resultBytes
      case .invocationToProxy:
        let invocation = Invocation(signature: signature, selector: sel)
        for (k, v) in values.enumerated() { try invocation.setArgumentBytes(v, at: k) }
        try invocation.invoke(target: multicast)
        result = invocation.returnBytes
      }

      let context =
        "multicast path \(path) (route \(fastPath.map { "\($0)" } ?? "none, forwarded"))"
      for (k, r) in recorders.enumerated() {
        verify(r.calls == 1, "delegate \(k) ran \(r.calls) times: \(context)")
        verify(
          r.receiver == delegates[k].rawValue, "delegate \(k): self is not the delegate: \(context)"
        )
        verify(r.selector == sel, "delegate \(k): _cmd: \(context)")
        let recorded = zip(r.arguments, types.dropFirst(2)).map { Leaves.bytes($0, of: $1) }
        if let detail = argumentMismatch(recorded, expectedLeaves, types) {
          verify(false, "delegate \(k): arguments differ: \(context): \(detail)")
        }
      }
      if !signature.returnsVoid {
        let got = Leaves.bytes(result, of: signature.returnType)
        verify(
          got == expectedMulticastResult,
          "result \(signature.returnType) is not the last delegate's: \(context): expected \(hex(expectedMulticastResult)) got \(hex(got))"
        )
      }
      if !ok { break }
    }
    withExtendedLifetime((delegates, classes, libffiRouter)) {}
    return ok
  }
}

/// Where recorded argument leaves first differ from the expected ones (argument index and
/// type, expected and recorded bytes), or nil when they agree. `types` includes self and
/// _cmd, so argument i of `recorded` is `types[i + 2]`.
private func argumentMismatch(
  _ recorded: [[UInt8]], _ expected: [[UInt8]], _ types: [TypeEncoding]
) -> String? {
  guard recorded != expected else { return nil }
  let common = min(recorded.count, expected.count)
  let first = (0..<common).first { recorded[$0] != expected[$0] } ?? common
  return first < common
    ? "argument \(first + 2) \(types[first + 2]): expected \(hex(expected[first])) got \(hex(recorded[first]))"
    : "\(recorded.count) arguments recorded"
}
