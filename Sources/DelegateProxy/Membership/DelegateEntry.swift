import Dispatch
import MessageRuntime
import Synchronization

/// How a proxy holds one of its delegates.
public enum Retention: Sendable, Hashable, CustomStringConvertible {
  /// A weak reference (the default, as in every reference system): the proxy does not
  /// keep the delegate alive; once it is deallocated it is skipped and compacted away.
  case weak
  /// A strong reference: the proxy keeps the delegate alive until it is removed.
  case strong

  /// A readable rendering, for logs and diagnostics.
  public var description: String { self == .weak ? "weak" : "strong" }
}

/// One membership record of a ``MulticastProxy``: the delegate (held weakly or
/// strongly), the queue it is called on, what it implements, and whether it was removed.
///
/// A record's identity, delegate (which a weak record may lose), queue and retention never
/// change. Two things do: the ``isRemoved`` flag, and ``methods``, which the proxy's
/// `reloadMethods()` replaces (under the proxy's lock, then rebuilding its tables).
/// Responder tables share records, so a dispatch running over an older table still sees a
/// removal the moment it happens: the dispatch loop checks the flag right before each call.
public final class DelegateEntry: Sendable, CustomStringConvertible {
  /// A number unique to this record within the process (stable across table rebuilds).
  public let id: UInt64
  /// How the delegate is held.
  public let retention: Retention
  /// The queue the delegate is called on, or nil for the sender's thread
  /// (`GCDMulticastDelegate`'s `delegateQueue`).
  public let queue: DispatchQueue?
  /// The delegate's class, remembered for diagnostics after it is deallocated.
  public let delegateClass: RuntimeClass
  /// Whether the delegate is a forwarder (a `ForwardingProxy`, such as another
  /// `MulticastProxy`): its answers can change without its method tables changing, so
  /// it is asked `responds(to:)` at each message instead of being listed once.
  public let isForwarder: Bool
  /// The selectors the delegate implemented when it was added or when its proxy last
  /// reloaded methods (its own methods and its class chain's), with their signatures.
  public var methods: [Selector: MethodSignature] { implemented.withLock { $0 } }
  private let implemented: Lock<[Selector: MethodSignature]>

  private weak let weakDelegate: RuntimeObject?
  private let strongDelegate: RuntimeObject?
  /// The removed flag, shared with the proxy's C routes so both paths stop at once.
  let membership = RouteMembership()
  private let handle: UInt

  private static let nextID = Atomic<UInt64>(1)

  init(delegate: RuntimeObject, queue: DispatchQueue?, retention: Retention) {
    id = DelegateEntry.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    self.retention = retention
    self.queue = queue
    delegateClass = delegate.runtimeClass
    isForwarder = delegate is ForwardingProxy
    implemented = Lock(DelegateEntry.implementedMethods(of: delegate))
    weakDelegate = delegate
    strongDelegate = retention == .strong ? delegate : nil
    handle = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(delegate.rawValue)))
  }

  /// The delegate, or nil once it has been deallocated (a weak record only).
  public var delegate: RuntimeObject? { strongDelegate ?? weakDelegate }

  /// Whether the delegate is still alive.
  public var isAlive: Bool { delegate != nil }

  /// Whether the record was removed from its proxy (by `remove`, `removeAll` or
  /// compaction). A removed record is never called again.
  public var isRemoved: Bool { membership.isRemoved }

  /// Re-reads what the delegate implements (after methods were added to it or its class).
  func setMethods(_ methods: [Selector: MethodSignature]) { implemented.withLock { $0 = methods } }

  func markRemoved() { membership.markRemoved() }

  /// Whether this record holds `object` (compared by identity; false once dead).
  func holds(_ object: RuntimeObject) -> Bool { delegate === object }

  /// The delegate's queue label, for diagnostics.
  public var queueLabel: String? { queue?.label }

  /// A readable rendering, for logs and diagnostics.
  public var description: String {
    var s = "\(delegateClass.name) <0x\(String(handle, radix: 16))> \(retention)"
    if let queue { s += " queue=\(queue.label.isEmpty ? "(unlabelled)" : queue.label)" }
    if isForwarder { s += " forwarder" }
    s += isRemoved ? " removed" : (isAlive ? " alive" : " deallocated")
    return s
  }

  /// Every selector `object` has a method for: its own methods first, then its class's,
  /// then each superclass's (a subclass's method hides its superclass's).
  static func implementedMethods(of object: RuntimeObject) -> [Selector: MethodSignature] {
    var found: [Selector: MethodSignature] = [:]
    for m in object.ownMethods { found[m.selector] = m.signature }
    var cls: RuntimeClass? = object.runtimeClass
    while let c = cls {
      for m in c.methods where found[m.selector] == nil { found[m.selector] = m.signature }
      cls = c.superclass
    }
    return found
  }
}
