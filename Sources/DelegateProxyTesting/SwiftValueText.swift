/// Swift values as Swift writes them, for descriptions and failure messages.
enum SwiftValueText {
  /// A string quoted, a class instance that does not describe itself as its type
  /// (`<Sensor>`), anything else as `String(describing:)` writes it.
  static func of(_ value: Any, typeName: String? = nil) -> String {
    if value is String || value is Character { return String(reflecting: value) }
    if type(of: value) is AnyClass, !(value is any CustomStringConvertible) {
      return "<\(typeName ?? SwiftTypeName.written(String(reflecting: type(of: value))))>"
    }
    return String(describing: value)
  }
}
