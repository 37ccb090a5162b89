import DelegateProxy
import MessageRuntime

/// `DeliveryCheck`'s check of what a multicast proxy answers: each double that responds
/// gets a value of its own to answer a case with, and the proxy's answer must be what its
/// policy for the method makes of the values of the doubles it calls on the sender's
/// thread, in member order.
struct AnswerCheck {
  let proxy: MulticastProxy

  /// One case's answers: what the proxy must answer, and how to undo the stubs.
  struct Answered {
    let type: TypeEncoding
    let expected: [UInt8]
    /// "last responder of [1, 2]": how `expected` was made, for the failure message.
    let reason: String
    let restores: [@Sendable () -> Void]

    /// Puts the doubles' stubs back.
    func restore() { for r in restores { r() } }

    /// What is wrong with the answer `invocation` came back with, or nil.
    func check(_ invocation: Invocation, describing c: String) -> String? {
      let answered = invocation.withUnsafeReturnValue { Array($0) }
      if ArgumentValues.sameValue(answered, expected, of: type) { return nil }
      return
        "\(c): the proxy answered \(ValueText.text(answered, type, dereference: false)) "
        + "(\(type.canonicalString)), expected \(ValueText.text(expected, type, dereference: false)), "
        + "the \(reason)."
    }
  }

  /// Gives each double that responds to `method` a value to answer with and returns what
  /// the proxy must answer; nil (nothing stubbed) for a method whose answer is not
  /// checked: `void`, a result holding pointers or objects (a made-up one would be
  /// dereferenced or retained), no double called on the sender's thread, or a reducer
  /// that does not take the type.
  func answers(
    for method: DoubledMethod, of doubles: [DelegateDouble], values: ArgumentValues,
    using rng: inout SeededRandom
  ) -> Answered? {
    let selector = method.selector
    let type = method.signature.returnType
    guard !method.signature.returnsVoid, Self.isPlainData(type) else { return nil }
    let responding = doubles.filter { $0.responds(to: selector) }
    // The doubles the proxy calls on the sender's thread, in member order: only their
    // answers reach the sender.
    let synchronous = proxy.members.compactMap { entry -> DelegateDouble? in
      guard entry.queue == nil, let d = entry.delegate as? DelegateDouble,
        responding.contains(where: { $0 === d })
      else { return nil }
      return d
    }
    guard !synchronous.isEmpty else { return nil }
    var given: [ObjectIdentifier: [UInt8]] = [:]
    for d in responding where given[ObjectIdentifier(d)] == nil {
      given[ObjectIdentifier(d)] = values.random(of: type, using: &rng)
    }
    let ordered = synchronous.map { given[ObjectIdentifier($0)]! }
    let expected: [UInt8]
    let rule: String
    switch proxy.policy(for: selector) {
    case .lastResponder:
      (expected, rule) = (ordered.last!, "last responder")
    case .firstResponder:
      (expected, rule) = (ordered.first!, "first responder")
    case .reduce(let reducer):
      let reduced = try? reducer.reduce(
        ordered.map { ReturnValue(type: type, bytes: $0) }, returning: type)
      guard let reduced else { return nil }
      (expected, rule) = (reduced.bytes, "reduce(\(reducer.name))")
    }
    let restores = responding.map { d in
      d.answerTemporarily(selector, with: given[ObjectIdentifier(d)]!, type: type)
    }
    let shown = ordered.map { ValueText.text($0, type, dereference: false) }.joined(
      separator: ", ")
    return Answered(
      type: type, expected: expected, reason: "\(rule) of [\(shown)]", restores: restores)
  }

  /// Numbers, booleans and structs or arrays of them: no pointer, object, class,
  /// selector or unknown type anywhere inside.
  static func isPlainData(_ type: TypeEncoding) -> Bool {
    !type.canonicalString.contains { "@#*^:?".contains($0) }
  }
}
