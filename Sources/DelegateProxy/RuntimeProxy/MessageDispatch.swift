import Dispatch
import MessageRuntime
import Synchronization

extension MulticastProxy {
  /// The one dispatch loop: every message — synchronous send, queued broadcast,
  /// asynchronous aggregation — goes through here; the policy and `gathering` decide
  /// what happens to return values.
  ///
  /// - Responders are the responder list's records in order (a snapshot). Each is skipped if it
  ///   was removed (checked right before the call) or its delegate is gone.
  /// - A delegate with a queue gets a copy of the invocation (arguments retained, C
  ///   strings copied, structs and pointers in the copy's frame), asynchronously.
  /// - Otherwise the delegate is called here with `invoke(target:)`.
  /// - Void messages reach every responder. A value-returning message stops after the
  ///   first responder under `.firstResponder`, keeps the last value under
  ///   `.lastResponder`, and is folded under `.reduce`. With `gathering`, every
  ///   responder's value (queued ones included, later) is recorded instead.
  ///
  /// Runs inside a read section of the proxy's domain (`Quiescence.readSection`): each
  /// member's call is named in its slot, which `remove`'s scoped wait reads.
  func deliver(
    _ invocation: Invocation, list: ProxyResponderList, silentWhenEmpty: Bool, gathering: Gathering?
  )
    throws
  {
    let selector = list.selector
    let signature = invocation.signature
    let returnsValue = !signature.returnsVoid
    let proxyHandle = invocation.targetHandle
    defer { invocation.targetHandle = proxyHandle }

    if !list.before.isEmpty { notify(list.before, invocation, .before) }
    if returnsValue {
      // A C caller's result buffer holds garbage; no responder means zero.
      invocation.withUnsafeReturnValue { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    // Synchronous answers fold by the policy's rule (``Reduction``); an aggregation gathers
    // every answer instead, and its caller folds them.
    let rule = gathering == nil ? ReducerRule(list.policy, returnsVoid: !returnsValue) : .every
    var reduction = Reduction<ReturnValue>(rule)
    var collected: [ReturnValue] = []
    var reached = 0

    for (position, entry) in list.responders.enumerated() {
      // Each responder through the one call primitive (removed check, one strong
      // reference, the call, the release). `invoke(target:)` releases its previous
      // target only after the call, for the same reason the removed check comes last.
      let step = try entry.withDelegate { delegate throws -> DeliveryStep in
        if entry.isForwarder && !delegate.responds(to: selector) { return .skipped }
        if let queue = entry.queue {
          reached += 1
          invocation.targetHandle = proxyHandle  // the copy retains the proxy, not a delegate
          enqueue(
            DetachedInvocation(copying: invocation), to: entry, on: queue, position: position,
            gathering: returnsValue ? gathering : nil)
          return rule == .first ? .stop : .called  // the first responder answers, on its queue
        }
        try invocation.invoke(target: delegate)
        reached += 1
        guard returnsValue else { return .called }
        if let gathering {
          gathering.record(ReturnValue(of: invocation), at: position)
          return .called
        }
        // Last and first answer with what the invocation's buffer holds: the fold only
        // counts them (no copy of the bytes).
        let holds = rule == .last || rule == .first
        let value = holds ? ReturnValue.held : ReturnValue(of: invocation)
        if rule == .custom { collected.append(value) }
        return reduction.add(value) ? .stop : .called
      }
      guard let step else {
        // Gone: a dead delegate is compacted away after this dispatch.
        if !entry.isRemoved { needsCompaction.store(true, ordering: .relaxed) }
        continue
      }
      if step == .stop { break }
    }

    if returnsValue && gathering == nil {
      switch reduction.outcome {
      case .answer(let value):
        if !value.isHeld { try invocation.setReturnBytes(value.bytes, keeping: value.retained) }
      case .truth(let truth):
        // A truth rule comes only from its reducer, which names the types it can make.
        let reducer = list.policy.reducer!
        guard reducer.accepts(signature.returnType) else {
          throw DelegateProxyError.reducerTypeMismatch(
            reducer: reducer.name, returnType: signature.returnType.canonicalString)
        }
        try invocation.setReturnBytes(try ReducerSupport.truthBytes(truth, signature.returnType))
      case .reduce:
        let reducer = list.policy.reducer!  // a custom rule comes only from a reducer
        let reduced = try reducer.reduce(collected, returning: signature.returnType)
        try invocation.setReturnBytes(reduced.bytes, keeping: reduced.retained)
      case .zero, .unanswered:
        invocation.withUnsafeReturnValue { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
      }
    }
    // A last-responder message nobody was sent (queued ones count) is AIMultiDelegate's
    // unrecognized selector, unless the proxy is silent when empty.
    if reached == 0, gathering == nil, rule == .last || rule == .every,
      case .lastResponder = list.policy, !silentWhenEmpty, !list.hasObservers
    {
      throw doesNotRecognize(selector)
    }
    if !list.after.isEmpty {
      invocation.targetHandle = proxyHandle
      notify(list.after, invocation, .after)
    }
  }

  /// Calls a queued delegate with its own copy of the message. The call happens in a
  /// read section and only if the record was not removed meanwhile and the delegate is
  /// alive, so `remove` and deallocation are honoured for queued calls too.
  private func enqueue(
    _ detached: DetachedInvocation, to entry: ProxyMember, on queue: DispatchQueue, position: Int,
    gathering: Gathering?
  ) {
    gathering?.group.enter()
    queue.async { [self] in
      defer { gathering?.group.leave() }
      Quiescence.readSection(published.domain) {
        let copy = detached.invocation
        do {
          try entry.withDelegate { delegate throws in
            try copy.invoke(target: delegate)
            gathering?.record(ReturnValue(of: copy), at: position)
          }
        } catch {
          deliveryErrorHandler?(error, entry.delegate)
        }
      }
    }
  }
}

/// What one responder's turn in `deliver` came to.
private enum DeliveryStep {
  /// Called (or queued); the next responder follows.
  case called
  /// A forwarder that does not respond to the selector.
  case skipped
  /// No further responder is called (first responder, or the fold is decided).
  case stop
}
