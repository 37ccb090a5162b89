import MessageRuntime

/// A weak reference to a runtime object, stored in a `let`.
// @unchecked Sendable: `object` is written only in init; loading a weak reference is
// atomic, and RuntimeObject is Sendable.
struct WeakObject: @unchecked Sendable {
  weak var object: RuntimeObject?
  init(_ object: RuntimeObject?) { self.object = object }
}
