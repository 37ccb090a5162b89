import Dispatch

extension Reducer {
  /// Gathers every responder's answer — an object of a `@Delegate` protocol — into a new
  /// multicast of that protocol, which holds each answer strongly, in delegate order: the
  /// fold for a method whose answer is itself something to fan out.
  ///
  /// A metrics factory's `makeCounter(label:dimensions:)` answers a counter; a multicast of
  /// factories answers, under this reducer, a counter that sends each increment to every
  /// factory's own counter — each factory made its counter itself, with the label it was
  /// given, and ``DelegateMulticast/members(ofType:)`` on the answer finds it again:
  ///
  /// ```swift
  /// factories.setPolicy(.reduce(.multicast(CounterMulticast.self)), for: \.makeCounterLabel)
  /// let counter = factories.makeCounter(label: "requests")  // a CounterMulticast
  /// ```
  ///
  /// The answer is always a multicast, also for one responder or none (a multicast of no
  /// one, which answers every call with the method's empty value), so that code holding it
  /// sees one type. Its policies are the defaults; set others on the answer.
  ///
  /// **Each member gets its own answer back.** Passed back as an argument to the multicast
  /// whose members answered — `factories.destroyCounter(counter)` — the answer reaches each
  /// member as the part that member made: every parameter whose type is exactly the
  /// answer's protocol existential (`any Counter`) is paired. A member with no part in it
  /// (added after the answer was made, or one that did not answer) is not called for that
  /// call, as if a filter had refused it (no answer of its own either). An answer gathered
  /// by another multicast, or any other value, passes as it is. The copies of a value
  /// multicast pair the answers any of them gathered (they share their members' numbers).
  /// Paired are the calls from Swift through the protocol's methods, `aggregate` and
  /// `broadcast`; not a `mutating` requirement's (it calls each member with the arguments
  /// it was given), and C callers cannot pass a Swift existential. A method is paired only
  /// once its multicast has gathered an answer of its parameter's type: until then, and in
  /// every multicast that never does, it costs nothing. Answers are paired when gathered by
  /// the protocol's methods; one folded by ``DelegateMulticast/aggregate(_:_:reducer:)-(DelegateMulticast<Delegate,Handles>.HandleKey<(Argument),Result>,_,_)``
  /// is not (it passes as it is).
  public static func multicast<Multicast: DelegateMulticastProtocol>(
    _ type: Multicast.Type, name: String = "multicast"
  ) -> Reducer<Value> where Multicast.Delegate == Value {
    let gather: @Sendable ([Value]) -> Multicast = { answers in
      let multicast = Multicast(policy: .lastResponder, options: .allowsDuplicates)
      for (index, answer) in answers.enumerated() {
        // Strongly: the multicast is the answers' only owner.
        multicast.insert(answer, at: index, queue: nil, retention: .strong)
      }
      return multicast
    }
    let plain = collect(name: name) { gather($0).asDelegate }
    return Reducer(
      name: name, rule: plain.rule, accepts: plain.accepts, body: plain.body,
      swiftReduction: plain.swiftReduction,
      sourcedReduction: { values, sources in
        let multicast = Multicast(policy: .lastResponder, options: .allowsDuplicates)
        var parts: [UInt64: MemberID] = [:]
        for (index, answer) in values.enumerated() {
          // The multicast hands a fold only its own method's answers, all of type `Value`.
          let part = multicast.insert(answer as! Value, at: index, queue: nil, retention: .strong)
          parts[sources.members[index]] = part
        }
        if let gatherer = sources.gatherer as? any PairingGatherer,
          let answer = multicast as? any PairedAnswer
        {
          let token = gatherer.pairingToken(for: Value.self)
          answer.setAnswerPairing(AnswerPairing(token: token, parts: parts))
        }
        return multicast.asDelegate
      })
  }
}
