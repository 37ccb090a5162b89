import DelegateProxyTestSupport
import Dispatch
import Testing

@testable import MessageRuntime

@Suite("Invocation") struct InvocationTests {
  let mixed = Message<Double, Int8, UInt16, Int32, Float, Bool, Selector>("c:s:i:f:b:sel:")

  @Test func typedAccessChecksTypeAndIndex() throws {
    let inv = Invocation(signature: mixed.signature, selector: mixed.selector)
    try inv.setArgument(Int8(-5), at: 0)
    try inv.setArgument(UInt16(65000), at: 1)
    try inv.setArgument(Int32.min, at: 2)
    try inv.setArgument(Float(1.25), at: 3)
    try inv.setArgument(true, at: 4)
    try inv.setArgument(Selector("hello:"), at: 5)
    #expect(try inv.argument(at: 0, as: Int8.self) == -5)
    #expect(try inv.argument(at: 1, as: UInt16.self) == 65000)
    #expect(try inv.argument(at: 2, as: Int32.self) == .min)
    #expect(try inv.argument(at: 3, as: Float.self) == 1.25)
    #expect(try inv.argument(at: 4, as: Bool.self))
    #expect(try inv.argument(at: 5, as: Selector.self) == "hello:")
    #expect(inv.selector == mixed.selector)
    #expect(inv.argumentCount == 6)  // the message's own arguments: self and _cmd are not counted
    #expect(throws: RuntimeError.typeMismatch(position: 0, expected: "c", found: "q")) {
      try inv.setArgument(5, at: 0)
    }
    #expect(
      throws: RuntimeError.argumentIndexOutOfRange(index: 6, count: 6, signature: "d@:cSifB:")
    ) {
      try inv.argument(at: 6, as: Int.self)
    }
    #expect(
      throws: RuntimeError.argumentIndexOutOfRange(index: -1, count: 6, signature: "d@:cSifB:")
    ) {
      try inv.argument(at: -1, as: Int.self)
    }
    #expect(throws: RuntimeError.typeMismatch(position: -1, expected: "d", found: "f")) {
      try inv.setReturnValue(Float(1))
    }
    #expect(throws: RuntimeError.self) { try inv.setArgumentBytes([1, 2, 3], at: 2) }
    try inv.setArgumentBytes([1, 0, 0, 0], at: 2)
    #expect(try inv.argument(at: 2, as: Int32.self) == 1)
  }

  @Test func invokeOnTargetWithClosureMethod() throws {
    let cls = try RuntimeClass(name: uniqueClassName())
    try cls.addMethod(mixed) { _, c, s, i, f, b, sel -> Double in
      let integers = Double(c) + Double(s) + Double(i)
      let rest: Double = Double(f) + (b ? 1000 : 0) + Double(sel.argumentCount)
      return integers + rest
    }
    let target = RuntimeObject(class: cls)
    let inv = Invocation(signature: mixed.signature, selector: mixed.selector)
    try inv.setArgument(Int8(1), at: 0)
    try inv.setArgument(UInt16(2), at: 1)
    try inv.setArgument(Int32(3), at: 2)
    try inv.setArgument(Float(0.5), at: 3)
    try inv.setArgument(true, at: 4)
    try inv.setArgument(Selector("a:b:"), at: 5)
    try inv.invoke(target: target)
    #expect(try inv.returnValue(as: Double.self) == 1008.5)
    #expect(inv.target === target)
    #expect(inv.description.contains("c:s:i:f:b:sel:"))
  }

  @Test func retainArgumentsKeepsObjectsAndCopiesCStrings() throws {
    let message = Message<Void, RuntimeObject?, UnsafePointer<CChar>?>("take:name:")
    let inv = Invocation(signature: message.signature, selector: message.selector)
    weak var weakArgument: RuntimeObject?
    let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: 6)
    defer { buffer.deallocate() }
    "hello".withCString { buffer.initialize(from: $0, count: 6) }
    do {
      let argument = RuntimeObject()
      weakArgument = argument
      try inv.setArgument(argument as RuntimeObject?, at: 0)
      try inv.setArgument(UnsafePointer(buffer) as UnsafePointer<CChar>?, at: 1)
      inv.retainArguments()
      #expect(inv.argumentsRetained)
    }
    #expect(weakArgument != nil)  // retained by the invocation
    buffer[0] = CChar(UInt8(ascii: "J"))
    let copied = try #require(try inv.argument(at: 1, as: UnsafePointer<CChar>?.self))
    #expect(String(cString: copied) == "hello")
    #expect(copied != UnsafePointer(buffer))
    // Arguments set after retaining are retained too.
    do {
      let later = RuntimeObject()
      weakArgument = later
      try inv.setArgument(later as RuntimeObject?, at: 0)
    }
    #expect(weakArgument != nil)
  }

  @Test func copyRunsOnAnotherThread() async throws {
    let cls = try RuntimeClass(name: uniqueClassName())
    let add = Message<Int, Int, Double>("add:to:")
    try cls.addMethod(add) { _, a, b in a + Int(b) }
    let target = RuntimeObject(class: cls)
    let inv = Invocation(signature: add.signature, selector: add.selector)
    try inv.setArgument(40, at: 0)
    try inv.setArgument(2.0, at: 1)
    inv.target = target
    let copy = inv.copy()
    try inv.setArgument(0, at: 0)  // the copy is independent
    // Invocation is not Sendable: the copy is handed over as the only reference (a
    // `sending` closure; the compiler checks nothing here uses it afterwards).
    let result: Int = try await Task.detached {
      try copy.invoke()
      return try copy.returnValue(as: Int.self)
    }.value
    #expect(result == 42)
    #expect(try inv.argument(at: 0, as: Int.self) == 0)
  }

  @Test func incompleteInvocationIsATypedError() throws {
    let sig = try MethodSignature.parse("v@:")
    let inv = Invocation(signature: sig)
    #expect(throws: RuntimeError.invocationIncomplete("the target is nil")) { try inv.invoke() }
    weak var weakTarget: RuntimeObject?
    do {
      let target = RuntimeObject()
      weakTarget = target
      inv.target = target
    }
    #expect(weakTarget != nil)  // the invocation keeps its target alive
    #expect(throws: RuntimeError.invocationIncomplete("the selector is not set")) {
      try inv.invoke()
    }
    inv.selector = "nothingHere"
    #expect(throws: RuntimeError.unrecognizedSelector(className: "Object", selector: "nothingHere"))
    {
      try inv.invoke()
    }
  }
}
