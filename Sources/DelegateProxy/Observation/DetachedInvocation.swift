import MessageRuntime

/// A copy of an invocation that nothing else references, so that it may cross threads.
///
/// `Invocation` is not `Sendable`: it is a mutable frame that is not thread-safe. Queued
/// delivery and observer snapshots hand a message to another thread, and they do so only
/// through this wrapper, whose initializer makes the copy itself (`Invocation.copy()`:
/// own frame, arguments retained, C strings copied). The copy's one reference lives here,
/// so what makes the `@unchecked Sendable` safe is how it is used:
///
/// - queued delivery moves the wrapper into exactly one closure, which alone reads and
///   invokes it;
/// - a `MessageSnapshot` only reads it after construction, and no `Invocation` getter
///   writes.
struct DetachedInvocation: @unchecked Sendable {
  /// The copy.
  let invocation: Invocation

  /// Copies `invocation` (the caller's instance is not captured).
  init(copying invocation: Invocation) {
    self.invocation = invocation.copy()
  }
}
