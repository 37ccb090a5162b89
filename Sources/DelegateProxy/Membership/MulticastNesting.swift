import MessageRuntime

/// A multicast as a node of the graph multicasts make when one is a member of another
/// (a matrioska): ``MulticastProxy``, and every `@Delegate` multicast (each conforms to
/// its own protocol, so it can be added to another).
protocol MulticastNode: AnyObject {
  /// The members that are themselves multicasts, strongly held.
  var nestedMulticasts: [any MulticastNode] { get }
  /// How the node is named in a cycle error.
  var cycleName: String { get }
  /// The node's generation, which follows its nested multicasts' (see
  /// ``MulticastNesting/generation(own:nested:seen:bump:)``).
  var generation: UInt64 { get }
}

/// THE cycle check for nested multicasts, for both kinds: one process-wide lock covers the
/// check and the insertion, so two threads cannot each close half of a cycle.
enum MulticastNesting {
  /// First in every multicast's lock order (see `MulticastProxy.state`): the walk reads
  /// other multicasts' tables, and the insertion takes the multicast's own lock. (A value
  /// with storage: ThreadSanitizer misreads the exclusive access to a zero-sized
  /// `Lock<()>` value as a race.) The value counts insertions.
  private static let lock = Lock<UInt64>(0)

  /// Runs `insert`. When `nested` is a multicast, first throws
  /// ``DelegateProxyError/cycle(path:)`` if adding it to `multicast` would close a cycle —
  /// the multicast itself, or one that contains it directly or through others — all under
  /// one lock. Multicasts the walk reached are released after the lock (one may be
  /// deallocated then, and its deinit must not run under it).
  static func check<R>(
    adding nested: (any MulticastNode)?, to multicast: any MulticastNode,
    _ insert: () throws(DelegateProxyError) -> R
  ) throws(DelegateProxyError) -> R {
    guard let nested else { return try insert() }
    var reached: [any MulticastNode] = []
    defer { withExtendedLifetime(reached) {} }
    return try lock.withLock { insertions throws(DelegateProxyError) -> R in
      if let path = cycle(from: multicast, through: nested, reached: &reached) {
        throw .cycle(path: path.map(\.cycleName))
      }
      insertions &+= 1
      return try insert()
    }
  }

  /// A multicast's generation as ``DelegateMulticast/generation`` documents it: it changes
  /// whenever the answers to `responds(to:)` may have changed, including through what the
  /// multicast does not change itself — a weakly held member deallocated (`hasDead`: the
  /// caller compacts, which bumps its own generation) and a nested multicast's own changes
  /// (the sum of the nested generations differs from `seen`: `bump` raises the
  /// multicast's generation and records the new sum). Computed when read, so dispatch pays
  /// nothing for it.
  static func generation(
    nested: [any MulticastNode], seen: UInt64, bump: (UInt64) -> UInt64
  ) -> UInt64? {
    let sum = nested.reduce(UInt64(0)) { $0 &+ $1.generation }
    return sum == seen ? nil : bump(sum)
  }

  /// The path from `multicast` through `nested` and its member multicasts (depth first,
  /// in order) back to `multicast`; nil if there is none.
  private static func cycle(
    from multicast: any MulticastNode, through nested: any MulticastNode,
    reached: inout [any MulticastNode]
  ) -> [any MulticastNode]? {
    var visited: Set<ObjectIdentifier> = []
    func walk(_ node: any MulticastNode, _ path: [any MulticastNode]) -> [any MulticastNode]? {
      if node === multicast { return path + [node] }
      guard visited.insert(ObjectIdentifier(node)).inserted else { return nil }
      for child in node.nestedMulticasts {
        reached.append(child)
        if let found = walk(child, path + [node]) { return found }
      }
      return nil
    }
    return walk(nested, [multicast])
  }
}
