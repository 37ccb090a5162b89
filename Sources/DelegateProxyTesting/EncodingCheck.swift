import MessageRuntime

/// Whether a Swift value's encoding fits a declared argument or result type: the same
/// type (qualifiers and aggregate names aside), or two pointers, or two objects, at the
/// same size.
enum EncodingCheck {
  static func fits(_ swift: TypeEncoding, size: Int, into declared: TypeEncoding) -> Bool {
    let a = swift.unqualified
    let b = declared.unqualified
    guard let declaredSize = try? b.layout().size, declaredSize == size else { return false }
    if a.canonicalString == b.canonicalString { return true }
    switch (family(a), family(b)) {
    case (.pointer, .pointer), (.object, .object), (.aggregate, .aggregate): return true
    case (.pointer, .object), (.object, .pointer):
      return a == .pointer(.void) || b == .pointer(.void)
    default: return false
    }
  }

  private enum Family { case pointer, object, aggregate, other }

  private static func family(_ t: TypeEncoding) -> Family {
    switch t {
    case .pointer, .cString: .pointer
    case .object, .block: .object
    case .structure, .union, .array: .aggregate
    default: .other
    }
  }
}
