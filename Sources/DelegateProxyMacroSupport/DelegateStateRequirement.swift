import SwiftDiagnostics
import SwiftSyntax

/// Which side of a property or subscript a `DelegateRequirement` is: its read or its write.
struct Accessor {
  /// A read (`get`) or a write (`set`).
  enum Kind { case get, set }
  /// The side.
  var kind: Kind
  /// The property's name as written (backticks kept), or `subscript`.
  var name: String
  /// Whether it is a subscript's.
  var isSubscript: Bool
}

/// A property or subscript requirement of a `@Delegate` protocol, as two requirements
/// beside the methods: its **read**, a value-returning requirement under its own policy
/// (last responder by default), and — for `{ get set }` — its **write**, a `void`
/// requirement whose last parameter is the value written, which every member receives in
/// order.
///
/// Handles and selectors (the rule, also in the generated `Handles` doc):
/// - property `wantsImages`: read `\.wantsImages` (selector `wantsImages`), write
///   `\.setWantsImages` (selector `setWantsImages:`), as Objective-C names a property's
///   getter and setter;
/// - subscript `subscript(metadataKey _: String)`: read `\.subscriptMetadataKey` (the word
///   `subscript`, then each argument label capitalised — `\.subscript` when it has none),
///   write `\.setSubscriptMetadataKey`; selectors `subscriptWithMetadataKey:` and
///   `setSubscriptWithMetadataKey:newValue:` (as a method named `subscript` would get).
struct DelegateStateRequirement {
  /// The property's name as written, or `subscript`.
  var nameText: String
  /// Whether it is a subscript.
  var isSubscript: Bool
  /// A subscript's index parameters (none for a property).
  var parameters: [DelegateRequirement.Parameter]
  /// The value's type.
  var type: TypeSyntax
  /// The read.
  var getter: DelegateRequirement
  /// The write, for a `{ get set }` requirement.
  var setter: DelegateRequirement?

  /// The declaration's first line without access level: `var name: T {` or
  /// `subscript(label p0: K) -> T {`.
  var headerText: String {
    guard isSubscript else { return "var \(nameText): \(type.trimmedDescription) {" }
    let list = parameters.map { p in "\(p.labelText) \(p.localName): \(p.type.trimmedDescription)" }
    return "subscript(\(list.joined(separator: ", "))) -> \(type.trimmedDescription) {"
  }

  /// The declaration, each line indented by `indent`: `get` runs `get`'s lines, `set`
  /// (for a settable requirement) `set`'s, the value written being `newValue`.
  func declaration(
    indent: String, access: String, doc: String, get: [String], set: [String]?
  ) -> [String] {
    var lines = ["\(indent)/// \(doc)", "\(indent)\(access)\(headerText)"]
    lines.append("\(indent)  get\(getter.effectsText) {")
    lines += get.map { "\(indent)    " + $0 }
    lines.append("\(indent)  }")
    if let set {
      lines.append("\(indent)  set {")
      lines += set.map { "\(indent)    " + $0 }
      lines.append("\(indent)  }")
    }
    lines.append("\(indent)}")
    return lines
  }

  /// The Swift name shown for the requirement: `wantsImages`, `subscript(metadataKey:)`.
  var swiftName: String { getter.swiftName }

  /// Reads a property requirement (`var name: T { get }`, `{ get set }`, `{ get throws }`,
  /// `{ get async }`), reporting what `@Delegate` cannot support.
  static func read(
    _ variable: VariableDeclSyntax, optionalMarker: String, diagnostics: inout [Diagnostic]
  ) -> DelegateStateRequirement? {
    guard variable.bindings.count == 1, let binding = variable.bindings.first,
      let identifier = binding.pattern.as(IdentifierPatternSyntax.self),
      let type = binding.typeAnnotation?.type,
      case .accessors(let accessors)? = binding.accessorBlock?.accessors
    else {
      diagnostics.append(
        Diagnostic(node: Syntax(variable), message: DelegateDiagnostic.unsupportedMember))
      return nil
    }
    let nameText = identifier.identifier.text
    let name = SwiftKeyword.unescaped(nameText)
    return readCommon(
      nameNode: Syntax(identifier), declNode: Syntax(variable), modifiers: variable.modifiers,
      attributes: variable.attributes, accessors: accessors, nameText: nameText,
      swiftName: name, isSubscript: false, parameterSyntax: [], type: type,
      optionalMarker: optionalMarker, diagnostics: &diagnostics)
  }

  /// Reads a subscript requirement (`subscript(metadataKey _: String) -> V? { get set }`).
  static func read(
    _ sub: SubscriptDeclSyntax, optionalMarker: String, diagnostics: inout [Diagnostic]
  ) -> DelegateStateRequirement? {
    let parameterSyntax = Array(sub.parameterClause.parameters)
    // A subscript's parameter has an argument label only when it is written with two names.
    let labels: [String?] = parameterSyntax.map { p in
      guard p.secondName != nil, p.firstName.tokenKind != .wildcard else { return nil }
      return SwiftKeyword.unescaped(p.firstName.text)
    }
    let swiftName = "subscript(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")"
    guard case .accessors(let accessors)? = sub.accessorBlock?.accessors else {
      diagnostics.append(
        Diagnostic(node: Syntax(sub), message: DelegateDiagnostic.unsupportedMember))
      return nil
    }
    if let generics = sub.genericParameterClause {
      diagnostics.append(
        Diagnostic(node: Syntax(generics), message: DelegateDiagnostic.genericSubscript(swiftName)))
      return nil
    }
    return readCommon(
      nameNode: Syntax(sub.subscriptKeyword), declNode: Syntax(sub), modifiers: sub.modifiers,
      attributes: sub.attributes, accessors: accessors, nameText: "subscript",
      swiftName: swiftName, isSubscript: true, parameterSyntax: parameterSyntax,
      labels: labels, type: sub.returnClause.type,
      optionalMarker: optionalMarker, diagnostics: &diagnostics)
  }

  /// What a property's and a subscript's reading share: effects, attributes, the index
  /// parameters and the two requirements.
  private static func readCommon(
    nameNode: Syntax, declNode: Syntax, modifiers: DeclModifierListSyntax,
    attributes: AttributeListSyntax, accessors: AccessorDeclListSyntax, nameText: String,
    swiftName: String, isSubscript: Bool, parameterSyntax: [FunctionParameterSyntax],
    labels: [String?] = [], type: TypeSyntax, optionalMarker: String,
    diagnostics: inout [Diagnostic]
  ) -> DelegateStateRequirement? {
    let before = diagnostics.count
    func report(_ node: some SyntaxProtocol, _ message: DelegateDiagnostic, fixIt: FixIt? = nil) {
      diagnostics.append(
        Diagnostic(node: Syntax(node), message: message, fixIts: fixIt.map { [$0] } ?? []))
    }
    for modifier in modifiers {
      if modifier.name.tokenKind == .keyword(.static) || modifier.name.tokenKind == .keyword(.class)
      {
        report(
          modifier, .staticRequirement(swiftName, keyword: modifier.name.text),
          fixIt: SourceFixIt.removing(modifier))
      }
    }
    var getterAccessor: AccessorDeclSyntax?
    var hasSetter = false
    for accessor in accessors {
      switch accessor.accessorSpecifier.tokenKind {
      case .keyword(.get): getterAccessor = accessor
      case .keyword(.set): hasSetter = true
      default:
        report(accessor, .unsupportedAccessor(swiftName, accessor: accessor.accessorSpecifier.text))
      }
    }
    let effects = getterAccessor?.effectSpecifiers
    let isAsync = effects?.asyncSpecifier != nil
    var isThrowing = false
    if let throwsClause = effects?.throwsClause {
      isThrowing = true
      if let thrown = throwsClause.type {
        report(
          throwsClause, .effect(swiftName, clause: "throws(\(thrown.trimmedDescription))"),
          fixIt: SourceFixIt.replacing(
            throwsClause, with: "throws", message: "replace with 'throws'"))
      }
    }
    if Self.isOpaque(type) {
      report(type, .genericMethod(swiftName))
    } else if DelegateRequirement.mentionsSelf(type) {
      report(type, .selfType(swiftName, what: "the type"))
    }

    // Index parameters: named as written, or p0, p1, … avoiding the names in use (and the
    // setter's `newValue`).
    let names = DelegateRequirement.parameterNames(
      parameterSyntax, labels: labels, reserved: ["newValue"])
    var parameters: [DelegateRequirement.Parameter] = []
    var hasCForm = !isAsync && !isThrowing
    for (index, p) in parameterSyntax.enumerated() {
      let (label, localName, runtimeName) = names[index]
      if p.ellipsis != nil {
        report(p, .variadicParameter(swiftName, parameter: runtimeName))
      }
      if Self.isOpaque(p.type) {
        report(p.type, .opaqueParameter(swiftName, parameter: runtimeName))
      } else if DelegateRequirement.mentionsSelf(p.type) {
        report(p.type, .selfType(swiftName, what: "parameter '\(runtimeName)'"))
      } else if DelegateRequirement.isNonEscapingClosure(p.type) {
        report(
          p.type, .nonEscapingIndex(swiftName, parameter: runtimeName),
          fixIt: SourceFixIt.escaping(p.type))
      } else if CTypeCheck.problem(with: p.type) != nil {
        hasCForm = false
      }
      parameters.append(
        DelegateRequirement.Parameter(
          labelText: label ?? "_", label: label, localName: localName, runtimeName: runtimeName,
          type: p.type.trimmed))
    }

    var isOptional = false
    var declaredDefault: String?
    for element in attributes {
      guard case .attribute(let attribute) = element else { continue }
      let attributeName = attribute.attributeName.trimmedDescription
      if attributeName == optionalMarker || attributeName == "DelegateProxy.\(optionalMarker)" {
        isOptional = true
      } else if attributeName == "Selector" || attributeName == "DelegateProxy.Selector" {
        diagnostics.append(
          Diagnostic(
            node: Syntax(attribute), message: DelegateDiagnostic.selectorOnState(swiftName),
            fixIt: SourceFixIt.removing(attribute)))
      } else if attributeName == "Default" || attributeName == "DelegateProxy.Default" {
        guard case .argumentList(let arguments) = attribute.arguments, arguments.count == 1,
          let argument = arguments.first, argument.label == nil
        else {
          report(attribute, .defaultNotOneValue(swiftName))
          continue
        }
        declaredDefault = argument.expression.trimmedDescription
      }
    }
    var noAnswerText = ""
    var checkedResult: TypeSyntax? = nil
    switch declaredDefault.map({ .success(EmptyAnswer.Answer(text: $0)) })
      ?? EmptyAnswer.answer(for: type)
    {
    case .success(let answer):
      noAnswerText = answer.text
      if answer.isChecked { checkedResult = type.trimmed }
    case .failure(let problem):
      diagnostics.append(
        Diagnostic(
          node: Syntax(type),
          message: DelegateDiagnostic.noZeroAnswer(swiftName, problem: problem.text),
          fixIt: SourceFixIt.inserting("@Default(<#value#>)", before: declNode)))
    }
    guard diagnostics.count == before else { return nil }

    let type = type.trimmed
    let name = SwiftKeyword.unescaped(nameText)
    let readName =
      isSubscript ? SelectorName.messageName(baseName: "subscript", labels: labels) : nameText
    let readSelector =
      isSubscript ? SelectorName.derive(baseName: "subscript", labels: labels) : name
    let writeSelector =
      isSubscript
      ? SelectorName.derive(baseName: "setSubscript", labels: labels) + "newValue:"
      : "set" + SelectorName.sentenceCase(name) + ":"
    let writeName = "set" + SelectorName.sentenceCase(SwiftKeyword.unescaped(readName))
    let getter = DelegateRequirement(
      nameText: readName, parameters: parameters, result: type, isOptional: isOptional,
      selector: readSelector, swiftName: swiftName, nameNode: nameNode,
      accessor: Accessor(kind: .get, name: nameText, isSubscript: isSubscript),
      hasCForm: hasCForm && CTypeCheck.problem(with: type, isResult: true) == nil,
      noAnswerText: noAnswerText, checkedResult: checkedResult, declaredDefault: declaredDefault,
      isAsync: isAsync,
      isThrowing: isThrowing, declNode: declNode)
    var setter: DelegateRequirement?
    if hasSetter {
      let newValue = DelegateRequirement.Parameter(
        labelText: "_", label: nil, localName: "newValue", runtimeName: "newValue", type: type)
      setter = DelegateRequirement(
        nameText: writeName, parameters: parameters + [newValue], result: nil,
        isOptional: isOptional, selector: writeSelector, swiftName: swiftName + " (set)",
        nameNode: nameNode,
        accessor: Accessor(kind: .set, name: nameText, isSubscript: isSubscript),
        hasCForm: hasCForm && CTypeCheck.problem(with: type) == nil, noAnswerText: nil)
    }
    return DelegateStateRequirement(
      nameText: nameText, isSubscript: isSubscript, parameters: parameters, type: type,
      getter: getter, setter: setter)
  }

  /// Whether `type` is an opaque `some` type.
  private static func isOpaque(_ type: TypeSyntax) -> Bool {
    type.as(SomeOrAnyTypeSyntax.self)?.someOrAnySpecifier.tokenKind == .keyword(.some)
  }
}
