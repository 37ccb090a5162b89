import MessageRuntime

extension DelegateMulticast {
  // MARK: Policies

  /// The policy of every method without one of its own (``setPolicy(_:for:)``).
  public final var defaultPolicy: ReturnPolicy<Any> {
    get { enginePolicy.relabeled() }
    set { enginePolicy = newValue.erased }
  }

  /// Sets the policy of one method (nil returns it to the default). The policy is typed by
  /// the method's result, so a reducer that cannot fold it does not compile:
  /// `.reduce(.allTrue)` for a `Bool` method, `.reduce(.firstNonNil)` for an optional.
  public final func setPolicy<Handle: MessageHandleProtocol>(
    _ policy: ReturnPolicy<Handle.Result>?, for message: KeyPath<Handles, Handle>
  ) {
    setPolicy(policy?.erased, forKey: index(of: message))
  }

  /// The policy in force for a method.
  public final func policy<Handle: MessageHandleProtocol>(for message: KeyPath<Handles, Handle>)
    -> ReturnPolicy<Handle.Result>
  {
    policy(at: index(of: message)).relabeled()
  }

  /// The policy in force for the method at `index`, erased.
  final func policy(at index: Int) -> ErasedPolicy {
    policy(forKey: index)
  }

  /// The multicast's options.
  public final var options: MulticastOptions { state.withLock { $0.options } }

  /// Whether the C face drops a message whose selector the protocol does not have,
  /// answering zero, instead of raising an unrecognized-selector error
  /// (``MulticastOptions/silentWhenEmpty``, as ``MulticastProxy/silentWhenEmpty``). Swift
  /// callers never meet it: every method they can call is the protocol's.
  public final var silentWhenEmpty: Bool {
    get { state.withLock { $0.options.contains(.silentWhenEmpty) } }
    set {
      state.withLock { s in
        if newValue {
          s.options.insert(.silentWhenEmpty)
        } else {
          s.options.remove(.silentWhenEmpty)
        }
        s.cFace?.isSilent.store(newValue, ordering: .relaxed)
      }
    }
  }

  // MARK: Queries

  /// The live delegates, in order (a delegate added twice appears twice).
  public final var delegates: [Delegate] { liveDelegates }

  /// How many live memberships the multicast has (`count`).
  public final var count: Int { liveCount }

  /// The live delegates that are of type `type` — a class and its subclasses, or any type
  /// conforming to a protocol — in order: code that added its own object (a handler, a
  /// factory) finds it again through the multicast it went into.
  ///
  /// ```swift
  /// let files = delegates.members(ofType: FileLogger.self)
  /// ```
  public final func members<T>(ofType type: T.Type) -> [T] { liveDelegates(ofType: type) }

  /// The first live delegate of type `type`, in member order (see ``members(ofType:)``).
  public final func first<T>(ofType type: T.Type) -> T? { firstLiveDelegate(ofType: type) }

  /// How many live delegates are instances of `type` or a subclass (`countOfClass:`).
  public final func count(ofClass type: AnyObject.Type) -> Int {
    delegates.count { d in
      var t: AnyClass? = Swift.type(of: d as AnyObject)
      while let c = t {
        if c == type { return true }
        t = _getSuperclass(c)
      }
      return false
    }
  }

  /// Whether `delegate` is a live member: an object by identity, a value by `==` when
  /// its type is `Equatable` (a value of another type is never found: ask
  /// ``contains(where:)`` or ``delegate(_:)``).
  public final func contains(_ delegate: Delegate) -> Bool {
    containsLive(where: Self.matching(delegate))
  }

  /// Whether some live member satisfies `predicate` (given each member: an object, or a
  /// copy of a value).
  public final func contains(where predicate: (Delegate) -> Bool) -> Bool {
    delegates.contains(where: predicate)
  }

  /// The member `member` names (as `add` returned it): the object, or a copy of the value
  /// as it is now (after every `mutating` call so far); nil when the membership is gone.
  public final func delegate(_ member: MemberID) -> Delegate? {
    currentMembers.first { $0.id == member.rawValue && !$0.isRemoved }?.delegate
  }

  /// The live memberships, in call order (a ``MemberID`` each, as `add` returned them).
  public final var memberIDs: [MemberID] {
    currentMembers.compactMap { m in
      !m.isRemoved && m.isAlive ? MemberID(m.id) : nil
    }
  }

  /// Whether some live delegate implements the method (for an optional method: one
  /// whose class is not known to lack it), or an observer watches a `void` method
  /// (`hasDelegateThatRespondsToSelector:`).
  public final func responds<Handle: MessageHandleProtocol>(to message: KeyPath<Handles, Handle>)
    -> Bool
  {
    responds(methodAt: index(of: message))
  }

  /// ``responds(to:)`` for the method at `index` (what the C face answers C callers).
  final func responds(methodAt index: Int) -> Bool {
    if protocolDescription.methods[index].result.isVoid,
      Quiescence.readSection(published.domain, { withTable { !$0.observers[index].isEmpty } })
    {
      return true
    }
    return respondingCount(methodAt: index) > 0
  }

  /// How many live delegates implement the method (`countForSelector:`).
  public final func count<Handle: MessageHandleProtocol>(
    respondingTo message: KeyPath<Handles, Handle>
  )
    -> Int
  {
    respondingCount(methodAt: index(of: message))
  }

  /// How many live delegates implement the method at `index`.
  final func respondingCount(methodAt index: Int) -> Int {
    responders(methodAt: index).count
  }

  /// The live delegates that implement the method, in the order they are called.
  public final func responders<Handle: MessageHandleProtocol>(
    for message: KeyPath<Handles, Handle>
  )
    -> [Delegate]
  {
    responders(methodAt: index(of: message))
  }

  /// ``responders(for:)`` for the method at `index`.
  final func responders(methodAt index: Int) -> [Delegate] {
    let method = protocolDescription.methods[index]
    return currentMembers.compactMap { m in
      guard !m.isRemoved, !m.isBlocked,
        method.isRequired
          || !DelegateOptional.isKnownMissing(method.selector.name, typeID: m.typeID)
      else { return nil }
      return m.delegate
    }
  }

  /// Whether `delegate`'s class implements the method (always true for a required one;
  /// for an optional one, false once its class is known to lack it).
  public final func responds<Handle: MessageHandleProtocol>(
    _ delegate: Delegate, to message: KeyPath<Handles, Handle>
  ) -> Bool {
    let method = protocolDescription.methods[index(of: message)]
    return method.isRequired
      || !DelegateOptional.isKnownMissing(
        method.selector.name, typeID: DelegateOptional.identity(of: delegate as AnyObject))
  }

  /// A number that changes whenever the answers to ``responds(to:)`` may have changed
  /// (membership, policies, observers, an optional method learned missing). Delegators
  /// that cache `responds(to:)` re-ask when it differs from the one they saw.
  public final var generation: UInt64 { engineGeneration }

  /// Who answers a method, under which policy, with how many observers, and what a
  /// message answers with no responder — one line per fact, for logs.
  public final func report<Handle: MessageHandleProtocol>(for message: KeyPath<Handles, Handle>)
    -> String
  {
    let index = index(of: message)
    let method = protocolDescription.methods[index]
    let facts = reportFacts(forKey: index)
    let observers = facts.observers.before + facts.observers.after
    var lines = ["\(protocolDescription.name).\(method.swiftName) [\(method.selector.name)]"]
    lines.append("  \(method.isRequired ? "required" : "optional"), result \(method.result.name)")
    if !method.result.isVoid { lines.append("  policy: \(facts.policy)") }
    if observers > 0 { lines.append("  observers: \(observers)") }
    for m in facts.members {
      let responds =
        method.isRequired
        || !DelegateOptional.isKnownMissing(method.selector.name, typeID: m.typeID)
      var line = "  \(responds ? "responder" : "not implemented"): \(m.typeName) \(m.retention)"
      if let q = m.queue { line += " queue=\(q.label)" }
      lines.append(line + (m.isAlive ? "" : " deallocated"))
    }
    if facts.members.isEmpty { lines.append("  no delegates") }
    return lines.joined(separator: "\n")
  }
}
