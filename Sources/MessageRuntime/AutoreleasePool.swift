internal import DelegateProxyCFFIShim

/// The calling thread's autorelease pool: where the runtime keeps a method's object
/// result alive for whoever called the method (`@autoreleasepool`).
///
/// A method returns an object without giving up ownership; the runtime puts one strong
/// reference to it in the pool of the thread that called, so the caller receives a live
/// object on every path (a typed send, an ``Invocation``, a C caller through
/// `dp_msg_lookup`, a multicast's fold). A typed ``Message/send(to:_:)`` and
/// ``Invocation/invoke()`` take their own reference to the result and drain what the
/// call added before they return: a Swift caller never needs a pool. Code that sends
/// from C, or reads results through raw handles, in a loop drains with ``drain(_:)`` —
/// or `dp_autoreleasepool_push`/`dp_autoreleasepool_pop` in C. A thread's pool is also
/// drained when the thread exits. See the DocC article *Object results*.
public enum AutoreleasePool {
  /// Runs `body`, then releases every object autoreleased on this thread while it ran
  /// (newest first), as `@autoreleasepool { }` does.
  public static func drain<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    let token = dp_autoreleasepool_push()
    defer { dp_autoreleasepool_pop(token) }
    return try body()
  }

  /// How many objects the calling thread's pool holds.
  package static var count: Int { dp_autoreleasepool_count() }

  /// Marks the pool (for inlined typed sends, which cannot name the C module).
  @usableFromInline static func _push() -> Int { dp_autoreleasepool_push() }
  /// Drains the pool down to `token`.
  @usableFromInline static func _pop(_ token: Int) { dp_autoreleasepool_pop(token) }

  /// Puts one strong reference to `object` in the calling thread's pool.
  static func autorelease(_ object: RuntimeObject) {
    dp_autorelease_retained(Unmanaged.passRetained(object).toOpaque())
  }

  /// The object with handle `handle` among those autoreleased on this thread since
  /// `token`, newest first, or nil. Reads only the pool's own entries (objects the pool
  /// holds), never `handle`: a result's bytes need not name an object at all.
  static func object(withHandle handle: OpaquePointer, since token: Int) -> RuntimeObject? {
    var index = dp_autoreleasepool_count()
    while index > token {
      index -= 1
      let object = Unmanaged<RuntimeObject>.fromOpaque(dp_autoreleasepool_item(index))
        .takeUnretainedValue()
      if object.rawValue == handle { return object }
    }
    return nil
  }
}
