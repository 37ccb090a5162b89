/// What the live ``CallbackAdapter``s need of their receivers: for each receiver and
/// selector, the message signature the adapters' calls are decoded with.
///
/// An adapter registers here when it is made (after checking the receiver's method against
/// its message, under the same lock) and leaves when it goes. A receiver whose methods come
/// from members that can change — a `MulticastProxy` — asks before taking a member, under
/// the same lock (``RuntimeObject/withCallbackRequirements(_:)``), so that no member whose
/// method has other types than an adapter's message joins a receiver the adapter sends to,
/// however the two race.
///
/// Lock order: a proxy's own membership lock, then this one, then the leaf locks that
/// `methodSignature(for:)` takes.
struct CallbackRequirements {
  /// One adapter's need.
  struct Requirement {
    /// Identifies the adapter's registration (to remove it).
    let id: UInt64
    /// The message signature its calls are decoded with.
    let signature: MethodSignature
    /// The adapter, as a conflict names it.
    let adapter: String
  }

  /// Receivers by identity (an adapter keeps its receiver alive while registered), then
  /// selectors.
  private var byReceiver: [ObjectIdentifier: [Selector: [Requirement]]] = [:]
  private var nextID: UInt64 = 0

  /// Every receiver's requirements, behind one lock (membership changes are rare).
  static let shared = Lock<CallbackRequirements>(CallbackRequirements())

  /// Adds a requirement; its id.
  mutating func add(
    _ receiver: RuntimeObject, _ selector: Selector, _ requirement: (UInt64) -> Requirement
  )
    -> UInt64
  {
    nextID &+= 1
    byReceiver[ObjectIdentifier(receiver), default: [:]][selector, default: []].append(
      requirement(nextID))
    return nextID
  }

  /// Removes the requirement `id` of `receiver` for `selector`.
  mutating func remove(_ receiver: RuntimeObject, _ selector: Selector, id: UInt64) {
    let key = ObjectIdentifier(receiver)
    guard var selectors = byReceiver[key], var list = selectors[selector] else { return }
    list.removeAll { $0.id == id }
    selectors[selector] = list.isEmpty ? nil : list
    byReceiver[key] = selectors.isEmpty ? nil : selectors
  }

  /// The first requirement of `receiver` for `selector` that a method of `signature` does
  /// not meet; nil when every one is met (or there is none).
  func unmet(_ receiver: RuntimeObject, _ selector: Selector, _ signature: MethodSignature)
    -> Requirement?
  {
    byReceiver[ObjectIdentifier(receiver)]?[selector]?.first {
      !CallbackRequirements.compatible($0.signature, signature)
    }
  }

  /// Whether a method of signature `a` can serve calls decoded as `b`: as many arguments,
  /// each (and the result) the same type up to what ``CallbackAdapter`` itself accepts
  /// between a callback and its message (qualifiers, aggregate names, `void *` for any
  /// data pointer, `char *` for `*`, any object for `@`).
  static func compatible(_ a: MethodSignature, _ b: MethodSignature) -> Bool {
    if a === b { return true }
    let x = a.argumentTypes
    let y = b.argumentTypes
    guard x.count == y.count, a.returnsVoid == b.returnsVoid else { return false }
    guard zip(x, y).allSatisfy({ $0.accepts($1) || $1.accepts($0) }) else { return false }
    return a.returnsVoid
      || (a.returnType.accepts(b.returnType) && b.returnType.accepts(a.returnType))
  }
}

/// A receiver's view of the requirements, for code that changes what the receiver's methods
/// are (see ``RuntimeObject/withCallbackRequirements(_:)``).
package struct CallbackRequirementsView {
  fileprivate let receiver: RuntimeObject
  fileprivate let table: CallbackRequirements

  /// What a method of `signature` for `selector` would break: the signature a live adapter
  /// sending `selector` to this receiver decodes its calls with, and that adapter's
  /// description; nil when no adapter needs anything else.
  package func conflict(_ selector: Selector, _ signature: MethodSignature) -> (
    expected: MethodSignature, adapter: String
  )? {
    table.unmet(receiver, selector, signature).map { ($0.signature, $0.adapter) }
  }
}

extension RuntimeObject {
  /// Runs `body` while no ``CallbackAdapter`` to this object can be made or released, with
  /// what the live ones need of its methods. A receiver that takes members (a
  /// `MulticastProxy`) checks a new member's methods and publishes it inside `body`: an
  /// adapter made at the same time then sees the member, or the member sees the adapter.
  package func withCallbackRequirements<R, E: Error>(
    _ body: (CallbackRequirementsView) throws(E) -> R
  ) throws(E) -> R {
    try CallbackRequirements.shared.withLock { table throws(E) in
      try body(CallbackRequirementsView(receiver: self, table: table))
    }
  }
}
