import MessageRuntime
import Synchronization

/// Optional methods of Swift delegate protocols.
///
/// Swift protocols have no optional requirements, so `@Delegate` gives each method
/// marked optional a default implementation that calls ``notImplemented(by:selector:)``.
/// A conforming class that implements the method runs its own; one that does not runs
/// the default, which records that its class does not implement the selector. From
/// then on a multicast neither answers `responds(to:)` for that class's instances nor
/// calls them for it, and the value the default returned is never used.
///
/// The record is learned, not declared: until an instance of a class has received one
/// optional message it does not implement, a multicast counts it as a responder for
/// that message (it is called, runs the default — none of your code — and is dropped).
public enum DelegateOptional {
  struct Key: Hashable {
    let type: ObjectIdentifier
    let selector: String
  }

  private static let missing = Lock<Set<Key>>([])
  /// Bumped whenever ``missing`` grows: dispatch loops compare it around each call to
  /// an optional method (one relaxed load each) instead of taking the lock.
  @usableFromInline static let learned = Atomic<UInt64>(0)

  /// Called by the generated default of an optional method: records that `delegate`'s
  /// class does not implement `selector`. (The default then returns the method's answer
  /// for no delegates, which a multicast never uses.) Not for direct use.
  public static func __notImplemented(by delegate: AnyObject, selector: String) {
    let key = Key(type: ObjectIdentifier(type(of: delegate)), selector: selector)
    let inserted = missing.withLock { $0.insert(key).inserted }
    if inserted { learned.add(1, ordering: .releasing) }
  }

  /// Called by the generated default of an optional method of a protocol that is not
  /// class-bound: records that `delegate`'s type — a struct's, an enum's or a class's — does
  /// not implement `selector`. Not for direct use.
  public static func __notImplemented<Delegate>(byValue delegate: Delegate, selector: String) {
    let key = Key(type: ObjectIdentifier(type(of: delegate as Any)), selector: selector)
    let inserted = missing.withLock { $0.insert(key).inserted }
    if inserted { learned.add(1, ordering: .releasing) }
  }

  /// Whether instances of `type` are known not to implement `selector`.
  public static func isKnownMissing(_ selector: String, in type: AnyObject.Type) -> Bool {
    missing.withLock { $0.contains(Key(type: ObjectIdentifier(type), selector: selector)) }
  }

  static func isKnownMissing(_ selector: String, typeID: ObjectIdentifier) -> Bool {
    missing.withLock { $0.contains(Key(type: typeID, selector: selector)) }
  }

  /// What an object's optional methods are known by: its class, except for a stand-in,
  /// whose methods are those its own target responds to (two stand-ins of one class may
  /// differ).
  static func identity(of object: AnyObject) -> ObjectIdentifier {
    object is any AnyDelegateStandIn ? ObjectIdentifier(object) : ObjectIdentifier(type(of: object))
  }

  /// Records that `standIn`'s target does not respond to the optional `selector`, so a
  /// multicast stops counting the stand-in's zero as an answer.
  static func standIn(_ standIn: ObjectIdentifier, lacks selector: String) {
    let key = Key(type: standIn, selector: selector)
    let inserted = missing.withLock { $0.insert(key).inserted }
    if inserted { learned.add(1, ordering: .releasing) }
  }

  /// Forgets what was recorded for a stand-in that is going away (a new object may get
  /// its address).
  static func forget(standIn id: ObjectIdentifier) {
    missing.withLock { set in set = set.filter { $0.type != id } }
  }
}
