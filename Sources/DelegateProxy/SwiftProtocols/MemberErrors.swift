/// The errors the delegates of one call threw, in delegate order: what a throwing method
/// under ``DelegateErrorPolicy/runAll`` throws when at least one delegate threw.
public struct MemberErrors: Error, CustomStringConvertible {
  /// Every error, in the order of the delegates that threw them.
  public let errors: [any Error]

  /// The errors of one call, in delegate order.
  public init(_ errors: [any Error]) { self.errors = errors }

  /// A readable rendering, for logs and diagnostics.
  public var description: String {
    "\(errors.count) delegate error(s): " + errors.map { "\($0)" }.joined(separator: "; ")
  }
}
