import MessageRuntime
import Synchronization

// A copy of a value multicast that changed its value members without a multicast of its
// own: it dispatches over the multicast it shares, with its own values (``__ValueMembers``).

extension DelegateMulticast {
  /// Generated value multicasts call this for a method that is not `mutating`; not for
  /// direct use. ``__send(_:_:_:)`` for a copy that keeps no values of its own (`values`
  /// nil: the path every class multicast takes); otherwise over the published table with
  /// `values` (``__send(_:_:_:values:)``), or, for a method on the general path, through a
  /// multicast made with them.
  @inlinable @inline(__always)
  public final func __send<Arguments, Result>(
    _ message: MessageHandle<Delegate, Arguments, Result>,
    _ arguments: @autoclosure () -> Arguments, apart values: __ValueMembers<Delegate>?,
    _ call: (Delegate) -> Result
  ) -> Result {
    guard let values else { return __send(message, arguments(), call) }
    // A remembered read these values answered before (resolved when specialised: any
    // other method pays nothing).
    if Arguments.self == Void.self && RememberedWord.fits(Result.self),
      let answer = values.remembered(message.index, as: Result.self)
    {
      return answer
    }
    if let result = __send(message, arguments(), call, values: values) { return result }
    return sendThroughCopy(message, arguments(), values)
  }

  /// ``__send(_:_:apart:_:)`` for a method of one parameter, the argument borrowed; not
  /// for direct use.
  @inlinable @inline(__always)
  public final func __send<Arguments, Result>(
    _ message: MessageHandle<Delegate, Arguments, Result>, borrowing argument: Arguments,
    apart values: __ValueMembers<Delegate>?, _ call: (Delegate) -> Result
  ) -> Result {
    guard let values else { return __send(message, borrowing: argument, call) }
    if let result = __send(message, borrowing: argument, call, values: values) {
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

  /// Generated value multicasts call this for a copy that keeps its own values; not for
  /// direct use. ``__send(_:_:_:)`` over the published table, each value member called on
  /// its value in `values` (borrowed, as the table's would be); nil, and nobody called,
  /// when the method needs the general path (the caller then dispatches through a
  /// multicast made with the values, ``__copy(values:)``). A remembered read is asked anew:
  /// the answer the shared multicast keeps was folded from its own values.
  @inlinable @inline(__always)
  public final func __send<Arguments, Result>(
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

  /// ``__send(_:_:_:values:)`` for a method of one parameter, the argument borrowed (see
  /// ``__send(_:borrowing:_:)``); not for direct use.
  @inlinable @inline(__always)
  public final func __send<Arguments, Result>(
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

  /// Generated value multicasts call this for a `void` mutating call, or a write, on a copy
  /// that shares this multicast; not for direct use. Runs `write` on the copy's own value of
  /// each live responder of the method at `index`, in order: `values` is made from the
  /// table's values first when nil, and copied first when another copy shares it (copy on
  /// write: one allocation, as `[any P]`'s). False, and nothing done, unless the table lets
  /// a copy keep its values apart (``SwiftMemberTable/keepsValuesApart``) and the method is
  /// required, on the fast loop, and answered by values only — the caller then copies the
  /// multicast as before.
  ///
  /// Nothing here changes the shared multicast, so no other copy — on this thread or
  /// another — sees the write, and nothing waits: the table is read inside a read section
  /// (another copy may republish it meanwhile: a dead object member compacted, an
  /// observation cancelled), the values are this copy's alone.
  @inlinable @inline(__always)
  public final func __writeValues(
    _ index: Int, _ values: inout __ValueMembers<Delegate>?,
    _ write: (UnsafeMutablePointer<Delegate>) -> Void
  ) -> Bool {
    let slot = Quiescence.enter(published.domain)
    defer { Quiescence.exit(slot) }
    let table = published.borrowed.takeUnretainedValue()
    let list = table.lists[index]
    guard table.keepsValuesApart, list.valuesOnly, !list.isGeneral, !list.isOptional else {
      return false
    }
    if values == nil {
      values = __ValueMembers.copying(table.members, count: table.valueCount)
    } else if !isKnownUniquelyReferenced(&values) {
      values = values.unsafelyUnwrapped.copy()
    } else {
      values.unsafelyUnwrapped.forgetRemembered()
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
