import SwiftDiagnostics

/// The errors `@Delegate` reports, each on the declaration, parameter or attribute that
/// causes it, naming it and saying what to do: one case per kind of problem, and one table
/// (``message``) of what each says.
enum DelegateDiagnostic: DiagnosticMessage {
  case notAProtocol(String)
  case unsupportedInheritance(String, inherited: String)
  /// A protocol refining `Actor`: its multicast, a class, could not conform to it.
  case actorBound(String)
  /// A `where` requirement other than `Name: P` (which binds an associated type).
  case whereClause(String, requirement: String)
  /// An associated type the multicast cannot bind, or a use of one it cannot gather.
  case associatedType(String, problem: String)
  /// A subscript with generic parameters: its read and write need one fixed signature.
  case genericSubscript(String)
  /// An accessor other than `get` and `set` (`_read`, `_modify`, `willSet`…).
  case unsupportedAccessor(String, accessor: String)
  /// A subscript index that is a non-escaping closure: a read's handle keeps its arguments.
  case nonEscapingIndex(String, parameter: String)
  /// `@Optional` on a generic method: its default could not be told apart from a member's.
  case optionalGeneric(String)
  /// `@Selector` on a property or subscript: their selectors follow a fixed rule.
  case selectorOnState(String)
  case initializer
  case staticRequirement(String, keyword: String)
  case genericMethod(String)
  case opaqueParameter(String, parameter: String)
  /// A typed `throws(E)` or a `rethrows` requirement: `@Delegate` takes plain `throws`.
  case effect(String, clause: String)
  case variadicParameter(String, parameter: String)
  case nonEscapingClosure(String, parameter: String)
  case badDelegateArgument(String)
  case objectWithoutForeign(String)
  case foreignNotRefined(String, foreign: String)
  case optionalInForeign(String, foreign: String)
  case selfType(String, what: String)
  case defaultNotOneValue(String)
  case defaultOnVoid(String)
  case noZeroAnswer(String, problem: String)
  case duplicateSelector(String, selector: String, other: String)
  /// Two requirements that would share a handle (and, `selector` non-nil, a selector).
  case duplicateMessageName(String, messageName: String, other: String, selector: String?)
  /// `@Handle` without one plain string literal.
  case handleNotLiteral(String)
  /// `@Handle("…")` naming no identifier.
  case badHandle(String, handle: String)
  case selectorNotLiteral(String)
  case badSelector(String, selector: String, problem: String)
  case unsupportedMember
  /// `semantics:` is neither `.value` nor `.reference`.
  case badSemantics(String)
  /// A value multicast (a struct) for a protocol that cannot have one.
  case valueSemantics(String, problem: String)
  /// `semantics: .value` on a protocol constrained to `AnyObject`.
  case valueClassBound(String)
  /// A `mutating` requirement the multicast cannot forward.
  case mutatingRequirement(String, problem: String)

  var severity: DiagnosticSeverity { .error }

  var diagnosticID: MessageID { MessageID(domain: "DelegateProxyMacros", id: id) }

  /// A stable identifier for the kind of problem (`notAProtocol`, `effect`, …).
  var id: String {
    switch self {
    // A `some` parameter makes the method generic: the same kind of problem.
    case .opaqueParameter: "genericMethod"
    // Otherwise the case's name (a case with a payload describes itself as `name(…)`).
    default: String(String(describing: self).prefix { $0 != "(" })
    }
  }

  /// What each diagnostic says.
  var message: String {
    switch self {
    case .notAProtocol(let kind):
      "@Delegate applies to a protocol, not to \(kind); declare a protocol and attach @Delegate to it"
    case .unsupportedInheritance(let protocolName, let inherited):
      "@Delegate protocol '\(protocolName)' inherits from '\(inherited)', whose requirements a multicast cannot forward ('Self' or associated types, initializers); inherit from AnyObject, Sendable or a delegate protocol"
    case .actorBound(let protocolName):
      "@Delegate protocol '\(protocolName)' inherits from 'Actor', but its multicast is a class, which cannot conform to Actor; write 'protocol \(protocolName): AnyObject' with async requirements: actors conform to it"
    case .whereClause(let protocolName, let requirement):
      "@Delegate protocol '\(protocolName)' has the 'where' requirement '\(requirement)'; the only one @Delegate takes is 'Name: P', binding the associated type 'Name' to the multicast of the @Delegate protocol 'P'"
    case .associatedType(let name, let problem):
      "@Delegate cannot bind the associated type '\(name)': \(problem)"
    case .genericSubscript(let name):
      "@Delegate does not support generic subscripts ('\(name)'): a subscript's read and write are messages with one fixed signature; use concrete types"
    case .unsupportedAccessor(let name, let accessor):
      "'\(name)' declares the accessor '\(accessor)'; a @Delegate requirement declares only 'get' (with 'async'/'throws') and 'set'"
    case .nonEscapingIndex(let name, let parameter):
      "index '\(parameter)' of '\(name)' is a non-escaping closure, which a read's or write's message cannot carry; mark it '@escaping'"
    case .optionalGeneric(let name):
      "@Optional on the generic method '\(name)': a generic method has no runtime message, so the multicast cannot learn which members implement it; declare it required"
    case .selectorOnState(let name):
      "@Selector on '\(name)': a property's selectors are its name and 'set<Name>:', a subscript's 'subscript…:' and 'setSubscript…:newValue:'; remove @Selector"
    case .initializer:
      "@Delegate does not support initializer requirements: delegates are created by their owners, not by the proxy; remove it"
    case .staticRequirement(let name, let keyword):
      "@Delegate does not support '\(keyword)' requirements ('\(name)'): messages go to delegate instances; make it an instance method"
    case .genericMethod(let name):
      "@Delegate does not support generic methods ('\(name)'): each method needs one fixed signature; use concrete parameter types"
    case .opaqueParameter(let name, let parameter):
      "parameter '\(parameter)' of '\(name)' has a 'some' type, which makes the method generic; @Delegate needs a concrete type"
    case .effect(let name, let clause):
      "@Delegate does not support '\(clause)' requirements ('\(name)'): "
        + (clause == "rethrows"
          ? "a multicast's conformance cannot rethrow only what its caller's closure throws, since its delegates may throw too"
          : "under the .runAll error policy a multicast throws every delegate's error at once (MemberErrors), which no single typed error can carry")
        + "; declare it plain 'throws'"
    case .variadicParameter(let name, let parameter):
      "parameter '\(parameter)' of '\(name)' is variadic, which has no C form; pass a pointer and a count instead"
    case .nonEscapingClosure(let name, let parameter):
      "parameter '\(parameter)' of the async method '\(name)' is a non-escaping closure, which cannot be lent across its delegates' suspensions; mark it '@escaping'"
    case .badDelegateArgument(let name):
      "@Delegate on '\(name)' takes 'for: P.self' (the protocol declared elsewhere whose delegates it multicasts) and 'object: C.self' (the class that protocol's defaults require), 'restating: P.self, …', 'semantics:' and 'cFace: true' (C entry points), nothing else"
    case .objectWithoutForeign(let name):
      "@Delegate(object:) on '\(name)' needs 'for: P.self': a base class is for protocols declared elsewhere whose defaults require one"
    case .foreignNotRefined(let name, let foreign):
      "'\(name)' restates methods of '\(foreign)', so it must refine it ('protocol \(name): \(foreign)'): the compiler then checks each restated method against the real one"
    case .optionalInForeign(let name, let foreign):
      "'\(name)' is a method of '\(foreign)', whose own declaration says whether it is optional (a default implementation); remove @Optional"
    case .selfType(let name, let what):
      "\(what) of '\(name)' uses 'Self', which a multicast cannot forward: each delegate's 'Self' is its own type; use the protocol's existential or a concrete type"
    case .defaultNotOneValue(let name):
      "@Default on '\(name)' needs exactly one value, such as @Default(true)"
    case .defaultOnVoid(let name):
      "@Default on '\(name)' has nothing to give: the method returns nothing; remove @Default"
    case .noZeroAnswer(let name, let problem):
      "'\(name)' answers \(problem), which has no empty value to answer when no delegate answers (only optionals, Bool, numbers, strings and collections have one); declare the answer with @Default(…)"
    case .duplicateSelector(let name, let selector, let other):
      "'\(name)' would have the selector '\(selector)', which \(name == other ? "another overload of it" : "'\(other)'") declared before it already has; name this one's with @Selector(\"…\") (a selector never changes when another requirement is added)"
    case .duplicateMessageName(let name, let messageName, let other, let selector):
      "'\(name)' would have the handle '\\.\(messageName)'\(selector.map { " and the selector '\($0)'" } ?? ""), which \(name == other ? "another overload of it" : "'\(other)'") declared before it already has; name this one's with @Handle(\"…\")\(selector == nil ? "" : " and @Selector(\"…\")") (a handle never changes when another requirement is added)"
    case .handleNotLiteral(let name):
      "@Handle on '\(name)' needs one plain string literal, such as @Handle(\"recordDouble\")"
    case .badHandle(let name, let handle):
      "@Handle(\"\(handle)\") on '\(name)' is not an identifier; write letters, digits and '_', such as \"recordDouble\""
    case .selectorNotLiteral(let name):
      "@Selector on '\(name)' needs one plain string literal, such as @Selector(\"name:with:\")"
    case .badSelector(let name, let selector, let problem):
      "@Selector(\"\(selector)\") on '\(name)' \(problem); write one name piece and one colon per parameter, such as \"name:with:\""
    case .unsupportedMember:
      "@Delegate protocols may contain only methods; move this declaration out of the protocol"
    case .badSemantics(let name):
      "@Delegate(semantics:) on '\(name)' takes '.value' (a struct multicast with value semantics, for a protocol that is not class-bound) or '.reference' (a class multicast)"
    case .valueSemantics(let name, let problem):
      "@Delegate protocol '\(name)' is not class-bound, so its multicast is a struct with value semantics, but \(problem)"
    case .valueClassBound(let name):
      "@Delegate(semantics: .value) on '\(name)', which is constrained to AnyObject: its conformers are classes, shared by reference; remove 'AnyObject' or write 'semantics: .reference'"
    case .mutatingRequirement(let name, let problem):
      "@Delegate does not support the mutating requirement '\(name)' \(problem)"
    }
  }
}

/// A note on a `DelegateDiagnostic`: the other declaration involved in a conflict.
struct DelegateNote: NoteMessage {
  let message: String
  var noteID: MessageID { MessageID(domain: "DelegateProxyMacros", id: "note") }
}

/// A Fix-It that `@Delegate` offers with one of its errors.
struct DelegateFixIt: FixItMessage {
  let message: String
  var fixItID: MessageID { MessageID(domain: "DelegateProxyMacros", id: "fixIt") }
}
