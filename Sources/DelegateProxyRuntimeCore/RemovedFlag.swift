// Public: the removed check is inlined into Swift dispatch loops (dp_route_node.h).
public import DelegateProxyCCore

/// A membership's removed flag as a plain address, for Swift dispatch loops that read it
/// with one load, as the C routes do.
@usableFromInline
package struct RemovedFlag: @unchecked Sendable {
  // @unchecked Sendable: the address of a C flag read atomically, freed only after a
  // grace period following its membership's deinit.
  @usableFromInline package let node: OpaquePointer
  @inlinable package init(node: OpaquePointer) { self.node = node }
  /// Whether the membership was marked removed.
  @inlinable package var isSet: Bool { dp_route_node_is_removed_inline(node) }
}
