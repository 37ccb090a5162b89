/// Turns a protocol into a multicast delegate.
///
/// ```swift
/// @Delegate
/// public protocol SensorDelegate: AnyObject {
///   func sensor(_ sensor: Sensor, didRead reading: Reading)
///   func sensorShouldStart(_ sensor: Sensor) -> Bool
///   @Optional func sensorDidStop(_ sensor: Sensor)
/// }
/// ```
///
/// generates `SensorDelegateMulticast`, a ``DelegateMulticast`` that conforms to
/// `SensorDelegate` and forwards each call to every delegate added to it, and gives each
/// optional requirement a default in an extension of the protocol. Each method's selector
/// is the one Swift's `@objc` would give it (`sensor(_:didRead:)` → `sensor:didRead:`,
/// `move(to:)` → `moveTo:`, `foo(bar:)` → `fooWithBar:`) unless ``Selector(_:)`` names
/// another. The generated `Handles` struct holds a typed handle per method
/// (`\.sensorDidRead`, `\.sensorShouldStart`).
///
/// Parameters and results may be of any Swift type (`String`, optionals, enums,
/// closures, collections, existentials, Foundation values…). With a C face
/// (``Delegate(cFace:)``), methods whose types all have a C form are also reachable from C
/// (``MulticastCFace/imp(for:)``, whose handles are `Handles.CHandles`); the others are
/// Swift-only, which the compiler enforces.
///
/// When no delegate answers a value-returning method (no delegates, all gone, or an
/// optional method nobody implements), the call answers the requirement's
/// ``Default(_:)``, or else — only where nobody would dispute it — its result type's empty
/// value: `nil` for an optional, `false` for `Bool`, `0` for the standard numbers, `""` for
/// `String` and `Substring`, `[]`/`[:]` for arrays, sets and dictionaries, through
/// typealiases too (`Logger.Metadata`). Any other result type — an enum, a struct, a
/// pointer, a tuple, a closure, `any P` — must declare `@Default`: without one it is a
/// compile-time error on the requirement's line, naming the type.
///
/// A protocol constrained to `AnyObject` gets a class multicast whose members are objects,
/// held weakly by default. A protocol that is not (`protocol Sink { … }`, `Sendable` aside)
/// gets a struct with value semantics, ``DelegateValueMulticast``: its members may be
/// values — held by value, changed by its `mutating` requirements — or objects, and a
/// copy of the multicast is a multicast of its own (``Delegate(semantics:)`` chooses
/// otherwise). A class-bound protocol may refine `Sendable` and other
/// `@Delegate` protocols, whose methods it inherits without restating them: the multicast
/// conforms to the whole hierarchy and sends the inherited methods to its delegates under
/// their policies, and `Handles` offers the parents' handles by their own names
/// (`\.transferDidStart`). A parent not declared with `@Delegate` must have its methods
/// restated and be named in ``Delegate(restating:)``. Methods may
/// be `throws` and `async` and take `inout` parameters (see ``DelegateInout``) and, when
/// not `async`, non-escaping closures (lent to each delegate for the call). Properties
/// and subscripts are a read (`\.level`, under its policy) and a write (`\.setLevel`, to
/// every delegate in order); generic methods reach every delegate on the Swift path, with
/// no handle (see the *Properties and subscripts* article). Initializers, associated
/// types, static requirements, generic subscripts, typed `throws(E)` and `rethrows`,
/// variadic parameters, and `Self` are compile-time errors on the requirement concerned.
@attached(peer, names: suffixed(Multicast))
@attached(extension, names: arbitrary)
public macro Delegate() = #externalMacro(module: "DelegateProxyMacros", type: "DelegateMacro")

/// ``Delegate()`` with a C face: `@Delegate(cFace: true)` also generates C entry points for
/// the protocol's methods and its stand-in class, so the multicast has `runtime` (its
/// runtime object, C handle, IMPs — `multicast.runtime.imp(for: \.sensorDidRead)` — and C
/// callback adapters) and `standIn(for:)` (a Swift delegate that sends each call to a
/// runtime object, as test doubles' `delegate` does). Without it the multicast has
/// neither, and asking for them is a compile-time error naming this argument. A
/// refining protocol's C face needs its `@Delegate` parents' C faces too.
@attached(peer, names: suffixed(Multicast))
@attached(extension, names: arbitrary)
public macro Delegate(cFace: Bool) =
  #externalMacro(module: "DelegateProxyMacros", type: "DelegateMacro")

/// ``Delegate()`` with the multicast's semantics chosen rather than read from the protocol:
/// `.reference` makes a class multicast for a protocol that is not class-bound (its members,
/// values included, are shared by every reference to it); `.value` a struct one (see
/// ``DelegateSemantics``).
@attached(peer, names: suffixed(Multicast))
@attached(extension, names: arbitrary)
public macro Delegate(semantics: DelegateSemantics, cFace: Bool = false) =
  #externalMacro(module: "DelegateProxyMacros", type: "DelegateMacro")

/// ``Delegate()`` for a protocol that also refines protocols not declared with `@Delegate`
/// (a dependency's, Foundation's) and restates their methods: the multicast inherits the
/// methods of its other parents, and implements the restated ones itself.
///
/// ```swift
/// @Delegate(restating: LegacyEvents.self)
/// protocol ArchiveEvents: TransferEvents, LegacyEvents {   // TransferEvents is @Delegate
///   func legacyDidFinish(_ id: Int)                         // every LegacyEvents method
///   func archive(_ transfer: Transfer, didAdd name: String)
/// }
/// ```
///
/// Without `restating:`, a parent that is not a `@Delegate` protocol fails the build on
/// the line of the inheritance clause that names it: *cannot find type
/// 'LegacyEventsMulticast' in scope*, and *type 'ArchiveEventsMulticast' does not conform to
/// protocol 'LegacyEvents'* with a note at each requirement not restated.
@attached(peer, names: suffixed(Multicast))
@attached(extension, names: arbitrary)
public macro Delegate(restating parents: Any.Type..., cFace: Bool = false) =
  #externalMacro(module: "DelegateProxyMacros", type: "DelegateMacro")

/// Multicasts a delegate protocol declared elsewhere — Foundation's, a dependency's — whose
/// delegates are the classes that already conform to it.
///
/// ```swift
/// @Delegate(for: XMLParserDelegate.self)
/// protocol ParserEvents: XMLParserDelegate {
///   func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
///               qualifiedName qName: String?, attributes attributeDict: [String: String])
///   func parser(_ parser: XMLParser, foundCharacters string: String)
/// }
/// let events = ParserEventsMulticast()        // an XMLParserDelegate
/// events.add(outline)                         // any class that conforms to XMLParserDelegate
/// parser.delegate = events
/// ```
///
/// The protocol refines `delegates` and restates the methods to fan out, without bodies;
/// the compiler checks each against the real requirement (a method `delegates` does not
/// have is an error). Write `override func` to have that checked on the restated line
/// itself ("method does not override any method from its parent protocol"); without
/// `override` the error is reported in the expansion, at the generated call to the real
/// requirement. Requirements not restated keep `delegates`' own default
/// implementations. Everything a ``Delegate()`` multicast does works here; `@Optional` is
/// not (the foreign protocol's defaults decide what is optional).
///
/// When the protocol's conformers must be subclasses of a class (`URLSession`'s and
/// `NSCache`'s delegates refine `NSObjectProtocol`: `NSObject`), name it as `object`: the
/// multicast's `object` property is then an instance of a generated subclass that
/// conforms and sends every call to the multicast — the value to hand the delegator.
///
/// The macro cannot see whether `delegates` is class-bound: the multicast is a class
/// unless the restated methods include a `mutating` one (which only a protocol that is not
/// class-bound has) or `semantics` is ``DelegateSemantics/value`` — as for swift-log's
/// `LogHandler`, whose copies must not share their handlers:
/// `@Delegate(for: LogHandler.self, semantics: .value)`.
@attached(peer, names: suffixed(Multicast))
@attached(extension, names: arbitrary)
public macro Delegate(
  for delegates: Any.Type, object: AnyObject.Type? = nil, semantics: DelegateSemantics? = nil,
  cFace: Bool = false
) =
  #externalMacro(module: "DelegateProxyMacros", type: "DelegateMacro")

/// Marks a requirement of a ``Delegate()`` protocol as optional, as `@optional` does in an
/// Objective-C protocol: a conforming class need not implement it, and a delegate that
/// does not is neither asked about it nor called for it.
///
/// Outside a `@Delegate` protocol it has no effect.
///
/// The attribute does not hide `Swift.Optional`: `Optional<Int>` and `Int?` keep their
/// meaning, since an attribute is looked up among macros and a type among types.
@attached(peer)
public macro Optional() = #externalMacro(module: "DelegateProxyMacros", type: "OptionalMacro")

/// Gives a requirement of a ``Delegate()`` protocol an explicit selector instead of the one
/// derived from its Swift name, as `@objc(name:)` does: `@Selector("sensorFailed:code:")`.
///
/// The selector needs one colon per parameter. Outside a `@Delegate` protocol it has no
/// effect.
@attached(peer)
public macro Selector(_ name: String) =
  #externalMacro(module: "DelegateProxyMacros", type: "SelectorMacro")

/// Names the typed handle of a requirement of a ``Delegate()`` protocol instead of the one
/// derived from its Swift name (the base name, then each argument label capitalised):
/// `@Handle("recordDouble")` makes it `\.recordDouble`.
///
/// A handle never changes because another requirement is added or removed, so two
/// requirements that would share one — methods overloaded by parameter type, such as
/// `record(_: Int64)` and `record(_: Double)` — are a compile-time error on the later one,
/// whose Fix-It names it (with ``Selector(_:)``, as they share a selector too):
///
/// ```swift
/// func record(_ value: Int64)
/// @Handle("recordDouble") @Selector("recordDouble:") func record(_ value: Double)
/// ```
///
/// Outside a `@Delegate` protocol it has no effect.
@attached(peer)
public macro Handle(_ name: String) =
  #externalMacro(module: "DelegateProxyMacros", type: "HandleMacro")

/// What a value-returning requirement of a ``Delegate()`` protocol answers when no
/// delegate answers it — no delegates, all of them gone, or an optional method none of
/// them implements — as the `?? value` a delegator writes after `delegate?.method()`:
///
/// ```swift
/// @Default(true) func chatShouldConnect(_ chat: Chat) -> Bool
/// ```
///
/// The value is evaluated at each call that needs it. Outside a `@Delegate` protocol it
/// has no effect.
@attached(peer)
public macro Default<Value>(_ value: Value) =
  #externalMacro(module: "DelegateProxyMacros", type: "DefaultMacro")

/// `@Default(nil)`, for an optional result: the same as declaring no `@Default` (`nil` is
/// an optional's empty answer), accepted so that writing it out compiles.
@attached(peer)
public macro Default(_ value: _OptionalNilComparisonType) =
  #externalMacro(module: "DelegateProxyMacros", type: "DefaultMacro")

/// What a `@Delegate` multicast is, as ``Delegate(semantics:)`` and
/// ``Delegate(for:object:semantics:)`` choose it.
public enum DelegateSemantics: Sendable {
  /// A struct (``DelegateValueMulticast``): a copy is a multicast of its own, with copies
  /// of the value members and the same object members. For a protocol that is not
  /// class-bound (the default for one); refused for one constrained to `AnyObject`.
  case value
  /// A class (``DelegateMulticast``): every reference shares one multicast. The default
  /// for a class-bound protocol.
  case reference
}
