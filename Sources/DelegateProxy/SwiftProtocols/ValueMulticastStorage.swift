/// What a generated value multicast stores: one reference, to the multicast it shares with
/// its copies, or to its own values of that multicast's value members, which hold the
/// multicast (``__ValueMembers``). Not for direct use.
///
/// One reference, not two: swift-log's `Logger` copies its handler twice per line (its
/// level's read and the line's call), and each copy of a value multicast retains and releases
/// what it stores. The two cases' payloads are object references, so the enum is one word
/// (its case in the references' spare bits).
public enum __ValueMulticastStorage<Delegate, Handles: MessageHandles>: Sendable {
  /// A copy whose values are its multicast's own: every copy made from it shares the
  /// multicast until one of them changes (copy on write).
  case shared(DelegateMulticast<Delegate, Handles>)
  /// A copy that changed its value members without a multicast of its own: it dispatches
  /// over the multicast its values hold, with these values in place of the multicast's.
  case apart(__ValueMembers<Delegate>)

  /// The multicast this copy shares with the others, whatever values it keeps.
  @inlinable
  public var sharedEngine: DelegateMulticast<Delegate, Handles> {
    switch self {
    case .shared(let engine): engine
    case .apart(let values): values.engine(Handles.self).takeUnretainedValue()
    }
  }

  /// The multicast the copy reads: the shared one, or one made with this copy's values.
  @inlinable
  public var engine: DelegateMulticast<Delegate, Handles> {
    switch self {
    case .shared(let engine): engine
    case .apart(let values):
      values.engine(Handles.self)._withUnsafeGuaranteedRef { $0.__copy(values: values) }
    }
  }

  /// The multicast the copy changes: copied first when another copy shares it, or made with
  /// this copy's values when it keeps its own (which it then no longer does).
  @inlinable
  public mutating func uniqueEngine() -> DelegateMulticast<Delegate, Handles> {
    // Consumed, so that the check sees this copy's reference alone.
    switch consume self {
    case .shared(var engine):
      if !isKnownUniquelyReferenced(&engine) { engine = engine.__copy() }
      self = .shared(engine)
      return engine
    case .apart(let values):
      let engine = values.engine(Handles.self)._withUnsafeGuaranteedRef {
        $0.__copy(values: values)
      }
      self = .shared(engine)
      return engine
    }
  }

  /// Sends a call that is not `mutating` (generated conformances call this; not for direct
  /// use): ``DelegateMulticast/__send(_:_:_:)`` on the shared multicast, with this copy's
  /// values if it keeps its own.
  @inlinable @inline(__always)
  public func send<Arguments, Result>(
    _ message: MessageHandle<Delegate, Arguments, Result>,
    _ arguments: @autoclosure () -> Arguments, _ call: (Delegate) -> Result
  ) -> Result {
    switch self {
    case .shared(let engine):
      return engine.__send(message, arguments(), call)
    case .apart(let values):
      return values.engine(Handles.self)._withUnsafeGuaranteedRef {
        $0.sendApart(message, arguments(), values, call)
      }
    }
  }

  /// ``send(_:_:_:)`` for a method of one parameter, the argument borrowed
  /// (``DelegateMulticast/__send(_:borrowing:_:)``).
  @inlinable @inline(__always)
  public func send<Arguments, Result>(
    _ message: MessageHandle<Delegate, Arguments, Result>, borrowing argument: Arguments,
    _ call: (Delegate) -> Result
  ) -> Result {
    switch self {
    case .shared(let engine):
      return engine.__send(message, borrowing: argument, call)
    case .apart(let values):
      return values.engine(Handles.self)._withUnsafeGuaranteedRef {
        $0.sendApart(message, borrowing: argument, values, call)
      }
    }
  }

  /// Sends a `mutating` requirement, or a property's or subscript's write (generated
  /// conformances call this; not for direct use). A `void` call answered by values only, on
  /// a copy that shares its multicast or keeps values of its own, changes this copy's own
  /// values (``writeValues(_:_:)``: a copy of the values, as `[any P]`'s, not of the
  /// multicast); otherwise ``DelegateMulticast/__sendMutatingOwned(_:_:_:)`` on this copy's
  /// own multicast (``uniqueEngine()``).
  @inlinable @inline(__always)
  public mutating func sendMutating<Arguments, Result>(
    _ message: MessageHandle<Delegate, Arguments, Result>,
    _ arguments: @autoclosure () -> Arguments, _ call: (inout Delegate) -> Result
  ) -> Result {
    if Result.self == Void.self, writeValues(message.index, { _ = call(&$0.pointee) }) {
      return () as! Result
    }
    return uniqueEngine().__sendMutatingOwned(message, arguments(), call)
  }

  /// A `void` write or mutating call of the method at `index`, made on this copy's own
  /// values when another copy shares its multicast or it keeps values of its own: `write`
  /// runs on each responder's value (``DelegateMulticast/writeValues(_:_:_:)``). False, and
  /// nothing done, when the multicast is this copy's alone (it changes its members where
  /// they are) or the method cannot be written this way; the caller then changes the
  /// multicast ``uniqueEngine()`` returns.
  @inlinable @inline(__always)
  mutating func writeValues(_ index: Int, _ write: (UnsafeMutablePointer<Delegate>) -> Void)
    -> Bool
  {
    // Consumed, so that the uniqueness checks see this copy's references alone.
    switch consume self {
    case .shared(var engine):
      var values: __ValueMembers<Delegate>? = nil
      guard !isKnownUniquelyReferenced(&engine), engine.writeValues(index, &values, write)
      else {
        self = .shared(engine)
        return false
      }
      self = .apart(values.unsafelyUnwrapped)
      return true
    case .apart(let values):
      // Borrowed: `kept`, or the copy made of it, holds the multicast.
      let engine = values.engine(Handles.self)
      var kept: __ValueMembers<Delegate>? = consume values
      let wrote = engine._withUnsafeGuaranteedRef { $0.writeValues(index, &kept, write) }
      self = .apart(kept.unsafelyUnwrapped)
      return wrote
    }
  }
}
