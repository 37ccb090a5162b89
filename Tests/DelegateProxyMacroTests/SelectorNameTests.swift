import Testing

@testable import DelegateProxyMacroSupport

/// Selector derivation, checked case by case against the compiler's rule for `@objc`
/// methods (swiftlang/swift `lib/AST/Decl.cpp`, `getObjCSelector`: "If the first argument
/// name doesn't start with a preposition, and the method name doesn't end with a
/// preposition, add 'with'"; prepositions from `lib/Basic/PartsOfSpeech.def`).
@Suite struct SelectorNameTests {
  /// `baseName(labels…)` → selector, `nil` for `_`.
  @Test(
    arguments: [
      // No parameters: the base name alone.
      ("reset", [], "reset"),
      // One parameter without a label: the base name and a colon.
      ("sensorShouldStart", [nil], "sensorShouldStart:"),
      // First parameter without a label: later pieces are the labels as written.
      ("sensor", [nil, "didRead"], "sensor:didRead:"),
      ("tableView", [nil, "numberOfRowsInSection"], "tableView:numberOfRowsInSection:"),
      ("insert", [nil, "at"], "insert:at:"),
      // Parameters without labels after the first: empty pieces.
      ("combine", [nil, nil], "combine::"),
      ("sensor", [nil, nil, "withValue"], "sensor::withValue:"),
      // A labelled first parameter: "With" and the label in sentence case …
      ("foo", ["bar"], "fooWithBar:"),
      ("handle", ["URLString"], "handleWithURLString:"),
      ("sensor", ["reading", "at"], "sensorWithReading:at:"),
      // … unless the label's first word is a preposition …
      ("move", ["to"], "moveTo:"),
      ("viewWillMove", ["toWindow"], "viewWillMoveToWindow:"),
      ("perform", ["after"], "performAfter:"),
      ("encode", ["with"], "encodeWith:"),
      ("reload", ["inSection", "animated"], "reloadInSection:animated:"),
      ("lookup", ["when"], "lookupWhen:"),
      // … or the base name's last word is one.
      ("fetchDataFor", ["user"], "fetchDataForUser:"),
      ("sensorDidChangeTo", ["value"], "sensorDidChangeToValue:"),
      // Words that are not in the compiler's list get "With".
      ("update", ["toward"], "updateWithToward:"),
      ("update", ["towardZero"], "updateWithTowardZero:"),
    ] as [(String, [String?], String)])
  func derivedSelector(baseName: String, labels: [String?], selector: String) {
    #expect(SelectorName.derive(baseName: baseName, labels: labels) == selector)
  }

  /// The compiler's thirty prepositions, no more.
  @Test func prepositionList() {
    #expect(SelectorName.prepositions.count == 30)
    #expect(SelectorName.isPreposition("with"))
    #expect(SelectorName.isPreposition("For"))
    #expect(!SelectorName.isPreposition("toward"))
    #expect(!SelectorName.isPreposition("did"))
  }

  /// Camel-case words as the compiler splits them (`camel_case::getFirstWord` /
  /// `getLastWord`): a capital starts a word; a run of capitals is one acronym.
  @Test func camelCaseWords() {
    #expect(SelectorName.firstWord(of: "toWindow") == "to")
    #expect(SelectorName.firstWord(of: "with") == "with")
    #expect(SelectorName.firstWord(of: "URLSession") == "URL")
    #expect(SelectorName.firstWord(of: "Window") == "Window")
    #expect(SelectorName.lastWord(of: "fetchDataFor") == "For")
    #expect(SelectorName.lastWord(of: "sensorURL") == "URL")
    #expect(SelectorName.lastWord(of: "move") == "move")
  }

  /// The names of the handles in `Handles`: the Swift base name and labels, never the
  /// selector.
  @Test func messageNames() {
    #expect(
      SelectorName.messageName(baseName: "sensor", labels: [nil, "didRead"]) == "sensorDidRead")
    #expect(
      SelectorName.messageName(baseName: "sensor", labels: [nil, "didFailWith"])
        == "sensorDidFailWith")
    #expect(
      SelectorName.messageName(baseName: "observes", labels: ["eventsOfKind"])
        == "observesEventsOfKind")
    #expect(
      SelectorName.messageName(baseName: "sensorShouldStart", labels: [nil]) == "sensorShouldStart")
    #expect(SelectorName.messageName(baseName: "reset", labels: []) == "reset")
    #expect(SelectorName.messageName(baseName: "combine", labels: [nil, nil]) == "combine")
    #expect(SelectorName.messageName(baseName: "default", labels: []) == "`default`")
    #expect(SelectorName.messageName(baseName: "`default`", labels: []) == "`default`")
  }

  /// What makes an explicit selector unusable.
  @Test func selectorProblems() {
    #expect(SelectorName.problem(with: "sensorFailed:code:", parameterCount: 2) == nil)
    #expect(SelectorName.problem(with: "reset", parameterCount: 0) == nil)
    #expect(SelectorName.problem(with: "", parameterCount: 0) == "is empty")
    #expect(SelectorName.problem(with: "a:b", parameterCount: 1) != nil)
    #expect(SelectorName.problem(with: ":a:", parameterCount: 2) != nil)
    #expect(SelectorName.problem(with: "a b:", parameterCount: 1) != nil)
    #expect(SelectorName.problem(with: "a:", parameterCount: 2) != nil)
  }
}
