import SwiftSyntax

/// The access level of everything `@Delegate` generates: the protocol's own, with
/// `private` widened to `fileprivate` (a `private` protocol at file scope is visible in the
/// whole file, and so must its multicast type be).
enum AccessLevel: String {
  case `public`, package, `internal`, `fileprivate`

  /// The access level of `modifiers`' declaration.
  init(_ modifiers: DeclModifierListSyntax) {
    self = .internal
    for modifier in modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.public), .keyword(.open): self = .public
      case .keyword(.package): self = .package
      case .keyword(.fileprivate), .keyword(.private): self = .fileprivate
      default: continue
      }
    }
  }

  /// The modifier to write before a generated declaration, with a trailing space; empty
  /// for `internal`.
  var prefix: String {
    self == .internal ? "" : "\(rawValue) "
  }
}
