import MessageRuntime

/// The base of the stand-ins `@Delegate` generates (`SensorDelegateMulticast.StandIn`): an
/// object that conforms to the Swift protocol and turns each call into a runtime message
/// to a target — a test double, a ``MulticastProxy``, any `RuntimeObject` — with the
/// arguments in their C form, and a Swift value that has none as a ``SwiftValueObject``. It is the Swift face of a runtime object, as
/// ``MulticastCFace/imp(for:)`` is a Swift multicast's face for C callers.
///
/// ```swift
/// let standIn = SensorDelegateMulticast.standIn(for: runtimeObject)  // any SensorDelegate
/// sensor.delegate = standIn          // keep it: the delegator's slot is weak
/// ```
///
/// A stand-in holds its target weakly. A call whose target is gone, or does not respond
/// to the method, answers zero (`false`, `0`, `nil`) without sending anything; a call the
/// target fails to handle stops the process with the error, as a C caller's would. A
/// `throws` method's call throws what a test double's stub threw for it. As a
/// member of a multicast, a stand-in implements the optional methods its target responds
/// to: once a call finds the target not responding to one, the multicast skips the
/// stand-in for it (its zero is not an answer), as it skips a class that lacks the method.
open class DelegateStandIn<Delegate>: AnyDelegateStandIn, @unchecked Sendable {
  // @unchecked Sendable: both stored properties are `let`s; the weak reference is only
  // loaded (atomically), and the description is Sendable.
  private let weakTarget: WeakRuntimeObject
  /// The protocol the stand-in conforms to.
  package let protocolDescription: ProtocolDescription<Delegate>
  /// What the optional methods its target lacks are recorded under: the stand-in itself,
  /// or — for the stand-in of a parent protocol that a refining protocol's stand-in sends
  /// the parent's methods through (`__parent(_:)`) — that stand-in. Written once, before
  /// the stand-in is used.
  var optionalIdentity: ObjectIdentifier!
  /// The stand-ins of parent protocols, by their multicast's type (`__parent(_:)`).
  let parents = Lock<[ObjectIdentifier: AnyObject]>([:])

  /// A stand-in sending `proto`'s methods to `target` (held weakly).
  public required init(target: RuntimeObject, protocol proto: ProtocolDescription<Delegate>) {
    weakTarget = WeakRuntimeObject(target)
    protocolDescription = proto
    optionalIdentity = ObjectIdentifier(self)
  }

  deinit { DelegateOptional.forget(standIn: ObjectIdentifier(self)) }

  /// The object the calls go to, while it lives.
  public final var target: RuntimeObject? { weakTarget.object }

  /// Sends the protocol's method at `index` with `arguments` (each parameter's value, in
  /// order) to the target and returns its answer. Generated stand-ins call this; not for
  /// direct use.
  public final func __deliver<Result, each Argument>(
    _ index: Int, _ arguments: repeat each Argument
  ) -> Result {
    var thrown: (any Error)? = nil
    return deliver(index, canThrow: false, thrown: &thrown, repeat each arguments)
  }

  /// ``__deliver(_:_:)`` for a `throws` method: throws what the target threw for it (a
  /// test double's stub, through ``SwiftArguments/thrown``). Generated stand-ins call
  /// this; not for direct use.
  public final func __deliverThrowing<Result, each Argument>(
    _ index: Int, _ arguments: repeat each Argument
  ) throws -> Result {
    var thrown: (any Error)? = nil
    let result: Result = deliver(index, canThrow: true, thrown: &thrown, repeat each arguments)
    if let thrown { throw thrown }
    return result
  }

  /// Sends the method at `index`; `thrown` receives what the target threw, when `canThrow`.
  private func deliver<Result, each Argument>(
    _ index: Int, canThrow: Bool, thrown: inout (any Error)?, _ arguments: repeat each Argument
  ) -> Result {
    let method = protocolDescription.methods[index]
    guard let target, target.responds(to: method.selector),
      let signature = try? method.signature(in: protocolDescription.name)
    else {
      if !method.isRequired, let target, !target.responds(to: method.selector) {
        DelegateOptional.standIn(optionalIdentity, lacks: method.selector.name)
      }
      return ZeroValue.value(Result.self, for: method.selector.name)
    }
    let invocation = Invocation(signature: signature, selector: method.selector)
    var position = 0
    // The Swift values with no C form, as objects, alive until the target has answered.
    var kept: [RuntimeObject] = []
    // For a target that reads the Swift values themselves (a test double): each argument.
    let handsOver = target is any SwiftArgumentsReceiver
    var values: [Any] = []
    for argument in repeat each arguments {
      let type = method.parameters[position].type
      try? invocation.withUnsafeArgument(at: position) { slot in
        type.writeMessageArgument(argument, to: slot.baseAddress!, keeping: &kept)
      }
      if handsOver { values.append(argument) }
      position += 1
    }
    do {
      if handsOver {
        let delivery = SwiftArguments(
          target: target, selector: method.selector, values: values, canThrow: canThrow)
        try SwiftArguments.$current.withValue(delivery) { try invocation.invoke(target: target) }
        thrown = delivery.thrown
      } else {
        try invocation.invoke(target: target)
      }
    } catch {
      fatalError("\(protocolDescription.name).\(method.swiftName) sent to \(target): \(error)")
    }
    withExtendedLifetime(kept) {}
    if method.result.isVoid { return ZeroValue.value(Result.self, for: method.selector.name) }
    return invocation.withUnsafeReturnValue { buffer in
      let source = buffer.baseAddress!
      if method.result.encoding == nil {
        // A Swift result comes back as a SwiftValueObject; a target that answered none (a
        // double with no stub for it) gave no answer: the method's answer for none.
        return SwiftValueObject.value(of: source.load(as: OpaquePointer?.self), as: Result.self)
          ?? method.noAnswer(as: Result.self)
      }
      return method.result.readC(from: source, as: Result.self)
    }
  }
}

/// Any stand-in, whatever its protocol: what `DelegateOptional` asks to key a stand-in's
/// optional methods by instance.
protocol AnyDelegateStandIn: AnyObject {}

/// A weak reference to a runtime object, stored in a `let`.
// @unchecked Sendable: `object` is written only in init; loading a weak reference is
// atomic, and RuntimeObject is Sendable.
struct WeakRuntimeObject: @unchecked Sendable {
  weak var object: RuntimeObject?
  init(_ object: RuntimeObject) { self.object = object }
}

/// A runtime object that reads the Swift arguments of the messages stand-ins send it
/// (``SwiftArguments/current``) rather than only their C form: DelegateProxyTesting's
/// doubles, which record a class instance as the instance, not as its address. Stand-ins
/// collect the values only for such a target.
package protocol SwiftArgumentsReceiver: AnyObject {}

/// The Swift arguments of the message a stand-in is sending, while its target handles it
/// (package: DelegateProxyTesting's doubles read them).
// @unchecked Sendable: it crosses no thread. A stand-in binds it to a task-local value for
// the duration of one synchronous `invoke` on its own thread, and the receiving double
// reads it on that thread during the call; the values are the stand-in's own arguments.
package final class SwiftArguments: @unchecked Sendable {
  /// The message being sent, on this thread (nil when no stand-in is sending one to a
  /// ``SwiftArgumentsReceiver``).
  @TaskLocal package static var current: SwiftArguments?

  /// The object the message is sent to.
  package let target: ObjectIdentifier
  /// The message's selector.
  package let selector: Selector
  /// Each argument, in order, as the Swift delegator passed it.
  package let values: [Any]
  /// Whether the method is `throws`, so that the stand-in throws ``thrown``.
  package let canThrow: Bool
  /// What the receiver threw for the call (a double's throwing stub), for the stand-in to
  /// throw to the delegator; written on the sending thread, during the call.
  package var thrown: (any Error)?

  init(target: RuntimeObject, selector: Selector, values: [Any], canThrow: Bool) {
    self.target = ObjectIdentifier(target)
    self.selector = selector
    self.values = values
    self.canThrow = canThrow
  }
}

/// A Swift value with no C form — a `String`, an optional, an enum, an array, a closure —
/// as a runtime object: how such an argument or result of a `@Delegate` protocol's method
/// travels in a runtime message, whose signature types it `@`.
///
/// A stand-in (``DelegateStandIn``) wraps each such argument in one for the message it
/// sends; the receiver — a test double, a ``MulticastProxy`` of runtime objects — reads
/// it back with ``value(of:as:)``, and a double that records the call keeps it (its copy
/// of the value). A stub answers a Swift result the same way.
///
/// ```swift
/// let title: String? = SwiftValueObject.value(of: invocationArgument, as: String.self)
/// ```
public final class SwiftValueObject: RuntimeObject, @unchecked Sendable {
  // @unchecked Sendable: `value` is a `let` written once in init — the sender's copy of
  // its argument, handed over with the message as a queued delegate's arguments are (see
  // UncheckedSendable); readers copy it out.

  /// The value.
  package let value: Any

  /// The runtime class of every wrapped value: `SwiftValue`.
  package static let valueClass: RuntimeClass = {
    if let existing = RuntimeClass.named("SwiftValue") { return existing }
    // Only this initializer makes the class, once: a failure is a runtime bug.
    return try! RuntimeClass(name: "SwiftValue")
  }()

  /// `value` as a runtime object.
  package init(_ value: Any) {
    self.value = value
    super.init(class: Self.valueClass)
  }

  /// The value wrapped by the object whose handle is `rawValue`, as `T`; nil for nil, for
  /// an object that is not a wrapped value, or for a value of another type.
  public static func value<T>(of rawValue: OpaquePointer?, as _: T.Type = T.self) -> T? {
    guard let object = RuntimeObject.object(rawValue: rawValue) as? SwiftValueObject else {
      return nil
    }
    return object.value as? T
  }

  /// `SwiftValue` and the value.
  public override var description: String { "<SwiftValue \(value)>" }
}
