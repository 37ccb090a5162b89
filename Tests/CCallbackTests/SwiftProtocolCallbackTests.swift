import DelegateProxy
import MessageRuntime
import Testing

/// A Swift protocol whose methods a C library calls back (context first), delivered to
/// plain Swift classes.
@Delegate(cFace: true)
protocol CounterDelegate: AnyObject {
  func counter(_ value: Int32, step: Double) -> Int32
}

final class Doubler: CounterDelegate {
  var seen: [Int32] = []
  func counter(_ value: Int32, step: Double) -> Int32 {
    seen.append(value)
    return value * 2
  }
}

@Suite("C callbacks to Swift-protocol delegates") struct SwiftProtocolCallbackTests {
  @Test func aContextFirstCallbackReachesPlainSwiftDelegatesUnderThePolicy() throws {
    let proxy = CounterDelegateMulticast()
    let a = Doubler()
    let b = Doubler()
    proxy.add(a)
    proxy.add(b)
    let adapter = try proxy.runtime.callbackAdapter(for: \.counterStep, context: .first)
    #expect(adapter.callback.encoding == "i^vid")
    typealias Callback = @convention(c) (UnsafeMutableRawPointer?, Int32, Double) -> Int32
    let callback = try adapter.function(as: Callback.self)
    #expect(callback(adapter.context, 21, 0.5) == 42)  // the last responder's answer
    #expect(a.seen == [21] && b.seen == [21])
    proxy.remove(a)
    #expect(callback(adapter.context, 5, 0.5) == 10)
    #expect(a.seen == [21] && b.seen == [21, 5])
  }
}
