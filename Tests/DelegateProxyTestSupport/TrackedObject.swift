import MessageRuntime
import Synchronization

/// Counts how many ``TrackedObject``s a test made and how many were deallocated.
package final class Lifetimes: Sendable {
  private let made = Atomic<Int>(0)
  private let freed = Atomic<Int>(0)

  /// No object yet.
  package init() {}

  /// Records a new object; returns its number (from 1).
  func born() -> Int { made.wrappingAdd(1, ordering: .relaxed).newValue }
  /// Records a deinit.
  func died() { freed.wrappingAdd(1, ordering: .relaxed) }

  /// Objects made so far.
  package var created: Int { made.load(ordering: .relaxed) }
  /// Objects made and not yet deallocated.
  package var alive: Int { created - freed.load(ordering: .relaxed) }
}

/// A runtime object a method makes and returns (a factory's product, a data source's
/// cell): numbered from 1 per ``Lifetimes``, it answers ``tag`` with its number and
/// reports its deinit.
// @unchecked Sendable: its own state is two `let`s of Sendable types.
package final class TrackedObject: RuntimeObject, @unchecked Sendable {
  /// `tag` (q@:): the object's number.
  package static let tag = Message<Int>("tag")
  /// This object's number.
  package let number: Int
  private let lifetimes: Lifetimes

  /// A new object of `cls` (a class made with ``makeClass(_:)``), counted by `lifetimes`.
  package init(class cls: RuntimeClass, lifetimes: Lifetimes) {
    self.lifetimes = lifetimes
    number = lifetimes.born()
    super.init(class: cls)
  }

  deinit { lifetimes.died() }

  /// A class whose instances answer ``tag``.
  package static func makeClass(_ name: String) throws -> RuntimeClass {
    let cls = try RuntimeClass(name: name)
    try cls.addMethod(tag) { receiver in (receiver as? TrackedObject)?.number ?? -1 }
    return cls
  }
}
