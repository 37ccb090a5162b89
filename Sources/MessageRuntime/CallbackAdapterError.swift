/// Why a ``CallbackAdapter`` could not be made. Raised when the adapter is created, never
/// when the library calls it.
public enum CallbackAdapterError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The context position is not an argument of the callback (`.first`/`.last` of a
  /// callback with no arguments, or an index outside `0..<arity`).
  case contextOutOfRange(position: Int, arity: Int)
  /// The argument at the context position is not a pointer (`^T`, `*`, `@`): the adapter
  /// needs a pointer-sized context the library hands back unchanged.
  case contextNotAPointer(position: Int, found: String)
  /// A signature this package cannot carry (an array or bitfield by value, an unsized
  /// type, `long double` where libffi cannot pass it, a libffi defect), with the reason.
  case unsupportedSignature(encoding: String, reason: String)
  /// The callback's arguments, context removed, are not the message's.
  case argumentMismatch(selector: Selector, callback: String, message: String)
  /// The callback returns a value of another type than the message.
  case resultMismatch(selector: Selector, callback: String, message: String)
  /// A message returning nothing behind a callback that returns a value, with no default
  /// result to give the library.
  case missingDefaultResult(selector: Selector, callbackResult: String)
  /// The default result's type is not the callback's return type.
  case defaultResultMismatch(callbackResult: String, found: String)
  /// `sharingContextWith:` named an adapter of another receiver: one context identifies
  /// one receiver.
  case sharedContextReceiverMismatch(expected: String, found: String)
  /// Every slot of the shared context is taken (see
  /// ``CallbackAdapter/maximumSharedContexts``).
  case tooManySharedContexts(limit: Int)
  /// libffi could not allocate the closure of a bound or general adapter.
  case closureAllocationFailed(encoding: String)
  /// The receiver's method for the selector (for a multicast proxy: its members' method,
  /// which they share) has other types than the message the adapter would send: its calls
  /// would hand the method arguments it reads as something else. `method` and `message`
  /// are the two encodings (`self` and `_cmd` included).
  case receiverMethodMismatch(
    selector: Selector, receiverClass: String, method: String, message: String)
  /// ``CallbackAdapter/function(as:)`` was asked for a function type that is provably not
  /// the callback's: not a `@convention(c)` function, another number of arguments, or an
  /// argument or result of another type. `type` is the Swift type asked for, `callback`
  /// the callback's encoding.
  case functionTypeMismatch(type: String, callback: String, reason: String)

  public var description: String {
    switch self {
    case .contextOutOfRange(let position, let arity):
      return
        "context position \(position) is outside the callback's \(arity) argument\(arity == 1 ? "" : "s")"
    case .contextNotAPointer(let position, let found):
      return "the context (argument \(position)) must be a pointer, found \"\(found)\""
    case .unsupportedSignature(let encoding, let reason):
      return "cannot adapt the callback signature \"\(encoding)\": \(reason)"
    case .argumentMismatch(let selector, let callback, let message):
      return
        "\(selector.name): the callback's arguments without the context (\"\(callback)\") differ from the message's (\"\(message)\")"
    case .resultMismatch(let selector, let callback, let message):
      return
        "\(selector.name): the callback returns \"\(callback)\" but the message returns \"\(message)\""
    case .missingDefaultResult(let selector, let result):
      return
        "\(selector.name) returns nothing but the callback returns \"\(result)\": give a default result"
    case .defaultResultMismatch(let result, let found):
      return "the default result is \"\(found)\" but the callback returns \"\(result)\""
    case .sharedContextReceiverMismatch(let expected, let found):
      return "a shared context sends to \(expected), not \(found)"
    case .tooManySharedContexts(let limit):
      return "at most \(limit) callbacks can share one context"
    case .closureAllocationFailed(let encoding):
      return "libffi could not allocate a closure for the callback \"\(encoding)\""
    case .receiverMethodMismatch(let selector, let receiverClass, let method, let message):
      return
        "-[\(receiverClass) \(selector.name)] is \"\(method)\" but the callback's message is \"\(message)\": its calls would reach the method with arguments of other types"
    case .functionTypeMismatch(let type, let callback, let reason):
      return "function(as: \(type)): \(reason); the callback is \"\(callback)\""
    }
  }
}
