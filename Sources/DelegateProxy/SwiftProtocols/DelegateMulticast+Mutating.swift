import Dispatch
import MessageRuntime
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Mutating requirements: THE way a call changes each member's stored value.

extension DelegateMulticast {
  /// Generated conformances call this for a `mutating` requirement, and for a property's
  /// or subscript's setter; not for direct use. Calls `call` on each responder of
  /// `message`, in order, under the method's policy, with the member itself to change:
  ///
  /// - an object member is called through its reference (`call` gets a copy of the
  ///   reference; the object changes itself);
  /// - a value member is called on a copy of its stored value, and the changed copies are
  ///   stored back together when the last member has answered: a new member table is
  ///   published in which each changed member holds its new value (the same membership:
  ///   its ``MemberID``, position, queue and block count). Calls that start later see the
  ///   new values; a non-mutating call running at the same time sees the old ones, never
  ///   a value being written (it reads its own table, without a lock).
  ///
  /// Mutating calls of one multicast are serialised (one lock, held while the members are
  /// called: a member's `mutating` method must not make a mutating call on the multicast
  /// that is calling it, which stops the process with a message saying so). A member
  /// removed while the call runs keeps its old value (it is gone); one added is not called.
  /// A member on a queue is called on it and waited for. Observers hear the call as they
  /// hear any other.
  public final func __sendMutating<Arguments, Result>(
    _ message: MessageHandle<Delegate, Arguments, Result>,
    _ arguments: @autoclosure () -> Arguments, _ call: (inout Delegate) -> Result
  ) -> Result {
    let index = message.index
    let me = checkedMutationCaller(index)
    let (result, retired) = mutations.withLock { made in
      made &+= 1
      mutationOwner.store(me, ordering: .relaxed)
      defer { mutationOwner.store(0, ordering: .relaxed) }
      // Retained: usable across the calls (the members it lists stay allocated).
      let table = published.current
      var changed: [(old: SwiftMember<Delegate>, new: Delegate)] = []
      let result = mutatingLoop(index, table, arguments()) { member -> Result? in
        // Inside a read section, as every call, naming the member it calls (for
        // `remove(_:waitingForCallsInFlight:)`).
        Quiescence.readSection(published.domain) { () -> Result? in
          if member.isValue {
            Quiescence.calling(UnsafeRawPointer(member.flag.node))
            guard !member.isRemoved else { return nil }
            var value = member.existential.pointee
            let answer = Self.onQueue(member.queue) { call(&value) }
            changed.append((member, value))
            return answer
          }
          return member.withDelegate {
            var reference = member.existential.pointee
            return Self.onQueue(member.queue) { call(&reference) }
          }
        }
      }
      return (result, changed.isEmpty ? [] : store(changed))
    }
    // After the lock: a retirement waits out read sections, and a dispatch's member may be
    // waiting for the lock inside one.
    for r in retired { r() }
    return result
  }

  /// Generated value multicasts call this for a `mutating` requirement, and for a
  /// property's or subscript's setter, on the engine `__uniqueEngine()` returned; not for
  /// direct use. ``__sendMutating(_:_:_:)``, but each value member is changed where the
  /// multicast stores it, and no table is published: the caller holds the only strong
  /// reference to the multicast, so no dispatch can be reading it — another thread's would
  /// hold a copy of the value multicast, which shares the engine, and this thread's own would
  /// overlap the mutating access that made this call (an exclusivity violation). Remembered
  /// reads are forgotten as a new table would forget them. When a member is called on a
  /// queue (a queued call reads its member's value later), the values are published as
  /// ``__sendMutating(_:_:_:)`` publishes them.
  @inlinable
  public final func __sendMutatingOwned<Arguments, Result>(
    _ message: MessageHandle<Delegate, Arguments, Result>,
    _ arguments: @autoclosure () -> Arguments, _ call: (inout Delegate) -> Result
  ) -> Result {
    // A write, or a `void` mutating call, whose responders are all values called in place
    // (swift-log's `logger[metadataKey:] = …` on a copy): each value changed where it is
    // stored, specialised here — no fold, no answer, no generic type looked up per call.
    if Result.self == Void.self,
      mutateValuesInPlace(message.index, { value in _ = call(&value.pointee) })
    {
      return () as! Result
    }
    return sendMutatingOwned(message, arguments(), call)
  }

  /// ``__sendMutatingOwned(_:_:_:)``'s general path.
  @usableFromInline
  final func sendMutatingOwned<Arguments, Result>(
    _ message: MessageHandle<Delegate, Arguments, Result>,
    _ arguments: @autoclosure () -> Arguments, _ call: (inout Delegate) -> Result
  ) -> Result {
    let table = published.current
    guard table.writesInPlace else { return __sendMutating(message, arguments(), call) }
    let index = message.index
    return ownedMutation(index) {
      var wrote = false
      let result = mutatingLoop(index, table, arguments()) { member -> Result? in
        if member.isValue {
          // Changed where it is stored: no dispatch can be reading it, and no `remove`
          // can run meanwhile.
          wrote = true
          return member.isRemoved ? nil : call(&member.existential.pointee)
        }
        // Inside a read section, as every call: `remove` waits for it.
        return Quiescence.readSection(published.domain) {
          member.withDelegate {
            var reference = member.existential.pointee
            return call(&reference)
          }
        }
      }
      if wrote { forgetRemembered() }
      return result
    }
  }

  /// ``__sendMutatingOwned(_:_:_:)`` for a `void` call, when the method's responders are
  /// all values, none on a queue, and it has no observers and is not optional: runs `write`
  /// on each live responder's stored value, in order, then forgets the
  /// remembered answers. False, and nothing done, otherwise (the general path then runs).
  /// The table is read inside a read section: only this thread holds the engine, but a
  /// cancelled observation (which holds it weakly) may still replace the table meanwhile —
  /// and the table it publishes lists the same records, so a value written here is the one
  /// both tables hold.
  @usableFromInline
  final func mutateValuesInPlace(
    _ index: Int, _ write: (UnsafeMutablePointer<Delegate>) -> Void
  ) -> Bool {
    guard protocolDescription.methods[index].isRequired else { return false }
    let wrote = ownedMutation(index) { () -> Bool in
      let slot = Quiescence.enter(published.domain)
      defer { Quiescence.exit(slot) }
      // The published table, borrowed for the section.
      let table = published.borrowed.takeUnretainedValue()
      guard table.writesInPlace, table.observers[index].isEmpty else { return false }
      // A required method's responders are the table's members that were neither removed
      // nor blocked when it was built (SwiftMemberTable.init; a block publishes a new
      // table, and none can be published meanwhile but by a cancelled observation, which
      // lists the same records). Walked as references, by index: unspecialised, the
      // responder list's elements and an iterator would each look generic metadata up.
      let members = unsafeBitCast(table.members, to: [AnyObject].self)
      for i in 0..<members.count {
        let member = unsafeDowncast(members[i], to: SwiftMember<Delegate>.self)
        guard member.isValue else { return false }
      }
      for i in 0..<members.count {
        let member = unsafeDowncast(members[i], to: SwiftMember<Delegate>.self)
        // Named in the section's slot, as every call.
        slot.calling(member.flag.node)
        if member.isRemoved || member.isBlocked { continue }
        write(member.existential)
      }
      return true
    }
    if wrote { forgetRemembered() }
    return wrote
  }

  /// Runs `body`, a mutating call on the engine `__uniqueEngine()` returned, as the
  /// multicast's mutating call, without taking `mutations`: only the copy that made the call
  /// holds the engine, so no other mutating call can run on it meanwhile (another thread's
  /// would need a copy sharing it, which `__uniqueEngine()` rules out; this thread's would
  /// overlap the exclusive access that made this call). The calling thread is marked all
  /// the same, so that a member's mutating call back into the multicast is reported.
  private func ownedMutation<R>(_ index: Int, _ body: () -> R) -> R {
    let me = checkedMutationCaller(index)
    mutationOwner.store(me, ordering: .relaxed)
    defer { mutationOwner.store(0, ordering: .relaxed) }
    return body()
  }

  /// The calling thread, after checking that it is not making a mutating call from a
  /// member's mutating call on this multicast (which would deadlock on `mutations`).
  private func checkedMutationCaller(_ index: Int) -> UInt {
    let me = UInt(pthread_self())
    precondition(
      mutationOwner.load(ordering: .relaxed) != me,
      "\(Self.self): a member's mutating \(protocolDescription.methods[index].swiftName) made a mutating call on the multicast that is calling it"
    )
    return me
  }

  /// A mutating call's walk over the responders of the method at `index` in `table`, under
  /// `mutations`: observers before and after, each responder's answer from `callMember`
  /// (nil: it could not answer) folded under the method's policy.
  private func mutatingLoop<Arguments, Result>(
    _ index: Int, _ table: SwiftMemberTable<Delegate>, _ arguments: @autoclosure () -> Arguments,
    _ callMember: (SwiftMember<Delegate>) -> Result?
  ) -> Result {
    let list = table.lists[index]
    let observers = table.observers[index]
    let observed = observers.isEmpty ? nil : arguments()
    if let observed { for o in observers where o.phase == .before { o.notify(observed) } }
    var reduction = Reduction<Result>(list.rule)
    var collected: [Result] = []
    var sources: [UInt64] = []
    let learned = list.isOptional ? DelegateOptional.learned.load(ordering: .acquiring) : 0
    // By index: an iterator over the responders costs a generic metadata look-up per call.
    let responders = list.responders
    for position in 0..<responders.count {
      let responder = responders[position]
      let member = responder.member.takeUnretainedValue()
      guard let value = callMember(member) else {
        if !member.isRemoved { needsRebuild.raise() }
        continue
      }
      if list.isOptional && skipsOptional(index, responder.member, since: learned) { continue }
      if !member.answers { continue }
      if list.rule == .custom {
        collected.append(value)
        sources.append(member.id)
      }
      if reduction.add(value) { break }
    }
    if let observed { for o in observers where o.phase == .after { o.notify(observed) } }
    return finish(reduction, index, table, collected: collected, sources: sources)
  }

  /// Runs `body` on `queue` and waits for it (directly on the caller's thread when there is
  /// no queue or the caller is on it already).
  private static func onQueue<R>(_ queue: DispatchQueue?, _ body: () -> R) -> R {
    guard let queue, !QueueMarks.isCurrent(queue) else { return body() }
    // The caller waits: `body` and what it captures are used by one thread at a time.
    return withoutActuallyEscaping(body) { body in
      let box = UncheckedSendable(body)
      return queue.sync { UncheckedSendable(box.value()) }.value
    }
  }

  /// After values changed in place: the remembered answers folded from the old values are
  /// forgotten (the published table's slots and words emptied, as a new table's would be),
  /// and the generation moves on.
  private func forgetRemembered() {
    state.withLock { s in
      s.generation &+= 1
      published.withTable { table in
        table.forgetRemembered()
        rememberedWords.reset(for: table.generation)
      }
    }
  }

  /// Publishes the changed members' new values: each record still listed is replaced by
  /// one that holds its new value (the same membership).
  private func store(_ changed: [(old: SwiftMember<Delegate>, new: Delegate)])
    -> [@Sendable () -> Void]
  {
    updateRetiringLater { s in
      var records = s.members.records
      for (old, new) in changed where !old.isRemoved {
        guard let i = records.firstIndex(where: { $0 === old }) else { continue }
        records[i] = old.replacingValue(with: new)
      }
      s.members = MemberList(records)
    }.1
  }
}

/// Generated handles of writes call this; not for direct use. Runs `body` on a copy of
/// `delegate` taken `inout`: a write through an existential that is not class-bound needs
/// a variable, and one that is class-bound must not warn that the variable never changes.
@inlinable
public func __mutate<Delegate, Result>(_ delegate: Delegate, _ body: (inout Delegate) -> Result)
  -> Result
{
  var delegate = delegate
  return body(&delegate)
}

extension DelegateMulticast {
  /// Generated value multicasts call this when they are changed while another copy shares
  /// their multicast (copy on write); not for direct use. A new multicast of the same class
  /// with the same policies, error policies, concurrency, options, observers, filters and
  /// argument pairings (ArgumentPairing.swift), remembered reads (remembered anew), and the
  /// same members in the same order — each value copied, each object the same object with
  /// the same retention and queue, each keeping its ``MemberID`` (so a token names the
  /// same member in every copy). Not its C face, made again on first use.
  public final func __copy() -> Self { __copy(values: nil) }

  /// ``__copy()`` with `values`' values (a copy's own, ``__ValueMembers``) in place of the
  /// value members' own: the multicast a copy that kept its values apart reads through on
  /// the general path, or becomes when it changes otherwise. Not for direct use.
  public final func __copy(values: __ValueMembers<Delegate>?) -> Self {
    // The state and the table published for it (tables are published under the lock).
    let (s, table) = state.withLock { s in
      // Loaded as an object and cast (`Unmanaged<AnyObject>`): naming `Unmanaged` of the
      // table's generic type here, unspecialised, looks its metadata up.
      let raw = UnsafeRawPointer(bitPattern: published.address.load(ordering: .acquiring))!
      let object = Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue()
      return (s, unsafeDowncast(object, to: SwiftMemberTable<Delegate>.self))
    }
    // The records as arrays of references (the same layout): this runs unspecialised, where
    // a subscript of or an append to `[SwiftMember<Delegate>]` is a generic call, and those
    // of `[AnyObject]` are inlined.
    let sourceRecords = unsafeBitCast(s.members.records, to: [AnyObject].self)
    let listed = unsafeBitCast(table.members, to: [AnyObject].self)
    var copies: [AnyObject] = []
    copies.reserveCapacity(sourceRecords.count)
    // Whether the table lists exactly the records copied, so that the copy's table can be
    // made from it list by list instead of from scratch.
    var matches = !needsRebuild.isRaised && sourceRecords.count == listed.count
    // By index: unspecialised, an enumeration looks up generic metadata at each step.
    for i in 0..<sourceRecords.count {
      let m = unsafeDowncast(sourceRecords[i], to: SwiftMember<Delegate>.self)
      if m.isRemoved {
        matches = false
        continue
      }
      let copy: SwiftMember<Delegate>
      if m.isValue {
        if let values {
          precondition(m.valueIndex < values.count, "a copy's values name other members")
          copy = values.withElements {
            m.copiedValue(from: $0 + m.valueIndex)
          }
        } else {
          copy = m.copiedValue()
        }
      } else if let object = m.copiedForAnotherMulticast() {
        copy = object
      } else {
        matches = false
        continue
      }
      if matches && listed[i] !== m { matches = false }
      copies.append(copy)
    }
    let records = unsafeBitCast(copies, to: [SwiftMember<Delegate>].self)
    // The same policies, error policies, concurrency, options, observers, filters, pairings
    // and remembered reads; not the C face, the object, the answer's pairing or the count
    // of nested generations, which are the original's own.
    var c = s
    c.cFace = nil
    c.object = nil
    c.answerPairing = nil
    c.nestedGenerations = 0
    c.members = MemberList(records)
    c.generation = 1
    // The table and the publication are made through the types of the original's
    // (`type(of:)`, a load): naming a generic type here, unspecialised, would look its
    // metadata up. (The table's class is final: its initialiser is called directly, not
    // through the vtable.)
    let first =
      matches
      ? type(of: table).init(copying: table, members: records, generation: c.generation)
      : Self.table(for: c, protocolDescription)
    return type(of: self).init(
      __seed: __Seed(
        state: c, lockLike: state, table: first, publication: type(of: published).init(first)))
  }
}

/// The lock that serialises a `@Delegate` multicast's mutating calls
/// (`DelegateMulticast.mutations`), made on first use. Its value counts the mutating calls
/// made (not `Void`: ThreadSanitizer does not order an exclusive access to a zero-sized value
/// by the mutex).
final class MutationLock: Sendable {
  let lock = Lock<UInt64>(0)
}
