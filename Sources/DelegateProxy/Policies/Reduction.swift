import MessageRuntime

/// How one message combines its responders' results: the ``ReturnPolicy`` in force,
/// resolved for the method's result type. THE rule every path folds by — a Swift
/// multicast's loops, queued and asynchronous aggregation, ``MulticastProxy``'s forwarding
/// path — and, spelled the same, the C routes (`RouteReducer`, `dp_reducer`).
@usableFromInline
enum ReducerRule: UInt8, Sendable {
  /// A `void` method: every responder is called; nothing to combine.
  case every
  /// ``ReturnPolicy/lastResponder``: every responder is called; the last answer wins.
  case last
  /// ``ReturnPolicy/firstResponder``: only the first responder is called.
  case first
  /// ``Reducer/firstAnswer``: every responder is called; the first answer wins.
  case firstAnswer
  /// ``Reducer/allTrue``.
  case allTrue
  /// ``Reducer/anyTrue``.
  case anyTrue
  /// ``Reducer/firstNonNil``: the first answer that is not nil (not all-zero bytes).
  case firstNonNil
  /// Any other reducer: the answers are collected and folded by the ``Reducer``.
  case custom

  /// The rule `policy` gives a method whose result is `void` or not.
  init(_ policy: ErasedPolicy, returnsVoid: Bool) {
    if returnsVoid {
      self = .every
      return
    }
    switch policy {
    case .lastResponder: self = .last
    case .firstResponder: self = .first
    case .reduce(let reducer): self = reducer.rule ?? .custom
    }
  }
}

/// One dispatch's running combination of its responders' answers, by its ``ReducerRule``:
/// THE fold — a Swift multicast's fast path, queued path and asynchronous aggregation, and
/// ``MulticastProxy``'s forwarding path (on ``ReturnValue``s) all add answers here and ask
/// it for the outcome. Trivially copyable for a trivial `Value`, so the fast path keeps it
/// in registers; a custom reducer's answers are collected by the caller.
@usableFromInline
struct Reduction<Value> {
  @usableFromInline let rule: ReducerRule
  /// The answer to give (last, first, first non-nil).
  @usableFromInline var result: Value?
  /// The truth rules' running answer.
  @usableFromInline var truth: Bool
  /// How many responders answered.
  @usableFromInline var answered = 0

  @inlinable
  init(_ rule: ReducerRule) {
    self.rule = rule
    truth = rule == .allTrue
  }

  /// Adds one responder's answer; true when no further responder is to be called.
  @inlinable
  mutating func add(_ value: Value) -> Bool {
    // Wrapping: no overflow trap to test per answer (a count of calls never reaches 2^63).
    answered &+= 1
    switch rule {
    case .every, .last: result = value
    case .first:
      result = value
      return true
    case .firstAnswer: if answered == 1 { result = value }
    case .allTrue: if truth && !Reduction.isNonZero(value) { truth = false }
    case .anyTrue: if !truth && Reduction.isNonZero(value) { truth = true }
    case .firstNonNil: if result == nil && Reduction.isNonZero(value) { result = value }
    case .custom: break  // the caller collects the values
    }
    return false
  }

  /// Whether `value`, the only answer of a dispatch folded by `rule`, is the dispatch's
  /// answer as it is: what ``add(_:)`` then ``outcome`` would give, without them (last,
  /// first, first answer; first non-nil when it is not nil). False for the truth rules and
  /// a custom reducer, whose answer is a fold.
  @inlinable @inline(__always)
  static func answersAlone(_ value: Value, by rule: ReducerRule) -> Bool {
    switch rule {
    case .every, .last, .first, .firstAnswer: true
    case .firstNonNil: isNonZero(value)
    case .allTrue, .anyTrue, .custom: false
    }
  }

  /// Whether the answer, when there is one, is one of the responders' own (last, first,
  /// first non-nil): the fast path then takes ``result`` out (no copy) and returns it.
  // Always inlined: behind the void check in `__send` the inliner left it out of line for
  // `String?`, a call per dispatch (6 instructions more under callgrind).
  @inlinable @inline(__always) var hasDirectAnswer: Bool { rule != .allTrue && rule != .anyTrue }

  /// What the dispatch answers.
  @usableFromInline var outcome: ReductionOutcome<Value> {
    switch rule {
    case .allTrue, .anyTrue: return .truth(truth)
    case .custom: return .reduce
    case .every, .last, .first, .firstAnswer, .firstNonNil:
      if let result { return .answer(result) }
      // No answer: under last responder an unanswered message (no responder at all) is
      // AIMultiDelegate's unrecognized selector, unless the multicast is silent.
      return answered == 0 && rule == .last ? .unanswered : .zero
    }
  }

  /// Whether an answer is not zero: `true`, nonzero, non-nil — the C route rules' test,
  /// on the value's own bytes (a ``ReturnValue``'s C bytes), except that a Swift optional
  /// is tested for `nil` (`String?`'s nil is not all-zero bytes).
  ///
  /// The value's address is taken without stack protection: the bytes are only read, and a
  /// protected address made every dispatch loop that inlines the fold set up and check a
  /// stack canary (Benchmarks/callgrind-swift.sh).
  @inlinable
  static func isNonZero(_ value: Value) -> Bool {
    if Value.self == ReturnValue.self { return !unsafeBitCast(value, to: ReturnValue.self).isZero }
    // A check on the type, folded away when the loop is specialized for it.
    if let optional = Value.self as? any OptionalType.Type {
      return _withUnprotectedUnsafePointer(to: value) { !optional.isNone(at: UnsafeRawPointer($0)) }
    }
    return _withUnprotectedUnsafeBytes(of: value) { bytes in bytes.contains { $0 != 0 } }
  }
}

/// What a finished ``Reduction`` says a dispatch answers.
@usableFromInline
enum ReductionOutcome<Value> {
  /// A responder's answer.
  case answer(Value)
  /// True or false (1 or 0 of the result type): the truth reducers.
  case truth(Bool)
  /// The custom reducer's fold of the collected answers.
  case reduce
  /// Zero of the result type (nil, false, 0): no responder gave an answer the rule keeps.
  case zero
  /// No responder answered a last-responder message: an error or trap unless the
  /// multicast is silent when empty (then zero).
  case unanswered
}
