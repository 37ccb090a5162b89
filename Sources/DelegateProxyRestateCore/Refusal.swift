/// The shapes the `@Delegate` macro refuses to forward, recognised in a requirement's text
/// before anything is written, with the macro's reason.
enum Refusal {
  /// Why the macro refuses `requirement`, or nil when it forwards it.
  static func reason(for requirement: Requirement) -> String? {
    let text = requirement.declaration
    if requirement.kind == .unforwardable {
      return text.hasPrefix("init") || text.contains(" init(") || text.contains(" init<")
        ? "initializers are refused: a multicast forwards calls to existing members and makes none"
        : "static requirements are refused: a multicast forwards calls on its members, not on their types"
    }
    if text.contains("rethrows") {
      return
        "'rethrows' is refused: a multicast calls several members, whose errors are not the closure's"
    }
    if text.range(of: #"\bthrows\("#, options: .regularExpression) != nil {
      return "typed 'throws(E)' is refused"
    }
    if text.contains("...") {
      return "variadic parameters are refused: a variadic list cannot be passed on to each member"
    }
    if text.range(of: #"\bSelf\b"#, options: .regularExpression) != nil {
      return "'Self' is refused: each member is a different type"
    }
    if requirement.kind == .subscript && text.hasPrefix("subscript<") {
      return "generic subscripts are refused"
    }
    return nil
  }
}
