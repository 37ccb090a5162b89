import DelegateProxy
import DelegateProxyTestSupport
import MessageRuntime
import Testing

/// Finding a member again by its type (swift-prometheus #86: a factory that was wrapped
/// could not be reached).
@Suite("Finding members by type")
struct MembersOfTypeTests {
  final class Loud: RecordingSensorListenerBox {}
  class RecordingSensorListenerBox: SensorDelegate {
    let name: String
    init(_ name: String) { self.name = name }
    func sensor(_ sensor: Sensor, didRead reading: Reading) {}
    func sensorShouldStart(_ sensor: Sensor) -> Bool { true }
  }

  @Test func aMulticastFindsItsMembersByClassAndByProtocol() {
    let log = CallLog()
    let plain = RecordingSensorListener("plain", log: log)
    let boxed = RecordingSensorListenerBox("box")
    let loud = Loud("loud")
    let proxy = SensorDelegateMulticast()
    proxy.add(plain)
    proxy.add(boxed)
    proxy.add(loud)
    #expect(proxy.members(ofType: RecordingSensorListenerBox.self).map(\.name) == ["box", "loud"])
    #expect(proxy.members(ofType: Loud.self).map(\.name) == ["loud"])
    #expect(proxy.first(ofType: RecordingSensorListener.self) === plain)
    #expect(proxy.members(ofType: (any SensorDelegate).self).count == 3)
    proxy.remove(boxed)
    #expect(proxy.first(ofType: RecordingSensorListenerBox.self) === loud)
    #expect(proxy.first(ofType: StoppingSensorListener.self) == nil)
  }

  @Test func theRuntimeProxyFindsItsMembersByClass() throws {
    final class Marked: RuntimeObject, @unchecked Sendable {}
    let proxy = MulticastProxy()
    let marked = Marked()
    let other = RuntimeObject()
    try proxy.add(other, retention: .strong)
    try proxy.add(marked, retention: .strong)
    #expect(proxy.first(ofType: Marked.self) === marked)
    #expect(proxy.members(ofType: Marked.self).count == 1)
    #expect(proxy.members(ofType: RuntimeObject.self).count == 2)
  }
}
