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
  public static func multicast<Multicast: DelegateMulticastProtocol>(
    _ type: Multicast.Type, name: String = "multicast"
  ) -> Reducer<Value> where Multicast.Delegate == Value {
    collect(name: name) { answers in
      let multicast = Multicast(policy: .lastResponder, options: [])
      for (index, answer) in answers.enumerated() {
        // Strongly: the multicast is the answers' only owner.
        multicast.insert(answer, at: index, queue: nil, retention: .strong)
      }
      return multicast.asDelegate
    }
  }
}
