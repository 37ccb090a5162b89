// Text helpers for the callback tests (the log they share is DelegateProxyTestSupport's
// CallLog).

/// A string from a C string (nil → "").
func text(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }

/// A string from `count` bytes (not NUL-terminated).
func text(_ p: UnsafePointer<CChar>?, count: Int) -> String {
  guard let p, count > 0 else { return "" }
  return p.withMemoryRebound(to: UInt8.self, capacity: count) {
    String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
  }
}
