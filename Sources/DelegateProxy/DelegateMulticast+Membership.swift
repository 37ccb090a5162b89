import Dispatch
import MessageRuntime

extension DelegateMulticast {
  /// Adds `delegate` at the end, held weakly unless `retention` is ``Retention/strong``;
  /// with `queue`, it is called on that queue (`addDelegate:delegateQueue:`). With
  /// ``MulticastProxy/Options/unique``, adding a member again does nothing. Throws
  /// ``DelegateProxyError/cycle(path:)`` when `delegate` is this multicast or one that
  /// contains it, and
  /// ``DelegateProxyError/unsupportedType(protocol:method:parameter:type:reason:)``
  /// when the protocol has a parameter or result type with no C form.
  public final func add(
    _ delegate: Delegate, queue: DispatchQueue? = nil, retention: Retention = .weak
  )
    throws(DelegateProxyError)
  {
    try insert(delegate, queue: queue, retention: retention) { $0.count }
  }

  /// Inserts `delegate` at `index` among the members (clamped to `0...count`).
  public final func insert(
    _ delegate: Delegate, at index: Int, queue: DispatchQueue? = nil, retention: Retention = .weak
  ) throws(DelegateProxyError) {
    try insert(delegate, queue: queue, retention: retention) { members in
      // `index` counts live members: a deallocated one waits in `members` for the next
      // publish to compact it, and must not shift the position.
      let live = members.indices.filter { !members[$0].isRemoved && members[$0].isAlive }
      let k = min(max(index, 0), live.count)
      return k < live.count ? live[k] : members.count
    }
  }

  /// Inserts `delegate` before `other`; at the end when `other` is nil or not a member
  /// (`AIMultiDelegate`'s rule).
  public final func insert(
    _ delegate: Delegate, before other: Delegate?, queue: DispatchQueue? = nil,
    retention: Retention = .weak
  ) throws(DelegateProxyError) {
    let target = other.map { $0 as AnyObject }
    try insert(delegate, queue: queue, retention: retention) { members in
      target.flatMap { t in members.firstIndex { $0.holds(t) } } ?? members.count
    }
  }

  /// Inserts `delegate` after `other`; at the beginning when `other` is nil or not a
  /// member (`AIMultiDelegate`'s rule).
  public final func insert(
    _ delegate: Delegate, after other: Delegate?, queue: DispatchQueue? = nil,
    retention: Retention = .weak
  ) throws(DelegateProxyError) {
    let target = other.map { $0 as AnyObject }
    try insert(delegate, queue: queue, retention: retention) { members in
      target.flatMap { t in members.firstIndex { $0.holds(t) }.map { $0 + 1 } } ?? 0
    }
  }

  private func insert(
    _ delegate: Delegate, queue: DispatchQueue?, retention: Retention,
    at position: ([DelegateMember<Delegate>]) -> Int
  ) throws(DelegateProxyError) {
    _ = try protocolDescription.runtimeProtocol()
    let object = delegate as AnyObject
    if let queue { DelegateQueues.mark(queue) }
    let old: UInt? = try DelegateMulticastNesting.check(
      adding: object as? any DelegateMulticastNode, to: self
    ) { () throws(DelegateProxyError) -> UInt? in
      state.withLock { s -> UInt? in
        if s.options.contains(.unique),
          s.members.contains(where: { !$0.isRemoved && $0.holds(object) })
        {
          return nil
        }
        let member = DelegateMember(delegate, object: object, retention: retention, queue: queue)
        s.members.insert(member, at: position(s.members))
        return publish(&s)
      }
    }
    retire(old)
  }

  /// Removes every membership of `delegate`. When it returns, no new call to `delegate`
  /// starts on any thread or queue (a call already running may finish; a delegate may
  /// remove itself while being called). Removing a non-member does nothing.
  public final func remove(_ delegate: Delegate) {
    let object = delegate as AnyObject
    removeMembers { $0.holds(object) }
  }

  /// Removes `delegate`'s membership on `queue` only (`removeDelegate:delegateQueue:`).
  public final func remove(_ delegate: Delegate, queue: DispatchQueue) {
    let object = delegate as AnyObject
    removeMembers { $0.holds(object) && $0.queue === queue }
  }

  /// Removes every delegate, with ``remove(_:)``'s guarantee.
  public final func removeAll() { removeMembers { _ in true } }

  private func removeMembers(where match: (DelegateMember<Delegate>) -> Bool) {
    let old = state.withLock { s -> UInt? in
      let gone = s.members.filter(match)
      guard !gone.isEmpty else { return nil }
      for m in gone { m.markRemoved() }
      return publish(&s)
    }
    retire(old)
  }
}

/// Queues that delegates of Swift multicasts are called on, marked so a dispatch can
/// tell whether it already runs on one (and call the delegate directly instead of
/// waiting on the queue for itself).
enum DelegateQueues {
  /// Set on every such queue, to the queue's identity.
  static let key = DispatchSpecificKey<ObjectIdentifier>()

  static func mark(_ queue: DispatchQueue) {
    if queue.getSpecific(key: key) == nil {
      queue.setSpecific(key: key, value: ObjectIdentifier(queue))
    }
  }

  /// Whether the current code runs on `queue` (or on a queue targeting it).
  static func isCurrent(_ queue: DispatchQueue) -> Bool {
    DispatchQueue.getSpecific(key: key) == ObjectIdentifier(queue)
  }
}

// MARK: Nesting

/// A multicast as a node of a graph of multicasts (a multicast may be a member of
/// another: every generated multicast conforms to its own protocol).
protocol DelegateMulticastNode: AnyObject {
  /// The members that are themselves multicasts.
  var nestedMulticasts: [any DelegateMulticastNode] { get }
}

extension DelegateMulticast: DelegateMulticastNode {
  var nestedMulticasts: [any DelegateMulticastNode] {
    currentMembers.compactMap { m in
      guard !m.isRemoved, let d = m.delegate else { return nil }
      return (d as AnyObject) as? any DelegateMulticastNode
    }
  }
}

/// Serialises insertions of multicasts into multicasts, so two threads cannot each close
/// half of a cycle (taken before any multicast's `state`).
enum DelegateMulticastNesting {
  /// The value counts insertions (a lock needs a value with storage, see MulticastProxy).
  static let lock = Lock<UInt64>(0)

  /// Runs `insert`; when `nested` is a multicast, first checks that adding it to `proxy`
  /// closes no cycle, all under one lock.
  static func check<R>(
    adding nested: (any DelegateMulticastNode)?, to proxy: any DelegateMulticastNode,
    _ insert: () throws(DelegateProxyError) -> R
  ) throws(DelegateProxyError) -> R {
    guard let nested else { return try insert() }
    return try lock.withLock { count throws(DelegateProxyError) -> R in
      if let path = cycle(from: proxy, through: nested) {
        throw .cycle(path: path.map { "\(type(of: $0)) <\(ObjectIdentifier($0))>" })
      }
      count &+= 1
      return try insert()
    }
  }

  /// The path from `proxy` through `nested` back to `proxy`, if adding makes a cycle.
  private static func cycle(
    from proxy: any DelegateMulticastNode, through nested: any DelegateMulticastNode
  ) -> [any DelegateMulticastNode]? {
    var visited: Set<ObjectIdentifier> = []
    func walk(_ node: any DelegateMulticastNode, _ path: [any DelegateMulticastNode])
      -> [any DelegateMulticastNode]?
    {
      if node === proxy { return path + [node] }
      guard visited.insert(ObjectIdentifier(node)).inserted else { return nil }
      for child in node.nestedMulticasts {
        if let found = walk(child, path + [node]) { return found }
      }
      return nil
    }
    return walk(nested, [proxy])
  }
}
