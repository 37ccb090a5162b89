/// A protocol: a named set of required and optional method descriptions, possibly
/// inheriting other protocols (`Protocol`, `protocol_addMethodDescription`).
///
/// A protocol knows its methods' signatures, so a proxy can answer for methods no
/// delegate implements. Immutable once made; registered by name.
public final class RuntimeProtocol: Sendable, Hashable, CustomStringConvertible {
  /// One method a protocol describes (`objc_method_description`).
  public struct Requirement: Sendable, Hashable {
    /// The method's name.
    public let selector: Selector
    /// The method's types.
    public let signature: MethodSignature
    /// Whether conforming classes must implement it.
    public let isRequired: Bool

    /// A method description.
    public init(_ selector: Selector, _ signature: MethodSignature, required: Bool) {
      self.selector = selector
      self.signature = signature
      self.isRequired = required
    }
  }

  /// The protocol's name.
  public let name: String
  /// The protocols this one inherits (`protocol_copyProtocolList`).
  public let inherited: [RuntimeProtocol]
  /// The methods this protocol itself declares.
  public let requirements: [Requirement]
  private let bySelector: [Selector: Requirement]

  private static let registry = Lock<[String: RuntimeProtocol]>([:])

  /// Creates and registers a protocol. The same name registered again must describe
  /// the same methods; the existing protocol is then returned by `named(_:)`.
  public init(name: String, inherits inherited: [RuntimeProtocol] = [], requirements: [Requirement])
  {
    self.name = name
    self.inherited = inherited
    self.requirements = requirements
    var map: [Selector: Requirement] = [:]
    for r in requirements { map[r.selector] = r }
    self.bySelector = map
    RuntimeProtocol.registry.withLock { table in
      if table[name] == nil { table[name] = self }
    }
  }

  /// A protocol from selector names and encodings: `required` and `optional` map each
  /// selector name to its method encoding, e.g. `["tableView:numberOfRowsInSection:": "q@:@q"]`.
  public convenience init(
    name: String, inherits inherited: [RuntimeProtocol] = [],
    required: KeyValuePairs<String, String> = [:], optional: KeyValuePairs<String, String> = [:]
  ) throws(RuntimeError) {
    var list: [Requirement] = []
    for (sel, types) in required {
      list.append(Requirement(Selector(sel), try MethodSignature.parse(types), required: true))
    }
    for (sel, types) in optional {
      list.append(Requirement(Selector(sel), try MethodSignature.parse(types), required: false))
    }
    self.init(name: name, inherits: inherited, requirements: list)
  }

  /// The registered protocol named `name` (`objc_getProtocol`).
  public static func named(_ name: String) -> RuntimeProtocol? { registry.withLock { $0[name] } }

  /// The description of `selector` in this protocol or one it inherits
  /// (`protocol_getMethodDescription`).
  public func requirement(for selector: Selector) -> Requirement? {
    if let r = bySelector[selector] { return r }
    for p in inherited { if let r = p.requirement(for: selector) { return r } }
    return nil
  }

  /// Every method of this protocol and those it inherits, each once.
  package var allRequirements: [Requirement] {
    var seen = Set<Selector>()
    var out: [Requirement] = []
    func walk(_ p: RuntimeProtocol) {
      for r in p.requirements where seen.insert(r.selector).inserted { out.append(r) }
      for q in p.inherited { walk(q) }
    }
    walk(self)
    return out
  }

  /// Whether this protocol is `other` or inherits from it (`protocol_conformsToProtocol`).
  public func inherits(from other: RuntimeProtocol) -> Bool {
    self === other || inherited.contains { $0.inherits(from: other) }
  }

  public var description: String { "<\(name)>" }
  public static func == (a: RuntimeProtocol, b: RuntimeProtocol) -> Bool { a === b }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
