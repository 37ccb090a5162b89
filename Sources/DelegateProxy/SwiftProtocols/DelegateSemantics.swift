/// What a `@Delegate` multicast is, as ``Delegate(semantics:)`` and
/// ``Delegate(for:object:semantics:)`` choose it.
public enum DelegateSemantics: Sendable {
  /// A struct (``DelegateValueMulticast``): a copy is a multicast of its own, with copies
  /// of the value members and the same object members. For a protocol that is not
  /// class-bound (the default for one); refused for one constrained to `AnyObject`.
  case value
  /// A class (``DelegateMulticast``): every reference shares one multicast. The default
  /// for a class-bound protocol.
  case reference
}
