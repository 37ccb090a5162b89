import MessageRuntime

/// One responder's return value, as the bytes of the message's return type: what a
/// ``Reducer`` folds and what `collect` hands back. An object value is kept alive
/// while the `ReturnValue` exists.
public struct ReturnValue: Sendable, CustomStringConvertible {
  /// The message's return type.
  public let type: TypeEncoding
  /// The value's bytes (the return type's size, in the platform's byte order).
  public let bytes: [UInt8]
  /// Keeps an object (`@`) or class (`#`) value alive (and hands it to the invocation
  /// that answers with this value).
  let retained: (any AnyObject & Sendable)?

  /// A value of `type` made from its bytes.
  public init(type: TypeEncoding, bytes: [UInt8]) {
    self.type = type
    self.bytes = bytes
    retained = ReturnValue.retain(type: type, bytes: bytes)
  }

  /// A typed value; `T`'s encoding must fit `type`.
  public init<T: MessageArgument>(_ value: T, type: TypeEncoding = T.typeEncoding)
    throws(RuntimeError)
  {
    let signature = try MethodSignature.make(returnType: type, arguments: [.object, .selector])
    let scratch = Invocation(signature: signature)
    try scratch.setReturnValue(value)
    self.init(type: type, bytes: scratch.returnBytes)
  }

  /// The return value an invocation holds.
  init(of invocation: Invocation) {
    self.init(type: invocation.signature.returnType, bytes: invocation.returnBytes)
  }

  private static func retain(type: TypeEncoding, bytes: [UInt8]) -> (any AnyObject & Sendable)? {
    guard bytes.count == MemoryLayout<OpaquePointer>.size else { return nil }
    let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt.self) }
    guard let handle = OpaquePointer(bitPattern: word) else { return nil }
    switch type.unqualified {
    case .object, .block: return RuntimeObject.object(rawValue: handle)
    case .classObject: return RuntimeClass.class(rawValue: handle)
    default: return nil
    }
  }

  /// The value as `T`, checked against ``type`` the way `Invocation` checks
  /// (`getReturnValue:`).
  public func value<T: MessageArgument>(as _: T.Type = T.self) throws(RuntimeError) -> T {
    let signature = try MethodSignature.make(returnType: type, arguments: [.object, .selector])
    let scratch = Invocation(signature: signature)
    try scratch.setReturnBytes(bytes)
    return try scratch.returnValue(as: T.self)
  }

  /// Whether every byte is zero (`nil`, `NO`, `0`).
  @usableFromInline package var isZero: Bool { bytes.allSatisfy { $0 == 0 } }

  /// A stand-in for an answer that stays in its invocation's return buffer (last and
  /// first responder): a fold counts it without copying the bytes.
  static let held: ReturnValue = {
    var value = ReturnValue(type: .void, bytes: [1])
    value.isHeld = true
    return value
  }()

  /// Whether this is ``held``.
  private(set) var isHeld = false

  /// A readable rendering, for logs and diagnostics.
  public var description: String {
    "<\(type.canonicalString) \(bytes.map { String($0, radix: 16) }.joined(separator: " "))>"
  }
}
