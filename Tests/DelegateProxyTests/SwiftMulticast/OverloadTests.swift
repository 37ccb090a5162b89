import DelegateProxy
import DelegateProxyTestSupport
import DelegateProxyTesting
import MessageRuntime
import Testing

/// A protocol overloading a requirement by its parameter's type only, each overload named
/// (`@Handle`, `@Selector`): two that would share a name are a compile-time error.
@Delegate(cFace: true)
protocol ScaleDelegate: AnyObject {
  @Handle("weighInt64") @Selector("weighInt64:") func weigh(_ value: Int64) -> Int64
  @Handle("weighDouble") @Selector("weighDouble:") func weigh(_ value: Double) -> Double
  @Handle("weighOptionalArrayString") @Selector("weighOptionalArrayString:") func weigh(
    _ value: [String]?
  ) -> Int
}

/// Logs each overload it receives and answers its value times its factor.
final class Scale: ScaleDelegate, @unchecked Sendable {
  // @unchecked Sendable: its properties are immutable; CallLog is Sendable.
  let name: String
  let factor: Int64
  let log: CallLog
  init(_ name: String, factor: Int64, log: CallLog) {
    self.name = name
    self.factor = factor
    self.log = log
  }
  func weigh(_ value: Int64) -> Int64 {
    log.append("\(name) Int64 \(value)")
    return value * factor
  }
  func weigh(_ value: Double) -> Double {
    log.append("\(name) Double \(value)")
    return value * Double(factor)
  }
  func weigh(_ value: [String]?) -> Int {
    log.append("\(name) [String]? \(value ?? [])")
    return (value?.count ?? -1) * Int(factor)
  }
}

/// A protocol refining an overloaded one, with overloads of its own.
@Delegate(cFace: true)
protocol TaringScaleDelegate: ScaleDelegate {
  @Handle("tareInt64") @Selector("tareInt64:") func tare(_ value: Int64)
  @Handle("tareDouble") @Selector("tareDouble:") func tare(_ value: Double)
}

/// A `Scale` that also logs each tare.
final class TaringScale: TaringScaleDelegate, @unchecked Sendable {
  // @unchecked Sendable: its one property is immutable and Sendable.
  let scale: Scale
  init(_ scale: Scale) { self.scale = scale }
  func weigh(_ value: Int64) -> Int64 { scale.weigh(value) }
  func weigh(_ value: Double) -> Double { scale.weigh(value) }
  func weigh(_ value: [String]?) -> Int { scale.weigh(value) }
  func tare(_ value: Int64) { scale.log.append("\(scale.name) tare Int64 \(value)") }
  func tare(_ value: Double) { scale.log.append("\(scale.name) tare Double \(value)") }
}

/// The same overloads on the main actor: C callers reach them through frames.
@MainActor
@Delegate(cFace: true)
protocol DialDelegate: AnyObject {
  @Handle("turnInt64") @Selector("turnInt64:") func turn(_ value: Int64) -> Int64
  @Handle("turnDouble") @Selector("turnDouble:") func turn(_ value: Double) -> Double
}

@MainActor
final class Dial: DialDelegate {
  var turns: [String] = []
  func turn(_ value: Int64) -> Int64 {
    turns.append("Int64 \(value)")
    return value + 1
  }
  func turn(_ value: Double) -> Double {
    turns.append("Double \(value)")
    return value / 2
  }
}

/// A protocol that is not class-bound: its multicast is a struct.
@Delegate(cFace: true)
protocol CounterOverloads {
  @Handle("countInt") @Selector("countInt:") func count(_ value: Int) -> Int
  @Handle("countString") @Selector("countString:") func count(_ value: String) -> Int
}

struct OverloadTally: CounterOverloads {
  let offset: Int
  func count(_ value: Int) -> Int { value + offset }
  func count(_ value: String) -> Int { value.count + offset }
}

@Suite("Requirements overloaded by parameter type")
struct OverloadTests {
  @Test func eachOverloadHasItsOwnHandleAndSelector() throws {
    let proxy = ScaleDelegateMulticast()
    #expect(proxy.runtime.selector(for: \.weighInt64).name == "weighInt64:")
    #expect(proxy.runtime.selector(for: \.weighDouble).name == "weighDouble:")
    #expect(
      proxy.runtime.selector(for: \.weighOptionalArrayString).name == "weighOptionalArrayString:")
    let methods = ScaleDelegateMulticast.__delegateProtocol.methods
    #expect(methods.map(\.swiftName) == ["weigh(_:)", "weigh(_:)", "weigh(_:)"])
    #expect(Set(methods.map(\.selector.name)).count == 3)
  }

  @Test func bothOverloadsReachEveryMemberInOrder() {
    let log = CallLog()
    let (a, b) = (Scale("a", factor: 2, log: log), Scale("b", factor: 3, log: log))
    let proxy = ScaleDelegateMulticast()
    proxy.add(a)
    proxy.add(b)
    #expect(proxy.weigh(Int64(5)) == 15)
    #expect(proxy.weigh(0.5) == 1.5)
    #expect(proxy.weigh(["x", "y"]) == 6)
    #expect(proxy.weigh(nil as [String]?) == -3)
    #expect(
      log.entries == [
        "a Int64 5", "b Int64 5", "a Double 0.5", "b Double 0.5", "a [String]? [\"x\", \"y\"]",
        "b [String]? [\"x\", \"y\"]", "a [String]? []", "b [String]? []",
      ])
    withExtendedLifetime((a, b)) {}
  }

  @Test func policiesAndObserversArePerOverload() {
    let log = CallLog()
    let (a, b) = (Scale("a", factor: 2, log: log), Scale("b", factor: 3, log: log))
    let proxy = ScaleDelegateMulticast()
    proxy.add(a)
    proxy.add(b)
    proxy.setPolicy(.firstResponder, for: \.weighInt64)
    proxy.setPolicy(.reduce(.fold(initial: 0.0, +)), for: \.weighDouble)
    let heard = CallLog()
    let token = proxy.observe(\.weighDouble) { value in heard.append("heard \(value)") }
    #expect(proxy.weigh(Int64(5)) == 10)  // the first responder's answer
    #expect(proxy.weigh(1.0) == 5.0)  // 2.0 + 3.0
    #expect(proxy.weigh(["x"]) == 3)  // the default: the last responder's
    #expect(heard.entries == ["heard 1.0"])
    withExtendedLifetime((a, b, token)) {}
  }

  @Test func cCallersReachEachOverloadThroughItsOwnFunction() throws {
    let log = CallLog()
    let (a, b) = (Scale("a", factor: 2, log: log), Scale("b", factor: 3, log: log))
    let proxy = ScaleDelegateMulticast()
    proxy.add(a)
    proxy.add(b)
    proxy.setPolicy(.firstResponder, for: \.weighDouble)
    let object = UnsafeMutableRawPointer(try proxy.runtime.rawValue())
    let integer = try proxy.runtime.imp(for: \.weighInt64)
    let floating = try proxy.runtime.imp(for: \.weighDouble)
    #expect(integer != floating)
    typealias WeighInt64 =
      @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int64
      ) -> Int64
    typealias WeighDouble =
      @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Double
      ) -> Double
    let answeredInteger = unsafeBitCast(integer.rawValue, to: WeighInt64.self)(
      object, UnsafeMutableRawPointer(proxy.runtime.selector(for: \.weighInt64).rawValue), 7)
    let answeredDouble = unsafeBitCast(floating.rawValue, to: WeighDouble.self)(
      object, UnsafeMutableRawPointer(proxy.runtime.selector(for: \.weighDouble).rawValue), 0.25)
    #expect(answeredInteger == 21)
    #expect(answeredDouble == 0.5)
    // `weighDouble`'s policy, the first responder, stops at the first member.
    #expect(log.entries == ["a Int64 7", "b Int64 7", "a Double 0.25"])
    withExtendedLifetime((a, b)) {}
  }

  @MainActor
  @Test func cCallersReachMainActorOverloadsThroughFrames() throws {
    let dial = Dial()
    let proxy = DialDelegateMulticast()
    proxy.add(dial)
    let object = UnsafeMutableRawPointer(try proxy.runtime.rawValue())
    typealias TurnInt64 =
      @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int64
      ) -> Int64
    typealias TurnDouble =
      @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Double
      ) -> Double
    let integer = unsafeBitCast(
      try proxy.runtime.imp(for: \.turnInt64).rawValue, to: TurnInt64.self)(
        object, UnsafeMutableRawPointer(proxy.runtime.selector(for: \.turnInt64).rawValue), 4)
    let floating = unsafeBitCast(
      try proxy.runtime.imp(for: \.turnDouble).rawValue, to: TurnDouble.self)(
        object, UnsafeMutableRawPointer(proxy.runtime.selector(for: \.turnDouble).rawValue), 3)
    #expect(integer == 5)
    #expect(floating == 1.5)
    #expect(dial.turns == ["Int64 4", "Double 3.0"])
  }

  @Test func aDoubleIsStubbedAndVerifiedPerOverload() throws {
    let double = try SwiftDelegateDouble(ScaleDelegateMulticast.self)
    double.stub(\.weighDouble) { value in value * 4 }
    let delegate = double.delegate
    #expect(delegate.weigh(0.5) == 2.0)
    #expect(delegate.weigh(Int64(9)) == 0)  // not stubbed: a nice double answers zero
    double.verify(\.weighInt64, called: .once) { value in value == 9 }
    double.verify(\.weighDouble, called: .once) { value in value == 0.5 }
    double.verifyNever(\.weighOptionalArrayString)
    // As a member of a multicast, beside a Swift delegate.
    let log = CallLog()
    let scale = Scale("s", factor: 2, log: log)
    let proxy = ScaleDelegateMulticast()
    proxy.add(scale)
    proxy.add(delegate, retention: .strong)
    #expect(proxy.weigh(1.0) == 4.0)
    #expect(log.entries == ["s Double 1.0"])
    double.verify(\.weighDouble, called: .exactly(2))
    withExtendedLifetime(scale) {}
  }

  @Test func aRefiningProtocolInheritsOverloadsAndAddsItsOwn() throws {
    let log = CallLog()
    let a = TaringScale(Scale("a", factor: 2, log: log))
    let proxy = TaringScaleDelegateMulticast()
    proxy.add(a)
    proxy.tare(Int64(1))
    proxy.tare(2.5)
    #expect(proxy.weigh(Int64(3)) == 6)
    proxy.setPolicy(.reduce(.fold(initial: 1.0, +)), for: \.weighDouble)
    #expect(proxy.weigh(1.5) == 4.0)
    let object = UnsafeMutableRawPointer(try proxy.runtime.rawValue())
    typealias Tare =
      @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Double)
      -> Void
    unsafeBitCast(try proxy.runtime.imp(for: \.tareDouble).rawValue, to: Tare.self)(
      object, UnsafeMutableRawPointer(proxy.runtime.selector(for: \.tareDouble).rawValue), 0.5)
    #expect(
      log.entries == [
        "a tare Int64 1", "a tare Double 2.5", "a Int64 3", "a Double 1.5", "a tare Double 0.5",
      ])
    withExtendedLifetime(a) {}
  }

  @Test func anInjectedDelegateHearsEachOverloadAndThePrimaryAnswers() {
    final class Weigher {
      var delegate: (any ScaleDelegate)?
    }
    let log = CallLog()
    let (primary, plugin) = (Scale("p", factor: 2, log: log), Scale("x", factor: 5, log: log))
    let weigher = Weigher()
    weigher.delegate = primary
    let injection = ScaleDelegateMulticast.inject(plugin, into: weigher, at: \.delegate)
    #expect(weigher.delegate?.weigh(Int64(3)) == 6)
    #expect(weigher.delegate?.weigh(0.5) == 1.0)
    #expect(log.entries == ["p Int64 3", "x Int64 3", "p Double 0.5", "x Double 0.5"])
    withExtendedLifetime((primary, plugin, injection)) {}
  }

  @Test func aValueMulticastSendsEachOverload() {
    var tallies = CounterOverloadsMulticast()
    tallies.add(OverloadTally(offset: 1))
    tallies.add(OverloadTally(offset: 10))
    tallies.setPolicy(.firstResponder, for: \.countString)
    #expect(tallies.count(5) == 15)  // the last responder's
    #expect(tallies.count("abc") == 4)  // the first responder's
  }
}
