import MessageRuntime

/// What one argument of a call must be for a stub to answer it or a verification to
/// count it: anything, a value (byte for byte), or a predicate.
///
/// Literals read as values: `[.any, 0]` matches any first argument and a second whose
/// integer value is 0, whatever its width; `"item"` matches a C string's contents; `2.5`
/// a `float` or `double`; `true` a `BOOL`.
public struct ArgumentMatcher: Sendable, CustomStringConvertible {
  enum Kind: Sendable {
    case any
    case bytes([UInt8], TypeEncoding, size: Int)
    case predicate(@Sendable (RecordedArgument) -> Bool)
  }
  let kind: Kind
  /// How the matcher reads in failure messages.
  public let description: String
  /// The value compared, kept alive so that an object's handle is not reused.
  let kept: KeptValue?

  init(kind: Kind, description: String, keeping value: Any? = nil) {
    self.kind = kind
    self.description = description
    self.kept = value.map(KeptValue.init)
  }

  /// Any value.
  public static var any: ArgumentMatcher { ArgumentMatcher(kind: .any, description: "any") }

  /// A value equal to `value` byte for byte; `T` must fit the argument's type (checked
  /// when the matcher is used). An object matches by identity (its handle).
  public static func equal<T: MessageArgument>(_ value: T) -> ArgumentMatcher {
    let bytes = Bytes.of(value)
    return ArgumentMatcher(
      kind: .bytes(bytes, T.typeEncoding, size: bytes.count),
      description: ValueText.text(bytes, T.typeEncoding, dereference: false), keeping: value)
  }

  /// An argument for which `predicate` returns true; `description` names it in failure
  /// messages.
  public static func matching(
    _ description: String = "a value matching a predicate",
    _ predicate: @escaping @Sendable (RecordedArgument) -> Bool
  ) -> ArgumentMatcher {
    ArgumentMatcher(kind: .predicate(predicate), description: description)
  }

  /// An argument whose Swift value equals `value`, for a double made from a `@Delegate`
  /// protocol (see ``RecordedArgument/swiftValue(as:)``): `.swiftValue(Reading(celsius: 21.5))`.
  public static func swiftValue<T: Equatable & Sendable>(_ value: T) -> ArgumentMatcher {
    .matching(String(describing: value)) { $0.swiftValue(as: T.self) == value }
  }

  /// An integer argument of any width whose value is `value`.
  public static func integer(_ value: Int64) -> ArgumentMatcher {
    .matching(String(value)) { $0.integer == value }
  }

  /// A `char *` argument whose contents are `string`.
  public static func string(_ string: String) -> ArgumentMatcher {
    .matching("\"\(string)\"") { $0.string == string }
  }

  /// Checks that the matcher can apply to an argument of `type`.
  func validate(against type: TypeEncoding, selector: Selector, position: Int) throws(DoubleError) {
    guard case .bytes(_, let encoding, let size) = kind else { return }
    guard EncodingCheck.fits(encoding, size: size, into: type) else {
      throw .argumentTypeMismatch(
        selector: selector, position: position, expected: type.canonicalString,
        found: "\(description) (\(encoding.canonicalString))")
    }
  }

  /// Whether `argument` matches.
  func matches(_ argument: RecordedArgument) -> Bool {
    switch kind {
    case .any: true
    case .bytes(let bytes, _, _): argument.bytes == bytes
    case .predicate(let predicate): predicate(argument)
    }
  }
}

extension ArgumentMatcher: ExpressibleByIntegerLiteral {
  /// An integer argument of any width whose value is `value` (see ``integer(_:)``).
  public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension ArgumentMatcher: ExpressibleByFloatLiteral {
  /// A `float` or `double` argument equal to `value`.
  public init(floatLiteral value: Double) {
    self = .matching(String(value)) { $0.floatingPoint == value }
  }
}

extension ArgumentMatcher: ExpressibleByStringLiteral {
  /// A `char *` argument whose contents are `value` (see ``string(_:)``).
  public init(stringLiteral value: String) { self = .string(value) }
}

extension ArgumentMatcher: ExpressibleByBooleanLiteral {
  /// A `BOOL` (or any integer) argument that is nonzero for `true`, zero for `false`.
  public init(booleanLiteral value: Bool) {
    self = .matching(String(value)) { ($0.integer ?? -1) == (value ? 1 : 0) }
  }
}

extension ArgumentMatcher: ExpressibleByNilLiteral {
  /// A null pointer or object.
  public init(nilLiteral: ()) {
    self = .matching("nil") { $0.pointer == nil && $0.bytes.allSatisfy { $0 == 0 } }
  }
}
