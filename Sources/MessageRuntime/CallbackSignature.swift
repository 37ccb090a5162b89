@_spi(Validation) import DelegateProxyRuntimeCore

/// The C signature of a library's callback, as the library declares it: its return type
/// and its arguments, with no `self` or `_cmd` (a plain C function type, not a method).
///
/// ```swift
/// // expat: void (*)(void *userData, const XML_Char *name, const XML_Char **atts)
/// let start = try CallbackSignature(parsing: "v^v*^*")
/// // libcurl: size_t (*)(char *ptr, size_t size, size_t nmemb, void *userdata)
/// let write = CallbackSignature(
///   returning: Int.self, UnsafeMutablePointer<CChar>?.self, Int.self, Int.self,
///   UnsafeMutableRawPointer?.self)
/// ```
public struct CallbackSignature: Sendable, Hashable, CustomStringConvertible {
  /// The return type (`.void` for none).
  public let returnType: TypeEncoding
  /// The argument types, in the library's order, the context included.
  public let argumentTypes: [TypeEncoding]

  /// A signature from its types.
  public init(returnType: TypeEncoding, arguments: [TypeEncoding]) {
    self.returnType = returnType.unqualified
    self.argumentTypes = arguments.map(\.unqualified)
  }

  /// A signature from a type list in the ObjC encoding, return type first, e.g. `v^v*^*`
  /// for `void (*)(void *, const char *, const char **)` or `v` for `void (*)(void)`.
  public init(parsing encoding: String) throws(CallbackAdapterError) {
    let types: [TypeEncoding]
    do { types = try TypeEncoding.parseMethodTypes(encoding) } catch {
      throw .unsupportedSignature(encoding: encoding, reason: "\(error)")
    }
    guard let first = types.first else {
      throw .unsupportedSignature(encoding: encoding, reason: "no return type")
    }
    self.init(returnType: first, arguments: Array(types.dropFirst()))
  }

  /// A signature that returns nothing, from the arguments' Swift types.
  public init<each Argument: MessageArgument>(
    returning _: Void.Type = Void.self, _ arguments: repeat (each Argument).Type
  ) {
    var types: [TypeEncoding] = []
    for t in repeat each arguments { types.append(t.typeEncoding) }
    self.init(returnType: .void, arguments: types)
  }

  /// A signature returning `Result`, from the Swift types.
  public init<Result: MessageArgument, each Argument: MessageArgument>(
    returning _: Result.Type, _ arguments: repeat (each Argument).Type
  ) {
    var types: [TypeEncoding] = []
    for t in repeat each arguments { types.append(t.typeEncoding) }
    self.init(returnType: Result.typeEncoding, arguments: types)
  }

  /// The canonical encoding, return type first (`v^v*^*`).
  public var encoding: String {
    returnType.canonicalString + argumentTypes.map(\.canonicalString).joined()
  }

  /// The number of arguments, the context included.
  package var arity: Int { argumentTypes.count }

  public var description: String { encoding }
}

/// Where a callback's context (its `void *userData`) is among its arguments.
public enum CallbackContext: Sendable, Hashable, CustomStringConvertible {
  /// The first argument (expat, SQLite hooks, pthread, libuv).
  case first
  /// The last argument (libcurl's `CURLOPT_WRITEFUNCTION`, GLib's `user_data`).
  case last
  /// The argument at this index: 0 is the callback's first argument (a C callback has no
  /// `self` or `_cmd`, so this counts as ``Invocation``'s indices do).
  case argument(Int)
  /// No context argument (`signal`, `atexit`, a `qsort` comparator): the adapter binds a
  /// trampoline of its own (a libffi closure) to the message.
  case none

  /// The argument index for a callback of `arity` arguments; nil for `.none`.
  func index(arity: Int) -> Int? {
    switch self {
    case .first: 0
    case .last: arity - 1
    case .argument(let k): k
    case .none: nil
    }
  }

  public var description: String {
    switch self {
    case .first: "context first"
    case .last: "context last"
    case .argument(let k): "context at argument \(k)"
    case .none: "no context"
    }
  }
}
