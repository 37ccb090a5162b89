// TypeLayout.swift — size, alignment and field offsets of a TypeEncoding by the C ABI.
//
// The rules are those of x86-64 System V and AArch64 LP64 (Linux), which agree for
// every type an encoding can name: natural alignment for scalars, 8-byte pointers and
// 16-byte `long double`; struct fields at the next multiple of their alignment and the
// size rounded up to the largest alignment; an empty struct or union has size 0 and
// alignment 1 (GNU C).

/// Size and alignment of a type in memory, by the C ABI (`NSGetSizeAndAlignment`), as
/// ``TypeEncoding/layout()`` computes it.
public struct TypeLayout: Sendable, Hashable {
  /// The size in bytes (`sizeof`), a multiple of ``alignment``.
  public var size: Int
  /// The alignment in bytes (`_Alignof`), a power of two.
  public var alignment: Int
  /// Byte offsets of the fields, for a struct (in order) or a union (all 0); empty otherwise.
  /// Arrays are not expanded here.
  package var fieldOffsets: [Int]

  /// Creates a layout; `fieldOffsets` is empty for anything but a struct or union.
  package init(size: Int, alignment: Int, fieldOffsets: [Int] = []) {
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
  /// through a pointer. So do types larger than `Int.max` bytes and arrays or aggregates
  /// nested deeper than 256 levels; a negative array count fails with `.invalidNumber`.
  /// The error's encoding is this type's ``canonicalString`` and its position is where
  /// the offending part (after its qualifiers) starts in it.
  public func layout() throws(TypeEncodingError) -> TypeLayout {
    var stack: [LayoutFrame] = []
    var node = self
    nextNode: while true {
      // Lay out `node`, a child of the frame on top of the stack; pointers are not
      // followed and qualifiers do not matter, so only arrays and aggregates nest.
      if stack.count > TypeEncodingParser.maxDepth {
        throw layoutError(.unsupported("nesting deeper than \(TypeEncodingParser.maxDepth)"), stack)
      }
      var result: TypeLayout
      switch node {
      case .char, .unsignedChar, .bool:
        result = TypeLayout(size: 1, alignment: 1)
      case .short, .unsignedShort:
        result = TypeLayout(size: 2, alignment: 2)
      case .int, .unsignedInt, .long, .unsignedLong, .float:
        result = TypeLayout(size: 4, alignment: 4)
      case .longLong, .unsignedLongLong, .double:
        result = TypeLayout(size: 8, alignment: 8)
      case .cString, .object, .block, .classObject, .selector, .pointer:
        result = TypeLayout(size: 8, alignment: 8)
      case .longDouble:
        result = TypeLayout(size: 16, alignment: 16)
      case .void:
        throw layoutError(.unsupported("void by value"), stack)
      case .unknown:
        throw layoutError(.unsupported("unknown type '?' by value"), stack)
      case .bitfield:
        throw layoutError(.unsupported("bitfields"), stack)
      case .qualified(_, let inner):
        node = inner  // the same part, at the same depth
        continue nextNode
      case .array(let count, let element):
        guard count >= 0 else { throw layoutError(.invalidNumber, stack) }
        stack.append(LayoutFrame(kind: .array(count: count)))
        node = element
        continue nextNode
      case .structure(let name, let fields), .union(let name, let fields):
        let isUnion = if case .union = node { true } else { false }
        guard let fields else {
          let kind = isUnion ? "union" : "struct"
          throw layoutError(
            .unsupported("opaque \(kind) '\(Self.canonicalName(name))' by value"), stack)
        }
        guard let first = fields.first else {
          result = TypeLayout(size: 0, alignment: 1)
          break
        }
        stack.append(LayoutFrame(kind: .aggregate(fields, isUnion: isUnion)))
        node = first
        continue nextNode
      }

      // Fold `result` into the enclosing frames it completes.
      while !stack.isEmpty {
        let top = stack.count - 1
        switch stack[top].kind {
        case .array(let count):
          let (size, overflow) = result.size.multipliedReportingOverflow(by: count)
          stack.removeLast()
          if overflow { throw layoutError(Self.tooLarge, stack) }
          result = TypeLayout(size: size, alignment: result.alignment)
        case .aggregate(let fields, let isUnion):
          guard stack[top].add(result, isUnion: isUnion) else {
            stack.removeLast()
            throw layoutError(Self.tooLarge, stack)
          }
          if stack[top].nextField < fields.count {
            node = fields[stack[top].nextField]
            stack[top].nextField += 1
            continue nextNode
          }
          let frame = stack.removeLast()
          guard let size = Self.roundUp(frame.end, to: frame.alignment) else {
            throw layoutError(Self.tooLarge, stack)
          }
          result = TypeLayout(size: size, alignment: frame.alignment, fieldOffsets: frame.offsets)
        }
      }
      return result
    }
  }

  /// An array or aggregate whose element or fields are being laid out.
  private struct LayoutFrame {
    /// What the frame lays out.
    enum Kind {
      case array(count: Int)
      case aggregate([TypeEncoding], isUnion: Bool)
    }

    var kind: Kind
    /// The index of the field after the one being laid out.
    var nextField = 1
    /// For a struct, the end of the last field placed; for a union, the largest size.
    var end = 0
    /// The largest alignment so far.
    var alignment = 1
    /// The offsets of the fields placed so far.
    var offsets: [Int] = []

    /// The index of the child being laid out, as a step of an error's path.
    var childIndex: Int {
      if case .aggregate = kind { nextField - 1 } else { 0 }
    }

    /// Places the next field; false if the size overflows.
    mutating func add(_ field: TypeLayout, isUnion: Bool) -> Bool {
      alignment = max(alignment, field.alignment)
      if isUnion {
        offsets.append(0)
        end = max(end, field.size)
        return true
      }
      guard let offset = TypeEncoding.roundUp(end, to: field.alignment) else { return false }
      offsets.append(offset)
      let (newEnd, overflow) = offset.addingReportingOverflow(field.size)
      end = newEnd
      return !overflow
    }
  }

  /// The reason for sizes beyond `Int.max`.
  private static var tooLarge: TypeEncodingError.Reason {
    .unsupported("types larger than Int.max bytes")
  }

  /// `value` rounded up to a multiple of `alignment` (a power of two), nil on overflow.
  private static func roundUp(_ value: Int, to alignment: Int) -> Int? {
    let (sum, overflow) = value.addingReportingOverflow(alignment - 1)
    return overflow ? nil : sum & ~(alignment - 1)
  }

  /// The error for `reason` at the part of this type reached through `stack`.
  private func layoutError(_ reason: TypeEncodingError.Reason, _ stack: [LayoutFrame])
    -> TypeEncodingError
  {
    TypeEncodingError(
      encoding: canonicalString,
      utf8Offset: canonicalOffset(ofPath: stack.map(\.childIndex)),
      reason: reason)
  }

  /// The UTF-8 offset in ``canonicalString`` of the part reached by `path`: at each
  /// array or aggregate, the index of the element (0) or field to enter. Qualifiers are
  /// stepped over, the part's own included.
  private func canonicalOffset(ofPath path: [Int]) -> Int {
    var offset = 0
    var node = self
    for index in path + [-1] {
      while case .qualified(let qualifiers, let inner) = node {
        offset += qualifiers.canonicalCodes.utf8.count
        node = inner
      }
      switch node {
      case .array(let count, let element) where index >= 0:
        offset += 1 + String(count).utf8.count  // "[" and the count
        node = element
      case .structure(let name, let fields?) where fields.indices.contains(index),
        .union(let name, let fields?) where fields.indices.contains(index):
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
