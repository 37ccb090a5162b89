/// Where the answers a custom fold receives came from: the multicast that gathered them and,
/// for each answer in order, the membership that gave it (see ``Reducer/multicast(_:name:)``,
/// which remembers the pairs so that each member gets its own answer back as an argument).
struct AnswerSources: Sendable {
  /// The multicast whose members answered.
  let gatherer: any AnyObject & Sendable
  /// By answer: the number of the membership that gave it (`MemberID.rawValue`).
  let members: [UInt64]
}
