import MessageRuntime

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
  public let value: Any

  /// The runtime class of every wrapped value: `SwiftValue`.
  public static let valueClass: RuntimeClass = {
    if let existing = RuntimeClass.named("SwiftValue") { return existing }
    // Only this initializer makes the class, once: a failure is a runtime bug.
    return try! RuntimeClass(name: "SwiftValue")
  }()

  /// `value` as a runtime object.
  public init(_ value: Any) {
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
