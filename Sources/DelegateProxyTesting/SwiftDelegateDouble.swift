import DelegateProxy
import MessageRuntime
import Testing

/// A test double of a `@Delegate` Swift protocol, stubbed, read and verified by the
/// protocol's typed handles — `\.sensorShouldStart`, the properties of the generated
/// `Handles` — with the methods' own parameter and result types.
///
/// ```swift
/// let double = try SwiftDelegateDouble(SensorDelegateMulticast.self, mode: .strict)
/// double.stub(\.sensorShouldStart) { sensor in true }
/// double.stub(\.sensorDidRead)
/// sampler.delegate = double.delegate
/// sampler.sample(21.5)
/// double.verify(\.sensorDidRead, called: .once) { sensor, reading in reading.celsius == 21.5 }
/// ```
///
/// A misspelt method, a closure of the wrong parameter types or an answer of the wrong
/// type does not compile. It is a ``DelegateDouble`` — the same runtime object, recording
/// the same calls — so C callers reach it through `imp(for:)`, it can join a
/// `MulticastProxy`, and ``DeliveryCheck`` runs through it; the selector API stays for
/// them.
///
/// **Arguments.** A Swift delegator reaches the double through ``delegate``, the
/// protocol's stand-in, which hands the double its Swift arguments: a class instance is
/// recorded as the instance (the double keeps it until ``DelegateDouble/resetCalls()``),
/// a value with no C form as the double's copy, an `inout` argument as a copy of the
/// value it arrived with. A stub receives the call's own arguments: it can call a
/// non-escaping closure argument and write an `inout` one. A non-escaping closure is
/// not recorded (it is lent for the call only), so the recorded arguments of such a
/// method cannot be read back typed; nor can a class instance a C caller passed (an
/// address): read those with the selector API (``DelegateDouble/calls(to:)``).
///
/// **Failures.** A verification that fails, or that meets a call it cannot read, is a
/// test failure at the line of the verification; an unexpected call to a
/// ``DoubleMode/strict`` double is one at the line that made the double (at the next
/// verification when it ran outside a test). Methods and values are written as Swift
/// writes them: `sensorShouldStart(_:) -> Bool`, `reading: Reading(celsius: 21.5, …)`.
// @unchecked Sendable (restating DelegateDouble's): this subclass adds no stored property.
public final class SwiftDelegateDouble<Multicast: DelegateMulticastProtocol>: DelegateDouble,
  @unchecked Sendable
{
  /// The protocol's typed handles: a key path into this names a method.
  public typealias Handles = Multicast.Handles
  /// The protocol's existential (`any SensorDelegate`).
  public typealias Delegate = Multicast.Delegate

  /// A double of the `@Delegate` protocol whose generated multicast is `multicast`.
  ///
  /// - Parameters:
  ///   - multicast: the protocol's multicast, `SensorDelegateMulticast.self`.
  ///   - responding: the methods it has and `responds(to:)` for.
  ///   - mode: what it does with a call no stub answers.
  ///   - delegate: for a partial double, a runtime object unanswered calls go to.
  ///   - fileID, filePath, line, column: where failures of unexpected calls are reported
  ///     (by default the line that makes the double), under Swift Testing or XCTest.
  /// - Throws: ``DoubleError`` for a protocol the runtime cannot carry, or a method in
  ///   `responding` it does not have.
  public init(
    _ multicast: Multicast.Type = Multicast.self, responding: RespondingMethods = .all,
    mode: DoubleMode = .nice, forwardingTo delegate: RuntimeObject? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) throws(DoubleError) {
    let description = Multicast.delegateProtocol
    try super.init(
      knowing: try DelegateDouble.methods(of: description), name: description.name,
      responding: responding, mode: mode, forwardingTo: delegate,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// A double of the `@Delegate` protocol whose generated multicast is `multicast` that
  /// has — and `responds(to:)` for — only the methods `methods` names: a delegator that
  /// caches `responds(to:)` sees a delegate implementing just those.
  ///
  /// ```swift
  /// let double = try SwiftDelegateDouble(
  ///   SensorDelegateMulticast.self, respondingTo: [\.sensorShouldStart, \.sensorDidRead])
  /// ```
  ///
  /// A key path that names no method of the protocol (a property of `Handles` that is
  /// not a handle) is ignored.
  public convenience init(
    _ multicast: Multicast.Type = Multicast.self, respondingTo methods: [PartialKeyPath<Handles>],
    mode: DoubleMode = .nice, forwardingTo delegate: RuntimeObject? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) throws(DoubleError) {
    let handles = Handles()
    let selectors = methods.compactMap { path in
      (handles[keyPath: path] as? any MessageHandleProtocol).map {
        Multicast.delegateProtocol.methods[$0.index].selector
      }
    }
    try self.init(
      multicast, responding: .only(selectors), mode: mode, forwardingTo: delegate,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  // MARK: Methods

  /// The method `handle` names, as the double knows it (its selector, Swift name and
  /// signature): for ``DeliveryCheck`` and the selector API.
  package func knownMethod<Handle: MessageHandleProtocol>(
    _ handle: KeyPath<Handles, Handle>
  ) -> DoubledMethod {
    knownMethods[Handles()[keyPath: handle].index]
  }

  /// Gives the double the method `handle` names (`responds(to:)` becomes true) or takes
  /// it away. A multicast that has the double's stand-in learns it at its next call.
  public func setResponds<Handle: MessageHandleProtocol>(
    _ responds: Bool, to handle: KeyPath<Handles, Handle>
  ) {
    // The method is the protocol's: the double knows it, and installing it succeeded
    // when the double was made.
    try? setResponds(responds, to: knownMethod(handle).selector)
  }

  /// Whether the double responds to the method `handle` names.
  public func responds<Handle: MessageHandleProtocol>(to handle: KeyPath<Handles, Handle>)
    -> Bool
  {
    responds(to: knownMethod(handle).selector)
  }

  // MARK: Recorded calls

  /// The arguments of every call of the method `handle` names, in order, typed as the
  /// method's parameters: the value itself for one parameter, a tuple for several.
  ///
  /// ```swift
  /// let readings = double.calls(to: \.sensorDidRead).map { sensor, reading in reading.celsius }
  /// ```
  ///
  /// A call whose arguments cannot be read back (a class instance from a C caller, a
  /// non-escaping closure) is left out and reported as a test failure at the caller's line.
  public func calls<Handle: MessageHandleProtocol>(
    to handle: KeyPath<Handles, Handle>, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) -> [Handle.Arguments] {
    let method = knownMethod(handle)
    var typed: [Handle.Arguments] = []
    var unreadable: [RecordedCall] = []
    for call in calls(to: method.selector) {
      if let arguments = Self.arguments(of: call, as: Handle.Arguments.self) {
        typed.append(arguments)
      } else {
        unreadable.append(call)
      }
    }
    if !unreadable.isEmpty {
      IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        .record(unreadableMessage(unreadable, method, Handle.Arguments.self))
    }
    return typed
  }

  /// The recorded calls of the method `handle` names — with their order, thread and
  /// queue (``RecordedCall/context``) — for what the typed arguments do not tell.
  public func recordedCalls<Handle: MessageHandleProtocol>(to handle: KeyPath<Handles, Handle>)
    -> [RecordedCall]
  {
    calls(to: knownMethod(handle).selector)
  }

  /// `call`'s recorded arguments as `Arguments`; nil when one cannot be read.
  static func arguments<Arguments>(of call: RecordedCall, as _: Arguments.Type) -> Arguments? {
    ArgumentTuple.make(call.arguments.map { $0.swiftArgument?.value }, as: Arguments.self)
  }

  /// Why `calls` cannot be read as `Arguments`.
  func unreadableMessage<Arguments>(
    _ calls: [RecordedCall], _ method: DoubledMethod, _: Arguments.Type
  ) -> String {
    let type = SwiftTypeName.written(String(reflecting: Arguments.self))
    var reasons: [String] = []
    for (position, lent) in method.parameterLent.enumerated() where lent {
      reasons.append(
        "'\(method.parameterNames[position])' is a non-escaping closure, lent for the call only")
    }
    if reasons.isEmpty {
      reasons.append(
        "an object a C caller passed is only an address or handle (read it with calls(to: \"\(method.selector.name)\"))"
      )
    }
    return "\(Self.times(calls.count)) of \(method.swiftName ?? method.selector.name) on "
      + "\(description) cannot be read as \(type): \(reasons.joined(separator: "; ")):"
      + calls.map { "\n  \($0.swiftDescription ?? $0.description)" }.joined()
  }

  static func times(_ n: Int) -> String { n == 1 ? "1 call" : "\(n) calls" }
}

extension SwiftDelegateDouble where Multicast: __CFaceProviding {
  /// The double as a delegate of the protocol, for a Swift delegator's
  /// `weak var delegate` or a multicast's `add`: the protocol's stand-in, which sends
  /// each call to the double. The double keeps it, so a weak slot stays set; it is the
  /// same object every time. The stand-in is part of the protocol's C face: declare it
  /// with `@Delegate(cFace: true)`.
  ///
  /// A method the double does not respond to answers as an optional method a delegate
  /// lacks: the stand-in sends nothing and answers zero.
  public var delegate: Delegate {
    keptStandIn(for: ObjectIdentifier(Multicast.self)) { Multicast.standIn(for: self) }
      as! Delegate
  }
}
