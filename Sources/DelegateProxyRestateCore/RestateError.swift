/// Why a restatement could not be written or checked: each case's ``description`` is the
/// message the command prints.
public enum RestateError: Error, Equatable, CustomStringConvertible {
  /// No symbol graph declares a type of that name.
  case protocolNotFound(name: String, searched: [String])
  /// Several modules declare a protocol of that name.
  case ambiguousName(name: String, candidates: [String])
  /// The name is a type, not a protocol.
  case notAProtocol(name: String, kind: String)
  /// A requirement the `@Delegate` macro refuses to forward, with its reason.
  case refusedRequirement(protocolName: String, declaration: String, reason: String)
  /// A symbol graph file could not be read or decoded.
  case unreadableSymbolGraph(path: String, reason: String)
  /// The command line is wrong.
  case usage(String)
  /// The file to check or update has no `@Delegate(for: P.self)` protocol.
  case noRestatement(path: String, protocolName: String)
  /// Running `swift-symbolgraph-extract` failed.
  case extractionFailed(module: String, output: String)

  /// The message the command prints.
  public var description: String {
    switch self {
    case .protocolNotFound(let name, let searched):
      let modules = searched.isEmpty ? "no module" : searched.joined(separator: ", ")
      return
        "protocol '\(name)' not found in the symbol graphs of \(modules); check the spelling, or name the target that can see it with --target"
    case .ambiguousName(let name, let candidates):
      return
        "'\(name)' names a protocol in several modules (\(candidates.joined(separator: ", "))); qualify it, e.g. '\(candidates[0])'"
    case .notAProtocol(let name, let kind):
      return "'\(name)' is \(kind), not a protocol: @Delegate(for:) restates protocols"
    case .refusedRequirement(let protocolName, let declaration, let reason):
      return
        "\(protocolName) requires '\(declaration)', which @Delegate cannot forward: \(reason)"
    case .unreadableSymbolGraph(let path, let reason):
      return "cannot read the symbol graph \(path): \(reason)"
    case .usage(let message):
      return message
    case .noRestatement(let path, let protocolName):
      return
        "\(path) has no '@Delegate(for: \(protocolName).self)' protocol; run the command without --check to write one"
    case .extractionFailed(let module, let output):
      return "swift-symbolgraph-extract failed for module \(module): \(output)"
    }
  }
}
