import MessageRuntime

/// A `MessageArgument`'s C bytes.
enum Bytes {
  static func of<T: MessageArgument>(_ value: T) -> [UInt8] {
    let size = MemoryLayout<T>.size
    let buffer = UnsafeMutableRawPointer.allocate(
      byteCount: max(size, 1), alignment: MemoryLayout<T>.alignment)
    defer { buffer.deallocate() }
    buffer.initializeMemory(as: UInt8.self, repeating: 0, count: max(size, 1))
    value.store(to: buffer)
    return Array(UnsafeRawBufferPointer(start: buffer, count: size))
  }
}
