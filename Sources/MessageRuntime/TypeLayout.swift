// TypeLayout.swift — size, alignment and field offsets of a TypeEncoding by the C ABI.
//
// The rules are those of x86-64 System V and AArch64 LP64 (Linux), which agree for
// every type an encoding can name: natural alignment for scalars, 8-byte pointers and
// 16-byte `long double`; struct fields at the next multiple of their alignment and the
// size rounded up to the largest alignment; an empty struct or union has size 0 and
// alignment 1 (GNU C).

/// Size and alignment of a type in memory, by the C ABI.
public struct TypeLayout: Sendable, Hashable {
  /// The size in bytes (`sizeof`), a multiple of ``alignment``.
  public var size: Int
  /// The alignment in bytes (`_Alignof`), a power of two.
  public var alignment: Int
  /// Byte offsets of the fields, for a struct (in order) or a union (all 0); empty otherwise.
  /// Arrays are not expanded here.
  public var fieldOffsets: [Int]

  /// Creates a layout; `fieldOffsets` is empty for anything but a struct or union.
  public init(size: Int, alignment: Int, fieldOffsets: [Int] = []) {
    self.size = size
    self.alignment = alignment
    self.fieldOffsets = fieldOffsets
  }
}

extension TypeEncoding {
  /// Size, alignment (and struct field offsets) by the platform C ABI rules (x86-64 SysV and AArch64 LP64).
  ///
  /// Types without a size by value fail with `.unsupported`: `void`, `?`, opaque
  /// `{name}` / `(name)` aggregates, bitfields, and anything containing them other than
  /// through a pointer. So do types larger than `Int.max` bytes and nesting deeper than
  /// 256 levels. The error's encoding is this type's ``canonicalString`` and its position
  /// is where the offending part starts in it.
  public func layout() throws(TypeEncodingError) -> TypeLayout {
    do {
      return try layout(depth: 0)
    } catch {
      let canonical = canonicalString
      throw TypeEncodingError(
        encoding: canonical, utf8Offset: canonicalOffset(ofPath: error.path.reversed()),
        reason: error.reason)
    }
  }

  /// A layout failure: why, and the path from the failing part up to this type (child
  /// indices, innermost first).
  struct LayoutFailure: Error {
    var reason: TypeEncodingError.Reason
    var path: [Int] = []
  }

  /// The layout of this type, `depth` aggregates and arrays below the root. Qualifiers
  /// are unwrapped in a loop, so a long chain of them costs no stack.
  private func layout(depth: Int) throws(LayoutFailure) -> TypeLayout {
    var type = self
    var qualifierLevels = 0
    while case .qualified(_, let inner) = type {
      type = inner
      qualifierLevels += 1
    }
    do {
      return try type.unqualifiedLayout(depth: depth)
    } catch {
      var failure = error
      failure.path.append(contentsOf: repeatElement(0, count: qualifierLevels))
      throw failure
    }
  }

  /// The layout of a type that is not `.qualified` (pointers are not followed).
  private func unqualifiedLayout(depth: Int) throws(LayoutFailure) -> TypeLayout {
    if depth > TypeEncodingParser.maxDepth {
      throw LayoutFailure(
        reason: .unsupported("nesting deeper than \(TypeEncodingParser.maxDepth)"))
    }
    switch self {
    case .char, .unsignedChar, .bool:
      return TypeLayout(size: 1, alignment: 1)
    case .short, .unsignedShort:
      return TypeLayout(size: 2, alignment: 2)
    case .int, .unsignedInt, .long, .unsignedLong, .float:
      return TypeLayout(size: 4, alignment: 4)
    case .longLong, .unsignedLongLong, .double:
      return TypeLayout(size: 8, alignment: 8)
    case .cString, .object, .block, .classObject, .selector, .pointer:
      return TypeLayout(size: 8, alignment: 8)
    case .longDouble:
      return TypeLayout(size: 16, alignment: 16)
    case .void:
      throw LayoutFailure(reason: .unsupported("void by value"))
    case .unknown:
      throw LayoutFailure(reason: .unsupported("unknown type '?' by value"))
    case .bitfield:
      throw LayoutFailure(reason: .unsupported("bitfields"))
    case .qualified(_, let inner):
      return try inner.layout(depth: depth)  // not reached: `layout(depth:)` unwraps these
    case .array(let count, let element):
      guard count >= 0 else { throw LayoutFailure(reason: .invalidNumber) }
      let elementLayout = try Self.child(0) { () throws(LayoutFailure) in
        try element.layout(depth: depth + 1)
      }
      let (size, overflow) = elementLayout.size.multipliedReportingOverflow(by: count)
      if overflow { throw Self.tooLarge }
      return TypeLayout(size: size, alignment: elementLayout.alignment)
    case .structure(let name, let fields):
      guard let fields else {
        throw LayoutFailure(
          reason: .unsupported("opaque struct '\(Self.canonicalName(name))' by value"))
      }
      return try Self.structLayout(fields, depth: depth)
    case .union(let name, let fields):
      guard let fields else {
        throw LayoutFailure(
          reason: .unsupported("opaque union '\(Self.canonicalName(name))' by value"))
      }
      return try Self.unionLayout(fields, depth: depth)
    }
  }

  /// The failure for sizes beyond `Int.max`.
  private static var tooLarge: LayoutFailure {
    LayoutFailure(reason: .unsupported("types larger than Int.max bytes"))
  }

  /// Runs `body` for child `index`, adding the index to the path of its failure.
  private static func child(_ index: Int, _ body: () throws(LayoutFailure) -> TypeLayout)
    throws(LayoutFailure) -> TypeLayout
  {
    do {
      return try body()
    } catch {
      var failure = error
      failure.path.append(index)
      throw failure
    }
  }

  /// A struct: each field at the next multiple of its alignment, the size rounded up to
  /// the largest alignment.
  private static func structLayout(_ fields: [TypeEncoding], depth: Int) throws(LayoutFailure)
    -> TypeLayout
  {
    var offset = 0
    var alignment = 1
    var offsets: [Int] = []
    offsets.reserveCapacity(fields.count)
    for (index, field) in fields.enumerated() {
      let fieldLayout = try child(index) { () throws(LayoutFailure) in
        try field.layout(depth: depth + 1)
      }
      offset = try roundUp(offset, to: fieldLayout.alignment)
      offsets.append(offset)
      let (end, overflow) = offset.addingReportingOverflow(fieldLayout.size)
      if overflow { throw tooLarge }
      offset = end
      alignment = max(alignment, fieldLayout.alignment)
    }
    return TypeLayout(
      size: try roundUp(offset, to: alignment), alignment: alignment, fieldOffsets: offsets)
  }

  /// A union: every field at 0, the largest size rounded up to the largest alignment.
  private static func unionLayout(_ fields: [TypeEncoding], depth: Int) throws(LayoutFailure)
    -> TypeLayout
  {
    var size = 0
    var alignment = 1
    for (index, field) in fields.enumerated() {
      let fieldLayout = try child(index) { () throws(LayoutFailure) in
        try field.layout(depth: depth + 1)
      }
      size = max(size, fieldLayout.size)
      alignment = max(alignment, fieldLayout.alignment)
    }
    return TypeLayout(
      size: try roundUp(size, to: alignment), alignment: alignment,
      fieldOffsets: Array(repeating: 0, count: fields.count))
  }

  /// `value` rounded up to a multiple of `alignment` (a power of two).
  private static func roundUp(_ value: Int, to alignment: Int) throws(LayoutFailure) -> Int {
    let (sum, overflow) = value.addingReportingOverflow(alignment - 1)
    if overflow { throw tooLarge }
    return sum & ~(alignment - 1)
  }

  /// The UTF-8 offset in ``canonicalString`` where the part reached by `path` (child
  /// indices from this type down) starts.
  private func canonicalOffset(ofPath path: some Sequence<Int>) -> Int {
    var offset = 0
    var node = self
    for index in path {
      switch node {
      case .qualified(let qualifiers, let inner):
        offset += qualifiers.canonicalCodes.utf8.count
        node = inner
      case .pointer(let pointee):
        offset += 1
        node = pointee
      case .array(let count, let element):
        offset += 1 + String(count).utf8.count
        node = element
      case .structure(let name, let fields?), .union(let name, let fields?):
        guard fields.indices.contains(index) else { return offset }
        offset += 2 + Self.canonicalName(name).utf8.count  // bracket, name, "="
        for field in fields[..<index] {
          offset += field.canonicalString.utf8.count
        }
        node = fields[index]
      default:
        return offset
      }
    }
    return offset
  }
}
