import Dispatch
import MessageRuntime
import Synchronization

/// Values gathered from every responder of one asynchronous aggregation, by position,
/// and the group that says when the last queued responder has answered.
final class Gathering: Sendable {
  let group = DispatchGroup()
  private let values = Lock<[(position: Int, value: ReturnValue)]>([])

  func record(_ value: ReturnValue, at position: Int) {
    values.withLock { $0.append((position, value)) }
  }

  /// The values in responder order.
  var ordered: [ReturnValue] {
    values.withLock { $0 }.sorted { $0.position < $1.position }.map(\.value)
  }
}

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
  /// Runs inside a read section (`Quiescence.readSection`), which `remove` waits out.
  func deliver(
    _ invocation: Invocation, list: ResponderList, silentWhenEmpty: Bool, gathering: Gathering?
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

    let policy = list.policy
    let reducer = gathering == nil && returnsValue ? policy.reducer : nil
    let firstOnly = gathering == nil && returnsValue && policy.stopsAtFirstValue
    var values: [ReturnValue] = []
    var reached = 0

    for (position, entry) in list.responders.enumerated() {
      guard let delegate = entry.delegate else {
        needsCompaction.store(true, ordering: .relaxed)
        continue
      }
      if entry.isForwarder && !delegate.responds(to: selector) { continue }
      // The removed check comes last before the call: a release in between could run a
      // deinit whose grace period lets another thread's `remove` return (a thread
      // waiting inside its read section is not waited for) before this call starts.
      // `invoke(target:)` releases its previous target only after the call, for that.
      if entry.isRemoved { continue }
      reached += 1
      if let queue = entry.queue {
        invocation.targetHandle = proxyHandle  // the copy retains the proxy, not a delegate
        enqueue(
          DetachedInvocation(copying: invocation), to: entry, on: queue, position: position,
          gathering: returnsValue ? gathering : nil)
      } else {
        try invocation.invoke(target: delegate)
        if returnsValue {
          if let gathering {
            gathering.record(ReturnValue(of: invocation), at: position)
          } else if reducer != nil {
            values.append(ReturnValue(of: invocation))
          }
        }
      }
      if firstOnly { break }
    }

    if let reducer {
      try invocation.setReturnBytes(
        try reducer.reduce(values, returning: signature.returnType).bytes)
    }
    if reached == 0, gathering == nil, case .lastResponder = policy, !silentWhenEmpty,
      !list.hasObservers
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
      Quiescence.readSection {
        guard let delegate = entry.delegate, !entry.isRemoved else { return }
        let copy = detached.invocation
        do {
          try copy.invoke(target: delegate)
          gathering?.record(ReturnValue(of: copy), at: position)
        } catch {
          deliveryErrorHandler?(error, entry)
        }
      }
    }
  }
}
