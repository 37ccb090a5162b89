/// Whether a protocol's existential holds a class reference (a class-bound protocol:
/// `any P` is a reference and witness tables) or an opaque value (a protocol that is not:
/// `any P` is an inline buffer or a box, the value's type and witness tables). The fast
/// dispatch loop copies a class existential bitwise and forgets the copy by zeroing it,
/// which an opaque one does not allow (see `SwiftMemberTable`).
enum ExistentialKind {
  /// Whether `type` is a class-bound existential or a class. Read from the type's metadata
  /// as the Swift runtime lays it out: an existential's kind is 0x303 and bit 31 of its
  /// flags word (`ExistentialTypeFlags`' class constraint) is clear when it is class-bound.
  /// Anything else — a struct, an enum, a metatype — is not.
  static func isClassBound(_ type: Any.Type) -> Bool {
    if type is AnyObject.Type { return true }
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    guard metadata.load(as: UInt.self) == 0x303 else { return false }
    return metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self) & 0x8000_0000
      == 0
  }
}
