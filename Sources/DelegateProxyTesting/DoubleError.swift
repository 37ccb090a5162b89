import MessageRuntime

/// A double configured with something it cannot do: every case names the method and
/// what was wrong.
public enum DoubleError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The double knows no method with this selector (it is not in its protocol or
  /// signature list).
  case unknownSelector(Selector, double: String)
  /// A stubbed return value whose size or type does not fit the method's return type.
  case returnTypeMismatch(selector: Selector, expected: String, found: String)
  /// A list of argument matchers whose length differs from the method's arguments.
  case matcherCountMismatch(selector: Selector, expected: Int, found: Int)
  /// A matcher or an out-pointer write whose value does not fit the argument at
  /// `position` (0 is the method's first argument, after `self` and `_cmd`).
  case argumentTypeMismatch(selector: Selector, position: Int, expected: String, found: String)
  /// An out-pointer write to an argument that is not a pointer.
  case notAPointer(selector: Selector, position: Int, found: String)
  /// A signature list entry whose encoding is not a valid method signature.
  case invalidSignature(selector: String, encoding: String, reason: String)
  /// A Swift protocol description with a type that has no C form.
  case unsupportedProtocol(String)
  /// A stub that forwards, on a double made without a delegate to forward to.
  case noDelegateToForwardTo(selector: Selector)
  /// The runtime refused to give the double a method (a libffi closure it could not
  /// allocate).
  case methodInstallationFailed(selector: Selector, reason: String)

  /// What was wrong, naming the method.
  public var description: String {
    switch self {
    case .unknownSelector(let selector, let double):
      return "\(double) has no method \(selector.name)"
    case .returnTypeMismatch(let selector, let expected, let found):
      return "\(selector.name) returns \(expected); a stub cannot return \(found)"
    case .matcherCountMismatch(let selector, let expected, let found):
      return "\(selector.name) takes \(expected) argument(s); \(found) matcher(s) given"
    case .argumentTypeMismatch(let selector, let position, let expected, let found):
      return "\(selector.name) argument \(position) is \(expected); \(found) does not fit it"
    case .notAPointer(let selector, let position, let found):
      return "\(selector.name) argument \(position) is \(found), not a pointer to write through"
    case .invalidSignature(let selector, let encoding, let reason):
      return "\(selector): invalid signature \"\(encoding)\": \(reason)"
    case .unsupportedProtocol(let reason):
      return "protocol cannot be doubled: \(reason)"
    case .noDelegateToForwardTo(let selector):
      return
        "\(selector.name): the double has no delegate to forward to (make it with forwardingTo:)"
    case .methodInstallationFailed(let selector, let reason):
      return "\(selector.name): the double could not install its method: \(reason)"
    }
  }
}
