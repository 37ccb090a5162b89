@_exported import DelegateProxyTestSupport
import Dispatch
import MessageRuntime
import Synchronization

@testable import DelegateProxy

#if canImport(Glibc)
  @_exported import Glibc
#endif

/// A thread-safe counter that can be passed around (an `Atomic` cannot).
final class Counter: Sendable {
  private let storage = Atomic<Int>(0)
  func bump() { storage.add(1, ordering: .relaxed) }
  func reset() { storage.store(0, ordering: .relaxed) }
  var value: Int { storage.load(ordering: .relaxed) }
}

/// A receiver with a name and some per-instance state, so class methods written as
/// closures can tell instances apart.
final class Named: RuntimeObject, @unchecked Sendable {
  let name: String
  let log: CallLog
  let intValue = Atomic<Int>(0)
  let boolValue = Atomic<Bool>(false)
  let counter = Atomic<Int>(0)
  /// Lets a test run code inside a delegate call.
  let action = Lock<(@Sendable (Named) -> Void)?>(nil)

  init(_ cls: RuntimeClass, _ name: String, log: CallLog = CallLog()) {
    self.name = name
    self.log = log
    super.init(class: cls)
  }

  func runAction() { action.withLock { $0 }?(self) }
}

extension RuntimeObject {
  /// The receiver as a `Named` (every delegate class in these tests makes Named objects).
  var named: Named { self as! Named }
}

/// Messages shaped like UIScrollViewDelegate's, as in AIMultiDelegate's tests.
enum ScrollMessages {
  static let didScroll = Message<Void, RuntimeObject?>("scrollViewDidScroll:")
  static let willBeginDecelerating = Message<Void, RuntimeObject?>(
    "scrollViewWillBeginDecelerating:")
  static let shouldScrollToTop = Message<Bool, RuntimeObject?>("scrollViewShouldScrollToTop:")
}

/// AIMultiDelegate's `AIScrollViewDelegate`: counts scrolls, answers `shouldScrollToTop`
/// with its `boolValue`; logs "name:selector".
func scrollDelegateClass() throws -> RuntimeClass {
  let cls = try RuntimeClass(name: uniqueClassName("AIScrollViewDelegate"))
  try cls.addMethod(ScrollMessages.didScroll) { receiver, _ in
    let me = receiver.named
    me.counter.add(1, ordering: .relaxed)
    me.log.append("\(me.name):didScroll")
    me.runAction()
  }
  try cls.addMethod(ScrollMessages.shouldScrollToTop) { receiver, _ in
    let me = receiver.named
    me.log.append("\(me.name):shouldScrollToTop")
    return me.boolValue.load(ordering: .relaxed)
  }
  return cls
}

/// Waits (with a deadline) until `condition` holds; false on timeout.
func eventually(timeout seconds: Double = 5, _ condition: () -> Bool) -> Bool {
  let deadline = DispatchTime.now() + seconds
  while DispatchTime.now() < deadline {
    if condition() { return true }
    usleep(1000)
  }
  return condition()
}

/// A queue-specific marker, to check which queue code runs on.
final class QueueMarker: Sendable {
  static let key = DispatchSpecificKey<String>()
  static func mark(_ queue: DispatchQueue) { queue.setSpecific(key: key, value: queue.label) }
  static var current: String? { DispatchQueue.getSpecific(key: key) }
}

/// The route path of a message with a struct result over 16 bytes: a replay entry on
/// x86-64, libffi elsewhere.
#if arch(x86_64)
  let memoryResultPath = RoutePath.registersAndMemory
#else
  let memoryResultPath = RoutePath.libffi
#endif
