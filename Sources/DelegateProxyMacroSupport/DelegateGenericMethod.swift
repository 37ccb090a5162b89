import SwiftDiagnostics
import SwiftSyntax

/// A generic method requirement of a `@Delegate` protocol (swift-distributed-tracing's
/// `inject<Carrier, Inject: Injector>(_:into:using:)`): the multicast calls each member with
/// the same generic arguments, on the Swift path only. It has no typed handle (a handle is
/// a property of `Handles`, which cannot be generic), so no policy, observer or C face:
/// every member is called in order — a queued one on its queue, waited for — and a
/// value-returning method answers the last member's value (its `@Default`, else its
/// result type's empty value, when there is none). Two kinds of plain methods take the
/// same path: one answering an associated type the multicast binds (``gather``: every
/// member's answer gathered into a multicast), and a deprecated one (its witnesses are
/// deprecated too, so that calling it warns no one).
struct DelegateGenericMethod {
  /// The method's name as written.
  var nameText: String
  /// The Swift name, such as `inject(_:into:using:)`.
  var swiftName: String
  /// The generic parameter clause as written (`<Carrier, Inject: Injector>`), or "".
  var genericClause: String
  /// The `where` clause as written, or "".
  var whereClause: String
  /// The parameters, with local names for those that have none.
  var parameters: [DelegateRequirement.Parameter]
  /// The result type as written, or nil for `Void`.
  var result: TypeSyntax?
  /// What a call nobody answers returns (nil for a method that returns nothing).
  var noAnswerText: String?
  /// The type checker's check of ``noAnswerText``, for a result the macro cannot see into.
  var emptyAnswerCheck: EmptyAnswerCheck?
  /// Whether the method is `async`.
  var isAsync: Bool
  /// Whether the method is `throws`.
  var isThrowing: Bool
  /// For a method answering an associated type the multicast binds (see
  /// `DelegateAssociatedType`): the multicast it gathers every member's answer into, and
  /// whether the answer is optional (a member answering nil is left out; nil when all
  /// do). Nil for a generic method, which answers the last member's answer.
  var gather: (multicast: String, isOptional: Bool)? = nil
  /// The requirement's `@available` attributes as written, each followed by a space: a
  /// deprecated requirement (swift-distributed-tracing's `forceFlush()`) is forwarded here,
  /// where the generated witnesses carry its deprecation, so calling it warns no one.
  var availabilityText = ""

  /// Whether `function` is deprecated (`@available(*, deprecated…)`): forwarded as a
  /// generic method is, from witnesses marked deprecated too, since a handle or a C entry
  /// calling it would warn in the user's build.
  static func isDeprecated(_ function: FunctionDeclSyntax) -> Bool {
    availability(of: function).contains { attribute in
      attribute.arguments?.trimmedDescription.split(separator: ",").contains {
        $0.trimmingPrefix(" ").hasPrefix("deprecated")
      } ?? false
    }
  }

  /// `function`'s `@available` attributes.
  private static func availability(of function: FunctionDeclSyntax) -> [AttributeSyntax] {
    function.attributes.compactMap { element in
      guard case .attribute(let attribute) = element,
        attribute.attributeName.trimmedDescription == "available"
      else { return nil }
      return attribute
    }
  }

  /// The method's signature: `func inject<C, I: Injector>(_ p0: Context, into carrier: inout C, using injector: I) where I.Carrier == C`.
  var signature: String {
    let list = parameters.map { p in
      p.labelText == p.localName
        ? "\(p.localName): \(p.type.trimmedDescription)"
        : "\(p.labelText) \(p.localName): \(p.type.trimmedDescription)"
    }
    let effects = (isAsync ? " async" : "") + (isThrowing ? " throws" : "")
    // An answer gathered is the multicast bound to the associated type.
    let arrow =
      gather.map { " -> \($0.multicast)\($0.isOptional ? "?" : "")" }
      ?? result.map { " -> \($0.trimmedDescription)" } ?? ""
    let whereText = whereClause.isEmpty ? "" : " \(whereClause)"
    return
      "func \(nameText)\(genericClause)(\(list.joined(separator: ", ")))\(effects)\(arrow)\(whereText)"
  }

  /// The call on `receiver` with the method's own parameters (`&carrier` for an `inout`).
  func callText(on receiver: String) -> String {
    let arguments = parameters.map { p in
      let value = p.isInout ? "&\(p.localName)" : p.passing(p.localName)
      return p.label == nil ? value : "\(p.labelText): \(value)"
    }
    let marker = (isThrowing ? "try " : "") + (isAsync ? "await " : "")
    return "\(marker)\(receiver).\(nameText)(\(arguments.joined(separator: ", ")))"
  }

  /// What the method answers when it cannot ask the members (a stand-in, an object face
  /// whose multicast is gone): its empty value, or for a gathered answer an empty
  /// multicast (nil when optional).
  var emptyAnswerText: String? {
    guard let gather else { return noAnswerText }
    return gather.isOptional ? "nil" : "\(gather.multicast).__gathering([])"
  }

  /// The body that calls each member (`each` names the engine's primitive, on `self` or a
  /// cast of it) and answers the last answer.
  func eachBody(_ each: String, delegateType: String, cast: Bool) -> String {
    let d = cast ? "($0 as! any \(delegateType))" : "$0"
    let marker = (isThrowing ? "try " : "") + (isAsync ? "await " : "")
    if let gather {
      // Every answering member's answer, typed as the bound multicast's members (a
      // member's own associated type, opened from its existential and erased to its bound).
      // `<receiver>.__callEach` → `<receiver>.__gatherEach` (a protocol binding associated
      // types is not forwardable: no `__callEachAny` here).
      let gatherEach = String(each.dropLast("__callEach".count)) + "__gatherEach"
      let primitive = isAsync ? "\(gatherEach)Async" : gatherEach
      let answer = "\(gather.multicast).Delegate\(gather.isOptional ? "?" : "")"
      let call =
        "\(primitive) { \(cast ? "" : "(d: any \(delegateType))") -> \(answer) in \(callText(on: cast ? d : "d")) }"
      return "return \(gather.multicast).__gathering(\(marker)\(call))"
    }
    let primitive = isAsync ? "\(each)Async" : each
    let call =
      "\(primitive) { \(cast ? "" : "(d: any \(delegateType)) in ")\(callText(on: cast ? d : "d")) }"
    guard let noAnswerText else { return "\(marker)\(call)" }
    return "return \(marker)\(call) ?? \(noAnswerText)"
  }

  /// Reads a generic method, reporting what `@Delegate` cannot support in it.
  /// `gathering`: for a method answering a bound associated type, the multicast its
  /// answers are gathered into and whether the answer is optional; its result is then not
  /// read as a method's (it names the associated type).
  static func read(
    _ function: FunctionDeclSyntax, gathering: (multicast: String, isOptional: Bool)? = nil,
    diagnostics: inout [Diagnostic]
  )
    -> DelegateGenericMethod?
  {
    // The parameters, effects and result are read as a method's are (its generic clause
    // aside); the generic clauses are kept as written.
    var plain = function.with(\.genericParameterClause, nil).with(\.genericWhereClause, nil)
    if gathering != nil { plain.signature.returnClause = nil }
    var found: [Diagnostic] = []
    guard
      let requirement = DelegateRequirement.read(
        plain, optionalMarker: DelegateProtocolModel.optionalMarker,
        genericParameters: Set(
          function.genericParameterClause?.parameters.map(\.name.text) ?? []),
        diagnostics: &found)
    else {
      // A `some` result is generic already: the method is generic, so that is fine… but it
      // cannot be forwarded (each member's opaque type is its own).
      diagnostics += found
      return nil
    }
    if requirement.isOptional {
      diagnostics.append(
        Diagnostic(
          node: Syntax(function.name),
          message: DelegateDiagnostic.optionalGeneric(requirement.swiftName),
          fixIts: SourceFixIt.removing(
            attribute: DelegateProtocolModel.optionalMarker, from: function.attributes
          ).map { [$0] } ?? []))
      return nil
    }
    return DelegateGenericMethod(
      nameText: requirement.nameText, swiftName: requirement.swiftName,
      genericClause: function.genericParameterClause?.trimmedDescription ?? "",
      whereClause: function.genericWhereClause?.trimmedDescription ?? "",
      parameters: requirement.parameters, result: requirement.result,
      noAnswerText: requirement.noAnswerText, emptyAnswerCheck: requirement.emptyAnswerCheck,
      isAsync: requirement.isAsync,
      isThrowing: requirement.isThrowing, gather: gathering,
      availabilityText: availability(of: function).map { $0.trimmedDescription + " " }.joined())
  }
}
