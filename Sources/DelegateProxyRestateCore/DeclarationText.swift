/// Turns a symbol graph's declaration fragments and availability into the Swift text a
/// restatement writes.
enum DeclarationText {
  /// The fragments' spellings, joined.
  static func join(_ fragments: [SymbolGraph.Fragment]) -> String {
    fragments.map(\.spelling).joined()
  }

  /// The declaration without `Self.` before associated types (`-> Self.Span` is `-> Span`
  /// in the restating protocol, which the macro needs: it refuses `Self`).
  ///
  /// A type named as one of `shadowed` (the restated protocol's associated types) that is
  /// not that associated type — `any Span`, Tracing's protocol, in a requirement of `Tracer`,
  /// whose associated type is `Span` too — is qualified with its module, as the printed
  /// text does not say which it is and the restating protocol would read the associated type.
  static func restated(_ fragments: [SymbolGraph.Fragment], shadowed: Set<String> = []) -> String {
    var text = ""
    var index = 0
    while index < fragments.count {
      let fragment = fragments[index]
      if fragment.kind == "typeIdentifier", shadowed.contains(fragment.spelling),
        let usr = fragment.preciseIdentifier, !usr.hasSuffix("Qa"),
        let module = moduleName(ofUSR: usr), !text.hasSuffix(".")
      {
        text += "\(module).\(fragment.spelling)"
        index += 1
        continue
      }
      if fragment.spelling == "Self", index + 1 < fragments.count,
        fragments[index + 1].spelling.hasPrefix(".")
      {
        text += String(fragments[index + 1].spelling.dropFirst())
        index += 2
        continue
      }
      text += fragment.spelling
      index += 1
    }
    return text
  }

  /// The requirement a symbol is.
  static func requirement(
    _ symbol: SymbolGraph.Symbol, protocolName: String, module: String, hasDefault: Bool
  ) -> Requirement {
    let fragments = symbol.declarationFragments ?? []
    let kind: Requirement.Kind
    switch symbol.kind.identifier {
    case "swift.method": kind = .method
    case "swift.property": kind = .property
    case "swift.subscript": kind = .subscript
    case "swift.associatedtype": kind = .associatedType
    default: kind = .unforwardable
    }
    let typeModules = fragments.compactMap { $0.preciseIdentifier.flatMap(moduleName(ofUSR:)) }
    var requirement = Requirement(
      kind: kind, title: symbol.pathComponents.last ?? "",
      declaration: restated(fragments),
      availability: (symbol.availability ?? []).compactMap(attribute),
      protocolName: protocolName, module: module, hasDefault: hasDefault,
      typeModules: typeModules.reduce(into: []) { if !$0.contains($1) { $0.append($1) } })
    requirement.fragments = fragments
    return requirement
  }

  /// The module a Swift USR's type belongs to (`s:13FoundationXML9XMLParserC` →
  /// `FoundationXML`); nil for the standard library's (`s:Si`) and C declarations.
  static func moduleName(ofUSR usr: String) -> String? {
    guard usr.hasPrefix("s:") else { return nil }
    let rest = usr.dropFirst(2)
    let digits = rest.prefix { $0.isASCII && $0.isNumber }
    guard let length = Int(digits), length > 0 else { return nil }
    let name = rest.dropFirst(digits.count).prefix(length)
    return name.count == length ? String(name) : nil
  }

  /// The platforms `@available` accepts, by the symbol graph's domain names.
  static let platforms: [String: String] = [
    "macOS": "macOS", "iOS": "iOS", "tvOS": "tvOS", "watchOS": "watchOS",
    "visionOS": "visionOS", "macCatalyst": "macCatalyst", "Swift": "swift",
    "macOSApplicationExtension": "macOSApplicationExtension",
    "iOSApplicationExtension": "iOSApplicationExtension",
  ]

  /// One domain's `@available` attribute; nil for what a restatement need not say.
  static func attribute(_ availability: SymbolGraph.Availability) -> String? {
    let domain = availability.domain ?? "*"
    var arguments: [String] = []
    if domain == "*" {
      arguments.append("*")
      if availability.isUnconditionallyUnavailable == true {
        arguments.append("unavailable")
      } else if availability.isUnconditionallyDeprecated == true {
        arguments.append("deprecated")
      } else {
        return nil
      }
    } else {
      guard let platform = platforms[domain] else { return nil }
      arguments.append(platform)
      if let introduced = availability.introduced {
        arguments.append("introduced: \(introduced.text)")
      }
      if let deprecated = availability.deprecated {
        arguments.append("deprecated: \(deprecated.text)")
      }
      if let obsoleted = availability.obsoleted { arguments.append("obsoleted: \(obsoleted.text)") }
      if availability.isUnconditionallyDeprecated == true { arguments.append("deprecated") }
      if availability.isUnconditionallyUnavailable == true { arguments.append("unavailable") }
      if arguments.count == 1 { return nil }
    }
    if let renamed = availability.renamed { arguments.append("renamed: \(literal(renamed))") }
    if let message = availability.message { arguments.append("message: \(literal(message))") }
    return "@available(\(arguments.joined(separator: ", ")))"
  }

  /// A Swift string literal of `text`.
  static func literal(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "\"": escaped += "\\\""
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      default: escaped.append(character)
      }
    }
    return "\"\(escaped)\""
  }
}
