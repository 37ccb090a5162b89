import SwiftDiagnostics
import SwiftSyntax

/// A `@Delegate` protocol read from its declaration: its name, access level and method
/// requirements, or the diagnostics that say why it cannot become a multicast delegate.
struct DelegateProtocolModel {
  /// The spelling of the attribute that marks an optional requirement.
  static let optionalMarker = "Optional"

  /// The protocol's name as written.
  var name: String
  /// The access level of the generated declarations.
  var access: AccessLevel
  /// Whether the protocol is isolated to the main actor (`@MainActor`): its methods are
  /// then called from the typed handles through `MainActor.assumeIsolated`.
  var isMainActor = false
  /// The protocol the delegates conform to: the one `@Delegate(for: P.self)` names (a
  /// protocol declared elsewhere, which this one refines and whose methods it restates),
  /// or this protocol itself.
  var delegateType = ""
  /// The class `@Delegate(for:object:)` names (`NSObject`): the foreign protocol's defaults
  /// apply only to its subclasses, so the multicast's `object` — a generated subclass that
  /// conforms — is what the delegator takes, and the multicast itself does not conform.
  var objectBase: String?
  /// Whether the multicast is a struct with value semantics over copy-on-write storage
  /// (`DelegateValueMulticast`) rather than a class: `semantics: .value`; or, without that
  /// argument, a protocol not constrained to `AnyObject` that either refines nothing (a
  /// `@Delegate(for:)` protocol refines only the one it restates) but `Sendable`, or has a
  /// `mutating` requirement (which no class-bound protocol can have).
  var isValue = false
  /// Whether a `@Delegate` protocol refining this one can inherit its forwarding: not when
  /// its multicast is a struct, nor when it has `mutating` requirements (a refining
  /// protocol's multicast forwards plain calls only).
  /// Nor when it binds associated types (a refining protocol's multicast would have to
  /// bind them too).
  var isForwardable: Bool {
    !isValue && !requirements.contains(where: \.isMutating) && associatedTypes.isEmpty
  }
  /// `semantics:` as written: `value`, `reference`, or nil when absent.
  var semantics: String?
  /// Whether the protocol asks for a C face (`cFace: true`): C entry points for its
  /// methods (`__cCalls`, `__cFunctions`), its stand-in class and the conformance to
  /// `__CFaceProviding` that gives the multicast `runtime` and `standIn(for:)`.
  var hasCFace = false
  /// Whether the protocol is known to be class-bound: `AnyObject` (or `Actor`) among the
  /// inherited types, or a protocol it refines other than `Sendable` (which the compiler
  /// then checks where the multicast holds its delegates as objects).
  var isClassBound = false
  /// Whether `AnyObject` (or `Actor`) is among the inherited types.
  var statesAnyObject = false
  /// Whether the delegates conform to a protocol declared elsewhere.
  var isForeign: Bool { delegateType != name }
  /// The `@Delegate` protocols it refines, as the inheritance clause spells them: its
  /// multicast inherits their forwarding (their methods need no restatement). Every
  /// protocol it refines except `AnyObject`, `Sendable`, `NSObjectProtocol`, those
  /// `@Delegate(restating:)` names, and — with `@Delegate(for:)` — all of them.
  var parents: [String] = []
  /// Where the inheritance clause names each of ``parents``.
  var parentNodes: [TypeSyntax] = []
  /// The protocols `@Delegate(restating: P.self, …)` names: refined, not `@Delegate`, their
  /// methods restated.
  var restated: Set<String> = []
  /// The method requirements, in declaration order (their index is their message index);
  /// a property or subscript adds its read, then its write (see ``stateRequirements``).
  var requirements: [DelegateRequirement]
  /// The property and subscript requirements, in declaration order: their reads and writes
  /// are also in ``requirements``.
  var stateRequirements: [DelegateStateRequirement] = []
  /// The generic methods, and those answering a bound associated type: forwarded on the
  /// Swift path only (no handle, no C face).
  var genericMethods: [DelegateGenericMethod] = []
  /// The associated types the multicast binds to the multicasts of their constraints.
  var associatedTypes: [DelegateAssociatedType] = []
  /// What `@Delegate` cannot support, each on its node. Nothing is generated if any.
  var diagnostics: [Diagnostic]

  /// Reads `declaration`, to which `@Delegate` (the attribute `attribute`) is attached.
  init(declaration: some SyntaxProtocol, attribute: AttributeSyntax) {
    requirements = []
    diagnostics = []
    guard let proto = declaration.as(ProtocolDeclSyntax.self) else {
      name = ""
      access = .internal
      diagnostics.append(
        Diagnostic(
          node: Syntax(attribute),
          message: DelegateDiagnostic.notAProtocol(Self.kind(of: declaration))))
      return
    }
    name = proto.name.text
    delegateType = name
    access = AccessLevel(proto.modifiers)
    readArguments(of: attribute)
    isMainActor = proto.attributes.contains { element in
      guard case .attribute(let attribute) = element else { return false }
      let spelled = attribute.attributeName.trimmedDescription
      return spelled == "MainActor" || spelled == "_Concurrency.MainActor"
    }
    readInheritance(of: proto)
    readAssociatedTypes(of: proto)
    readMembers(of: proto)
    markOverloads()
    checkUniqueNames()
    routeDeclaredDefaults()
    decideSemantics(of: proto)
    markWritesOfValues()
  }

  /// A write to a protocol whose conformers may be values (a struct multicast, a protocol
  /// not known to be class-bound, one declared elsewhere) changes each member's stored
  /// value, as a `mutating` requirement does (`__sendMutating`): setting a property
  /// through an existential that is not class-bound needs a variable. Decided after the
  /// semantics, which writes do not choose.
  private mutating func markWritesOfValues() {
    guard isValue || !isClassBound || (isForeign && !statesAnyObject) else { return }
    for index in requirements.indices where requirements[index].accessor?.kind == .set {
      requirements[index].isMutating = true
    }
    for index in stateRequirements.indices {
      stateRequirements[index].setter?.isMutating = true
    }
  }

  /// Chooses a class or a struct multicast (``isValue``) and reports what the choice
  /// cannot carry.
  private mutating func decideSemantics(of proto: ProtocolDeclSyntax) {
    let mutating = requirements.filter(\.isMutating)
    switch semantics {
    case "value": isValue = true
    case "reference": isValue = false
    default:
      // A protocol declared elsewhere may be class-bound (XMLParserDelegate): a class
      // multicast unless `mutating` says otherwise or `semantics: .value` is written.
      isValue = !statesAnyObject && (!mutating.isEmpty || !isClassBound)
    }
    if isValue {
      if statesAnyObject { report(proto.name, .valueClassBound(name)) }
      if !parents.isEmpty {
        report(
          parentNodes[0],
          .valueSemantics(
            name,
            problem:
              "it refines @Delegate protocols (\(parents.map { "'\($0)'" }.joined(separator: ", "))), whose multicasts are classes; restate their methods with @Delegate(restating:) or constrain it to AnyObject"
          ))
      }
      if objectBase != nil {
        report(
          proto.name,
          .valueSemantics(
            name,
            problem:
              "'object:' gives the multicast a class face; remove 'object:' or write 'semantics: .reference'"
          ))
      }
      if isMainActor {
        report(
          proto.name,
          .valueSemantics(
            name,
            problem:
              "it is isolated to the main actor, which value multicasts do not support yet; write 'semantics: .reference' for a class multicast"
          ))
      }
    }
    for requirement in mutating {
      let node = requirement.nameNode
      if requirement.isAsync || requirement.isThrowing {
        report(
          node,
          .mutatingRequirement(
            requirement.swiftName,
            problem:
              "because it is '\(requirement.isAsync ? "async" : "throws")': the members' new values are stored together once the last member has answered, which \(requirement.isAsync ? "a suspension" : "an error") would leave half done; make it non-mutating or drop the effect"
          ))
      } else if !parents.isEmpty {
        report(
          node,
          .mutatingRequirement(
            requirement.swiftName,
            problem:
              "in a protocol that refines @Delegate protocols; restate the parents' methods with @Delegate(restating:)"
          ))
      } else if isMainActor {
        report(
          node,
          .mutatingRequirement(
            requirement.swiftName, problem: "in a @MainActor protocol; make it non-mutating"))
      }
    }
  }

  /// Whether the model can be generated.
  var isValid: Bool { diagnostics.isEmpty }

  private mutating func report(
    _ node: some SyntaxProtocol, _ message: DelegateDiagnostic, notes: [Note] = [],
    fixIt: FixIt? = nil
  ) {
    diagnostics.append(
      Diagnostic(
        node: Syntax(node), message: message, notes: notes, fixIts: fixIt.map { [$0] } ?? []))
  }

  /// Standard protocols whose requirements a multicast cannot forward to its delegates.
  static let unforwardable: Set<String> = [
    "Equatable", "Hashable", "Comparable", "Identifiable", "Codable", "Encodable", "Decodable",
    "Error", "Sequence", "Collection", "RawRepresentable", "Actor",
  ]

  /// Protocols a refining protocol's multicast does not inherit forwarding from: they
  /// have no methods to forward, or are not `@Delegate` protocols.
  static let notDelegate: Set<String> = [
    "NSObjectProtocol", "ObjectiveC.NSObjectProtocol", "Foundation.NSObjectProtocol",
  ]

  /// Reads `@Delegate(for: P.self, object: C.self)`, `@Delegate(restating: P.self, …)`,
  /// `semantics:` and `cFace:`.
  private mutating func readArguments(of attribute: AttributeSyntax) {
    guard case .argumentList(let arguments) = attribute.arguments else { return }
    for argument in arguments {
      let label = argument.label?.text
      if label == "restating" || (label == nil && !restated.isEmpty) {
        // `restating: A.self, B.self`: the variadic's later values have no label.
        guard let access = argument.expression.as(MemberAccessExprSyntax.self),
          access.declName.baseName.text == "self", let base = access.base
        else {
          report(argument, .badDelegateArgument(name))
          continue
        }
        restated.insert(base.trimmedDescription)
        continue
      }
      if label == "cFace" {
        guard let literal = argument.expression.as(BooleanLiteralExprSyntax.self) else {
          report(argument, .badDelegateArgument(name))
          continue
        }
        hasCFace = literal.literal.tokenKind == .keyword(.true)
        continue
      }
      if label == "semantics" {
        guard let access = argument.expression.as(MemberAccessExprSyntax.self),
          ["value", "reference"].contains(access.declName.baseName.text),
          access.base == nil || access.base!.trimmedDescription == "DelegateSemantics"
            || access.base!.trimmedDescription == "DelegateProxy.DelegateSemantics"
        else {
          report(argument, .badSemantics(name))
          continue
        }
        semantics = access.declName.baseName.text
        continue
      }
      guard let access = argument.expression.as(MemberAccessExprSyntax.self),
        access.declName.baseName.text == "self", let base = access.base,
        label == "for" || label == "object"
      else {
        report(argument, .badDelegateArgument(name))
        continue
      }
      if label == "for" {
        delegateType = base.trimmedDescription
      } else {
        objectBase = base.trimmedDescription
      }
    }
    if objectBase != nil && !isForeign {
      report(attribute, .objectWithoutForeign(name))
    }
  }

  /// Reads what the protocol refines: `AnyObject` (class-bound), `Sendable`, the
  /// `@Delegate` protocols whose forwarding its multicast inherits, and — with
  /// `@Delegate(for: P.self)` — `P`, which it must refine.
  private mutating func readInheritance(of proto: ProtocolDeclSyntax) {
    var refinesForeign = false
    for inherited in proto.inheritanceClause?.inheritedTypes ?? [] {
      let type = inherited.type
      let spelled = type.trimmedDescription
      if type.is(ClassRestrictionTypeSyntax.self) || spelled == "AnyObject"
        || spelled == "Swift.AnyObject"
      {
        isClassBound = true
        statesAnyObject = true
      } else if spelled == "Sendable" || spelled == "Swift.Sendable" {
        continue
      } else if spelled == "Actor" || spelled == "_Concurrency.Actor" {
        isClassBound = true
        statesAnyObject = true
        report(type, .actorBound(name))
      } else if Self.unforwardable.contains(
        spelled.hasPrefix("Swift.") ? String(spelled.dropFirst(6)) : spelled)
      {
        report(type, .unsupportedInheritance(name, inherited: spelled))
      } else if type.is(IdentifierTypeSyntax.self) || type.is(MemberTypeSyntax.self) {
        // A protocol it refines (its own @Delegate protocol, or one declared elsewhere).
        isClassBound = true
        if spelled == delegateType { refinesForeign = true }
        if !Self.notDelegate.contains(spelled) && !restated.contains(spelled) {
          parents.append(spelled)
          parentNodes.append(type)
        }
      } else {
        report(type, .unsupportedInheritance(name, inherited: spelled))
      }
    }
    // With `@Delegate(for:)` the delegates are the foreign protocol's: nothing is inherited.
    if isForeign {
      parents = []
      parentNodes = []
    }
    if isForeign && !refinesForeign {
      report(proto.name, .foreignNotRefined(name, foreign: delegateType))
    }
  }

  /// Reads the associated types the multicast binds: those declared in the body, and —
  /// for the associated types of a protocol it refines — the `where` clause's `Name: P`.
  private mutating func readAssociatedTypes(of proto: ProtocolDeclSyntax) {
    for member in proto.memberBlock.members {
      guard let decl = member.decl.as(AssociatedTypeDeclSyntax.self) else { continue }
      if let bound = DelegateAssociatedType.read(decl, diagnostics: &diagnostics) {
        associatedTypes.append(bound)
      }
    }
    let declared = Set(
      proto.memberBlock.members.compactMap { $0.decl.as(AssociatedTypeDeclSyntax.self)?.name.text })
    for primary in proto.primaryAssociatedTypeClause?.primaryAssociatedTypes ?? []
    where !declared.contains(primary.name.text) {
      report(
        primary,
        .associatedType(
          primary.name.text,
          problem:
            "it is not declared in the protocol; declare it as 'associatedtype \(primary.name.text): P', P being a @Delegate protocol"
        ))
    }
    if let whereClause = proto.genericWhereClause {
      associatedTypes += DelegateAssociatedType.read(
        whereClause, protocolName: name, diagnostics: &diagnostics)
    }
  }

  /// For a method naming a bound associated type: the one its result is (`Span`,
  /// `Span?`), when the multicast can gather the members' answers into it; nil when it
  /// names none. Reports every other use (a parameter, a result that holds it), which
  /// the multicast cannot make: a member needs its own value of its own type there.
  private mutating func gathered(by function: FunctionDeclSyntax) -> (
    DelegateAssociatedType, isOptional: Bool
  )?? {
    guard !associatedTypes.isEmpty else { return nil }
    var refused = false
    for parameter in function.signature.parameterClause.parameters {
      for bound in associatedTypes where bound.isNamed(in: parameter.type) {
        refused = true
        report(
          parameter.type,
          .associatedType(
            bound.name,
            problem:
              "'\(function.name.text)' takes it as a parameter, and each member needs a value of its own '\(bound.name)' there; take the constraint's existential ('any …') instead"
          ))
      }
    }
    guard let result = function.signature.returnClause?.type else {
      return refused ? .some(nil) : nil
    }
    if let answered = DelegateAssociatedType.answered(by: result),
      let bound = associatedTypes.first(where: { $0.name == answered.name })
    {
      return refused ? .some(nil) : (bound, answered.isOptional)
    }
    for bound in associatedTypes where bound.isNamed(in: result) {
      refused = true
      report(
        result,
        .associatedType(
          bound.name,
          problem:
            "the result of '\(function.name.text)' holds it in '\(result.trimmedDescription)'; the multicast gathers the members' answers only into a result that is '\(bound.name)' or '\(bound.name)?'"
        ))
    }
    return refused ? .some(nil) : nil
  }

  /// Reports a property or subscript that names a bound associated type: its read and
  /// write are messages of one signature for every member.
  private mutating func refuseAssociatedTypes(in node: some SyntaxProtocol, swiftName: String) {
    for bound in associatedTypes where bound.isNamed(in: node) {
      report(
        node,
        .associatedType(
          bound.name,
          problem:
            "the property or subscript '\(swiftName)' uses it; declare a method answering '\(bound.name)' instead, whose members' answers the multicast gathers"
        ))
    }
  }

  /// Reads every member: methods become requirements; anything else is reported.
  private mutating func readMembers(of proto: ProtocolDeclSyntax) {
    for member in proto.memberBlock.members {
      let decl = member.decl
      if let function = decl.as(FunctionDeclSyntax.self), let gather = gathered(by: function) {
        // Answers a bound associated type: on the Swift path, every member's answer
        // gathered (see DelegateGenericMethod.gather).
        if let gather,
          let method = DelegateGenericMethod.read(
            function, gathering: (gather.0.multicast, gather.isOptional), diagnostics: &diagnostics)
        {
          genericMethods.append(method)
        }
      } else if let function = decl.as(FunctionDeclSyntax.self),
        function.genericParameterClause != nil || function.genericWhereClause != nil
          || DelegateGenericMethod.isDeprecated(function)
      {
        if let method = DelegateGenericMethod.read(function, diagnostics: &diagnostics) {
          genericMethods.append(method)
        }
      } else if let function = decl.as(FunctionDeclSyntax.self) {
        if let requirement = DelegateRequirement.read(
          function, optionalMarker: Self.optionalMarker, diagnostics: &diagnostics)
        {
          if isForeign && requirement.isOptional {
            report(
              function.name, .optionalInForeign(requirement.swiftName, foreign: delegateType),
              fixIt: SourceFixIt.removing(attribute: Self.optionalMarker, from: function.attributes)
            )
          }
          requirements.append(requirement)
        }
      } else if decl.is(AssociatedTypeDeclSyntax.self) {
        continue  // read by readAssociatedTypes
      } else if let variable = decl.as(VariableDeclSyntax.self) {
        refuseAssociatedTypes(
          in: variable, swiftName: variable.bindings.first?.pattern.trimmedDescription ?? "")
        if let state = DelegateStateRequirement.read(
          variable, optionalMarker: Self.optionalMarker, diagnostics: &diagnostics)
        {
          add(state, node: variable)
        }
      } else if let sub = decl.as(SubscriptDeclSyntax.self) {
        refuseAssociatedTypes(in: sub, swiftName: "subscript")
        if let state = DelegateStateRequirement.read(
          sub, optionalMarker: Self.optionalMarker, diagnostics: &diagnostics)
        {
          add(state, node: sub)
        }
      } else if let initializer = decl.as(InitializerDeclSyntax.self) {
        report(initializer, .initializer)
      } else if decl.is(TypeAliasDeclSyntax.self) {
        continue
      } else {
        report(decl, .unsupportedMember)
      }
    }
  }

  /// Adds a property or subscript: its read and its write join the requirements.
  private mutating func add(_ state: DelegateStateRequirement, node: some SyntaxProtocol) {
    if isForeign && state.getter.isOptional {
      report(node, .optionalInForeign(state.swiftName, foreign: delegateType))
    }
    stateRequirements.append(state)
    requirements.append(state.getter)
    if let setter = state.setter { requirements.append(setter) }
  }

  /// Marks the methods overloaded by parameter type only (same base name and labels):
  /// their calls state their arguments' types. Their names are not changed: two that
  /// would share a handle or selector are an error (`checkUniqueNames`).
  private mutating func markOverloads() {
    var bySwiftName: [String: [Int]] = [:]
    for (index, requirement) in requirements.enumerated() where requirement.accessor == nil {
      bySwiftName[requirement.swiftName, default: []].append(index)
    }
    for indices in bySwiftName.values where indices.count > 1 {
      for index in indices { requirements[index].isOverloadedByType = true }
    }
  }

  /// Two requirements may share neither a selector nor a message handle name. A handle
  /// and a selector depend on their own requirement only, so that adding a requirement
  /// never renames another: when two would meet, the later one is reported, with a Fix-It
  /// that names it explicitly (`@Handle("…")`, `@Selector("…")`).
  private mutating func checkUniqueNames() {
    var bySelector: [String: DelegateRequirement] = [:]
    var byMessageName: [String: DelegateRequirement] = [:]
    for requirement in requirements {
      let handleOwner = byMessageName[requirement.messageName]
      let selectorOwner = bySelector[requirement.selector]
      guard handleOwner == nil && selectorOwner == nil else {
        let other = (handleOwner ?? selectorOwner)!
        let note = Note(
          node: other.nameNode, message: DelegateNote(message: "'\(other.swiftName)' declared here")
        )
        // The Fix-It names what is shared; an overload by type is offered its types' names.
        let suggested = requirement.suggestedNames
        var attributes: [String] = []
        if handleOwner != nil {
          attributes.append(
            "@Handle(\"\(requirement.isOverloadedByType ? suggested.handle : "<#name#>")\")")
        }
        if selectorOwner != nil || (handleOwner?.selector == requirement.selector) {
          attributes.append(
            "@Selector(\"\(requirement.isOverloadedByType ? suggested.selector : "<#selector#>")\")"
          )
        }
        let fixIts =
          requirement.declNode.map {
            [SourceFixIt.inserting(attributes.joined(separator: " "), before: $0)]
          }
          ?? []
        let message: DelegateDiagnostic =
          handleOwner != nil
          ? .duplicateMessageName(
            requirement.swiftName, messageName: requirement.messageName, other: other.swiftName,
            selector: handleOwner?.selector == requirement.selector ? requirement.selector : nil)
          : .duplicateSelector(
            requirement.swiftName, selector: requirement.selector, other: other.swiftName)
        diagnostics.append(
          Diagnostic(node: requirement.nameNode, message: message, notes: [note], fixIts: fixIts))
        continue
      }
      byMessageName[requirement.messageName] = requirement
      bySelector[requirement.selector] = requirement
    }
  }

  /// A phrase naming the kind of a declaration that is not a protocol.
  private static func kind(of declaration: some SyntaxProtocol) -> String {
    switch declaration.kind {
    case .structDecl: return "a struct"
    case .classDecl: return "a class"
    case .enumDecl: return "an enum"
    case .actorDecl: return "an actor"
    case .extensionDecl: return "an extension"
    case .functionDecl: return "a function"
    case .variableDecl: return "a variable"
    default: return "this declaration"
    }
  }
}
