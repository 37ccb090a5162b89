import MessageRuntime
import Synchronization

// A copy of a value multicast that changed its value members without a multicast of its
// own: it dispatches over the multicast it shares, with its own values (``__ValueMembers``).

extension DelegateMulticast {
  /// A call that is not `mutating` from a copy that keeps its own values (the value
  /// multicast's ``__ValueMulticastStorage/apart(_:)``): over the published table with
  /// `values` (``send(_:_:_:values:)``), or, for a method on the general path, through a
  /// multicast made with them.
  @inlinable @inline(__always)
  final func sendApart<Arguments, Result>(
    _ message: MessageHandle<Delegate, Arguments, Result>,
    _ arguments: @autoclosure () -> Arguments, _ values: __ValueMembers<Delegate>,
    _ call: (Delegate) -> Result
  ) -> Result {
    // A remembered read these values answered before (resolved when specialised: any
    // other method pays nothing).
    if Arguments.self == Void.self {
      if RememberedWord.fits(Result.self),
        let answer = values.remembered(message.index, as: Result.self)
      {
        return answer
      }
      // Values that answer this read as the shared multicast's do (every write since they
      // were made keeps its answer, remember(_:across:)): the shared multicast's answer,
      // which it remembers for every copy — kept in the values' word too when it fits one.
      if message.index < 64 && values.sameAnswers & (1 << UInt64(message.index)) != 0 {
        let answer = __send(message, arguments(), call)
        if RememberedWord.fits(Result.self) { values.remember(answer, message.index) }
        return answer
      }
    }
    if let result = send(message, arguments(), call, values: values) { return result }
    return sendThroughCopy(message, arguments(), values)
  }

  /// ``sendApart(_:_:_:_:)`` for a method of one parameter, the argument borrowed.
  @inlinable @inline(__always)
  final func sendApart<Arguments, Result>(
    _ message: MessageHandle<Delegate, Arguments, Result>, borrowing argument: Arguments,
    _ values: __ValueMembers<Delegate>, _ call: (Delegate) -> Result
  ) -> Result {
    if let result = send(message, borrowing: argument, call, values: values) {
      return result
    }
    return sendThroughCopy(message, argument, values)
  }

  /// The general path of a copy that keeps its own values: the call sent through a
  /// multicast made with them (``__copy(values:)``), by the handle's own call. Out of line:
  /// rare, and the caller's loop stays small.
  @inline(never) @usableFromInline
  final func sendThroughCopy<Arguments, Result>(
    _ message: MessageHandle<Delegate, Arguments, Result>, _ arguments: Arguments,
    _ values: __ValueMembers<Delegate>
  ) -> Result {
    __copy(values: values).__send(message, borrowing: arguments) { message.invoke($0, arguments) }
  }

  /// A call from a copy that keeps its own values: ``__send(_:_:_:)`` over the published table, each value member called on
  /// its value in `values` (borrowed, as the table's would be); nil, and nobody called,
  /// when the method needs the general path (the caller then dispatches through a
  /// multicast made with the values, ``__copy(values:)``). A remembered read is asked anew:
  /// the answer the shared multicast keeps was folded from its own values.
  @inlinable @inline(__always)
  final func send<Arguments, Result>(
    _ message: MessageHandle<Delegate, Arguments, Result>,
    _ arguments: @autoclosure () -> Arguments, _ call: (Delegate) -> Result,
    values: __ValueMembers<Delegate>
  ) -> Result? {
    let index = message.index
    let slot = Quiescence.enter(published.domain)
    let table = published.borrowed
    let list = table._withUnsafeGuaranteedRef { UnsafePointer($0.lists.baseAddress! + index) }
    var result: Result? = nil
    // A remembered read's list is marked general only so that the plain loop pays no test
    // for it; it is otherwise a fast one (SwiftMemberTable.init).
    if !list.pointee.isGeneral || list.pointee.remembered != nil {
      let answer = values.withElements { elements in
        sendFast(index, list, table, slot, arguments(), call, values: elements)
      }
      // A remembered read answered by values only (SwiftMemberTable.init): kept for this
      // copy's values, as the shared multicast keeps its own.
      if RememberedWord.fits(Result.self) && list.pointee.remembered != nil {
        values.remember(answer, index)
      }
      result = answer
    }
    Quiescence.exit(slot)
    if _slowPath(needsRebuild.isRaised) { rebuildIfNeeded() }
    return result
  }

  /// ``send(_:_:_:values:)`` for a method of one parameter, the argument borrowed (see
  /// ``__send(_:borrowing:_:)``).
  @inlinable @inline(__always)
  final func send<Arguments, Result>(
    _ message: MessageHandle<Delegate, Arguments, Result>, borrowing argument: Arguments,
    _ call: (Delegate) -> Result, values: __ValueMembers<Delegate>
  ) -> Result? {
    let index = message.index
    let slot = Quiescence.enter(published.domain)
    let table = published.borrowed
    let list = table._withUnsafeGuaranteedRef { UnsafePointer($0.lists.baseAddress! + index) }
    var result: Result? = nil
    if !list.pointee.isGeneral {
      result = values.withElements { elements in
        if let filter = list.pointee.filter {
          // The filter borrowed from the table, as the table is; the argument borrowed too.
          return filter._withUnsafeGuaranteedRef { filter in
            let typed = unsafeDowncast(filter, to: MemberFilter<Delegate, Arguments>.self)
            return sendFast(index, list, table, slot, call, values: elements) {
              typed.admits($0, argument)
            }
          }
        }
        return sendFast(index, list, table, slot, call, values: elements) { _ in true }
      }
    }
    Quiescence.exit(slot)
    if _slowPath(needsRebuild.isRaised) { rebuildIfNeeded() }
    return result
  }

  /// A `void` mutating call, or a write, on a copy of a value multicast that shares this
  /// multicast (``__ValueMulticastStorage/writeValues(_:_:)``). Runs `write` on the copy's
  /// own value of each live responder of the method at `index`, in order: `values` is made
  /// from the table's values first when nil (holding this multicast), and copied first when
  /// another copy shares it (copy on write: one allocation, as `[any P]`'s). False, and
  /// nothing done, unless the table lets a copy keep its values apart
  /// (``SwiftMemberTable/keepsValuesApart``) and the method is required, on the fast loop,
  /// and answered by values only — the caller then copies the multicast as before.
  ///
  /// Nothing here changes the shared multicast, so no other copy — on this thread or
  /// another — sees the write, and nothing waits: the table is read inside a read section
  /// (another copy may republish it meanwhile: a dead object member compacted, an
  /// observation cancelled), the values are this copy's alone.
  @inlinable @inline(__always)
  final func writeValues(
    _ index: Int, _ values: inout __ValueMembers<Delegate>?,
    _ write: (UnsafeMutablePointer<Delegate>) -> Void
  ) -> Bool {
    let slot = Quiescence.enter(published.domain)
    defer { Quiescence.exit(slot) }
    // Borrowed, as a dispatch borrows it: valid until the section ends.
    return published.borrowed._withUnsafeGuaranteedRef { table in
      writeValues(index, table, slot, &values, write)
    }
  }

  /// ``writeValues(_:_:_:)`` over `table`, the published table, inside the read section of
  /// `slot`.
  @inlinable @inline(__always)
  final func writeValues(
    _ index: Int, _ table: SwiftMemberTable<Delegate>, _ slot: ReadSlot,
    _ values: inout __ValueMembers<Delegate>?,
    _ write: (UnsafeMutablePointer<Delegate>) -> Void
  ) -> Bool {
    let list = table.lists[index]
    guard table.keepsValuesApart, list.valuesOnly, !list.isGeneral, !list.isOptional else {
      return false
    }
    // The remembered reads the write does not change (remember(_:across:)): their answers
    // stay the values' own, or the shared multicast's.
    let kept = table.readsKept(across: index)
    if values == nil {
      let made = __ValueMembers.copying(table.members, count: table.valueCount, engine: self)
      made.sameAnswers = kept
      values = made
    } else if !isKnownUniquelyReferenced(&values) {
      let source = values.unsafelyUnwrapped
      let made = source.copy()
      if kept != 0 {
        made.storeRemembered(__ValueMembers<Delegate>.surviving(source.rememberedWord, kept))
        made.sameAnswers = source.sameAnswers & kept
      }
      values = made
    } else {
      values.unsafelyUnwrapped.forgetRemembered(keeping: kept)
    }
    values.unsafelyUnwrapped.withElements { elements in
      for responder in list.responders {
        // Named in the section's slot, as every call.
        slot.calling(responder.removed.node)
        if responder.isRemoved { continue }
        write(elements + responder.member._withUnsafeGuaranteedRef { $0.valueIndex })
      }
    }
    return true
  }
}
