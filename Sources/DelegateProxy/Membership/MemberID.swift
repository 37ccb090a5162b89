/// One membership of a `@Delegate` multicast, as ``DelegateMulticast/add(_:queue:retention:)``
/// returns it: what ``DelegateMulticast/remove(_:)-(MemberID)`` and
/// ``DelegateMulticast/delegate(_:)`` take.
///
/// A value (a struct added to a multicast of a protocol that is not class-bound) has no
/// identity of its own — two equal values are one value — so the membership is what
/// names it: the token stays valid while the member's value changes (a `mutating` call
/// stores a new value in the same membership), and a copy of a value multicast keeps its
/// members' tokens, so `b.remove(token)` removes from `b` the copy of the member the token
/// named in `a`. An object member has one too.
public struct MemberID: Hashable, Sendable, CustomStringConvertible {
  /// The membership's number (unique in the process, shared by copies of one membership).
  let rawValue: UInt64

  init(_ rawValue: UInt64) { self.rawValue = rawValue }

  /// `member #N`.
  public var description: String { "member #\(rawValue)" }
}
