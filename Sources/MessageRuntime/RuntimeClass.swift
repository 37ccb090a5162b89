internal import DelegateProxyCFFIShim

/// A class: a name, a superclass and a method table, looked up through the superclass
/// chain with a per-class cache (`Class`, `objc_allocateClassPair`, `class_addMethod`).
///
/// Classes register themselves by name when created and unregister when the last
/// reference (every instance holds one) goes away; closure IMPs they own are freed then.
// @unchecked Sendable: `raw` is a C record the C layer publishes to readers atomically
// (dp_class_publish_cache) and Swift changes only under `state`'s lock; the rest is `let`s
// and that lock.
public final class RuntimeClass: @unchecked Sendable, Hashable, CustomStringConvertible {
  /// The class's name (`class_getName`).
  public let name: String
  /// The superclass, or nil for a root class (`class_getSuperclass`).
  public let superclass: RuntimeClass?
  /// The C record (`dp_class`), owned by this object.
  let raw: OpaquePointer

  struct State {
    var methods: [Selector: Method] = [:]
    var protocols: [RuntimeProtocol] = []
    var subclasses: [WeakClass] = []
    /// Bumped whenever this class's cache is flushed, so a lookup that read the
    /// method tables before a change does not cache what it found after it.
    var generation: UInt64 = 0
    /// Selectors no method of this class's chain (nor a root method) answers: a lookup
    /// found none at the current generation, so a message with one of them is forwarded
    /// (or trapped) without searching again (`_objc_msgForward_impcache` in Apple's class
    /// cache). Emptied with the cache: any method change here or in a superclass.
    /// Bounded by the selectors registered.
    var forwarded: Set<Selector> = []
  }
  let state = Lock(State())

  struct WeakClass { weak var value: RuntimeClass? }

  private static let registry = Lock<[String: WeakClass]>([:])

  /// Creates and registers a class (`objc_allocateClassPair` + `objc_registerClassPair`).
  /// Throws if a live class already has the name.
  public init(name: String, superclass: RuntimeClass? = nil) throws(RuntimeError) {
    self.name = name
    self.superclass = superclass
    raw = name.withCString { dp_class_create($0, superclass?.raw, nil) }
    dp_class_set_owner(raw, Unmanaged.passUnretained(self).toOpaque())
    let registered = RuntimeClass.registry.withLock { table -> Bool in
      if table[name]?.value != nil { return false }
      table[name] = WeakClass(value: self)
      return true
    }
    // On failure the object is fully initialized, so deinit frees `raw`.
    guard registered else { throw .classAlreadyExists(name: name) }
    superclass?.state.withLock { $0.subclasses.append(WeakClass(value: self)) }
    Runtime.install()
  }

  deinit {
    RuntimeClass.registry.withLock { table in
      if table[name]?.value == nil { table[name] = nil }
    }
    dp_class_destroy(raw)
  }

  /// The root class every object uses unless told otherwise (`NSObject`'s place).
  public static let root: RuntimeClass = try! RuntimeClass(name: "Object")

  /// The live class registered as `name` (`objc_getClass`).
  public static func named(_ name: String) -> RuntimeClass? {
    registry.withLock { $0[name]?.value }
  }

  /// The class whose C record (``rawValue``) is `rawValue`, or nil for nil. `rawValue`
  /// must be the record of a live class of this runtime (for example an object's class
  /// from `dp_object_get_class`, while the object lives).
  public static func `class`(rawValue handle: OpaquePointer?) -> RuntimeClass? {
    guard let handle, let owner = dp_class_owner(handle) else { return nil }
    return Unmanaged<RuntimeClass>.fromOpaque(owner).takeUnretainedValue()
  }

  /// The class's C record, a `dp_class *`: what `dp_runtime.h`'s class functions take
  /// (`dp_class_add_method`, `dp_object_get_class`'s result). Swift imports it as
  /// `OpaquePointer`, so it passes to such C functions as it is.
  ///
  /// Valid while this class lives: the class owns the record and frees it when its last
  /// reference goes (every instance holds one). It does not keep the class alive.
  public var rawValue: OpaquePointer { raw }

  // MARK: Methods

  /// Adds a method; throws `.methodAlreadyExists` if this class already defines
  /// `selector` (`class_addMethod`). A superclass's method may be overridden.
  public func addMethod(_ selector: Selector, imp: IMP, signature: MethodSignature)
    throws(RuntimeError)
  {
    try install(Method(selector: selector, signature: signature, imp: imp), replacing: false)
  }

  /// Adds a method implemented by a C function, with its type encoding.
  public func addMethod(_ selector: Selector, imp: IMP, types: String) throws(RuntimeError) {
    try addMethod(selector, imp: imp, signature: MethodSignature.parse(types))
  }

  /// Adds a method implemented by a Swift closure that receives the message as an
  /// `Invocation` (read the arguments, set the return value).
  public func addMethod(
    _ selector: Selector, signature: MethodSignature,
    body: @escaping @Sendable (Invocation) -> Void
  ) throws(RuntimeError) {
    let closure = try ClosureIMP(signature: signature, body: body)
    try install(
      Method(selector: selector, signature: signature, imp: closure.imp, closure: closure),
      replacing: false)
  }

  /// Sets the method for `selector`, adding or replacing it (`class_replaceMethod`);
  /// returns the method it replaced. A replaced closure IMP is freed once no send that
  /// may have looked it up is still running (after a grace period; nobody waits for it).
  @discardableResult
  public func replaceMethod(_ selector: Selector, imp: IMP, signature: MethodSignature) -> Method? {
    try! install(Method(selector: selector, signature: signature, imp: imp), replacing: true)
  }

  /// Sets the method for `selector` to a Swift closure, adding or replacing it.
  @discardableResult
  public func replaceMethod(
    _ selector: Selector, signature: MethodSignature,
    body: @escaping @Sendable (Invocation) -> Void
  ) throws(RuntimeError) -> Method? {
    let closure = try ClosureIMP(signature: signature, body: body)
    return try install(
      Method(selector: selector, signature: signature, imp: closure.imp, closure: closure),
      replacing: true)
  }

  /// Removes this class's own method for `selector`; the superclass's (if any) shows
  /// through again. Returns the removed method.
  @discardableResult
  public func removeMethod(_ selector: Selector) -> Method? {
    let removed = state.withLock { $0.methods.removeValue(forKey: selector) }
    if let removed {
      flushCaches()
      removed.retireCode(in: Quiescence.everyDomain)
    }
    return removed
  }

  @discardableResult
  func install(_ method: Method, replacing: Bool) throws(RuntimeError) -> Method? {
    let outcome = state.withLock { s -> (Method?, Bool) in
      let old = s.methods[method.selector]
      if old != nil && !replacing { return (nil, false) }
      s.methods[method.selector] = method
      return (old, true)
    }
    guard outcome.1 else { throw .methodAlreadyExists(className: name, selector: method.selector) }
    flushCaches()
    // Any instance of this class or a subclass may be calling it: every domain.
    outcome.0?.retireCode(in: Quiescence.everyDomain)
    return outcome.0
  }

  /// This class's own methods (`class_copyMethodList`).
  public var methods: [Method] { state.withLock { Array($0.methods.values) } }

  /// The method that runs for `selector` on instances, found through the superclass
  /// chain (`class_getInstanceMethod`).
  public func method(for selector: Selector) -> Method? {
    var cls: RuntimeClass? = self
    while let c = cls {
      if let m = c.state.withLock({ $0.methods[selector] }) { return m }
      cls = c.superclass
    }
    return nil
  }

  /// Whether instances have a method for `selector` (`instancesRespondToSelector:`).
  package func instancesRespond(to selector: Selector) -> Bool { method(for: selector) != nil }

  /// Whether this class is `other` or inherits from it (`isSubclassOfClass:`).
  package func isSubclass(of other: RuntimeClass) -> Bool {
    var cls: RuntimeClass? = self
    while let c = cls {
      if c === other { return true }
      cls = c.superclass
    }
    return false
  }

  // MARK: Cache

  /// Empties the cache of this class and of every subclass (their caches hold what
  /// they inherit). Old caches are retired, not freed: a lookup may still read them.
  func flushCaches() {
    let subclasses = state.withLock { s -> [RuntimeClass] in
      dp_class_publish_cache(raw, dp_method_table_create(8))
      s.generation &+= 1
      s.forwarded.removeAll()
      s.subclasses.removeAll { $0.value == nil }
      return s.subclasses.compactMap(\.value)
    }
    for sub in subclasses { sub.flushCaches() }
  }

  var generation: UInt64 { state.withLock { $0.generation } }

  /// The generation, and whether `selector` is known to have no method in this class's
  /// chain at it (a forwarded selector).
  func lookupState(for selector: Selector) -> (generation: UInt64, forwarded: Bool) {
    state.withLock { ($0.generation, $0.forwarded.contains(selector)) }
  }

  /// Records that instances have no method for `selector`, unless the class changed since
  /// `generation` (a method added meanwhile must be found).
  func noteForwarded(_ selector: Selector, ifGeneration generation: UInt64) {
    state.withLock { s in
      if s.generation == generation { s.forwarded.insert(selector) }
    }
  }

  /// Whether a message with `selector` is known to be forwarded without a method search:
  /// a lookup found no method and the class has not changed since.
  package func isKnownForwarded(_ selector: Selector) -> Bool {
    state.withLock { $0.forwarded.contains(selector) }
  }

  /// Caches `method` for `selector` unless the class changed since `generation`.
  func cache(_ method: Method, for selector: Selector, ifGeneration generation: UInt64) {
    state.withLock { s in
      guard s.generation == generation else { return }
      var table = dp_class_cache(raw)!
      if !dp_method_table_has_room(table) {
        table = dp_method_table_grow(table)
        dp_class_publish_cache(raw, table)
      }
      dp_method_table_insert(table, selector.raw, method.imp.rawValue, method.signature.cTypes)
    }
  }

  // MARK: Protocols

  /// Declares that instances conform to `proto` (`class_addProtocol`).
  public func addProtocol(_ proto: RuntimeProtocol) {
    state.withLock { s in
      if !s.protocols.contains(where: { $0 === proto }) { s.protocols.append(proto) }
    }
  }

  /// The protocols this class itself declares (`class_copyProtocolList`).
  public var protocols: [RuntimeProtocol] { state.withLock { $0.protocols } }

  /// Whether this class or a superclass declares `proto` or a protocol that inherits
  /// from it (`conformsToProtocol:`).
  public func conforms(to proto: RuntimeProtocol) -> Bool {
    var cls: RuntimeClass? = self
    while let c = cls {
      if c.protocols.contains(where: { $0.inherits(from: proto) }) { return true }
      cls = c.superclass
    }
    return false
  }

  /// The required methods of `proto` (and the protocols it inherits) that instances
  /// lack — empty when the class fully implements it.
  package func missingRequiredMethods(of proto: RuntimeProtocol) -> [Selector] {
    proto.allRequirements.filter { $0.isRequired && !instancesRespond(to: $0.selector) }.map(
      \.selector)
  }

  public var description: String { name }
  public static func == (a: RuntimeClass, b: RuntimeClass) -> Bool { a === b }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
