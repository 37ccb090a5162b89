import MessageRuntime

/// A delegator-side cache of `responds(to:)` answers for its delegate, refreshed when
/// the delegate changes or reports a new ``Generational/generation``.
///
/// ```swift
/// // In a delegator, before each optional delegate message:
/// if respondsCache.responds(slot.target, to: didScroll.selector) { try didScroll.send(to: slot.target!, self) }
/// ```
///
/// Answers are asked once per delegate, generation and selector; an object that does
/// not adopt ``Generational`` is asked once per selector (the UIKit behaviour).
public final class RespondsToCache: Sendable {
  private struct State {
    weak var target: RuntimeObject?
    var generation: UInt64?
    var answers: [Selector: Bool] = [:]
  }
  private let state = Lock(State())

  /// An empty cache.
  public init() {}

  /// Whether `target` responds to `selector`, from the cache when still valid.
  public func responds(_ target: RuntimeObject?, to selector: Selector) -> Bool {
    guard let target else { return false }
    let generation = (target as? any Generational)?.generation
    let cached = state.withLock { s -> Bool? in
      if s.target !== target || s.generation != generation {
        s.target = target
        s.generation = generation
        s.answers = [:]
        return nil
      }
      return s.answers[selector]
    }
    if let cached { return cached }
    let answer = target.responds(to: selector)  // asked outside the lock
    state.withLock { s in
      if s.target === target && s.generation == generation { s.answers[selector] = answer }
    }
    return answer
  }

  /// Forgets every answer.
  public func invalidate() {
    state.withLock { $0 = State() }
  }
}
