/// A reducer's reduction taken one answer at a time (``Reducer/combine(_:name:_:)``,
/// ``Reducer/min``, ``Reducer/max``): the fast dispatch loop combines each answer into a
/// running value as it comes, so a call collects no array of answers and allocates
/// nothing. The general path (queues, observers) runs the same fold on the collected
/// answers (the reducer's Swift fold), with the same result (see ``Reduction``, which runs
/// the built-in rules the same way).
@usableFromInline
class AnyPairwiseReduction: @unchecked Sendable {
  // @unchecked Sendable: immutable after init (the subclass stores an immutable closure).

  /// The answers' type: a method takes the fast loop only when it is its result type.
  let valueType: ObjectIdentifier

  init(valueType: ObjectIdentifier) { self.valueType = valueType }
}

/// ``AnyPairwiseReduction`` for answers of type `Value`.
@usableFromInline
final class PairwiseReduction<Value>: AnyPairwiseReduction, @unchecked Sendable {
  // @unchecked Sendable: `combine` is immutable and changes nothing it captures: a
  // user's @Sendable closure, or ``Reducer/min``'s and ``Reducer/max``'s comparison, which
  // captures only `Value`'s `Comparable` conformance (not @Sendable, so that it may: the
  // reducers are inlinable, their comparison specialized in the caller's module).

  /// The running value and the next answer → the new running value.
  @usableFromInline let combine: (Value, Value) -> Value

  @usableFromInline
  init(_ combine: @escaping (Value, Value) -> Value) {
    self.combine = combine
    super.init(valueType: ObjectIdentifier(Value.self))
  }

  /// The reduction of `values` in order: the first, combined with each later one; nil when
  /// there are none (what the general path runs on the collected answers).
  func reduce(_ values: [Any]) -> Any? {
    guard let first = values.first else { return nil }
    return values.dropFirst().reduce(first as! Value) { combine($0, $1 as! Value) }
  }
}
