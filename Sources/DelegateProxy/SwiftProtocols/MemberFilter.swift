/// The filter of one method of a Swift multicast, erased (see
/// ``DelegateMulticast/setFilter(for:_:)``): a ``MemberFilter`` of the method's types.
@usableFromInline
class AnyMemberFilter: @unchecked Sendable {
  // @unchecked Sendable: no stored state (the subclass's is an immutable @Sendable closure).
  init() {}
}

/// Which members a call of one method reaches: `admits(member, arguments)`, asked for each
/// member before its call.
@usableFromInline
final class MemberFilter<Delegate, Arguments>: AnyMemberFilter, @unchecked Sendable {
  // @unchecked Sendable: its one stored property is an immutable @Sendable closure.
  @usableFromInline let admits: @Sendable (Delegate, Arguments) -> Bool

  init(_ admits: @escaping @Sendable (Delegate, Arguments) -> Bool) {
    self.admits = admits
  }
}
