/// Swift's reserved words, for generated identifiers that must be written in backticks.
enum SwiftKeyword {
  /// The words that cannot name a property or parameter without backticks.
  static let reserved: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func",
    "import", "init", "inout", "internal", "let", "operator", "private", "precedencegroup",
    "protocol", "public",
    "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case",
    "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard",
    "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as",
    "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
  ]

  /// `name`, in backticks if it is a reserved word.
  static func escaped(_ name: String) -> String {
    reserved.contains(name) ? "`\(name)`" : name
  }

  /// `text` without the backticks of an escaped identifier.
  static func unescaped(_ text: String) -> String {
    if text.count >= 2, text.hasPrefix("`"), text.hasSuffix("`") {
      return String(text.dropFirst().dropLast())
    }
    return text
  }
}
