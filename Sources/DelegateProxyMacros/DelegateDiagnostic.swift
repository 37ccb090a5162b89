import SwiftDiagnostics

/// The errors `@Delegate` reports, each on the declaration, parameter or attribute that
/// causes it, naming it and saying what to do.
struct DelegateDiagnostic: DiagnosticMessage {
  /// A stable identifier for the kind of problem (`notAProtocol`, `throwingMethod`, …).
  let id: String
  let message: String
  var severity: DiagnosticSeverity = .error

  var diagnosticID: MessageID { MessageID(domain: "DelegateProxyMacros", id: id) }

  static func notAProtocol(_ kind: String) -> Self {
    Self(
      id: "notAProtocol",
      message:
        "@Delegate applies to a protocol, not to \(kind); declare a protocol and attach @Delegate to it"
    )
  }

  static func notClassBound(_ protocolName: String) -> Self {
    Self(
      id: "notClassBound",
      message:
        "@Delegate protocol '\(protocolName)' must be constrained to AnyObject: write 'protocol \(protocolName): AnyObject'"
    )
  }

  static func unsupportedInheritance(_ protocolName: String, inherited: String) -> Self {
    Self(
      id: "unsupportedInheritance",
      message:
        "@Delegate protocol '\(protocolName)' inherits from '\(inherited)', whose requirements a multicast cannot forward ('Self' or associated types, initializers); inherit from AnyObject, Sendable or a delegate protocol"
    )
  }

  /// A protocol refining `Actor`: its multicast, a class, could not conform to it.
  static func actorBound(_ protocolName: String) -> Self {
    Self(
      id: "actorBound",
      message:
        "@Delegate protocol '\(protocolName)' inherits from 'Actor', but its multicast is a class, which cannot conform to Actor; write 'protocol \(protocolName): AnyObject' with async requirements: actors conform to it"
    )
  }

  static func whereClause(_ protocolName: String) -> Self {
    Self(
      id: "whereClause",
      message:
        "@Delegate protocol '\(protocolName)' has a 'where' clause, which is not supported; remove it"
    )
  }

  static func associatedType(_ name: String) -> Self {
    Self(
      id: "associatedType",
      message:
        "@Delegate does not support associated types ('\(name)'): a delegate's methods need concrete types; remove it and use a concrete type"
    )
  }

  static func property(_ name: String) -> Self {
    Self(
      id: "property",
      message:
        "@Delegate does not support property requirements ('\(name)'): a multicast delegate has no single value to return; declare methods instead"
    )
  }

  static func subscriptRequirement() -> Self {
    Self(
      id: "subscript",
      message: "@Delegate does not support subscript requirements; declare a method instead"
    )
  }

  static func initializer() -> Self {
    Self(
      id: "initializer",
      message:
        "@Delegate does not support initializer requirements: delegates are created by their owners, not by the proxy; remove it"
    )
  }

  static func staticRequirement(_ name: String, keyword: String) -> Self {
    Self(
      id: "staticRequirement",
      message:
        "@Delegate does not support '\(keyword)' requirements ('\(name)'): messages go to delegate instances; make it an instance method"
    )
  }

  static func genericMethod(_ name: String) -> Self {
    Self(
      id: "genericMethod",
      message:
        "@Delegate does not support generic methods ('\(name)'): each method needs one fixed signature; use concrete parameter types"
    )
  }

  static func opaqueParameter(_ name: String, parameter: String) -> Self {
    Self(
      id: "genericMethod",
      message:
        "parameter '\(parameter)' of '\(name)' has a 'some' type, which makes the method generic; @Delegate needs a concrete type"
    )
  }

  /// A typed `throws(E)` or a `rethrows` requirement: `@Delegate` takes plain `throws`.
  static func effect(_ name: String, clause: String) -> Self {
    let reason =
      clause == "rethrows"
      ? "a multicast's conformance cannot rethrow only what its caller's closure throws, since its delegates may throw too"
      : "under the .runAll error policy a multicast throws every delegate's error at once (DelegateErrors), which no single typed error can carry"
    return Self(
      id: "effect",
      message:
        "@Delegate does not support '\(clause)' requirements ('\(name)'): \(reason); declare it plain 'throws'"
    )
  }

  static func variadicParameter(_ name: String, parameter: String) -> Self {
    Self(
      id: "variadicParameter",
      message:
        "parameter '\(parameter)' of '\(name)' is variadic, which has no C form; pass a pointer and a count instead"
    )
  }

  static func nonEscapingClosure(_ name: String, parameter: String) -> Self {
    Self(
      id: "nonEscapingClosure",
      message:
        "parameter '\(parameter)' of the async method '\(name)' is a non-escaping closure, which cannot be lent across its delegates' suspensions; mark it '@escaping'"
    )
  }

  static func badDelegateArgument(_ name: String) -> Self {
    Self(
      id: "badDelegateArgument",
      message:
        "@Delegate on '\(name)' takes 'for: P.self' (the protocol declared elsewhere whose delegates it multicasts) and 'object: C.self' (the class that protocol's defaults require), nothing else"
    )
  }

  static func objectWithoutForeign(_ name: String) -> Self {
    Self(
      id: "objectWithoutForeign",
      message:
        "@Delegate(object:) on '\(name)' needs 'for: P.self': a base class is for protocols declared elsewhere whose defaults require one"
    )
  }

  static func foreignNotRefined(_ name: String, foreign: String) -> Self {
    Self(
      id: "foreignNotRefined",
      message:
        "'\(name)' restates methods of '\(foreign)', so it must refine it ('protocol \(name): \(foreign)'): the compiler then checks each restated method against the real one"
    )
  }

  static func optionalInForeign(_ name: String, foreign: String) -> Self {
    Self(
      id: "optionalInForeign",
      message:
        "'\(name)' is a method of '\(foreign)', whose own declaration says whether it is optional (a default implementation); remove @Optional"
    )
  }

  static func selfType(_ name: String, what: String) -> Self {
    Self(
      id: "selfType",
      message:
        "\(what) of '\(name)' uses 'Self', which a multicast cannot forward: each delegate's 'Self' is its own type; use the protocol's existential or a concrete type"
    )
  }

  static func defaultNotOneValue(_ name: String) -> Self {
    Self(
      id: "defaultNotOneValue",
      message:
        "@Default on '\(name)' needs exactly one value, such as @Default(true)"
    )
  }

  static func defaultOnVoid(_ name: String) -> Self {
    Self(
      id: "defaultOnVoid",
      message:
        "@Default on '\(name)' has nothing to give: the method returns nothing; remove @Default"
    )
  }

  static func noZeroAnswer(_ name: String, problem: String) -> Self {
    Self(
      id: "noZeroAnswer",
      message:
        "the result of '\(name)' is \(problem), which has no empty value to answer when no delegate answers; declare one with @Default(value)"
    )
  }

  static func duplicateSelector(_ name: String, selector: String, other: String) -> Self {
    if name == other {
      return Self(
        id: "duplicateSelector",
        message:
          "'\(name)' is overloaded: both declarations get the selector '\(selector)'; give one of them another selector with @Selector(\"…\")"
      )
    }
    return Self(
      id: "duplicateSelector",
      message:
        "'\(name)' has the selector '\(selector)', which '\(other)' already has; give one of them another name with @Selector(\"…\")"
    )
  }

  static func duplicateMessageName(_ name: String, messageName: String, other: String) -> Self {
    Self(
      id: "duplicateMessageName",
      message:
        "'\(name)' and '\(other)' both get the message handle '\(messageName)' (the base name, then each argument label capitalised); rename one of them"
    )
  }

  static func selectorNotLiteral(_ name: String) -> Self {
    Self(
      id: "selectorNotLiteral",
      message:
        "@Selector on '\(name)' needs one plain string literal, such as @Selector(\"name:with:\")"
    )
  }

  static func badSelector(_ name: String, selector: String, problem: String) -> Self {
    Self(
      id: "badSelector",
      message:
        "@Selector(\"\(selector)\") on '\(name)' \(problem); write one name piece and one colon per parameter, such as \"name:with:\""
    )
  }

  static func unsupportedMember() -> Self {
    Self(
      id: "unsupportedMember",
      message:
        "@Delegate protocols may contain only methods; move this declaration out of the protocol"
    )
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
