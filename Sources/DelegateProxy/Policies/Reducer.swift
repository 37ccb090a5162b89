import MessageRuntime

/// A rule that folds every responder's return value, in responder order, into the one
/// value the sender receives — `GCDMulticastDelegate`'s "if ANY of the delegates return
/// NO, then the result is NO", as data.
///
/// Used by ``ReturnPolicy/reduce(_:)`` for synchronous sends and by the proxy's
/// asynchronous aggregation (`aggregate`), which also reaches delegates on queues.
///
/// Built in: ``allTrue``, ``anyTrue``, ``firstNonNil``; ``collect(_:name:_:)`` hands
/// the whole list to a closure (and `MulticastProxy.collect` returns the list itself);
/// ``fold(_:name:initial:_:)`` is a typed custom fold; ``init(name:accepts:_:)`` works on
/// raw values of any type.
public struct Reducer: Sendable, CustomStringConvertible {
  /// A short name for diagnostics.
  public let name: String
  /// Whether the reducer can produce a value of a return type.
  let accepts: @Sendable (TypeEncoding) -> Bool
  /// The fold: the responders' values in order, the return type → the result's bytes.
  let body: @Sendable ([ReturnValue], TypeEncoding) throws -> [UInt8]
  /// The rule of a built-in reducer, which the C routes and the fast paths run without
  /// collecting answers; nil for any other reducer.
  var rule: FoldRule? = nil
  /// A fold of Swift values (``collect(_:name:_:)-swift`` for a type with no C form): the
  /// Swift multicasts run it on their answers as they are; nil for reducers on C values.
  let swiftFold: SwiftFold?

  /// A typed fold of Swift values, its type's identity beside it.
  struct SwiftFold: Sendable {
    let type: ObjectIdentifier
    let typeName: String
    let body: @Sendable ([Any]) -> Any
  }

  /// A reducer over raw values: `body` receives every responder's value in order and
  /// the message's return type, and returns the result's bytes (exactly the return
  /// type's size). `accepts` says which return types it handles (all by default).
  public init(
    name: String, accepts: @escaping @Sendable (TypeEncoding) -> Bool = { _ in true },
    _ body: @escaping @Sendable ([ReturnValue], TypeEncoding) throws -> [UInt8]
  ) {
    self.name = name
    self.accepts = accepts
    self.body = body
    swiftFold = nil
  }

  /// A reducer on Swift values only.
  private init(name: String, swiftFold: SwiftFold) {
    self.name = name
    accepts = { _ in false }
    body = { _, type in
      throw DelegateProxyError.reducerTypeMismatch(reducer: name, returnType: type.canonicalString)
    }
    self.swiftFold = swiftFold
  }

  /// Folds `values` for a message returning `type`; throws when the reducer cannot make
  /// a value of that type.
  public func reduce(_ values: [ReturnValue], returning type: TypeEncoding) throws -> ReturnValue {
    guard accepts(type) else {
      throw DelegateProxyError.reducerTypeMismatch(reducer: name, returnType: type.canonicalString)
    }
    let bytes = try body(values, type)
    let size = try type.layout().size
    guard bytes.count == size else {
      throw DelegateProxyError.reducerTypeMismatch(reducer: name, returnType: type.canonicalString)
    }
    return ReturnValue(type: type, bytes: bytes)
  }

  /// A readable rendering, for logs and diagnostics.
  public var description: String { name }

  // MARK: Built in

  /// True when every responder returned true (nonzero); true with no responders.
  /// For `BOOL`/`_Bool` and integer results: `shouldX` answered "any NO wins".
  public static let allTrue = Reducer(name: "all true", accepts: isTruthType) { values, type in
    try truthBytes(values.allSatisfy { !$0.isZero }, type)
  }.routed(as: .allTrue)

  /// True when some responder returned true (nonzero); false with no responders.
  public static let anyTrue = Reducer(name: "any true", accepts: isTruthType) { values, type in
    try truthBytes(values.contains { !$0.isZero }, type)
  }.routed(as: .anyTrue)

  /// The first responder's value that is not nil (not all-zero bytes); nil (zero) when
  /// every responder returned nil. For objects, pointers, selectors, C strings — any type.
  public static let firstNonNil = Reducer(name: "first non-nil") { values, type in
    if let found = values.first(where: { !$0.isZero }) { return found.bytes }
    return [UInt8](repeating: 0, count: try type.layout().size)
  }.routed(as: .firstNonNil)

  /// This reducer, marked as computed by the C route rule `combine`.
  private func routed(as rule: FoldRule) -> Reducer {
    var r = self
    r.rule = rule
    return r
  }

  /// Collects every responder's value as `T` and lets `finish` choose the result
  /// (e.g. the maximum height, the longest title).
  public static func collect<T: MessageArgument>(
    _ type: T.Type, name: String = "collect", _ finish: @escaping @Sendable ([T]) -> T
  ) -> Reducer {
    let body: @Sendable ([ReturnValue], TypeEncoding) throws -> [UInt8] = { values, returnType in
      var typed: [T] = []
      for v in values { typed.append(try v.value(as: T.self)) }
      return try ReturnValue(finish(typed), type: returnType).bytes
    }
    return Reducer(name: name, accepts: { fits(T.self, $0) }, body)
  }

  /// Collects every responder's value as a Swift value of any type — `String`, an enum,
  /// an optional — and lets `finish` choose the result (the longest title, the merged
  /// options). For the Swift multicasts (`@Delegate`); ``MulticastProxy``, which sees C
  /// values only, refuses it.
  public static func collect<T>(
    _ type: T.Type, name: String = "collect", _ finish: @escaping @Sendable ([T]) -> T
  ) -> Reducer {
    Reducer(
      name: name,
      swiftFold: SwiftFold(
        type: ObjectIdentifier(T.self), typeName: String(reflecting: T.self),
        body: { values in finish(values.map { $0 as! T }) }))
  }

  /// A typed left fold over Swift values of any type (`fold(String.self, initial: "",
  /// +)` joins them). For the Swift multicasts, as ``collect(_:name:_:)-swift``.
  public static func fold<T: Sendable>(
    _ type: T.Type, name: String = "fold", initial: T, _ combine: @escaping @Sendable (T, T) -> T
  ) -> Reducer {
    collect(type, name: name) { values in values.reduce(initial, combine) }
  }

  /// A typed left fold: starts from `initial` and combines each responder's value in
  /// order (`fold(Int.self, initial: 0, +)` sums them).
  public static func fold<T: MessageArgument & Sendable>(
    _ type: T.Type, name: String = "fold", initial: T, _ combine: @escaping @Sendable (T, T) -> T
  ) -> Reducer {
    let body: @Sendable ([ReturnValue], TypeEncoding) throws -> [UInt8] = { values, returnType in
      var acc = initial
      for v in values { acc = combine(acc, try v.value(as: T.self)) }
      return try ReturnValue(acc, type: returnType).bytes
    }
    return Reducer(name: name, accepts: { fits(T.self, $0) }, body)
  }

  // MARK: Helpers

  /// Integer and boolean types, which have a truth value.
  @Sendable static func isTruthType(_ type: TypeEncoding) -> Bool {
    switch type.unqualified {
    case .bool, .char, .unsignedChar, .short, .unsignedShort, .int, .unsignedInt, .long,
      .unsignedLong,
      .longLong, .unsignedLongLong:
      return true
    default:
      return false
    }
  }

  /// 1 or 0 in the integer width of `type`.
  static func truthBytes(_ value: Bool, _ type: TypeEncoding) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: try type.layout().size)
    if value, !bytes.isEmpty {
      // The low-order byte: first in memory on little-endian targets, last otherwise.
      bytes[UInt16(1).littleEndian == 1 ? 0 : bytes.count - 1] = 1
    }
    return bytes
  }

  /// Whether a Swift type's values are of `type` (the same canonical encoding; any
  /// object type for `@`). Declare object results optional (`RuntimeObject?`) when a
  /// responder may return nil.
  static func fits<T: MessageArgument>(_: T.Type, _ type: TypeEncoding) -> Bool {
    let a = T.typeEncoding.unqualified
    let b = type.unqualified
    if a.canonicalString == b.canonicalString { return true }
    switch (a, b) {
    case (.object, .block), (.block, .object): return true
    case (.pointer(.void), .pointer), (.pointer, .pointer(.void)): return true
    default: return false
    }
  }
}
