import MessageRuntime

// Beside the runtime proxy rather than with MulticastOptions: a signature is made through
// MethodSignature (libffi), which the Swift multicasts' membership must not need (#35).
extension MulticastOptions {
  /// The signature a ``silentWhenEmpty`` multicast accepts a message it knows nothing
  /// about with: `void`, object arguments (`AIMultiDelegate`'s "any signature"), so a C
  /// caller's message reaches `forwardInvocation` and is dropped.
  static func silentSignature(for selector: Selector) -> MethodSignature? {
    try? MethodSignature.make(
      returnType: .void,
      arguments: [.object, .selector] + Array(repeating: .object, count: selector.argumentCount))
  }
}
