import MessageRuntime

/// A rule that folds every responder's answer, in responder order, into the one value the
/// caller receives — `GCDMulticastDelegate`'s "if ANY of the delegates return NO, then
/// the result is NO", as data.
///
/// A reducer is typed by the result it folds, so a mismatch is a compile error: for a
/// `@Delegate` method returning `Bool`, `.allTrue` and `.anyTrue`; for an optional,
/// `.firstNonNil`; for any result, ``first``, ``last``, ``combine(_:name:_:)``,
/// ``collect(_:name:_:)`` and ``fold(_:name:initial:_:)``; for a `Comparable` one, ``min``
/// and ``max``:
///
/// ```swift
/// delegates.setPolicy(.reduce(.allTrue), for: \.sensorShouldStart)          // Bool
/// delegates.setPolicy(.reduce(.firstNonNil), for: \.chatTitleFor)           // String?
/// delegates.setPolicy(.reduce(.collect { $0.max() ?? 0 }), for: \.rowHeight) // Double
/// ```
///
/// ``MulticastProxy``, which sees C values it knows only at run time, folds
/// `Reducer<ReturnValue>`s: the same built-in rules for any C integer, object or pointer
/// result, and folds over raw values (``init(name:accepts:_:)``).
public struct Reducer<Value>: Sendable, CustomStringConvertible {
  /// A short name for diagnostics.
  package let name: String
  /// Whether the reducer can produce a value of a C return type (the runtime's check).
  let accepts: @Sendable (TypeEncoding) -> Bool
  /// The fold on C values: the responders' values in order, the return type → the
  /// result's bytes.
  let body: @Sendable ([ReturnValue], TypeEncoding) throws -> [UInt8]
  /// The rule of a built-in reducer, which the C routes and the fast paths run without
  /// collecting answers; nil for a fold the caller runs on the collected answers.
  var rule: ReducerRule?
  /// The fold on Swift values (the `@Delegate` multicasts run it on their answers as they
  /// are); nil for reducers on C values only. Returns nil for no answer: the method's
  /// answer for no delegates then applies.
  let swiftReduction: (@Sendable ([Any]) -> Any?)?
  /// The fold on Swift values that also wants to know which member gave each answer
  /// (``multicast(_:name:)``); the multicasts call it in place of ``swiftReduction`` when they
  /// know. Nil for every other reducer: a dispatch then collects no member numbers.
  let sourcedReduction: (@Sendable ([Any], AnswerSources) -> Any?)?
  /// The same reduction one answer at a time, for a reducer that has one
  /// (``combine(_:name:_:)``): the fast loop runs it without collecting the answers.
  let pairwise: AnyPairwiseReduction?

  init(
    name: String, rule: ReducerRule? = nil,
    accepts: @escaping @Sendable (TypeEncoding) -> Bool = { _ in true },
    body: @escaping @Sendable ([ReturnValue], TypeEncoding) throws -> [UInt8],
    swiftReduction: (@Sendable ([Any]) -> Any?)?,
    sourcedReduction: (@Sendable ([Any], AnswerSources) -> Any?)? = nil,
    pairwise: AnyPairwiseReduction? = nil
  ) {
    self.name = name
    self.rule = rule
    self.accepts = accepts
    self.body = body
    self.swiftReduction = swiftReduction
    self.sourcedReduction = sourcedReduction
    self.pairwise = pairwise
  }

  /// A readable rendering, for logs and diagnostics.
  public var description: String { name }

  /// The same reducer seen as folding `Other` — the stored rule and folds are untyped, so
  /// this only re-labels it: the multicasts keep their policies in one (erased) form and
  /// hand each method back its own type.
  func relabeled<Other>(as _: Other.Type = Other.self) -> Reducer<Other> {
    Reducer<Other>(
      name: name, rule: rule, accepts: accepts, body: body, swiftReduction: swiftReduction,
      sourcedReduction: sourcedReduction, pairwise: pairwise)
  }

  /// The reduction one answer at a time, when the reducer has one and reduces `type` (a
  /// method's result type, by identity); nil otherwise.
  func pairwiseReduction(of type: ObjectIdentifier) -> AnyPairwiseReduction? {
    pairwise.flatMap { $0.valueType == type ? $0 : nil }
  }

  // MARK: Any result

  /// Every responder is called; the **first** one's answer is returned (the method's
  /// answer for no delegates when nobody answers). Unlike ``ReturnPolicy/firstResponder``,
  /// the others still hear the call: what an injected plugin that only observes needs.
  public static var firstAnswer: Reducer<Value> {
    Reducer(
      name: "firstAnswer", rule: .firstAnswer,
      body: { values, type in
        try values.first?.bytes ?? ReducerSupport.zero(type)
      },
      swiftReduction: { $0.first })
  }

  /// Every responder is called; the **last** one's answer is returned (the method's
  /// answer for no delegates when nobody answers) — ``ReturnPolicy/lastResponder`` as a
  /// reducer, for ``DelegateMulticast/aggregate(_:_:reducer:)-(DelegateMulticast<Delegate,Handles>.HandleKey<(Argument),Result>,_,_)``.
  public static var last: Reducer<Value> {
    Reducer(
      name: "last", rule: .last,
      body: { values, type in
        try values.last?.bytes ?? ReducerSupport.zero(type)
      },
      swiftReduction: { $0.last })
  }

  /// Hands every responder's answer, in order, to `finish`, which chooses the result
  /// (the longest title, the merged options). `type` may be left out where the context
  /// names it.
  public static func collect(
    _ type: Value.Type = Value.self, name: String = "collect",
    _ finish: @escaping @Sendable ([Value]) -> Value
  ) -> Reducer<Value> {
    // The multicast hands a fold only its own method's answers, all of type `Value`.
    reducing(name: name) { values in finish(values.map { $0 as! Value }) }
  }

  /// A reducer running `swiftReduction` on Swift answers and, for a `Value` that is a C type, on
  /// C callers' values; `pairwise` is the same reduction one answer at a time, if it has one.
  private static func reducing(
    name: String, pairwise: AnyPairwiseReduction? = nil,
    _ swiftReduction: @escaping @Sendable ([Any]) -> Any?
  ) -> Reducer<Value> {
    // C callers of a multicast (its C face) fold C values: a `Value` that is a C type is
    // read from them and written back; any other has no C form to fold.
    guard let cType = Value.self as? any MessageArgument.Type else {
      return Reducer(
        name: name, accepts: { _ in false },
        body: { _, type in
          throw DelegateProxyError.reducerTypeMismatch(
            reducer: name, returnType: type.canonicalString)
        },
        swiftReduction: swiftReduction, pairwise: pairwise)
    }
    return Reducer(
      name: name, accepts: { ReducerSupport.fits(cType, $0) },
      body: { values, type in try ReducerSupport.reduceC(cType, values, type, swiftReduction) },
      swiftReduction: swiftReduction, pairwise: pairwise)
  }

  /// Combines the answers pairwise, in responder order: the first answer, then
  /// `combine(running, next)` for each later one; nobody answering is the method's answer
  /// for no delegates (its `@Default`). Run one answer at a time, so a call collects no
  /// answers and allocates nothing (``collect(_:name:_:)`` hands its `finish` an array).
  ///
  /// ```swift
  /// sinks.setPolicy(.reduce(.combine { $0.union($1) }), for: \.supportedFormats)
  /// ```
  public static func combine(
    _ type: Value.Type = Value.self, name: String = "combine",
    _ combine: @escaping @Sendable (Value, Value) -> Value
  ) -> Reducer<Value> {
    pairwise(PairwiseReduction(combine), name: name)
  }

  /// The reducer that runs `reduction`: one answer at a time on the fast loop, on the
  /// collected answers elsewhere.
  @usableFromInline
  static func pairwise(_ reduction: PairwiseReduction<Value>, name: String) -> Reducer<Value> {
    reducing(name: name, pairwise: reduction) { values in reduction.reduce(values) }
  }

  /// A left fold from `initial` over every responder's answer in order (`fold(initial: 0,
  /// +)` sums them).
  public static func fold(
    _ type: Value.Type = Value.self, name: String = "fold", initial: Value,
    _ combine: @escaping @Sendable (Value, Value) -> Value
  ) -> Reducer<Value> where Value: Sendable {
    collect(type, name: name) { values in values.reduce(initial, combine) }
  }
}

// MARK: Typed built-in rules

extension Reducer where Value: Comparable {
  /// The least answer (the first of equal ones): the most verbose of the handlers' log
  /// levels. Nobody answering is the method's answer for no delegates. Allocates nothing
  /// (see ``combine(_:name:_:)``).
  @inlinable
  public static var min: Reducer<Value> {
    pairwise(PairwiseReduction { running, next in next < running ? next : running }, name: "min")
  }
  /// The greatest answer (the first of equal ones). Nobody answering is the method's
  /// answer for no delegates. Allocates nothing (see ``combine(_:name:_:)``).
  @inlinable
  public static var max: Reducer<Value> {
    pairwise(PairwiseReduction { running, next in next > running ? next : running }, name: "max")
  }
}

extension Reducer where Value == Bool {
  /// True when every responder answered true; true with no responders ("any NO wins").
  public static var allTrue: Reducer<Bool> { ReducerSupport.allTrue.relabeled() }
  /// True when some responder answered true; false with no responders.
  public static var anyTrue: Reducer<Bool> { ReducerSupport.anyTrue.relabeled() }
}

extension Reducer where Value: ExpressibleByNilLiteral {
  /// The first responder's answer that is not nil; nil when every answer was nil.
  public static var firstNonNil: Reducer<Value> { ReducerSupport.firstNonNil.relabeled() }
}

extension Reducer where Value == Any {
  /// For a `@Delegate` multicast's default policy, which every method shares: each
  /// method's answers are true when nonzero (`true`, nonzero numbers); true when all are.
  public static var allTrue: Reducer<Any> { ReducerSupport.allTrue.relabeled() }
  /// For a default policy: true when some answer is nonzero.
  public static var anyTrue: Reducer<Any> { ReducerSupport.anyTrue.relabeled() }
  /// For a default policy: the first answer that is not nil (not zero, for a result that
  /// is not optional).
  public static var firstNonNil: Reducer<Any> { ReducerSupport.firstNonNil.relabeled() }
}

// MARK: C values (MulticastProxy)

extension Reducer where Value == ReturnValue {
  // `.allTrue` and `.anyTrue` for a MulticastProxy are `Reducer<Bool>`'s, through
  // `ReturnPolicy.reduce(_:)` of a typed reducer: their rule tests any C integer's truth.

  /// The first responder's value that is not nil (not all-zero bytes); nil (zero) when
  /// every responder returned nil. For objects, pointers, selectors, C strings — any type.
  public static var firstNonNil: Reducer<ReturnValue> { ReducerSupport.firstNonNil }

  /// A reducer over raw values: `body` receives every responder's value in order and
  /// the message's return type, and returns the result's bytes (exactly the return
  /// type's size). `accepts` says which return types it handles (all by default).
  public init(
    name: String, accepts: @escaping @Sendable (TypeEncoding) -> Bool = { _ in true },
    _ body: @escaping @Sendable ([ReturnValue], TypeEncoding) throws -> [UInt8]
  ) {
    self.init(name: name, accepts: accepts, body: body, swiftReduction: nil)
  }

  /// Folds `values` for a message returning `type`; throws when the reducer cannot make
  /// a value of that type.
  package func reduce(_ values: [ReturnValue], returning type: TypeEncoding) throws -> ReturnValue {
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

  /// Collects every responder's value as the C type `T` and lets `finish` choose the
  /// result (e.g. the maximum height).
  public static func collect<T: MessageArgument>(
    _ type: T.Type, name: String = "collect", _ finish: @escaping @Sendable ([T]) -> T
  ) -> Reducer<ReturnValue> {
    Reducer(name: name, accepts: { ReducerSupport.fits(T.self, $0) }) { values, returnType in
      var typed: [T] = []
      for v in values { typed.append(try v.value(as: T.self)) }
      return try ReturnValue(finish(typed), type: returnType).bytes
    }
  }

  /// A typed left fold over C values: starts from `initial` and combines each
  /// responder's value in order (`fold(Int.self, initial: 0, +)` sums them).
  public static func fold<T: MessageArgument & Sendable>(
    _ type: T.Type, name: String = "fold", initial: T, _ combine: @escaping @Sendable (T, T) -> T
  ) -> Reducer<ReturnValue> {
    collect(type, name: name) { values in values.reduce(initial, combine) }
  }
}

extension Reducer where Value: MessageArgument {
  /// The reducer as ``MulticastProxy`` runs it, on C values: a built-in rule as it is; a
  /// typed fold (``collect(_:name:_:)``, ``fold(_:name:initial:_:)``) reading each answer
  /// as a `Value` and writing its result back in the message's return type.
  var onCValues: Reducer<ReturnValue> { relabeled() }
}

extension ReturnPolicy where Value == ReturnValue {
  /// Every responder is called and their C values are folded by a reducer typed by the
  /// message's C result (`Reducer<Double>.collect { $0.max() ?? 44 }` for a `double`):
  /// each answer is read as a `Result`, and the fold written back in the return type.
  public static func reduce<Result: MessageArgument>(_ reducer: Reducer<Result>) -> Self {
    .reduce(reducer.onCValues)
  }
}

extension ReturnPolicy where Value: MessageArgument {
  /// The policy as ``MulticastProxy`` runs it, on C values.
  var onCValues: ReturnPolicy<ReturnValue> {
    switch self {
    case .lastResponder: .lastResponder
    case .firstResponder: .firstResponder
    case .reduce(let r): .reduce(r.onCValues)
    }
  }
}

/// The built-in rules, made once for every result type, and the helpers of the C folds.
enum ReducerSupport {
  static let allTrue = Reducer<ReturnValue>(
    name: "all true", rule: .allTrue, accepts: isTruthType,
    body: { values, type in try truthBytes(values.allSatisfy { !$0.isZero }, type) },
    swiftReduction: nil)

  static let anyTrue = Reducer<ReturnValue>(
    name: "any true", rule: .anyTrue, accepts: isTruthType,
    body: { values, type in try truthBytes(values.contains { !$0.isZero }, type) },
    swiftReduction: nil)

  static let firstNonNil = Reducer<ReturnValue>(
    name: "first non-nil", rule: .firstNonNil,
    body: { values, type in
      if let found = values.first(where: { !$0.isZero }) { return found.bytes }
      return try zero(type)
    },
    swiftReduction: nil)

  /// A fold of Swift values run on C values of the C type `T`: each read as a `T`, the
  /// result written back in `type` (zero when the fold gives no answer).
  static func reduceC<T: MessageArgument>(
    _: T.Type, _ values: [ReturnValue], _ type: TypeEncoding,
    _ reduce: @Sendable ([Any]) -> Any?
  ) throws -> [UInt8] {
    let typed = try values.map { try $0.value(as: T.self) }
    guard let reduced = reduce(typed) as? T else { return try zero(type) }
    return try ReturnValue(reduced, type: type).bytes
  }

  /// All-zero bytes of `type`.
  static func zero(_ type: TypeEncoding) throws -> [UInt8] {
    [UInt8](repeating: 0, count: try type.layout().size)
  }

  /// Integer and boolean types, which have a truth value.
  @Sendable static func isTruthType(_ type: TypeEncoding) -> Bool {
    switch type.unqualified {
    case .bool, .char, .unsignedChar, .short, .unsignedShort, .int, .unsignedInt, .long,
      .unsignedLong, .longLong, .unsignedLongLong:
      return true
    default:
      return false
    }
  }

  /// 1 or 0 in the integer width of `type`.
  static func truthBytes(_ value: Bool, _ type: TypeEncoding) throws -> [UInt8] {
    var bytes = try zero(type)
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
