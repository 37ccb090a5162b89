import SwiftDiagnostics
import SwiftSyntax

/// A generic method requirement of a `@Delegate` protocol (swift-distributed-tracing's
/// `inject<Carrier, Inject: Injector>(_:into:using:)`): the multicast calls each member with
/// the same generic arguments, on the Swift path only. It has no typed handle (a handle is
/// a property of `Handles`, which cannot be generic), so no policy, observer or C face:
/// every member is called in order — a queued one on its queue, waited for — and a
/// value-returning method answers the last member's value (its `@Default`, else its
/// result type's empty value, when there is none).
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
  /// Whether the method is `async`.
  var isAsync: Bool
  /// Whether the method is `throws`.
  var isThrowing: Bool

  /// The method's signature: `func inject<C, I: Injector>(_ p0: Context, into carrier: inout C, using injector: I) where I.Carrier == C`.
  var signature: String {
    let list = parameters.map { p in
      p.labelText == p.localName
        ? "\(p.localName): \(p.type.trimmedDescription)"
        : "\(p.labelText) \(p.localName): \(p.type.trimmedDescription)"
    }
    let effects = (isAsync ? " async" : "") + (isThrowing ? " throws" : "")
    let arrow = result.map { " -> \($0.trimmedDescription)" } ?? ""
    let whereText = whereClause.isEmpty ? "" : " \(whereClause)"
    return
      "func \(nameText)\(genericClause)(\(list.joined(separator: ", ")))\(effects)\(arrow)\(whereText)"
  }

  /// The call on `receiver` with the method's own parameters (`&carrier` for an `inout`).
  func callText(on receiver: String) -> String {
    let arguments = parameters.map { p in
      let value = p.isInout ? "&\(p.localName)" : p.localName
      return p.label == nil ? value : "\(p.labelText): \(value)"
    }
    let marker = (isThrowing ? "try " : "") + (isAsync ? "await " : "")
    return "\(marker)\(receiver).\(nameText)(\(arguments.joined(separator: ", ")))"
  }

  /// The body that calls each member (`each` names the engine's primitive, on `self` or a
  /// cast of it) and answers the last answer.
  func eachBody(_ each: String, delegateType: String, cast: Bool) -> String {
    let d = cast ? "($0 as! any \(delegateType))" : "$0"
    let primitive = isAsync ? "\(each)Async" : each
    let marker = (isThrowing ? "try " : "") + (isAsync ? "await " : "")
    let call =
      "\(primitive) { \(cast ? "" : "(d: any \(delegateType)) in ")\(callText(on: cast ? d : "d")) }"
    guard let noAnswerText else { return "\(marker)\(call)" }
    return "return \(marker)\(call) ?? \(noAnswerText)"
  }

  /// Reads a generic method, reporting what `@Delegate` cannot support in it.
  static func read(_ function: FunctionDeclSyntax, diagnostics: inout [Diagnostic])
    -> DelegateGenericMethod?
  {
    // The parameters, effects and result are read as a method's are (its generic clause
    // aside); the generic clauses are kept as written.
    let plain = function.with(\.genericParameterClause, nil).with(\.genericWhereClause, nil)
    var found: [Diagnostic] = []
    guard
      let requirement = DelegateRequirement.read(
        plain, optionalMarker: DelegateProtocolModel.optionalMarker, diagnostics: &found)
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
          message: DelegateDiagnostic.optionalGeneric(requirement.swiftName)))
      return nil
    }
    return DelegateGenericMethod(
      nameText: requirement.nameText, swiftName: requirement.swiftName,
      genericClause: function.genericParameterClause?.trimmedDescription ?? "",
      whereClause: function.genericWhereClause?.trimmedDescription ?? "",
      parameters: requirement.parameters, result: requirement.result,
      noAnswerText: requirement.noAnswerText, isAsync: requirement.isAsync,
      isThrowing: requirement.isThrowing)
  }
}
