import MessageRuntime
import Testing

@testable import DelegateProxy

/// Two delegates implementing one selector with different encodings are reported when
/// added — not as memory corruption when called.
@Suite("Signature conflicts") struct SignatureConflictTests {
  let asInt = Message<Int>("value")
  let asDouble = Message<Double>("value")

  @Test func addingAConflictingDelegateThrowsAndChangesNothing() throws {
    let intClass = try RuntimeClass(name: uniqueClassName("IntValue"))
    try intClass.addMethod(asInt) { _ in 1 }
    let doubleClass = try RuntimeClass(name: uniqueClassName("DoubleValue"))
    try doubleClass.addMethod(asDouble) { _ in 2.5 }
    let proxy = MulticastProxy()
    let a = Named(intClass, "a")
    let b = Named(doubleClass, "b")
    try proxy.add(a)
    let g = proxy.generation
    #expect(
      throws: DelegateProxyError.signatureConflict(
        selector: "value", existingEncoding: "q@:", existingOwner: intClass.name,
        newEncoding: "d@:",
        newClass: doubleClass.name)
    ) { try proxy.add(b) }
    #expect(throws: DelegateProxyError.self) { try proxy.insert(b, before: a) }
    #expect(throws: DelegateProxyError.self) { try MulticastProxy(delegates: [a, b]) }
    #expect(proxy.count == 1)
    #expect(proxy.generation == g)
    #expect(try asInt.send(to: proxy) == 1)

    // Once the first is gone, the other signature is welcome.
    proxy.remove(a)
    try proxy.add(b)
    #expect(try asDouble.send(to: proxy) == 2.5)
  }

  @Test func sameEncodingIsFine() throws {
    let one = try RuntimeClass(name: uniqueClassName("One"))
    try one.addMethod(asInt) { _ in 1 }
    let two = try RuntimeClass(name: uniqueClassName("Two"))
    try two.addMethod(asInt) { _ in 2 }
    let proxy = try MulticastProxy(
      delegates: [Named(one, "1"), Named(two, "2")], retention: .strong)
    #expect(try asInt.send(to: proxy) == 2)
  }

  @Test func aDelegateThatDisagreesWithTheProtocol() throws {
    let proto = try RuntimeProtocol(
      name: uniqueClassName("ValueSource"), optional: ["value": "q@:"])
    let doubleClass = try RuntimeClass(name: uniqueClassName("DoubleValue"))
    try doubleClass.addMethod(asDouble) { _ in 2.5 }
    let proxy = MulticastProxy(protocol: proto)
    let d = Named(doubleClass, "d")
    #expect(throws: DelegateProxyError.self) { try proxy.add(d) }
    let free = MulticastProxy()
    try free.add(d)
    #expect(throws: DelegateProxyError.self) { try free.setProtocol(proto) }
    #expect(throws: DelegateProxyError.self) { try free.declare(asInt) }
    #expect(free.declaredProtocol == nil)
  }

  @Test func aMethodAddedLaterThatConflictsIsCaughtOnReload() throws {
    let intClass = try RuntimeClass(name: uniqueClassName("IntValue"))
    try intClass.addMethod(asInt) { _ in 1 }
    let lateClass = try RuntimeClass(name: uniqueClassName("Late"))
    let proxy = MulticastProxy()
    let a = Named(intClass, "a")
    let late = Named(lateClass, "late")
    try proxy.add(a)
    try proxy.add(late)
    try late.setMethod(asDouble) { _ in 9 }
    #expect(throws: DelegateProxyError.self) { try proxy.reloadMethods() }
    #expect(try asInt.send(to: proxy) == 1)  // unchanged: late is still not a responder
  }
}
