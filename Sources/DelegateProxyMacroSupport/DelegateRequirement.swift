import SwiftDiagnostics
import SwiftParser
import SwiftSyntax

/// One method requirement of a `@Delegate` protocol, as the generated code needs it.
struct DelegateRequirement {
  /// One parameter of the requirement.
  struct Parameter {
    /// The argument label as written (`_` when there is none).
    var labelText: String
    /// The argument label without backticks, or `nil` for `_`.
    var label: String?
    /// The parameter's name inside the generated method: its own internal name, or a
    /// generated one (`p0`, …) when it has none.
    var localName: String
    /// The name the runtime reports: the internal name, or else the label, or else the
    /// generated name.
    var runtimeName: String
    /// The parameter's type, as written.
    var type: TypeSyntax
    /// Whether the parameter is `inout`: the multicast carries the caller's variable as a
    /// `DelegateInout` of it, and each delegate's call passes `&…value`.
    var isInout: Bool = false
    /// The number of parameters of a non-escaping closure parameter's function type (nil
    /// for any other parameter): the multicast lends the closure for the call
    /// (`withoutActuallyEscaping`), and observers get a stand-in closure of that arity.
    var lentClosureArity: Int? = nil
    /// Whether the parameter is `@autoclosure`: a call passes it on evaluated (`value()`),
    /// which Swift wraps in the member's own autoclosure.
    var isAutoclosure = false
    /// Whether the parameter is a non-escaping closure.
    var isLent: Bool { lentClosureArity != nil }

    /// The type of the parameter's value, as a tuple element or a metatype spells it:
    /// without `@escaping` (a closure stored in a tuple escapes anyway); an `inout T`
    /// parameter's is `DelegateInout<T>`.
    var valueTypeText: String {
      guard let attributed = type.as(AttributedTypeSyntax.self) else {
        return type.trimmedDescription
      }
      if isInout {
        return "DelegateInout<\(attributed.baseType.trimmedDescription)>"
      }
      let kept = attributed.attributes.filter { element in
        guard case .attribute(let attribute) = element else { return true }
        let name = attribute.attributeName.trimmedDescription
        return name != "escaping" && name != "autoclosure"
      }
      return attributed.with(\.attributes, kept).trimmedDescription
    }

    /// The argument as a call passes `value` (a `DelegateInout` for an `inout`
    /// parameter): `value`, or `&value.value`.
    /// An `@autoclosure` parameter's is `value()`.
    func passing(_ value: String) -> String {
      isInout ? "&\(value).value" : isAutoclosure ? "\(value)()" : value
    }
  }

  /// The method's name as written (backticks kept).
  var nameText: String
  /// The method's parameters, in order.
  var parameters: [Parameter]
  /// The result type as written, or `nil` for `Void`.
  var result: TypeSyntax?
  /// Whether the requirement is marked optional.
  var isOptional: Bool
  /// The Objective-C selector: explicit (`@Selector`) or derived.
  var selector: String
  /// The Swift name, such as `sensor(_:didRead:)`.
  var swiftName: String
  /// Where the requirement is named in its declaration, for diagnostics.
  var nameNode: Syntax
  /// For the read or write of a property or subscript (see `DelegateStateRequirement`):
  /// which; nil for a method.
  var accessor: Accessor? = nil
  /// Whether every parameter and the result certainly or possibly have a C form (the
  /// macro finds no type it knows has none): the method's handle is also in the C subset
  /// (`Handles.CHandles`), so `imp(for:)` and C callbacks accept it.
  var hasCForm: Bool
  /// What a call nobody answers returns: the `@Default(…)` expression, or the result
  /// type's empty value (see `EmptyAnswer`); nil for a method that returns nothing.
  var noAnswerText: String?
  /// The result type, when its empty value (``noAnswerText``) is the type checker's to
  /// confirm: a name the macro cannot see into (see `EmptyAnswer`, `EmptyAnswerCheck`).
  var checkedResult: TypeSyntax? = nil
  /// The `@Default(…)` expression as written, if any.
  var declaredDefault: String? = nil
  /// The static function of the protocol's extension that answers ``declaredDefault``,
  /// type-checked once on the requirement's line (see `EmptyAnswerCheck`); nil until the
  /// model names it.
  var defaultFunction: String? = nil
  /// Whether the requirement is `async`.
  var isAsync: Bool = false
  /// Whether the requirement is `throws` (typed throws and `rethrows` are refused).
  var isThrowing: Bool = false
  /// Whether the requirement is `mutating` (a protocol that is not class-bound): the
  /// multicast changes each member's stored value (`__sendMutating`). A class's
  /// conformance (the multicast class, a stand-in) drops the keyword, as classes do.
  var isMutating: Bool = false

  /// The effects as written in a signature: `""`, `" async"`, `" throws"`, `" async throws"`.
  var effectsText: String { (isAsync ? " async" : "") + (isThrowing ? " throws" : "") }

  /// What a call of the method is marked with: `""`, `"try "`, `"await "`, `"try await "`.
  var callMarker: String { (isThrowing ? "try " : "") + (isAsync ? "await " : "") }

  /// Whether `@Selector` names the selector.
  var hasExplicitSelector = false
  /// The handle `@Handle("…")` names, if any.
  var explicitHandle: String? = nil
  /// The declaration, for Fix-Its that insert an attribute before it.
  var declNode: Syntax? = nil
  /// Whether another method has the same base name and labels (an overload by parameter
  /// type): a call of it then states its arguments' types.
  var isOverloadedByType = false

  /// The name of the message's handle in the generated `Handles` struct: `@Handle`'s, else
  /// the base name followed by the argument labels, capitalised. It depends on this
  /// requirement alone: adding or removing another never changes it (two that would
  /// share one are an error, see `DelegateProtocolModel.checkUniqueNames`).
  var messageName: String {
    if let explicitHandle { return SwiftKeyword.escaped(explicitHandle) }
    // A read's or write's name is its handle already (see DelegateStateRequirement).
    if accessor != nil { return nameText }
    return SelectorName.messageName(baseName: nameText, labels: parameters.map(\.label), suffix: "")
  }

  /// For a method overloaded by parameter type, the handle and selector to suggest in
  /// the Fix-It that names them: its parameter types' names added (`recordInt64`,
  /// `recordInt64:`, see `OverloadName`).
  var suggestedNames: (handle: String, selector: String) {
    let suffix = OverloadName.suffix(for: parameters.map(\.type))
    var selector = self.selector
    if let colon = selector.firstIndex(of: ":") {
      selector.insert(contentsOf: suffix, at: colon)
    } else {
      selector += suffix
    }
    return (
      SelectorName.messageName(baseName: nameText, labels: parameters.map(\.label), suffix: suffix),
      selector
    )
  }

  /// The generated method's signature, such as
  /// `func sensor(_ sensor: Sensor, didRead reading: Reading) -> Bool`.
  var signature: String {
    let list = parameters.map { parameter in
      parameter.labelText == parameter.localName
        ? "\(parameter.localName): \(parameter.type.trimmedDescription)"
        : "\(parameter.labelText) \(parameter.localName): \(parameter.type.trimmedDescription)"
    }
    let arrow = result.map { " -> \($0.trimmedDescription)" } ?? ""
    return "func \(nameText)(\(list.joined(separator: ", ")))\(effectsText)\(arrow)"
  }

  /// The result type to write in generated code (`Void` when there is none).
  var resultText: String { result?.trimmedDescription ?? "Void" }

  /// The argument types as one type: `Void`, the single type, or a tuple.
  var argumentsTypeText: String {
    switch parameters.count {
    case 0: return "Void"
    case 1: return parameters[0].valueTypeText
    default:
      return "(" + parameters.map(\.valueTypeText).joined(separator: ", ") + ")"
    }
  }

  /// The arguments as one value: `()`, the single parameter, or a tuple of them.
  var argumentsValueText: String {
    switch parameters.count {
    case 0: return "()"
    case 1: return parameters[0].localName
    default: return "(" + parameters.map(\.localName).joined(separator: ", ") + ")"
    }
  }

  /// The call of this method on delegate `d` with the arguments packed in `a`.
  var forwardingCallText: String {
    callText(
      on: "d",
      parameters.indices.map { index in
        parameters[index].passing(parameters.count == 1 ? "a" : "a.\(index)")
      })
  }

  /// Each parameter's label, local name (its own, or p0, p1, … avoiding the names in use
  /// and `reserved`) and runtime name (the local name as written, else the label) — one
  /// rule for methods and subscripts.
  static func parameterNames(
    _ parameterSyntax: [FunctionParameterSyntax], labels: [String?], reserved: Set<String> = []
  ) -> [(label: String?, localName: String, runtimeName: String)] {
    var usedNames = reserved.union(
      parameterSyntax.compactMap { parameter -> String? in
        let internalName = parameter.secondName ?? parameter.firstName
        return internalName.tokenKind == .wildcard ? nil : internalName.text
      })
    return parameterSyntax.enumerated().map { index, parameter in
      let internalToken = parameter.secondName ?? parameter.firstName
      let internalName = internalToken.tokenKind == .wildcard ? nil : internalToken.text
      var localName = internalName ?? "p\(index)"
      if internalName == nil {
        while usedNames.contains(localName) { localName = "_" + localName }
        usedNames.insert(localName)
      }
      let label = labels[index]
      return (label, localName, internalName.map(SwiftKeyword.unescaped) ?? label ?? localName)
    }
  }

  /// The call of this requirement on `receiver` with `values` (one per parameter, as
  /// passed): `r.name(label: v)` for a method; for a property or subscript, its read
  /// (`r.name`, `r[label: v]`) or its write (`r.name = v`, `r[label: v] = w`), the value
  /// written being the last.
  func callText(on receiver: String, _ values: [String]) -> String {
    func labelled(_ pairs: some Sequence<(Parameter, String)>) -> String {
      pairs.map { p, value in p.label == nil ? value : "\(p.labelText): \(value)" }
        .joined(separator: ", ")
    }
    guard let accessor else {
      return "\(receiver).\(nameText)(\(labelled(zip(parameters, values))))"
    }
    let indexCount = accessor.kind == .set ? parameters.count - 1 : parameters.count
    let read =
      accessor.isSubscript
      ? "\(receiver)[\(labelled(zip(parameters.prefix(indexCount), values.prefix(indexCount))))]"
      : "\(receiver).\(accessor.name)"
    return accessor.kind == .set ? "\(read) = \(values[values.count - 1])" : read
  }

  /// The call of this method on the delegate `$0` (a name no parameter can have) with the
  /// conformance's own parameters (an `inout` one rebound to its `DelegateInout`): the
  /// fast path's call, which captures them rather than a tuple of them.
  var directCallText: String {
    callText(on: "$0", parameters.map { $0.passing($0.localName) })
  }

  /// Whether a parameter is rebound for the call (`inout`, or a non-escaping closure): the
  /// conformance's send then runs inside the scopes that bind them.
  var bindsArguments: Bool { parameters.contains { $0.isInout || $0.isLent } }

  /// Whether a parameter is `inout`.
  var hasInout: Bool { parameters.contains(where: \.isInout) }

  /// `body` (lines computing the call's result from the parameters) with each `inout`
  /// parameter's local name rebound to a `DelegateInout` of the caller's variable: lent by
  /// pointer for a synchronous method (no copy), or — for an `async` one, whose caller's
  /// variable cannot be lent across a suspension — a copy written back when the call
  /// ends, thrown or not.
  func bindingInout(_ body: [String]) -> [String] {
    bindingLent(bindingInoutOnly(body))
  }

  /// `body` with each non-escaping closure parameter rebound, for the call, to itself as
  /// an escaping value (`withoutActuallyEscaping`: Swift stops the process if a copy
  /// outlives the call; the multicast keeps none).
  /// `throwing`: whether `body` can throw (a stand-in's `deliver` does not, even for a
  /// `throws` method; marking it `try` would warn in the user's build).
  func bindingLent(_ body: [String], throwing: Bool? = nil) -> [String] {
    nested(
      throwing: throwing ?? isThrowing,
      parameters.filter(\.isLent).map { p in
        (
          "withoutActuallyEscaping(\(p.localName)) { __\(p.localName) in",
          "let \(p.localName) = __\(p.localName)"
        )
      }, body)
  }

  private func bindingInoutOnly(_ body: [String]) -> [String] {
    let inoutParameters = parameters.filter(\.isInout)
    guard !inoutParameters.isEmpty else { return body }
    if isAsync {
      var lines: [String] = []
      for p in inoutParameters {
        lines.append("let __\(p.localName) = DelegateInout(\(p.localName))")
        lines.append("defer { \(p.localName) = __\(p.localName).value }")
      }
      for p in inoutParameters { lines.append("let \(p.localName) = __\(p.localName)") }
      return lines + body
    }
    return nested(
      throwing: isThrowing,
      inoutParameters.map { p in
        (
          "withUnsafeMutablePointer(to: &\(p.localName)) { __\(p.localName) in",
          "let \(p.localName) = DelegateInout(__borrowing: __\(p.localName))"
        )
      }, body)
  }

  /// `body` inside one closure scope per `(opening, binding)`: each opening returns the
  /// scope's result (`try` for a throwing method), then binds a name inside it.
  private func nested(
    throwing: Bool, _ scopes: [(opening: String, binding: String)], _ body: [String]
  ) -> [String] {
    guard !scopes.isEmpty else { return body }
    var lines: [String] = []
    var indent = ""
    for scope in scopes {
      lines.append(indent + "return \(throwing ? "try " : "")" + scope.opening)
      indent += "  "
      lines.append(indent + scope.binding)
    }
    lines += body.map { indent + $0 }
    for _ in scopes {
      indent.removeLast(2)
      lines.append(indent + "}")
    }
    return lines
  }

  /// For a method with `inout` parameters, the handle's `detach` closure: the arguments
  /// with each `DelegateInout` replaced by a copy that owns its value; nil otherwise.
  var detachText: String? {
    guard parameters.contains(where: { $0.isInout || $0.isLent }) else { return nil }
    func detached(_ p: Parameter, _ value: String) -> String {
      if p.isInout { return "\(value).detached()" }
      if let arity = p.lentClosureArity {
        // A closure lent for the call cannot be kept: one that says so if called.
        let names = Array(repeating: "_", count: arity).joined(separator: ", ")
        let call =
          "DelegateParameter.__lentClosureCalled(\(MulticastGenerator.stringLiteral(swiftName)), \(MulticastGenerator.stringLiteral(p.runtimeName)))"
        return arity == 0 ? "{ \(call) }" : "{ \(names) in \(call) }"
      }
      return value
    }
    if parameters.count == 1 { return "{ a in \(detached(parameters[0], "a")) }" }
    let values = parameters.enumerated().map { index, p in detached(p, "a.\(index)") }
    return "{ a in (\(values.joined(separator: ", "))) }"
  }
}

extension DelegateRequirement {
  /// Whether `type` names `Self`: the multicast could not pass its own type where each
  /// delegate expects its own.
  static func mentionsSelf(_ type: TypeSyntax) -> Bool {
    type.tokens(viewMode: .sourceAccurate).contains { token in
      token.tokenKind == .keyword(.Self) || token.text == "Self"
    }
  }

  /// Whether a parameter's type is a closure that is not `@escaping` (an optional closure
  /// escapes implicitly).
  /// The number of parameters of a closure parameter that is not `@escaping`, or nil.
  static func nonEscapingClosureArity(_ type: TypeSyntax) -> Int? {
    guard isNonEscapingClosure(type) else { return nil }
    var base = type
    if let attributed = type.as(AttributedTypeSyntax.self) { base = attributed.baseType }
    while let tuple = base.as(TupleTypeSyntax.self), tuple.elements.count == 1,
      let only = tuple.elements.first, only.firstName == nil
    {
      base = only.type
    }
    return base.as(FunctionTypeSyntax.self)?.parameters.count
  }

  static func isNonEscapingClosure(_ type: TypeSyntax) -> Bool {
    var base = type
    var escaping = false
    if let attributed = type.as(AttributedTypeSyntax.self) {
      escaping = attributed.attributes.contains { element in
        guard case .attribute(let attribute) = element else { return false }
        return attribute.attributeName.trimmedDescription == "escaping"
      }
      base = attributed.baseType
    }
    while let tuple = base.as(TupleTypeSyntax.self), tuple.elements.count == 1,
      let only = tuple.elements.first, only.firstName == nil
    {
      base = only.type
    }
    return !escaping && base.is(FunctionTypeSyntax.self)
  }

  /// Reads `function` as a requirement, reporting to `diagnostics` what `@Delegate` cannot
  /// support. Returns `nil` if the requirement cannot be generated.
  static func read(
    _ function: FunctionDeclSyntax,
    optionalMarker: String,
    genericParameters: Set<String> = [],
    diagnostics: inout [Diagnostic]
  ) -> DelegateRequirement? {
    let nameText = function.name.text
    let baseName = SwiftKeyword.unescaped(nameText)
    let parameterSyntax = Array(function.signature.parameterClause.parameters)
    let labels: [String?] = parameterSyntax.map { parameter in
      parameter.firstName.tokenKind == .wildcard
        ? nil : SwiftKeyword.unescaped(parameter.firstName.text)
    }
    let swiftName = baseName + "(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")"
    let diagnosticsBefore = diagnostics.count
    func report(_ node: some SyntaxProtocol, _ message: DelegateDiagnostic, fixIt: FixIt? = nil) {
      diagnostics.append(
        Diagnostic(node: Syntax(node), message: message, fixIts: fixIt.map { [$0] } ?? []))
    }

    var isMutating = false
    for modifier in function.modifiers {
      if modifier.name.tokenKind == .keyword(.static) || modifier.name.tokenKind == .keyword(.class)
      {
        report(
          modifier, .staticRequirement(swiftName, keyword: modifier.name.text),
          fixIt: SourceFixIt.removing(modifier))
      } else if modifier.name.tokenKind == .keyword(.mutating) {
        isMutating = true
      }
    }
    if let generics = function.genericParameterClause {
      report(generics, .genericMethod(swiftName))
    } else if let whereClause = function.genericWhereClause {
      report(whereClause, .genericMethod(swiftName))
    }
    let effects = function.signature.effectSpecifiers
    let isAsync = effects?.asyncSpecifier != nil
    var isThrowing = false
    if let throwsClause = effects?.throwsClause {
      isThrowing = true
      if throwsClause.throwsSpecifier.tokenKind == .keyword(.rethrows) {
        report(
          throwsClause, .effect(swiftName, clause: "rethrows"),
          fixIt: SourceFixIt.replacing(
            throwsClause, with: "throws", message: "replace with 'throws'"))
      } else if let type = throwsClause.type {
        report(
          throwsClause, .effect(swiftName, clause: "throws(\(type.trimmedDescription))"),
          fixIt: SourceFixIt.replacing(
            throwsClause, with: "throws", message: "replace with 'throws'"))
      }
    }

    let names = Self.parameterNames(parameterSyntax, labels: labels)
    var parameters: [Parameter] = []
    var hasCForm = true
    for (index, parameter) in parameterSyntax.enumerated() {
      let (label, localName, runtimeName) = names[index]
      let parameterName = runtimeName

      if parameter.ellipsis != nil {
        report(parameter, .variadicParameter(swiftName, parameter: parameterName))
      }
      let lentArity = Self.nonEscapingClosureArity(parameter.type)
      if lentArity != nil {
        hasCForm = false
        if isAsync {
          report(
            parameter.type, .nonEscapingClosure(swiftName, parameter: parameterName),
            fixIt: SourceFixIt.escaping(parameter.type))
        }
      }
      let isInout =
        parameter.type.as(AttributedTypeSyntax.self)?.specifiers.contains {
          $0.as(SimpleTypeSpecifierSyntax.self)?.specifier.tokenKind == .keyword(.inout)
        } ?? false
      if isInout {
        // Carried as a DelegateInout, which has no C form: the method stays off the C face.
        hasCForm = false
        if let base = parameter.type.as(AttributedTypeSyntax.self)?.baseType,
          Self.mentionsSelf(base)
        {
          report(parameter.type, .selfType(swiftName, what: "parameter '\(parameterName)'"))
        }
      } else if let opaque = parameter.type.as(SomeOrAnyTypeSyntax.self),
        opaque.someOrAnySpecifier.tokenKind == .keyword(.some)
      {
        report(parameter.type, .opaqueParameter(swiftName, parameter: parameterName))
      } else if Self.mentionsSelf(parameter.type) {
        report(parameter.type, .selfType(swiftName, what: "parameter '\(parameterName)'"))
      } else if CTypeCheck.problem(with: parameter.type) != nil {
        hasCForm = false
      }
      parameters.append(
        Parameter(
          labelText: parameter.firstName.text, label: label, localName: localName,
          runtimeName: runtimeName, type: parameter.type.trimmed, isInout: isInout,
          lentClosureArity: lentArity,
          isAutoclosure: parameter.type.as(AttributedTypeSyntax.self)?.attributes.contains {
            $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "autoclosure"
          } ?? false))
    }

    var result: TypeSyntax? = function.signature.returnClause?.type.trimmed
    if let type = result {
      if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.isEmpty {
        result = nil
      } else if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Void"
      {
        result = nil
      } else if let opaque = type.as(SomeOrAnyTypeSyntax.self),
        opaque.someOrAnySpecifier.tokenKind == .keyword(.some)
      {
        report(type, .genericMethod(swiftName))
      } else if Self.mentionsSelf(type) {
        report(function.signature.returnClause!.type, .selfType(swiftName, what: "the result"))
      } else if CTypeCheck.problem(with: type, isResult: true) != nil {
        hasCForm = false
      }
    }

    var isOptional = false
    var declaredDefault: String? = nil
    var selector = SelectorName.derive(baseName: baseName, labels: labels)
    var hasExplicitSelector = false
    var explicitHandle: String? = nil
    for element in function.attributes {
      guard case .attribute(let attribute) = element else { continue }
      let attributeName = attribute.attributeName.trimmedDescription
      if attributeName == optionalMarker || attributeName == "DelegateProxy.\(optionalMarker)" {
        isOptional = true
      } else if attributeName == "Selector" || attributeName == "DelegateProxy.Selector" {
        guard case .argumentList(let arguments) = attribute.arguments, arguments.count == 1,
          let argument = arguments.first, argument.label == nil,
          let literal = argument.expression.as(StringLiteralExprSyntax.self),
          literal.openingPounds == nil,
          let text = literal.representedLiteralValue
        else {
          report(attribute, .selectorNotLiteral(swiftName))
          continue
        }
        if let problem = SelectorName.problem(with: text, parameterCount: parameters.count) {
          report(attribute, .badSelector(swiftName, selector: text, problem: problem))
          continue
        }
        selector = text
        hasExplicitSelector = true
      } else if attributeName == "Handle" || attributeName == "DelegateProxy.Handle" {
        guard case .argumentList(let arguments) = attribute.arguments, arguments.count == 1,
          let argument = arguments.first, argument.label == nil,
          let literal = argument.expression.as(StringLiteralExprSyntax.self),
          literal.openingPounds == nil,
          let text = literal.representedLiteralValue
        else {
          report(attribute, .handleNotLiteral(swiftName))
          continue
        }
        guard SelectorName.isIdentifier(text) else {
          report(attribute, .badHandle(swiftName, handle: text))
          continue
        }
        explicitHandle = text
      } else if attributeName == "Default" || attributeName == "DelegateProxy.Default" {
        guard case .argumentList(let arguments) = attribute.arguments, arguments.count == 1,
          let argument = arguments.first, argument.label == nil
        else {
          report(attribute, .defaultNotOneValue(swiftName))
          continue
        }
        guard result != nil else {
          diagnostics.append(
            Diagnostic(
              node: Syntax(attribute), message: DelegateDiagnostic.defaultOnVoid(swiftName),
              fixIt: SourceFixIt.removing(attribute)))
          continue
        }
        declaredDefault = argument.expression.trimmedDescription
      }
    }
    var noAnswerText: String? = nil
    var checkedResult: TypeSyntax? = nil
    if let result {
      let answer: Result<EmptyAnswer.Answer, EmptyAnswer.Problem> =
        declaredDefault.map { .success(EmptyAnswer.Answer(text: $0)) }
        ?? EmptyAnswer.answer(for: result, genericParameters: genericParameters)
      switch answer {
      case .success(let answer):
        noAnswerText = answer.text
        if answer.isChecked { checkedResult = result }
      case .failure(let problem):
        diagnostics.append(
          Diagnostic(
            node: Syntax(function.signature.returnClause!.type),
            message: DelegateDiagnostic.noZeroAnswer(swiftName, problem: problem.text),
            fixIt: SourceFixIt.inserting("@Default(<#value#>)", before: Syntax(function))))
      }
    }

    guard diagnostics.count == diagnosticsBefore else { return nil }
    return DelegateRequirement(
      nameText: nameText, parameters: parameters, result: result, isOptional: isOptional,
      selector: selector, swiftName: swiftName, nameNode: Syntax(function.name),
      // C callers can neither await nor catch: an effectful method stays on the Swift path;
      // nor store a member's new value: a mutating one too.
      hasCForm: hasCForm && !isAsync && !isThrowing && !isMutating, noAnswerText: noAnswerText,
      checkedResult: checkedResult, declaredDefault: declaredDefault,
      isAsync: isAsync, isThrowing: isThrowing, isMutating: isMutating,
      hasExplicitSelector: hasExplicitSelector, explicitHandle: explicitHandle,
      declNode: Syntax(function))
  }
}
