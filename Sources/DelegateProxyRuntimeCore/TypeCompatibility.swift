extension TypeEncoding {
  /// Whether a value encoded as `other` may be stored where `self` is declared: the
  /// same type ignoring qualifiers and aggregate/field names, or any two data pointers
  /// where one is `void *` or they point at the same shape, or `char *` for `*`, or
  /// any object for `@`/`@?`.
  package func accepts(_ other: TypeEncoding) -> Bool {
    let a = self.unqualified.shape
    let b = other.unqualified.shape
    if a == b { return true }
    switch (a, b) {
    case (.pointer(let x), .pointer(let y)):
      return x == .void || y == .void || x == .unknown || y == .unknown || x.isOpaqueAggregate
        || y.isOpaqueAggregate || x.accepts(y)
    case (.cString, .pointer(let y)), (.pointer(let y), .cString):
      return y == .char || y == .void
    case (.object, .block), (.block, .object):
      return true
    default:
      return false
    }
  }

  /// `{name}` or `(name)`: an aggregate whose fields are not spelled out.
  package var isOpaqueAggregate: Bool {
    switch self {
    case .structure(_, nil), .union(_, nil): return true
    default: return false
    }
  }

  /// The type with aggregate names dropped (the ABI does not see names).
  package var shape: TypeEncoding {
    switch self {
    case .qualified(_, let t): return t.shape
    case .pointer(let t): return .pointer(t.shape)
    case .array(let n, let t): return .array(count: n, element: t.shape)
    case .structure(_, let fields): return .structure(name: nil, fields: fields?.map(\.shape))
    case .union(_, let fields): return .union(name: nil, fields: fields?.map(\.shape))
    default: return self
    }
  }
}
