/// A Swift type that can travel in a message as an argument or result: it knows its
/// Objective-C type encoding and how to move itself in and out of a frame slot.
///
/// Integers, floating point, `Bool`, pointers, `Selector`, `RuntimeObject` (as `@`) and
/// `RuntimeClass` (as `#`) conform. Conform your own C-layout structs by giving their
/// encoding; `load`/`store` come free for `BitwiseCopyable` types:
///
/// ```swift
/// struct CGPoint: MessageArgument, BitwiseCopyable {
///   var x: Double, y: Double
///   static let typeEncoding: TypeEncoding = .structure(name: "CGPoint", fields: [.double, .double])
///   // Optional: its bytes are its C layout, so typed sends copy it with the others.
///   static var representation: MessageArgumentRepresentation { .bitwise }
/// }
/// ```
///
/// A `Message` checks, when declared, that each type's size and alignment equal its
/// encoding's.
public protocol MessageArgument: SendableMetatype {
  /// The type's encoding (`@encode`).
  static var typeEncoding: TypeEncoding { get }
  /// Reads a value from a frame slot holding this type's C representation.
  static func load(from pointer: UnsafeRawPointer) -> Self
  /// Writes the value's C representation into a frame slot.
  func store(to pointer: UnsafeMutableRawPointer)
  /// How the value's own bytes relate to its C representation. `.bitwise` and
  /// `.objectHandle` let a typed send copy all its arguments into the frame at once
  /// instead of storing them one by one. The provided default is `.stored`; the
  /// library's integer, floating-point, pointer, `Bool` and `Selector` types are
  /// `.bitwise`, `RuntimeObject` is `.objectHandle`. A C-layout struct that keeps the
  /// provided `load`/`store` may declare `.bitwise` (never with a `store` of its own).
  static var representation: MessageArgumentRepresentation { get }
}

/// How a ``MessageArgument``'s bytes relate to its C representation (see
/// ``MessageArgument/representation``).
public enum MessageArgumentRepresentation: Sendable, Equatable {
  /// The value's bytes are its C representation.
  case bitwise
  /// The value's bytes are a reference to a ``RuntimeObject`` (or zero for nil); C sees
  /// the object's handle.
  case objectHandle
  /// Only ``MessageArgument/store(to:)`` writes the C representation.
  case stored
}

extension MessageArgument {
  /// `.stored`: the value is written with `store(to:)`.
  public static var representation: MessageArgumentRepresentation { .stored }
}

extension MessageArgument where Self: FixedWidthInteger & BitwiseCopyable {
  /// `.bitwise`.
  public static var representation: MessageArgumentRepresentation { .bitwise }
}

extension MessageArgument where Self: BinaryFloatingPoint & BitwiseCopyable {
  /// `.bitwise`.
  public static var representation: MessageArgumentRepresentation { .bitwise }
}

extension MessageArgument where Self: _Pointer {
  /// `.bitwise`.
  public static var representation: MessageArgumentRepresentation { .bitwise }
}

extension MessageArgument where Self: BitwiseCopyable {
  /// Reads the bits as they are.
  @inlinable public static func load(from pointer: UnsafeRawPointer) -> Self {
    pointer.loadUnaligned(as: Self.self)
  }
  /// Writes the bits as they are.
  @inlinable public func store(to pointer: UnsafeMutableRawPointer) {
    pointer.storeBytes(of: self, toByteOffset: 0, as: Self.self)
  }
}

/// A pointer-like argument whose `nil` is the all-zero word, so `Optional` of it can
/// travel in a message too.
public protocol NullableMessageArgument: MessageArgument {}

extension Optional: MessageArgument where Wrapped: NullableMessageArgument {
  /// The wrapped type's encoding.
  public static var typeEncoding: TypeEncoding { Wrapped.typeEncoding }
  /// Nil for a zero word, else the wrapped value.
  @inlinable public static func load(from pointer: UnsafeRawPointer) -> Self {
    pointer.loadUnaligned(as: UInt.self) == 0 ? nil : Wrapped.load(from: pointer)
  }
  /// A zero word for nil.
  @inlinable public func store(to pointer: UnsafeMutableRawPointer) {
    if let value = self {
      value.store(to: pointer)
    } else {
      pointer.storeBytes(of: 0, as: UInt.self)
    }
  }
  /// The wrapped type's (its nil is the zero word, as in C).
  public static var representation: MessageArgumentRepresentation { Wrapped.representation }
}

extension Int8: MessageArgument { public static var typeEncoding: TypeEncoding { .char } }
extension UInt8: MessageArgument { public static var typeEncoding: TypeEncoding { .unsignedChar } }
extension Int16: MessageArgument { public static var typeEncoding: TypeEncoding { .short } }
extension UInt16: MessageArgument {
  public static var typeEncoding: TypeEncoding { .unsignedShort }
}
extension Int32: MessageArgument { public static var typeEncoding: TypeEncoding { .int } }
extension UInt32: MessageArgument { public static var typeEncoding: TypeEncoding { .unsignedInt } }
extension Int64: MessageArgument { public static var typeEncoding: TypeEncoding { .longLong } }
extension UInt64: MessageArgument {
  public static var typeEncoding: TypeEncoding { .unsignedLongLong }
}
extension Int: MessageArgument { public static var typeEncoding: TypeEncoding { .longLong } }
extension UInt: MessageArgument {
  public static var typeEncoding: TypeEncoding { .unsignedLongLong }
}
extension Float: MessageArgument { public static var typeEncoding: TypeEncoding { .float } }
extension Double: MessageArgument { public static var typeEncoding: TypeEncoding { .double } }
#if arch(x86_64)
  extension Float80: MessageArgument {
    public static var typeEncoding: TypeEncoding { .longDouble }
  }
#endif

extension Bool: MessageArgument {
  /// `B`, C's `_Bool`.
  public static var typeEncoding: TypeEncoding { .bool }
  /// Any nonzero byte is true, as in C.
  @inlinable public static func load(from pointer: UnsafeRawPointer) -> Bool {
    pointer.load(as: UInt8.self) != 0
  }
  /// 1 or 0.
  @inlinable public func store(to pointer: UnsafeMutableRawPointer) {
    pointer.storeBytes(of: self ? 1 : 0, as: UInt8.self)
  }
  /// `.bitwise`: a Swift `Bool` is the byte 0 or 1, as C's `_Bool`.
  public static var representation: MessageArgumentRepresentation { .bitwise }
}

extension UnsafeRawPointer: NullableMessageArgument {
  /// `^v`.
  public static var typeEncoding: TypeEncoding { .pointer(.void) }
}
extension UnsafeMutableRawPointer: NullableMessageArgument {
  /// `^v`.
  public static var typeEncoding: TypeEncoding { .pointer(.void) }
}
extension OpaquePointer: NullableMessageArgument {
  /// `^v`.
  public static var typeEncoding: TypeEncoding { .pointer(.void) }
  /// `.bitwise`.
  public static var representation: MessageArgumentRepresentation { .bitwise }
}
extension UnsafePointer: MessageArgument, NullableMessageArgument where Pointee: MessageArgument {
  /// `^T`, or `*` for a `char` pointer.
  public static var typeEncoding: TypeEncoding {
    Pointee.self == CChar.self ? .cString : .pointer(Pointee.typeEncoding)
  }
}
extension UnsafeMutablePointer: MessageArgument, NullableMessageArgument
where Pointee: MessageArgument {
  /// `^T`, or `*` for a `char` pointer.
  public static var typeEncoding: TypeEncoding {
    Pointee.self == CChar.self ? .cString : .pointer(Pointee.typeEncoding)
  }
}

extension Selector: NullableMessageArgument {
  /// `:`.
  public static var typeEncoding: TypeEncoding { .selector }
  /// The selector in the slot.
  @inlinable public static func load(from pointer: UnsafeRawPointer) -> Selector {
    Selector(rawValue: pointer.load(as: OpaquePointer.self))
  }
  /// The interned pointer.
  @inlinable public func store(to pointer: UnsafeMutableRawPointer) {
    pointer.storeBytes(of: rawValue, as: OpaquePointer.self)
  }
  /// `.bitwise`: a selector is its one interned pointer.
  public static var representation: MessageArgumentRepresentation { .bitwise }
}

extension RuntimeObject: NullableMessageArgument {
  /// `@`.
  public static var typeEncoding: TypeEncoding { .object }
  /// The object whose handle is in the slot. A nil handle, or an object of another
  /// class than the message declared, stops the process with a message naming both:
  /// declare the argument optional (`RuntimeObject?`) to accept nil.
  @inlinable public static func load(from pointer: UnsafeRawPointer) -> Self {
    let handle = pointer.load(as: OpaquePointer?.self)
    guard let object = RuntimeObject.object(rawValue: handle) else {
      fatalError(
        "message argument: nil object where \(Self.self) was declared; declare it \(Self.self)?")
    }
    guard let typed = object as? Self else {
      fatalError("message argument: \(type(of: object)) where \(Self.self) was declared")
    }
    return typed
  }
  /// The object's handle.
  @inlinable public func store(to pointer: UnsafeMutableRawPointer) {
    pointer.storeBytes(of: rawValue, as: OpaquePointer.self)
  }
  /// `.objectHandle`.
  public static var representation: MessageArgumentRepresentation { .objectHandle }
}

extension RuntimeClass: NullableMessageArgument {
  /// `#`.
  public static var typeEncoding: TypeEncoding { .classObject }
  /// The class whose C record is in the slot (stops the process for nil: declare the
  /// argument optional to accept it).
  @inlinable public static func load(from pointer: UnsafeRawPointer) -> RuntimeClass {
    guard let cls = RuntimeClass.class(rawValue: pointer.load(as: OpaquePointer?.self)) else {
      fatalError(
        "message argument: nil class where RuntimeClass was declared; declare it RuntimeClass?")
    }
    return cls
  }
  /// The class's C record.
  @inlinable public func store(to pointer: UnsafeMutableRawPointer) {
    pointer.storeBytes(of: rawValue, as: OpaquePointer.self)
  }
}
