import DelegateProxy
import DelegateProxyTesting
import MessageRuntime
import Testing

/// The signature-driven invocation service: boundary and seeded random cases, byte-identical
/// delivery to every double the policy names, failures that say what differed.
@Suite struct DeliveryCheckTests {
  @Test func casesStartWithBoundaryValuesAndReplayFromTheSeed() throws {
    let method = DoubledMethod(
      selector: "tableView:numberOfRowsInSection:", signature: try MethodSignature.parse("q@:@q"))
    let values = ArgumentValues()
    let a = DeliveryCheck(seed: 7, randomCases: 3).cases(
      for: method, methodIndex: 0, values: values)
    let b = DeliveryCheck(seed: 7, randomCases: 3).cases(
      for: method, methodIndex: 0, values: values)
    let c = DeliveryCheck(seed: 8, randomCases: 3).cases(
      for: method, methodIndex: 0, values: values)
    // q has five boundary values (0, 1, -1, max, min); @ has two (nil, an object).
    #expect(
      a.map(\.label) == [
        "boundary 0", "boundary 1", "boundary 2", "boundary 3", "boundary 4", "random 0",
        "random 1", "random 2",
      ])
    #expect(a[4].arguments[1] == [0, 0, 0, 0, 0, 0, 0, 0x80])
    #expect(a.map(\.arguments) == b.map(\.arguments))
    #expect(a.suffix(3).map(\.arguments) != c.suffix(3).map(\.arguments))
  }

  @Test func aProxyDeliversEveryCaseToEveryDelegate() throws {
    let first = try DelegateDouble(tableDataSource)
    let second = try DelegateDouble(tableDataSource, responding: .required)
    let proxy = try MulticastProxy(delegates: [first, second])
    let failures = try DeliveryCheck(randomCases: 8).run(
      tableDataSource, through: proxy, to: [first, second])
    #expect(failures == 0)
  }

  @Test func underFirstResponderOnlyTheFirstHearsValueMessages() throws {
    let first = try DelegateDouble(tableDataSource)
    let second = try DelegateDouble(tableDataSource)
    let proxy = try MulticastProxy(delegates: [first, second], policy: .firstResponder)
    let check = DeliveryCheck(randomCases: 2)
    #expect(
      try check.run(
        tableDataSource, through: proxy, to: [first, second], expecting: .firstResponder)
        == 0)
    // Expecting every responder under that policy fails: the check can tell.
    let messages = try failureMessages {
      _ = try check.run(
        tableDataSource, through: proxy as RuntimeObject, to: [first, second],
        expecting: .everyResponder)
    }
    #expect(
      messages.first?.contains(
        "DelegateDouble <TableDataSource> (nice) received 0 call(s), expected 1.") == true)
  }

  @Test func aMulticastProxysPolicyPerSelectorIsReadByTheCheck() throws {
    let first = try DelegateDouble(tableDataSource)
    let second = try DelegateDouble(tableDataSource)
    let proxy = try MulticastProxy(delegates: [first, second], policy: .lastResponder)
    proxy.setPolicy(.firstResponder, for: "tableView:cellForRowAt:")
    #expect(
      try DeliveryCheck(randomCases: 1).run(tableDataSource, through: proxy, to: [first, second])
        == 0)
  }

  /// Through a multicast proxy the answers are checked as well: each double answers a
  /// value of its own, and the proxy must answer its policy's result of them.
  @Test func theProxysAnswerIsCheckedUnderEachPolicy() throws {
    let gauge = try RuntimeProtocol(
      name: "Gauge",
      required: [
        "gaugeShouldStart:": "B@:@", "gauge:heightOf:": "d@:@q", "originOfGauge:": "{Point=dd}@:@",
        "gauge:countFor:": "q@:@i",
      ])
    let (a, b, c) = (
      try DelegateDouble(gauge), try DelegateDouble(gauge), try DelegateDouble(gauge)
    )
    let proxy = try MulticastProxy(delegates: [a, b, c])
    proxy.setPolicy(.reduce(.allTrue), for: "gaugeShouldStart:")
    proxy.setPolicy(.firstResponder, for: "originOfGauge:")
    let check = DeliveryCheck(randomCases: 6)
    #expect(try check.run(gauge, through: proxy, to: [a, b, c]) == 0)
    proxy.setPolicy(.reduce(.anyTrue), for: "gaugeShouldStart:")
    #expect(try check.run(gauge, through: proxy, to: [a, b, c]) == 0)
    // The temporary answers are gone afterwards: a nice double answers zero again.
    let invocation = Invocation(
      signature: try MethodSignature.parse("q@:@i"), selector: "gauge:countFor:")
    try invocation.invoke(target: a)
    #expect(try invocation.returnValue(as: Int.self) == 0)
  }

  /// A proxy whose answer is not its policy's result of the delegates' values fails the
  /// check, naming the case, both answers and the values (here a reducer that folds
  /// differently each time it is asked).
  @Test func aWrongAnswerFailsNamingBothValues() throws {
    let rows = try RuntimeProtocol(name: "Rows", required: ["rowCount": "q@:"])
    let (a, b) = (try DelegateDouble(rows), try DelegateDouble(rows))
    let asked = Lock(0)
    let flaky = Reducer(name: "flaky") { values, _ in
      let k = asked.withLock { n in
        n += 1
        return n
      }
      return values[k % 2 == 0 ? 0 : 1].bytes
    }
    let proxy = try MulticastProxy(delegates: [a, b], policy: .reduce(flaky))
    let messages = try failureMessages {
      _ = try DeliveryCheck(seed: 5, randomCases: 0).run(rows, through: proxy, to: [a, b])
    }
    #expect(messages.count == 1)
    let message = try #require(messages.first)
    #expect(message.hasPrefix("rowCount (boundary 0) with (): the proxy answered "))
    #expect(message.contains("(q), expected "))
    #expect(message.contains(", the reduce(flaky) of ["))
  }

  @Test func aSenderThatAltersAnArgumentFailsNamingTheCaseAndBytes() throws {
    let double = try DelegateDouble(
      tableDataSource, responding: .only(["tableView:numberOfRowsInSection:"]))
    let proxy = try MulticastProxy(delegates: [double])
    let rows = double.knownMethod("tableView:numberOfRowsInSection:")!
    let messages = try failureMessages {
      try DeliveryCheck(seed: 0x2A, randomCases: 0).run([rows], to: [double]) { invocation in
        let section = try invocation.argument(at: 1, as: Int.self)
        try invocation.setArgument(section == 1 ? 2 : section, at: 1)  // the bug
        try invocation.invoke(target: proxy)
      }
    }
    #expect(
      messages == [
        """
        tableView:numberOfRowsInSection: (boundary 1) reached DelegateDouble <TableDataSource> (nice) with argument 1 (q) 0200000000000000, sent 0100000000000000.
        Replay with DP_SIGNATURE_SEED=0x2a.
        """
      ])
  }

  /// The package's random-signature generator feeding the service: random signatures
  /// from the whole type grammar, delivered through a proxy's C routes to two doubles.
  @Test func randomSignaturesReachEveryDoubleByteForByte() throws {
    let seed = SeededRandom.seed()
    var methods: [DoubledMethod] = []
    for index in 0..<40 {
      var generator = SignatureGenerator(rng: .stream(seed: seed, index: index))
      let spec = generator.signature()
      guard spec.expectedRefusal == nil,
        let signature = try? MethodSignature.parse(spec.encoding)
      else { continue }
      let name =
        spec.arguments.isEmpty
        ? "random\(index)"
        : "random\(index):" + String(repeating: "_:", count: spec.arguments.count - 1)
      methods.append(DoubledMethod(selector: Selector(name), signature: signature))
    }
    let doubles = try (0..<2).map { _ in
      try DelegateDouble(methods: methods, name: "RandomSignatures")
    }
    let proxy = try MulticastProxy(delegates: doubles, options: .silentWhenEmpty)
    let check = DeliveryCheck(seed: seed, randomCases: 2)
    #expect(try check.run(to: doubles) { try $0.invoke(target: proxy) } == 0)
  }
}
