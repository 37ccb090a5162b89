import MessageRuntime

// Per-member argument pairing: an answer that `Reducer.multicast` gathered from a
// multicast's members, passed back to that multicast as an argument, reaches each member as
// that member's own part of it (swift-metrics' `destroyCounter(_:)` hands each factory the
// counter it made — what MultiplexMetricsHandler got wrong, swift-metrics PR #222).
//
// Two sides. The gatherer (the multicast whose members answered) gets a token the first
// time it gathers an answer of a type `T`, and from then on marks each of its methods with
// a parameter of exactly `T` as paired: those methods take the general path, which gives
// each member its own arguments. The answer (the multicast `Reducer.multicast` made)
// remembers the token and, per gatherer membership, which of its own members is that
// member's part. Methods and multicasts that never gathered such an answer carry nothing.

/// The identity of a multicast as a gatherer of answers, shared by the copies of a value
/// multicast (they keep their members' numbers, so a part is found through any of them).
final class PairingToken: Sendable {}

/// What an answer made by ``Reducer/multicast(_:name:)`` remembers: whose members answered,
/// and, by their membership number (`MemberID.rawValue`), which of its own members holds
/// each one's answer.
struct AnswerPairing: Sendable {
  let token: PairingToken
  let parts: [UInt64: MemberID]
}

/// A multicast that can be an answer made by ``Reducer/multicast(_:name:)``.
protocol PairedAnswer: AnyObject {
  /// Whose answers it holds, if ``Reducer/multicast(_:name:)`` made it.
  var answerPairing: AnswerPairing? { get }
  /// Its member `member`, as its protocol's existential; nil once gone.
  func pairedPart(_ member: MemberID) -> Any?
  /// Records that it is an answer gathered by the multicast `pairing.token` names.
  func setAnswerPairing(_ pairing: AnswerPairing)
}

/// A multicast whose members' answers ``Reducer/multicast(_:name:)`` gathers.
protocol PairingGatherer: AnyObject {
  /// Marks the methods that take a `Value` as paired (once per type) and returns the
  /// multicast's token.
  func pairingToken<Value>(for type: Value.Type) -> PairingToken
}

/// The gatherer's side, kept in its state: the token, the answer types gathered so far,
/// and by method index the paired parameters.
struct GathererPairing {
  let token = PairingToken()
  var types: [ObjectIdentifier: AnyValuePairing] = [:]
  var methods: [Int: ArgumentPairing] = [:]
}

/// Replaces one argument of a paired type by a member's own part (erased: a
/// ``ValuePairing`` of the answer's type).
class AnyValuePairing: @unchecked Sendable {
  // @unchecked Sendable: no stored state.
  init() {}

  /// Replaces the `Value` at `slot` by `member`'s part when it is an answer gathered by the
  /// multicast `token` names; false when it is such an answer and `member` has no part in it.
  func replace(_ slot: UnsafeMutableRawPointer, for member: UInt64, _ token: PairingToken) -> Bool {
    fatalError("AnyValuePairing is abstract (runtime bug)")
  }
}

/// ``AnyValuePairing`` for arguments of type `Value`, the protocol existential of the
/// answers (`any CounterHandler`).
final class ValuePairing<Value>: AnyValuePairing, @unchecked Sendable {
  // @unchecked Sendable: no stored state.
  override func replace(_ slot: UnsafeMutableRawPointer, for member: UInt64, _ token: PairingToken)
    -> Bool
  {
    let argument = slot.assumingMemoryBound(to: Value.self)
    // Another value, or an answer another multicast gathered: passed as it is.
    guard let answer = argument.pointee as? any PairedAnswer, let pairing = answer.answerPairing,
      pairing.token === token
    else { return true }
    guard let id = pairing.parts[member], let part = answer.pairedPart(id) as? Value else {
      return false
    }
    argument.pointee = part
    return true
  }
}

/// The paired parameters of one method: where each sits in the method's arguments (a tuple
/// of the parameters in order, or the one parameter itself) and its pairing.
@usableFromInline
final class ArgumentPairing: Sendable {
  let token: PairingToken
  let slots: [(offset: Int, pairing: AnyValuePairing)]
  /// The size of the method's arguments, as the parameters' types lay them out.
  let size: Int

  /// The pairing of the parameters of `method` whose type is one of `types`; nil when none is.
  init?(
    _ method: MethodDescription, _ types: [ObjectIdentifier: AnyValuePairing],
    _ token: PairingToken
  ) {
    // A tuple's elements are laid out in order, each at the next offset its alignment
    // allows (Swift's ABI: docs/ABI/TypeLayout.rst, as for a struct); one value is at 0.
    var offset = 0
    var slots: [(offset: Int, pairing: AnyValuePairing)] = []
    for parameter in method.parameters {
      let (size, alignment) = Self.layout(of: parameter.type.swiftType)
      offset = (offset + alignment - 1) / alignment * alignment
      if !parameter.isInout, let pairing = types[parameter.type.typeID] {
        slots.append((offset, pairing))
      }
      offset += size
    }
    guard !slots.isEmpty else { return nil }
    self.token = token
    self.slots = slots
    self.size = offset
  }

  private static func layout(of type: Any.Type) -> (size: Int, alignment: Int) {
    func open<T>(_: T.Type) -> (Int, Int) { (MemoryLayout<T>.size, MemoryLayout<T>.alignment) }
    return open(type)
  }

  /// `arguments` as the member `member` receives them: each paired argument that is an
  /// answer this multicast gathered replaced by the member's own part; nil when the member
  /// has no part in one of them (it is not called: see ``Reducer/multicast(_:name:)``).
  @usableFromInline
  func arguments<Arguments>(_ arguments: Arguments, for member: UInt64) -> Arguments? {
    precondition(
      MemoryLayout<Arguments>.size == size,
      "paired arguments \(Arguments.self) are not laid out as their parameters (runtime bug)")
    var own = arguments
    let complete = withUnsafeMutableBytes(of: &own) { raw in
      slots.allSatisfy { $0.pairing.replace(raw.baseAddress! + $0.offset, for: member, token) }
    }
    return complete ? own : nil
  }
}

extension DelegateMulticast: PairedAnswer, PairingGatherer {
  var answerPairing: AnswerPairing? { state.withLock { $0.answerPairing } }

  func pairedPart(_ member: MemberID) -> Any? { delegate(member) }

  func pairingToken<Value>(for type: Value.Type) -> PairingToken {
    let key = ObjectIdentifier(type)
    let known = state.withLock { s in s.pairing.flatMap { $0.types[key] != nil ? $0.token : nil } }
    if let known { return known }
    // Published at once (also from inside the dispatch that gathered the answer: the table
    // replaced is released after its read section): the answer may be passed back as soon
    // as it is returned.
    return update { s in
      var pairing = s.pairing ?? GathererPairing()
      if pairing.types[key] == nil {
        pairing.types[key] = ValuePairing<Value>()
        for (index, method) in protocolDescription.methods.enumerated() {
          pairing.methods[index] = ArgumentPairing(method, pairing.types, pairing.token)
        }
      }
      s.pairing = pairing
      return pairing.token
    }
  }

  /// Whether a dispatch of the method at `index` over `table` notes which member gave each
  /// answer: its reducer pairs them (``Reducer/multicast(_:name:)``).
  @usableFromInline
  final func collectsSources(_ index: Int, _ table: SwiftMemberTable<Delegate>) -> Bool {
    table.policies[index].reducer?.sourcedReduction != nil
  }

  /// Records that this multicast is an answer gathered by the multicast `pairing.token`
  /// names (``Reducer/multicast(_:name:)``).
  final func setAnswerPairing(_ pairing: AnswerPairing) {
    state.withLock { $0.answerPairing = pairing }
  }
}
