import DelegateProxyCTestSupport
import DelegateProxyTestSupport
import Testing

@testable import MessageRuntime

/// Forwarded selectors cached until the class changes, as Objective-C runtimes do: a
/// lookup that finds no method caches that verdict in the class (Apple caches
/// `_objc_msgForward_impcache` for the selector in the class's method cache, flushed by
/// `class_addMethod`, `class_replaceMethod`, `method_exchangeImplementations` and a
/// superclass's changes), so the next message forwards without searching the class chain
/// again — and a method added later is found at once.
@Suite("Forwarded selector cache") struct ForwardedSelectorCacheTests {
  let add = Message<Int, Int, Double>("add:to:")

  func calculator() throws -> RuntimeObject {
    let cls = try RuntimeClass(name: uniqueClassName("Calculator"))
    try cls.addMethod(add) { _, a, b in a + Int(b) }
    return RuntimeObject(class: cls)
  }

  @Test func forwardedSelectorsAreCachedUntilTheClassChanges() throws {
    let base = try RuntimeClass(name: uniqueClassName("ProxyBase"))
    let cls = try RuntimeClass(name: uniqueClassName("Proxy"), superclass: base)
    let proxy = RelayProxy(target: try calculator(), proxyClass: cls)
    let other = RelayProxy(target: try calculator(), proxyClass: cls)
    let forwarding = try Runtime.forwardingIMP(for: add.signature)
    #expect(!cls.isKnownForwarded(add.selector))
    #expect(Runtime.lookup(proxy, add.selector) == forwarding)
    #expect(cls.isKnownForwarded(add.selector))
    // Cached per class: another instance, a C send and a Swift send all forward.
    #expect(Runtime.lookup(other, add.selector) == forwarding)
    #expect(dp_test_c_send_add(proxy.rawValue, add.selector.rawValue, 1, 2) == 3)
    #expect(try add.send(to: other, 2, 2) == 4)

    // Adding a method to a superclass changes the class: the method is found at once.
    try base.addMethod(add) { _, a, b in 100 + a + Int(b) }
    #expect(!cls.isKnownForwarded(add.selector))
    #expect(dp_test_c_send_add(proxy.rawValue, add.selector.rawValue, 1, 2) == 103)
    #expect(try add.send(to: other, 1, 2) == 103)

    // Removing it: forwarded (and cached) again.
    base.removeMethod(add.selector)
    #expect(Runtime.lookup(proxy, add.selector) == forwarding)
    #expect(cls.isKnownForwarded(add.selector))
    #expect(dp_test_c_send_add(proxy.rawValue, add.selector.rawValue, 1, 2) == 3)

    // Replacing (class_replaceMethod adds when absent) on the class itself.
    try cls.replaceMethod(add.selector, signature: add.signature) { inv in
      try? inv.setReturnValue(7)
    }
    #expect(!cls.isKnownForwarded(add.selector))
    #expect(dp_test_c_send_add(proxy.rawValue, add.selector.rawValue, 1, 2) == 7)
    #expect(proxy.forwardedCount.withLock { $0 } == 2)  // only the forwarded sends above
  }

  /// The verdict is the class's: an object's own method (checked first, as an object's
  /// own table is) is not hidden by it, and other classes are not affected.
  @Test func anObjectsOwnMethodIsNotHiddenByItsClassesForwardedVerdict() throws {
    let cls = try RuntimeClass(name: uniqueClassName("Proxy"))
    let proxy = RelayProxy(target: try calculator(), proxyClass: cls)
    #expect(dp_test_c_send_add(proxy.rawValue, add.selector.rawValue, 1, 2) == 3)
    #expect(cls.isKnownForwarded(add.selector))
    try proxy.setMethod(add.selector, signature: add.signature) { inv in
      try? inv.setReturnValue(9)
    }
    #expect(dp_test_c_send_add(proxy.rawValue, add.selector.rawValue, 1, 2) == 9)
    #expect(try add.send(to: proxy, 1, 2) == 9)
  }
}
