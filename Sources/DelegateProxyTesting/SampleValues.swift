import DelegateProxy
import MessageRuntime

/// Sample values of one of your own Swift types, which ``DeliveryCheck`` sends where a
/// `@Delegate` protocol's method takes that type (see
/// ``DeliveryCheck/withSamples(_:)``): a value with no C form travels as a
/// `SwiftValueObject` and is compared as a value where it arrives; a value with a C form
/// (a C-layout struct, a class instance) travels as its C bytes and is compared byte for
/// byte.
struct SampleValues: Sendable {
  /// The type's name, as `String(reflecting:)` writes it (how parameters name it).
  let typeName: String
  /// The samples, boundary values first.
  let values: [any Sendable]
  /// Whether a value that arrived is the value sent.
  let same: @Sendable (Any, Any) -> Bool

  init<T: Sendable>(_ values: [T], same: @escaping @Sendable (T, T) -> Bool) {
    typeName = String(reflecting: T.self)
    self.values = values
    self.same = { a, b in
      guard let a = a as? T, let b = b as? T else { return false }
      return same(a, b)
    }
  }

  /// The C bytes of sample `k` (modulo the count) for a parameter of `valueType`, which
  /// has a C form; the sample itself is appended to `kept` (a class instance travels as
  /// its unretained address).
  func cBytes(_ k: Int, of valueType: DelegateValueType, keeping kept: inout [Any]) -> [UInt8] {
    let value = values[k % values.count]
    let size = (try? valueType.encoding?.layout().size) ?? 0
    var bytes = [UInt8](repeating: 0, count: size)
    func write<T>(_ value: T) {
      bytes.withUnsafeMutableBytes { valueType.writeC(value, to: $0.baseAddress!) }
    }
    write(value)  // opens the existential: writeC needs the static type
    kept.append(value)
    return bytes
  }
}
