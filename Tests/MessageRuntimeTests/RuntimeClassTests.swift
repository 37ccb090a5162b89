import DelegateProxyCTestSupport
import DelegateProxyTestSupport
import Testing

@testable import MessageRuntime

@Suite("Classes and method tables") struct RuntimeClassTests {
  let value = Message<Int>("value")
  let add = Message<Int, Int, Double>("add:to:")

  @Test func addFailsIfPresentReplaceReturnsOld() throws {
    let cls = try RuntimeClass(name: uniqueClassName())
    try cls.addMethod(value) { _ in 1 }
    #expect(throws: RuntimeError.methodAlreadyExists(className: cls.name, selector: value.selector))
    {
      try cls.addMethod(value) { _ in 2 }
    }
    let obj = RuntimeObject(class: cls)
    #expect(try value.send(to: obj) == 1)
    let old = try cls.replaceMethod(value) { _ in 3 }
    #expect(old?.selector == value.selector)
    #expect(try value.send(to: obj) == 3)  // the cache was flushed
  }

  @Test func lookupThroughSuperclassChainAndOverride() throws {
    let base = try RuntimeClass(name: uniqueClassName("Base"))
    let mid = try RuntimeClass(name: uniqueClassName("Mid"), superclass: base)
    let leaf = try RuntimeClass(name: uniqueClassName("Leaf"), superclass: mid)
    try base.addMethod(value) { _ in 10 }
    let obj = RuntimeObject(class: leaf)
    #expect(try value.send(to: obj) == 10)  // inherited, now cached in leaf
    #expect(leaf.isSubclass(of: base) && !base.isSubclass(of: leaf))
    // Changing the superclass's method must reach the subclass's cache.
    try base.replaceMethod(value) { _ in 11 }
    #expect(try value.send(to: obj) == 11)
    // An override in the middle class wins; removing it shows the base again.
    try mid.addMethod(value) { _ in 20 }
    #expect(try value.send(to: obj) == 20)
    mid.removeMethod(value.selector)
    #expect(try value.send(to: obj) == 11)
  }

  @Test func registryByName() throws {
    let name = uniqueClassName()
    let cls = try RuntimeClass(name: name)
    #expect(RuntimeClass.named(name) === cls)
    #expect(throws: RuntimeError.classAlreadyExists(name: name)) { try RuntimeClass(name: name) }
    #expect(RuntimeClass.class(rawValue: cls.rawValue) === cls)
  }

  @Test func classGoesAwayWithItsClosureIMPs() throws {
    let name = uniqueClassName()
    weak var first: ClosureIMP?
    weak var second: ClosureIMP?
    do {
      let cls = try RuntimeClass(name: name)
      try cls.addMethod(value) { _ in 1 }
      try cls.addMethod(add) { _, a, b in a + Int(b) }
      first = cls.method(for: value.selector)?.closure
      second = cls.method(for: add.selector)?.closure
      #expect(first != nil && second != nil)
      #expect(try add.send(to: RuntimeObject(class: cls), 1, 2) == 3)
    }
    #expect(RuntimeClass.named(name) == nil)
    #expect(first == nil && second == nil)
  }

  @Test func replacedClosureIMPIsFreed() throws {
    let cls = try RuntimeClass(name: uniqueClassName())
    try cls.addMethod(value) { _ in 1 }
    weak let original = cls.method(for: value.selector)?.closure
    #expect(original != nil)
    try cls.replaceMethod(value) { _ in 2 }
    // Freed after a grace period (a send may still be calling it), never kept for good.
    Quiescence.waitForReclamation()
    #expect(original == nil)
    weak let replacement = cls.method(for: value.selector)?.closure
    cls.removeMethod(value.selector)
    Quiescence.waitForReclamation()
    #expect(replacement == nil)
  }

  @Test func cCodeAddsMethodsAndSends() throws {
    let name = uniqueClassName()
    let cls = try RuntimeClass(name: name)
    #expect(dp_test_c_add_multiply(name))
    #expect(!dp_test_c_add_multiply(name))  // already present
    let obj = RuntimeObject(class: cls)
    let multiply = Message<Int, Int, Int>("multiply:by:")
    #expect(try multiply.send(to: obj, 6, 7) == 42)
    #expect(obj.responds(to: multiply.selector))
    #expect(dp_test_c_responds(obj.rawValue, "multiply:by:"))
    #expect(!dp_test_c_responds(obj.rawValue, "divide:by:"))
    try cls.addMethod(add) { _, a, b in a * 100 + Int(b) }
    #expect(dp_test_c_send_add(obj.rawValue, add.selector.rawValue, 3, 4) == 304)
  }

  @Test func lookupReturnsARealCFunctionPointer() throws {
    let cls = try RuntimeClass(name: uniqueClassName())
    try cls.addMethod(add) { _, a, b in a - Int(b) }
    let obj = RuntimeObject(class: cls)
    let imp = Runtime.lookup(obj, add.selector)
    typealias F = @convention(c) (OpaquePointer, OpaquePointer, Int, Double) -> Int
    #expect(imp.unsafeCast(to: F.self)(obj.rawValue, add.selector.rawValue, 10, 4) == 6)
    #expect(try obj.imp(for: add.selector) == imp)
  }

  @Test func signatureMismatchIsCaughtBeforeTheCall() throws {
    let cls = try RuntimeClass(name: uniqueClassName())
    try cls.addMethod(add) { _, a, b in a + Int(b) }
    let wrong = Message<Int, Int, Int>("add:to:")  // q@:qq against q@:qd
    #expect(
      throws: RuntimeError.signatureMismatch(
        selector: add.selector, expected: "q@:qd", found: "q@:qq")
    ) {
      try wrong.send(to: RuntimeObject(class: cls), 1, 2)
    }
  }
}
