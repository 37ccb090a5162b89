/// Swift type names as Swift code writes them, for failure messages and recorded calls:
/// the runtime's `String(reflecting:)` spelling without module names, with the sugar of
/// optionals, arrays and dictionaries (`Swift.Optional<Swift.String>` → `String?`).
enum SwiftTypeName {
  /// `name` (as `String(reflecting:)` writes a type) as Swift code writes it.
  static func written(_ name: String) -> String {
    sugared(withoutModules(name))
  }

  /// Each dotted chain of identifiers loses its first component, the module
  /// (`Foundation.URL` → `URL`, `Tests.Outer.Inner` → `Outer.Inner`); a local type's
  /// `(unknown context at $…)` goes too.
  static func withoutModules(_ name: String) -> String {
    var text = name
    while let open = text.range(of: "(unknown context at ") {
      guard let close = text[open.upperBound...].firstIndex(of: ")") else { break }
      var end = text.index(after: close)
      if end < text.endIndex, text[end] == "." { end = text.index(after: end) }
      text.removeSubrange(open.lowerBound..<end)
    }
    var out = ""
    var chain: [Substring] = []
    var index = text.startIndex
    func flush() {
      if chain.count > 1 { chain.removeFirst() }
      out += chain.joined(separator: ".")
      chain = []
    }
    while index < text.endIndex {
      let c = text[index]
      if c.isLetter || c == "_" {
        var end = index
        while end < text.endIndex, text[end].isLetter || text[end].isNumber || text[end] == "_" {
          end = text.index(after: end)
        }
        chain.append(text[index..<end])
        index = end
        if index < text.endIndex, text[index] == ".",
          text.index(after: index) < text.endIndex,
          text[text.index(after: index)].isLetter || text[text.index(after: index)] == "_"
        {
          index = text.index(after: index)  // the chain goes on
        } else {
          flush()
        }
      } else {
        out.append(c)
        index = text.index(after: index)
      }
    }
    flush()
    return out
  }

  /// `Optional<T>` → `T?`, `Array<T>` → `[T]`, `Dictionary<K, V>` → `[K: V]`, innermost
  /// first.
  static func sugared(_ name: String) -> String {
    var text = name
    var changed = true
    while changed {
      changed = false
      for generic in ["Optional<", "Array<", "Dictionary<"] {
        guard let start = innermost(generic, in: text) else { continue }
        let open = text.index(start, offsetBy: generic.count - 1)
        guard let close = matching(open, in: text) else { continue }
        let inner = String(text[text.index(after: open)..<close])
        let replacement: String
        switch generic {
        case "Optional<":
          replacement = inner.contains("->") || inner.contains(" & ") ? "(\(inner))?" : "\(inner)?"
        case "Array<": replacement = "[\(inner)]"
        default:
          guard let comma = topLevelComma(in: inner) else { continue }
          let key = inner[..<comma]
          let value = inner[inner.index(after: comma)...].drop { $0 == " " }
          replacement = "[\(key): \(value)]"
        }
        text.replaceSubrange(start...close, with: replacement)
        changed = true
      }
    }
    return text
  }

  /// The start of an occurrence of `generic` that is a whole identifier.
  private static func innermost(_ generic: String, in text: String) -> String.Index? {
    var search = text.startIndex
    while let range = text.range(of: generic, range: search..<text.endIndex) {
      let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
      if before.map({ !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }) ?? true {
        return range.lowerBound
      }
      search = range.upperBound
    }
    return nil
  }

  /// The `>` closing the `<` at `open`.
  private static func matching(_ open: String.Index, in text: String) -> String.Index? {
    var depth = 0
    var index = open
    while index < text.endIndex {
      switch text[index] {
      case "<": depth += 1
      case ">" where index > text.startIndex && text[text.index(before: index)] == "-": break
      case ">":
        depth -= 1
        if depth == 0 { return index }
      default: break
      }
      index = text.index(after: index)
    }
    return nil
  }

  /// The first comma of `text` outside brackets.
  private static func topLevelComma(in text: String) -> String.Index? {
    var depth = 0
    for index in text.indices {
      switch text[index] {
      case "<", "(", "[": depth += 1
      case ">" where index > text.startIndex && text[text.index(before: index)] == "-": break
      case ">", ")", "]": depth -= 1
      case "," where depth == 0: return index
      default: break
      }
    }
    return nil
  }
}
