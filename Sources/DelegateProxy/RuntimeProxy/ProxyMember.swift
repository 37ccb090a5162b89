import Dispatch
import MessageRuntime

/// A ``MulticastProxy``'s member: a ``Member`` whose delegate is a runtime object, with
/// what it implements.
///
/// Two things of a record change: the removed flag, and ``methods``, which the proxy's
/// `reloadMethods()` replaces (under the proxy's lock, then rebuilding its tables).
package final class ProxyMember: Member, @unchecked Sendable {
  // @unchecked Sendable: as Member; `implemented` is a lock.

  /// The delegate's class, remembered for diagnostics after it is deallocated.
  package let delegateClass: RuntimeClass
  /// Whether the delegate is a forwarder (a `ForwardingProxy`, such as another
  /// `MulticastProxy`): its answers can change without its method tables changing, so
  /// it is asked `responds(to:)` at each message instead of being listed once.
  package let isForwarder: Bool
  /// The selectors the delegate implemented when it was added or when its proxy last
  /// reloaded methods (its own methods and its class chain's), with their signatures.
  package var methods: [Selector: MethodSignature] { implemented.withLock { $0 } }
  private let implemented: Lock<[Selector: MethodSignature]>
  /// The C handle, for diagnostics.
  private let handle: UInt

  /// A record for `delegate`.
  init(delegate: RuntimeObject, queue: DispatchQueue?, retention: Retention) {
    delegateClass = delegate.runtimeClass
    isForwarder = delegate is ForwardingProxy
    implemented = Lock(ProxyMember.implementedMethods(of: delegate))
    handle = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(delegate.rawValue)))
    super.init(
      delegate, typeName: delegate.runtimeClass.name, retention: retention, queue: queue)
  }

  /// The delegate, or nil once its deinit has begun (a weak record only).
  package var delegate: RuntimeObject? {
    if let strong { return unsafeDowncast(strong, to: RuntimeObject.self) }
    guard let object = object.object() else { return nil }
    return unsafeDowncast(object, to: RuntimeObject.self)
  }

  /// ``Member/withDelegate(_:)`` with the delegate as its runtime object: nil, and `body`
  /// not run, when the member was removed or its delegate's deinit has begun.
  func withDelegate<R, E: Error>(_ body: (RuntimeObject) throws(E) -> R) throws(E) -> R? {
    try withDelegate { () throws(E) -> R in
      // Held by the strong reference withDelegate took (or `strong`).
      let delegate = Unmanaged<AnyObject>.fromOpaque(object.address).takeUnretainedValue()
      return try body(unsafeDowncast(delegate, to: RuntimeObject.self))
    }
  }

  /// Re-reads what the delegate implements (after methods were added to it or its class).
  func setMethods(_ methods: [Selector: MethodSignature]) { implemented.withLock { $0 = methods } }

  /// The delegate's queue label, for diagnostics.
  package var queueLabel: String? { queue?.label }

  /// A readable rendering, for logs and diagnostics.
  package override var description: String {
    var s = "\(delegateClass.name) <0x\(String(handle, radix: 16))> \(retention)"
    if let queue { s += " queue=\(queue.label.isEmpty ? "(unlabelled)" : queue.label)" }
    if isForwarder { s += " forwarder" }
    s += isRemoved ? " removed" : (isAlive ? " alive" : " deallocated")
    return s
  }

  /// Every selector `object` has a method for: its own methods first, then its class's,
  /// then each superclass's (a subclass's method hides its superclass's). Not those a
  /// proxy answers for itself (`respondsToSelector:`, `conformsToProtocol:`), which it
  /// never multicasts, as `NSProxy` answers them itself.
  static func implementedMethods(of object: RuntimeObject) -> [Selector: MethodSignature] {
    var found: [Selector: MethodSignature] = [:]
    for m in object.ownMethods { found[m.selector] = m.signature }
    var cls: RuntimeClass? = object.runtimeClass
    while let c = cls {
      for m in c.methods where found[m.selector] == nil { found[m.selector] = m.signature }
      cls = c.superclass
    }
    return found.filter { !Runtime.answersForItself($0.key) }
  }
}

extension ProxyMember: DelegateMember {}
