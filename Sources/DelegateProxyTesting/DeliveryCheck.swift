import DelegateProxy
import MessageRuntime
import Testing

/// Signature-driven invocation tests as a service: for every method of a protocol (or a
/// signature list) it builds invocations — boundary values, then seeded random values —
/// has them sent by the code under test, and checks that each arrives byte-identical
/// (padding aside) at every delegate double the policy says it should reach.
///
/// ```swift
/// let check = DeliveryCheck()                       // prints its seed
/// try check.run(proto, to: [first, second]) { try $0.invoke(target: proxy) }
/// ```
///
/// Each case is checked when `send` returns: for delegates called on dispatch queues, have
/// `send` wait for them (`queue.sync {}` after sending).
///
/// Through a `MulticastProxy` (the `run(_:through:to:)` that takes one)
/// the answer is checked too: for a method returning a number, a boolean or a struct of
/// them, each double answers a value of its own for the case (a temporary stub, removed
/// after it), and the proxy must answer what its policy makes of the values of the
/// doubles it calls on the sender's thread, in member order — the last one, the first one,
/// or the reducer's fold of them all.
///
/// A run prints its seed; set `DP_SIGNATURE_SEED` to that value to replay it exactly.
/// Each failure is a test failure naming the method, the case, the argument, the bytes
/// sent and the bytes received, and the seed.
public struct DeliveryCheck: Sendable {
  /// Which of the responding doubles a message must reach.
  public enum Expectation: Sendable, Hashable {
    /// Every double that responds, once each (`void` messages; last-responder and
    /// reducing policies).
    case everyResponder
    /// Value-returning messages reach only the first double that responds, in the order
    /// given; `void` messages every responder (the first-responder policy,
    /// `LBDelegateMatrioska`'s rule).
    case firstResponder
  }

  /// The run's seed.
  public let seed: UInt64
  /// How many random cases each method gets after its boundary cases.
  public let randomCases: Int

  /// A check seeded from `DP_SIGNATURE_SEED` when set, else randomly; it prints the
  /// seed so a failing run can be replayed.
  public init(seed: UInt64 = SeededRandom.seed(), randomCases: Int = 4) {
    self.seed = seed
    self.randomCases = randomCases
    print(
      "DeliveryCheck: seed 0x\(String(seed, radix: 16)) (replay: DP_SIGNATURE_SEED=0x\(String(seed, radix: 16)))"
    )
  }

  /// One generated call: a method, its arguments' bytes, and which case it is.
  public struct Case: Sendable, CustomStringConvertible {
    /// The method.
    public let method: DoubledMethod
    /// Each of the method's own arguments, as bytes.
    public let arguments: [[UInt8]]
    /// "boundary 2", "random 1".
    public let label: String

    /// A fresh invocation of the method with these arguments (no target set).
    public func makeInvocation() -> Invocation {
      let invocation = Invocation(signature: method.signature, selector: method.selector)
      for (position, bytes) in arguments.enumerated() {
        try? invocation.setArgumentBytes(bytes, at: position)
      }
      return invocation
    }

    /// `selector (label)`.
    public var description: String { "\(method.selector.name) (\(label))" }
  }

  /// The cases of `method`: one per boundary value (the most any argument has), then
  /// ``randomCases`` random ones, each replayable from the seed and `methodIndex`.
  public func cases(for method: DoubledMethod, methodIndex: Int, values: ArgumentValues) -> [Case] {
    let types = (0..<method.arity).map {
      method.signature.argumentTypes[DelegateDouble.signatureIndex($0)]
    }
    // A parameter of a Swift type with no C form (a `@Delegate` protocol's `String`,
    // `[String]`, `URL`…) gets Swift values of its type, sent as SwiftValueObjects.
    let swiftTypes = (0..<method.arity).map { position in
      method.parameterValueTypes.indices.contains(position)
        ? method.parameterValueTypes[position] : nil
    }
    let boundaries =
      zip(types, swiftTypes).map { type, swift in
        max(values.boundaryCount(of: type), values.swiftSampleCount(of: swift))
      }.max() ?? 1
    var cases: [Case] = (0..<boundaries).map { k in
      Case(
        method: method,
        arguments: zip(types, swiftTypes).map { type, swift in
          values.swiftSample(k, of: swift) ?? values.boundary(k, of: type)
        }, label: "boundary \(k)")
    }
    for k in 0..<randomCases {
      var rng = SeededRandom.stream(seed: seed, index: methodIndex &* 1_000 &+ k)
      cases.append(
        Case(
          method: method,
          arguments: zip(types, swiftTypes).map { type, swift in
            let count = values.swiftSampleCount(of: swift)
            return count > 0
              ? values.swiftSample(rng.below(count), of: swift)!
              : values.random(of: type, using: &rng)
          },
          label: "random \(k)"))
    }
    return cases
  }

  /// Runs every case of every method in `methods` — the methods `doubles[0]` knows when
  /// nil — through `send`, which makes the code under test deliver the invocation (send
  /// it to a proxy, or have a delegator call its delegate with its arguments). After each
  /// case, each double must have received exactly the calls `expecting` says, with the
  /// arguments byte-identical. Returns the number of failing cases.
  @discardableResult
  public func run(
    _ methods: [DoubledMethod]? = nil, to doubles: [DelegateDouble],
    expecting: Expectation = .everyResponder, sourceLocation: SourceLocation = #_sourceLocation,
    send: (Invocation) throws -> Void
  ) rethrows -> Int {
    try run(
      methods, to: doubles, expecting: { _ in expecting }, sourceLocation: sourceLocation,
      send: send)
  }

  /// Runs every method of `proto` through `proxy` (an invocation sent to it) to `doubles`.
  @discardableResult
  public func run(
    _ proto: RuntimeProtocol, through proxy: RuntimeObject, to doubles: [DelegateDouble],
    expecting: Expectation = .everyResponder, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Int {
    try run(
      Self.methods(of: proto), to: doubles, expecting: { _ in expecting },
      sourceLocation: sourceLocation
    ) { try $0.invoke(target: proxy) }
  }

  /// Runs every method of `proto` through a multicast proxy to `doubles`, each method
  /// checked under the proxy's policy for it (``Expectation/firstResponder`` for
  /// `.firstResponder`, ``Expectation/everyResponder`` otherwise).
  @discardableResult
  public func run(
    _ proto: RuntimeProtocol, through proxy: MulticastProxy, to doubles: [DelegateDouble],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Int {
    try run(
      Self.methods(of: proto), to: doubles,
      expecting: { method in
        if case .firstResponder = proxy.policy(for: method.selector) { return .firstResponder }
        return .everyResponder
      }, answers: AnswerCheck(proxy: proxy), sourceLocation: sourceLocation
    ) { try $0.invoke(target: proxy) }
  }

  private func run(
    _ methods: [DoubledMethod]?, to doubles: [DelegateDouble],
    expecting: (DoubledMethod) -> Expectation, answers: AnswerCheck? = nil,
    sourceLocation: SourceLocation, send: (Invocation) throws -> Void
  ) rethrows -> Int {
    let methods = methods ?? doubles.first?.knownMethods ?? []
    let values = ArgumentValues()
    var failures = 0
    for (index, method) in methods.enumerated() {
      if let type = method.parameterValueTypes.first(where: {
        $0.encoding == nil && SwiftSampleValues.samples(forTypeNamed: $0.name) == nil
      }) {
        // No value of it can be made here, and a runtime message needs one.
        print("DeliveryCheck: \(method.selector.name) skipped: no sample values of \(type.name)")
        continue
      }
      for (k, c) in cases(for: method, methodIndex: index, values: values).enumerated() {
        for d in doubles { d.resetCalls() }
        var rng = SeededRandom.stream(seed: seed, index: ~(index &* 1_000 &+ k))
        let answered = answers?.answers(for: method, of: doubles, values: values, using: &rng)
        let invocation = c.makeInvocation()
        defer { answered?.restore() }
        try send(invocation)
        if let message = check(c, doubles, expecting(method), values)
          ?? answered?.check(invocation, describing: "\(c) with \(describe(c))")
        {
          failures += 1
          Issue.record(
            Comment(
              rawValue:
                "\(message)\nReplay with DP_SIGNATURE_SEED=0x\(String(seed, radix: 16))."),
            sourceLocation: sourceLocation)
        }
      }
    }
    withExtendedLifetime(values) {}
    return failures
  }

  private static func methods(of proto: RuntimeProtocol) -> [DoubledMethod] {
    proto.allRequirements.map {
      DoubledMethod(selector: $0.selector, signature: $0.signature, isRequired: $0.isRequired)
    }
  }

  /// What went wrong with case `c`, or nil.
  private func check(
    _ c: Case, _ doubles: [DelegateDouble], _ expecting: Expectation, _ values: ArgumentValues
  ) -> String? {
    let selector = c.method.selector
    var firstSeen = false
    for d in doubles {
      let received = d.calls(to: selector)
      var expected = d.responds(to: selector) ? 1 : 0
      if expecting == .firstResponder && expected == 1 && !c.method.signature.returnsVoid {
        if firstSeen { expected = 0 }
        firstSeen = true
      }
      guard received.count == expected else {
        return
          "\(c) with \(describe(c)): \(d.description) received \(received.count) call(s), expected \(expected)."
      }
      guard let call = received.first else { continue }
      for (position, sent) in c.arguments.enumerated() {
        let arrived = call.arguments[position].bytes
        let type = c.method.signature.argumentTypes[DelegateDouble.signatureIndex(position)]
        // A Swift value compares as a value, with the double's copy: a proxy on the way may
        // carry it in an object of its own.
        if let value = values.sentSwiftValue(sent) {
          let copy = call.arguments[position].swiftCopy?.value
          if copy == nil || !SwiftSampleValues.same(value, copy!) {
            return
              "\(c) reached \(d.description) with argument \(position) (\(type.canonicalString)) "
              + "\(copy.map { String(reflecting: $0) } ?? ValueText.hex(arrived)), sent \(String(reflecting: value))."
          }
          continue
        }
        if !ArgumentValues.sameValue(sent, arrived, of: type) {
          return
            "\(c) reached \(d.description) with argument \(position) (\(type.canonicalString)) "
            + "\(ValueText.hex(arrived)), sent \(ValueText.hex(sent))."
        }
      }
    }
    return nil
  }

  private func describe(_ c: Case) -> String {
    let types = c.method.signature.argumentTypes.dropFirst(2)
    return "("
      + zip(c.arguments, types).map { bytes, type in
        if type.unqualified == .object, bytes.count == MemoryLayout<UInt>.size,
          let value = SwiftValueObject.value(
            of: OpaquePointer(bitPattern: bytes.withUnsafeBytes { $0.load(as: UInt.self) }),
            as: Any.self)
        {
          return String(reflecting: value)
        }
        return ValueText.text(bytes, type, dereference: false)
      }.joined(separator: ", ") + ")"
  }
}
