import MessageRuntime

extension DelegateMulticast {
  // MARK: Policies

  /// The policy for methods without one of their own.
  public final var defaultPolicy: ReturnPolicy {
    get { state.withLock { $0.defaultPolicy } }
    set { update { $0.defaultPolicy = newValue } }
  }

  /// Sets the policy of one method (nil returns it to the default). Throws
  /// ``DelegateProxyError/reducerTypeMismatch(reducer:returnType:)`` when a reducer
  /// cannot produce the method's result type (``Reducer/allTrue`` for a `Double`).
  public final func setPolicy<Message: DelegateMessageHandle>(
    _ policy: ReturnPolicy?, for message: KeyPath<Messages, Message>
  ) throws(DelegateProxyError) {
    let index = index(of: message)
    if case .reduce(let reducer)? = policy { try check(reducer, for: index) }
    update { $0.overrides[index] = policy }
  }

  /// Throws when `reducer` cannot fold the results of the method at `index`.
  func check(_ reducer: Reducer, for index: Int) throws(DelegateProxyError) {
    let result = protocolDescription.methods[index].result
    if let swift = reducer.swiftFold {
      // A fold of Swift values makes exactly its own type.
      guard swift.type == result.typeID else {
        throw .reducerTypeMismatch(reducer: reducer.name, returnType: result.name)
      }
      return
    }
    if result.encoding == nil {
      // A Swift type with no C form: the first non-nil of an optional; no other C rule.
      guard reducer.rule == .firstNonNil, result.isOptional else {
        throw .reducerTypeMismatch(reducer: reducer.name, returnType: result.name)
      }
      return
    }
    guard let type = result.encoding, reducer.accepts(type),
      reducer.rule != nil || result.conversion != nil
    else {
      throw .reducerTypeMismatch(reducer: reducer.name, returnType: result.name)
    }
    if reducer.rule == .allTrue || reducer.rule == .anyTrue,
      !Reducer.isTruthType(type)
    {
      throw .reducerTypeMismatch(reducer: reducer.name, returnType: result.name)
    }
  }

  /// The policy in force for a method.
  public final func policy<Message: DelegateMessageHandle>(for message: KeyPath<Messages, Message>)
    -> ReturnPolicy
  {
    let index = index(of: message)
    return state.withLock { $0.overrides[index] ?? $0.defaultPolicy }
  }

  /// The multicast's options.
  public final var options: MulticastProxy.Options { state.withLock { $0.options } }

  // MARK: Queries

  /// The live delegates, in order (a delegate added twice appears twice).
  public final var delegates: [Delegate] {
    currentMembers.compactMap { $0.isRemoved ? nil : $0.delegate }
  }

  /// How many live memberships the multicast has (`count`).
  public final var count: Int { currentMembers.count { !$0.isRemoved && $0.isAlive } }

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

  /// Whether `delegate` is a live member.
  public final func contains(_ delegate: Delegate) -> Bool {
    let object = delegate as AnyObject
    return currentMembers.contains { !$0.isRemoved && $0.holds(object) }
  }

  /// Whether some live delegate implements the method (for an optional method: one
  /// whose class is not known to lack it), or an observer watches a `void` method
  /// (`hasDelegateThatRespondsToSelector:`).
  public final func responds<Message: DelegateMessageHandle>(to message: KeyPath<Messages, Message>)
    -> Bool
  {
    let index = index(of: message)
    if protocolDescription.methods[index].result.isVoid,
      Quiescence.readSection({ withTable { !$0.observers[index].isEmpty } })
    {
      return true
    }
    return count(respondingTo: message) > 0
  }

  /// How many live delegates implement the method (`countForSelector:`).
  public final func count<Message: DelegateMessageHandle>(
    respondingTo message: KeyPath<Messages, Message>
  )
    -> Int
  {
    responders(for: message).count
  }

  /// The live delegates that implement the method, in the order they are called.
  public final func responders<Message: DelegateMessageHandle>(
    for message: KeyPath<Messages, Message>
  )
    -> [Delegate]
  {
    let method = protocolDescription.methods[index(of: message)]
    return currentMembers.compactMap { m in
      guard !m.isRemoved,
        method.isRequired
          || !DelegateOptional.isKnownMissing(method.selector.name, typeID: m.typeID)
      else { return nil }
      return m.delegate
    }
  }

  /// Whether `delegate`'s class implements the method (always true for a required one;
  /// for an optional one, false once its class is known to lack it).
  public final func responds<Message: DelegateMessageHandle>(
    _ delegate: Delegate, to message: KeyPath<Messages, Message>
  ) -> Bool {
    let method = protocolDescription.methods[index(of: message)]
    return method.isRequired
      || !DelegateOptional.isKnownMissing(
        method.selector.name, typeID: DelegateOptional.identity(of: delegate as AnyObject))
  }

  /// The method's description: its selector (as the runtime and C callers see it), Swift
  /// name, types and whether it is required.
  public final func method<Message: DelegateMessageHandle>(_ message: KeyPath<Messages, Message>)
    -> DelegateMethodDescription
  {
    protocolDescription.methods[index(of: message)]
  }

  /// A number that changes whenever the answers to ``responds(to:)`` may have changed
  /// (membership, policies, observers, an optional method learned missing). Delegators
  /// that cache `responds(to:)` re-ask when it differs from the one they saw.
  public final var generation: UInt64 { state.withLock { $0.generation } }

  /// Who answers a method, under which policy, with how many observers, and what a
  /// message answers with no responder — one line per fact, for logs.
  public final func report<Message: DelegateMessageHandle>(for message: KeyPath<Messages, Message>)
    -> String
  {
    let index = index(of: message)
    let method = protocolDescription.methods[index]
    let (policy, observers) = state.withLock {
      ($0.overrides[index] ?? $0.defaultPolicy, $0.observers[index]?.count ?? 0)
    }
    var lines = ["\(protocolDescription.name).\(method.swiftName) [\(method.selector.name)]"]
    lines.append("  \(method.isRequired ? "required" : "optional"), result \(method.result.name)")
    if !method.result.isVoid { lines.append("  policy: \(policy)") }
    if observers > 0 { lines.append("  observers: \(observers)") }
    let members = currentMembers.filter { !$0.isRemoved }
    for m in members {
      let responds =
        method.isRequired
        || !DelegateOptional.isKnownMissing(method.selector.name, typeID: m.typeID)
      var line = "  \(responds ? "responder" : "not implemented"): \(m.typeName) \(m.retention)"
      if let q = m.queue { line += " queue=\(q.label)" }
      lines.append(line + (m.isAlive ? "" : " deallocated"))
    }
    if members.isEmpty { lines.append("  no delegates") }
    return lines.joined(separator: "\n")
  }
}
