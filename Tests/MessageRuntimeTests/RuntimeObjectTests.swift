import DelegateProxyTestSupport
import Testing

@testable import MessageRuntime

@Suite("Objects and handles") struct RuntimeObjectTests {
  let value = Message<Int>("value")

  @Test func handleFirstWordIsTheClassAndPointsBack() throws {
    let cls = try RuntimeClass(name: uniqueClassName())
    let obj = RuntimeObject(class: cls)
    let firstWord = UnsafeRawPointer(obj.rawValue).load(as: OpaquePointer.self)
    #expect(firstWord == cls.rawValue)
    #expect(RuntimeObject.object(rawValue: obj.rawValue) === obj)
  }

  @Test func weakReferencesZeroWhenTheObjectDies() throws {
    weak var weakObject: RuntimeObject?
    weak var weakClass: RuntimeClass?
    do {
      let cls = try RuntimeClass(name: uniqueClassName())
      let obj = RuntimeObject(class: cls)
      weakObject = obj
      weakClass = cls
      #expect(weakObject != nil)
    }
    #expect(weakObject == nil)
    #expect(weakClass == nil)  // an object kept its class alive, no longer
  }

  @Test func ownMethodsComeBeforeTheClass() throws {
    let cls = try RuntimeClass(name: uniqueClassName())
    try cls.addMethod(value) { _ in 1 }
    let a = RuntimeObject(class: cls)
    let b = RuntimeObject(class: cls)
    try a.setMethod(value) { _ in 2 }
    #expect(try value.send(to: a) == 2)
    #expect(try value.send(to: b) == 1)  // only a has it
    a.removeMethod(value.selector)
    #expect(try value.send(to: a) == 1)
  }

  @Test func dynamicDelegateAssembledFromClosures() throws {
    let proto = try RuntimeProtocol(
      name: uniqueClassName("ListDelegate"),
      required: ["list:didSelect:": "v@:@q"], optional: ["list:heightFor:": "d@:@q"])
    let selected = Message<Void, RuntimeObject?, Int>("list:didSelect:")
    let height = Message<Double, RuntimeObject?, Int>("list:heightFor:")
    let log = CallLog()
    let delegate = RuntimeObject()
    delegate.addProtocol(proto)
    try delegate.setMethod(selected) { _, _, row in log.append("selected \(row)") }
    #expect(delegate.conforms(to: proto))
    #expect(delegate.responds(to: selected.selector))
    #expect(!delegate.responds(to: height.selector))
    try selected.send(to: delegate, nil, 4)
    #expect(log.entries == ["selected 4"])
    try delegate.setMethod(height) { _, _, row in Double(row) * 1.5 }
    #expect(try height.send(to: delegate, nil, 2) == 3)
  }

  @Test func perObjectClosuresAreFreedWithTheObject() throws {
    weak var closure: ClosureIMP?
    do {
      let obj = RuntimeObject()
      try obj.setMethod(value) { _ in 7 }
      closure = obj.ownMethods.first?.closure
      #expect(try value.send(to: obj) == 7)
      #expect(closure != nil)
    }
    #expect(closure == nil)
  }
}
