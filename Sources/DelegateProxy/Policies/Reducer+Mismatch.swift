// The built-in reducers written for a method whose result they cannot fold: each is an
// error naming what the reducer needs and the reducers that fit any result, instead of the
// type checker's words about the constrained extensions that hold the real ones
// ("requires the types 'Double' and 'ReturnValue' be equivalent", "contextual member
// reference to static property 'min' requires 'Self' constraint"). Overload resolution
// prefers the constrained, available declarations wherever they apply, so these are
// chosen only when none does.

extension Reducer {
  /// Refused: `.allTrue` folds `Bool` answers.
  @available(
    *, unavailable,
    message:
      ".allTrue folds Bool answers, and this method does not answer Bool; for its result use .firstAnswer, .last, .collect { answers in … }, .fold(initial:_:), or .min/.max if it is Comparable"
  )
  public static var allTrue: Reducer<Value> { fatalError("unavailable") }

  /// Refused: `.anyTrue` folds `Bool` answers.
  @available(
    *, unavailable,
    message:
      ".anyTrue folds Bool answers, and this method does not answer Bool; for its result use .firstAnswer, .last, .collect { answers in … }, .fold(initial:_:), or .min/.max if it is Comparable"
  )
  public static var anyTrue: Reducer<Value> { fatalError("unavailable") }

  /// Refused: `.firstNonNil` needs an optional result.
  @available(
    *, unavailable,
    message:
      ".firstNonNil picks the first answer that is not nil, and this method's result is not optional; use .firstAnswer (the first answer), .last, .collect { answers in … } or .fold(initial:_:)"
  )
  public static var firstNonNil: Reducer<Value> { fatalError("unavailable") }

  /// Refused: `.min` compares the answers.
  @available(
    *, unavailable,
    message:
      ".min compares the answers, and this method's result type is not Comparable; make it Comparable, or use .collect { answers in … } or .fold(initial:_:) to choose one"
  )
  public static var min: Reducer<Value> { fatalError("unavailable") }

  /// Refused: `.max` compares the answers.
  @available(
    *, unavailable,
    message:
      ".max compares the answers, and this method's result type is not Comparable; make it Comparable, or use .collect { answers in … } or .fold(initial:_:) to choose one"
  )
  public static var max: Reducer<Value> { fatalError("unavailable") }
}
