/// Objective-C selector names for Swift method names, derived exactly as Swift's `@objc`
/// derives them.
///
/// The rule is the compiler's (`AbstractFunctionDecl::getObjCSelector` in
/// swiftlang/swift `lib/AST/Decl.cpp`, with the preposition list of
/// `lib/Basic/PartsOfSpeech.def`):
///
/// - no parameters: the base name (`reset()` → `reset`);
/// - one parameter without a label: the base name and a colon
///   (`sensorShouldStart(_:)` → `sensorShouldStart:`);
/// - otherwise the first piece is the base name, followed, when the first parameter has a
///   label, by that label in sentence case, with `With` between them unless the label's
///   first word or the base name's last word is a preposition
///   (`foo(bar:)` → `fooWithBar:`, `move(to:)` → `moveTo:`, `fetchDataFor(user:)` →
///   `fetchDataForUser:`); every later piece is its label as written, empty when it has
///   none (`sensor(_:didRead:)` → `sensor:didRead:`, `combine(_:_:)` → `combine::`).
enum SelectorName {
  /// The words the compiler treats as prepositions when it names a selector
  /// (`lib/Basic/PartsOfSpeech.def`).
  static let prepositions: Set<String> = [
    "above", "after", "along", "alongside", "as", "at", "before", "below", "by",
    "following", "for", "from", "given", "in", "including", "inside", "into", "matching",
    "of", "on", "passing", "preceding", "since", "to", "until", "using", "via", "when",
    "with", "within",
  ]

  /// The selector `@objc` gives a method with this base name and these argument labels
  /// (`nil` for a parameter without a label).
  static func derive(baseName: String, labels: [String?]) -> String {
    guard let first = labels.first else { return baseName }
    var firstPiece = baseName
    if let label = first, !label.isEmpty {
      if !isPreposition(firstWord(of: label)) && !isPreposition(lastWord(of: baseName)) {
        firstPiece += "With"
      }
      firstPiece += sentenceCase(label)
    }
    var selector = firstPiece + ":"
    for label in labels.dropFirst() {
      selector += (label ?? "") + ":"
    }
    return selector
  }

  /// Whether `word` is one of the compiler's prepositions (compared without case, as the
  /// compiler does).
  static func isPreposition(_ word: String) -> Bool {
    prepositions.contains(word.lowercased())
  }

  /// The first camel-case word of `name`: `didRead` → `did`, `toWindow` → `to`,
  /// `URLSession` → `URL`.
  static func firstWord(of name: String) -> String {
    let characters = Array(name)
    guard !characters.isEmpty else { return "" }
    var end = 1
    if characters[0].isUppercase {
      while end < characters.count, characters[end].isUppercase { end += 1 }
      if end > 1, end < characters.count, characters[end].isLowercase {
        // An acronym followed by a word: the acronym's last capital starts that word.
        end -= 1
      } else if end == 1 {
        while end < characters.count, !characters[end].isUppercase { end += 1 }
      }
    } else {
      while end < characters.count, !characters[end].isUppercase { end += 1 }
    }
    return String(characters[..<end])
  }

  /// The last camel-case word of `name`: `fetchDataFor` → `For`, `sensorURL` → `URL`,
  /// `move` → `move`.
  static func lastWord(of name: String) -> String {
    let characters = Array(name)
    guard !characters.isEmpty else { return "" }
    var start = characters.count - 1
    if characters[start].isUppercase {
      while start > 0, characters[start - 1].isUppercase { start -= 1 }
    } else {
      while start > 0, !characters[start].isUppercase { start -= 1 }
    }
    return String(characters[start...])
  }

  /// `label` with its first letter capitalised, as the compiler appends it.
  static func sentenceCase(_ label: String) -> String {
    guard let first = label.first else { return label }
    return first.uppercased() + label.dropFirst()
  }

  /// The number of arguments a selector takes: its colons.
  static func argumentCount(of selector: String) -> Int {
    selector.reduce(0) { $1 == ":" ? $0 + 1 : $0 }
  }

  /// Why `selector` cannot name a method taking `parameterCount` arguments, or `nil` if it
  /// can.
  static func problem(with selector: String, parameterCount: Int) -> String? {
    if selector.isEmpty { return "is empty" }
    if let bad = selector.first(where: {
      !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":"))
    }) {
      return "contains '\(bad)'; a selector has only letters, digits, '_' and ':'"
    }
    if selector.first == ":" || selector.first!.isNumber {
      return "does not start with a name"
    }
    let colons = argumentCount(of: selector)
    if colons != parameterCount {
      return
        "has \(colons) colon\(colons == 1 ? "" : "s") but the method takes \(parameterCount) parameter\(parameterCount == 1 ? "" : "s")"
    }
    if parameterCount > 0, selector.last != ":" {
      return "does not end with ':' although the method takes parameters"
    }
    return nil
  }

  /// The name of a method's handle in the generated `Handles` struct, spelled from the
  /// Swift name alone — the base name, then each argument label capitalised
  /// (`sensor(_:didRead:)` → `sensorDidRead`, `observes(eventsOfKind:)` →
  /// `observesEventsOfKind`, `chat(_:titleFor:)` → `chatTitleFor`) — never from the
  /// selector, so `@Selector` does not change it; then `suffix` (an overload's parameter
  /// types' names, see `OverloadName`); backticked if it is a keyword.
  static func messageName(baseName: String, labels: [String?], suffix: String = "") -> String {
    var name = baseName.filter { $0 != "`" }
    for label in labels {
      guard let label, !label.isEmpty else { continue }
      name += sentenceCase(label.filter { $0 != "`" })
    }
    return SwiftKeyword.escaped(name + suffix)
  }

  /// Whether `text` can name a handle: a Swift identifier (letters, digits and `_`, not
  /// starting with a digit).
  static func isIdentifier(_ text: String) -> Bool {
    guard let first = text.first, first.isLetter || first == "_" else { return false }
    return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
  }
}
