import MessageRuntime

/// An immutable snapshot of a Swift multicast's members, by method: what a dispatch
/// reads, lock-free, inside a read section. Replaced (never changed) when membership or
/// policy changes, and released only after a grace period, so a dispatch that loaded it
/// may keep using its addresses until its read section ends.
@usableFromInline
final class SwiftMemberTable<Delegate>: @unchecked Sendable {
  // @unchecked Sendable: immutable after init; the buffers it owns are freed in deinit,
  // which runs only after every read section that could see the table has ended.

  /// By method index.
  @usableFromInline let lists: UnsafeMutableBufferPointer<SwiftResponderList<Delegate>>
  /// The members, in order (the table keeps them, and so their slots, alive).
  @usableFromInline let members: [SwiftMember<Delegate>]
  /// By method index: the observers.
  @usableFromInline let observers: [[TypedObserver]]
  /// By method index: the filter that chooses which members a call reaches, if any.
  @usableFromInline let filters: [AnyMemberFilter?]
  /// By method index: the parameters paired with members, if any (ArgumentPairing.swift).
  @usableFromInline let pairings: [ArgumentPairing?]
  /// By method index: the policy in force, for introspection and custom reducers.
  let policies: [ErasedPolicy]
  /// By method index: the slot of each read this table remembers (see RememberedRead.swift),
  /// which keeps the answer once a read stored it. Empty (no allocation) when none is.
  let remembered: [Int: AnyRememberedAnswer]
  /// The multicast's generation when the table was built: unique to it among the
  /// multicast's tables (RememberedWord.swift).
  @usableFromInline let generation: UInt64
  /// Every method's responders, in the allocation that holds ``lists``, after them (the
  /// lists point into it).
  private let responderStorage: UnsafeMutableBufferPointer<SwiftResponder<Delegate>>
  /// No member is called on a queue: a queued call reads its member's value later, on the
  /// queue, so only without one may a mutating call of a value multicast that no other
  /// copy shares store its members' new values in place
  /// (``DelegateMulticast/__sendMutatingOwned(_:_:_:)``).
  let writesInPlace: Bool
  /// A copy of the value multicast may keep its value members' values apart from this
  /// table's records (``__ValueMembers``) and dispatch over this table with them: no member
  /// is on a queue, no method has observers or paired arguments, and every member answers
  /// — what the copy's dispatch, which runs only the fast loop, could not honour.
  @usableFromInline let keepsValuesApart: Bool
  /// How many of ``members`` are values (their `valueIndex`es are `0..<valueCount`).
  @usableFromInline let valueCount: Int
  /// By method index, for a write: bit `r` set when the remembered answer of the read at
  /// index `r` outlives the write (``DelegateMulticast/remember(_:across:)``). Empty (no
  /// allocation) when no write keeps one.
  @usableFromInline let keptAcross: [UInt64]

  init(
    members: [SwiftMember<Delegate>], description: ProtocolDescription<Delegate>,
    defaultPolicy: ErasedPolicy, overrides: [Int: ErasedPolicy],
    observers: [Int: [TypedObserver]], filters: [Int: AnyMemberFilter] = [:],
    pairings: [Int: ArgumentPairing] = [:],
    remembered: [Int: AnyRememberedAnswer.Type] = [:], keptAcross: [Int: UInt64] = [:],
    generation: UInt64
  ) {
    self.members = members
    self.keptAcross =
      keptAcross.isEmpty ? [] : description.methods.indices.map { keptAcross[$0] ?? 0 }
    self.filters = description.methods.indices.map { filters[$0] }
    self.pairings = description.methods.indices.map { pairings[$0] }
    self.observers = description.methods.indices.map { observers[$0] ?? [] }
    self.generation = generation
    writesInPlace = !members.contains { $0.queue != nil }
    keepsValuesApart =
      writesInPlace && observers.values.allSatisfy(\.isEmpty) && pairings.isEmpty
      && members.allSatisfy(\.answers)
    valueCount = members.count(where: \.isValue)
    let methods = description.methods
    var policies: [ErasedPolicy] = []
    var answers: [Int: AnyRememberedAnswer] = [:]
    let lives = methods.map { method in
      members.filter { m in
        !m.isRemoved && !m.isBlocked
          && (method.isRequired
            || !DelegateOptional.isKnownMissing(method.selector.name, typeID: m.typeID))
      }
    }
    (lists, responderStorage) = Self.allocate(
      lists: methods.count, responders: lives.reduce(0) { $0 + $1.count })
    var next = responderStorage.baseAddress!
    for (index, method) in methods.enumerated() {
      let policy = overrides[index] ?? defaultPolicy
      policies.append(policy)
      let live = lives[index]
      let buffer = UnsafeMutableBufferPointer(start: next, count: live.count)
      next += live.count
      _ = buffer.initialize(from: live.lazy.map(SwiftResponder.init))
      let rule = ReducerRule(policy, returnsVoid: method.result.isVoid)
      // A custom reducer stays on the fast loop when it reduces one answer at a time and
      // reduces this method's result type. Values and objects, weakly or strongly held, are
      // all called by the fast loop (SwiftResponder.withBorrowedDelegate); a filter is asked
      // there.
      let reduction =
        rule == .custom ? policy.reducer?.pairwiseReduction(of: method.result.typeID) : nil
      let isGeneral =
        (rule == .custom && reduction == nil) || observers[index]?.isEmpty == false
        || pairings[index] != nil
        || live.contains { $0.queue != nil || (!$0.answers && !method.result.isVoid) }
      // A remembered read whose responders are all values, on the fast loop: its answer
      // stays until the next table (an object member may change without one).
      let answer = remembered[index].flatMap { answerType in
        isGeneral || method.result.isVoid || !live.allSatisfy(\.isValue) ? nil : answerType.init()
      }
      if let answer { answers[index] = answer }
      (lists.baseAddress! + index).initialize(
        to: SwiftResponderList(
          responders: UnsafeBufferPointer(buffer), rule: rule,
          isGeneral: isGeneral || answer != nil,
          filter: filters[index].map { Unmanaged.passUnretained($0) },
          reduction: reduction.map { Unmanaged.passUnretained($0) },
          remembered: answer.map { Unmanaged.passUnretained($0) },
          isOptional: !method.isRequired, waitsForQueued: method.lendsArguments,
          isPaired: pairings[index] != nil, valuesOnly: live.allSatisfy(\.isValue)))
    }
    self.policies = policies
    self.remembered = answers
  }

  /// A table for `members`, copies of `source`'s members in the same order (one for one;
  /// a copy of a value multicast), with `source`'s policies, filters, observers, pairings
  /// and responder lists: each list made of the copies of its responders' members, each
  /// remembered read with an empty slot of its own. Shares what the lists only point to
  /// (filters, reductions) with `source` through the arrays that hold them.
  init(copying source: SwiftMemberTable, members: [SwiftMember<Delegate>], generation: UInt64) {
    precondition(members.count == source.members.count, "a copied table lists other members")
    self.members = members
    filters = source.filters
    pairings = source.pairings
    observers = source.observers
    policies = source.policies
    writesInPlace = source.writesInPlace
    keepsValuesApart = source.keepsValuesApart
    valueCount = source.valueCount
    keptAcross = source.keptAcross
    self.generation = generation
    // A slot whose answer is kept in the multicast's word stays empty: shared, as the whole
    // dictionary is when every slot is such (swift-log's remembered `logLevel`).
    remembered =
      source.remembered.values.allSatisfy(\.isKeptInWord)
      ? source.remembered
      : source.remembered.mapValues { $0.isKeptInWord ? $0 : type(of: $0).init() }
    (lists, responderStorage) = Self.allocate(
      lists: source.lists.count, responders: source.responderStorage.count)
    // This runs unspecialised, where each `SwiftResponder<Delegate>` or
    // `SwiftResponderList<Delegate>` made or read, and each subscript of
    // `[SwiftMember<Delegate>]`, looks generic metadata up. So the lists are copied as bytes
    // (their rules, filters and reductions are the source's) and each is then pointed at its
    // copied responders; the responders are written as ``SwiftResponderBits`` (the same
    // layout); the member arrays are read as arrays of references (the same layout).
    assert(
      MemoryLayout<SwiftResponder<Delegate>>.size == MemoryLayout<SwiftResponderBits>.size
        && MemoryLayout<SwiftResponder<Delegate>>.offset(of: \.isQueued)
          == MemoryLayout<SwiftResponderBits>.offset(of: \.isQueued),
      "SwiftResponderBits no longer has SwiftResponder's layout")
    let listStride = ListLayout.stride
    let stride = MemoryLayout<SwiftResponderBits>.stride
    let listBytes = UnsafeMutableRawPointer(lists.baseAddress!)
    listBytes.copyMemory(
      from: UnsafeRawPointer(source.lists.baseAddress!), byteCount: listStride * lists.count)
    let storage = UnsafeMutableRawPointer(responderStorage.baseAddress!)
    let sourceMembers = unsafeBitCast(source.members, to: [AnyObject].self)
    let copies = unsafeBitCast(members, to: [AnyObject].self)
    var next = 0
    for index in 0..<lists.count {
      // A list's first stored property is its responders: an UnsafeBufferPointer, whose
      // address comes first and count second.
      let list = listBytes + index * listStride
      let count = list.load(fromByteOffset: MemoryLayout<UnsafeRawPointer?>.stride, as: Int.self)
      let from = list.load(as: UnsafeRawPointer?.self)
      list.storeBytes(of: UnsafeRawPointer(storage + next * stride), as: UnsafeRawPointer.self)
      guard let from, count > 0 else { continue }
      // A list is its members' responders in member order: walk the two together.
      var position = 0
      for k in 0..<count {
        let member = (from + k * stride).load(as: UnsafeRawPointer.self)
        while UnsafeRawPointer(Unmanaged.passUnretained(sourceMembers[position]).toOpaque())
          != member
        {
          position += 1
        }
        (storage + (next + k) * stride).storeBytes(
          of: SwiftResponderBits(unsafeDowncast(copies[position], to: SwiftMember<Delegate>.self)),
          as: SwiftResponderBits.self)
        position += 1
      }
      next += count
    }
    // A remembered read's list points at this table's own slot, not the source's (the same
    // when shared).
    for (index, answer) in remembered where !answer.isKeptInWord {
      let list = lists[index]
      lists[index] = SwiftResponderList(
        responders: list.responders, rule: list.rule, isGeneral: list.isGeneral,
        filter: list.filter, reduction: list.reduction,
        remembered: Unmanaged.passUnretained(answer), isOptional: list.isOptional,
        waitsForQueued: list.waitsForQueued, isPaired: list.isPaired,
        valuesOnly: list.valuesOnly)
    }
  }

  /// The remembered reads (a mask of their indices, ``keptAcross``) whose answers outlive a
  /// write of the method at `index`.
  @inlinable @inline(__always)
  func readsKept(across index: Int) -> UInt64 {
    index < keptAcross.count ? keptAcross[index] : 0
  }

  /// Empties the slots of the reads this table remembers: the members' values changed in
  /// place (``DelegateMulticast/__sendMutatingOwned(_:_:_:)``). Call only while no dispatch
  /// can read the table.
  func forgetRemembered() {
    // A slot kept in the word is empty, and may be shared with other tables: left alone.
    for answer in remembered.values where !answer.isKeptInWord { answer.forget() }
  }

  /// One allocation for `lists` lists followed by `responders` responders (a table is made
  /// per copy of a value multicast: one `malloc` fewer each).
  private static func allocate(lists: Int, responders: Int) -> (
    UnsafeMutableBufferPointer<SwiftResponderList<Delegate>>,
    UnsafeMutableBufferPointer<SwiftResponder<Delegate>>
  ) {
    let listStride = ListLayout.stride
    // A responder's layout is SwiftResponderBits' (not generic: no metadata look-up).
    let responderAlignment = MemoryLayout<SwiftResponderBits>.alignment
    let alignment = max(ListLayout.alignment, responderAlignment)
    // The responders start at the first multiple of their alignment after the lists.
    let offset =
      (lists * listStride + responderAlignment - 1) / responderAlignment
      * responderAlignment
    let raw = UnsafeMutableRawPointer.allocate(
      byteCount: max(offset + responders * MemoryLayout<SwiftResponderBits>.stride, 1),
      alignment: alignment)
    // Typed without binding: the allocation is only ever used as these lists and responders,
    // and binding it, unspecialised, looks their generic types' metadata up.
    return (
      UnsafeMutableBufferPointer(
        start: raw.assumingMemoryBound(to: SwiftResponderList<Delegate>.self), count: lists),
      UnsafeMutableBufferPointer(
        start: (raw + offset).assumingMemoryBound(to: SwiftResponder<Delegate>.self),
        count: responders)
    )
  }

  deinit {
    // Lists and responders are trivial: one deallocation frees both (`allocate`).
    UnsafeMutableRawPointer(lists.baseAddress!).deallocate()
  }
}

/// A responder list's layout, which does not depend on its protocol (its one generic field
/// is an address): read from a concrete list type, so that code running unspecialised looks
/// no metadata up for it.
private typealias ListLayout = MemoryLayout<SwiftResponderList<AnyObject>>
