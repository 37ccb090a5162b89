import DelegateProxy
import DelegateProxyTestSupport
import MessageRuntime
import Testing

@Delegate
protocol TickDelegate: AnyObject {
  func tick(_ n: Int)
}

/// A protocol structs may conform to: its multicast holds members as `[any ReadingMeter]` would.
@Delegate
protocol ReadingMeter {
  func measure(_ n: Int)
}

/// The same shape with a class multicast.
@Delegate(semantics: .reference)
protocol ReadingGauge {
  func read(_ n: Int)
}

private final class Ticker: TickDelegate {
  var heard: [Int] = []
  func tick(_ n: Int) { heard.append(n) }
}

private final class ClassMeter: ReadingMeter {
  let log: CallLog
  init(_ log: CallLog) { self.log = log }
  func measure(_ n: Int) { log.append("class \(n)") }
}

private struct ValueMeter: ReadingMeter, Equatable {
  let name: String
  func measure(_ n: Int) {}
}

/// #34 item 4: one membership per object unless asked, and a class conformer of a
/// protocol that is not class-bound held as `[any P]` holds it.
@Suite("Membership a Swift user expects: one per object, held as the protocol's array would")
struct MembershipDefaultsTests {
  @Test("Adding an object that is already a member does nothing and says so")
  func addingTwiceKeepsOneMembership() {
    let multicast = TickDelegateMulticast()
    let t = Ticker()
    let first = multicast.add(t)
    let second = multicast.add(t)
    #expect(first.isNew)
    #expect(!second.isNew)
    #expect(first == second)
    #expect(multicast.count == 1)
    multicast.tick(1)
    #expect(t.heard == [1])
    multicast.remove(t)
    multicast.tick(2)
    #expect(t.heard == [1])
  }

  @Test("With .allowsDuplicates each addition is a membership, and remove drops them all")
  func duplicatesOnRequest() {
    let multicast = TickDelegateMulticast(options: .allowsDuplicates)
    let t = Ticker()
    let first = multicast.add(t)
    let second = multicast.add(t)
    #expect(first.isNew && second.isNew)
    #expect(first != second)
    multicast.tick(1)
    #expect(t.heard == [1, 1])
    multicast.remove(t)
    #expect(multicast.count == 0)
  }

  @Test("Equal values stay two members unless .unique is asked for")
  func valuesHaveNoIdentity() {
    var meters = ReadingMeterMulticast()
    meters.add(ValueMeter(name: "a"))
    meters.add(ValueMeter(name: "a"))
    #expect(meters.count == 2)
    var unique = ReadingMeterMulticast(policy: .lastResponder, options: .unique)
    #expect(unique.add(ValueMeter(name: "a")).isNew)
    let again = unique.add(ValueMeter(name: "a"))
    #expect(!again.isNew)
    #expect(unique.count == 1)
  }

  @Test("The default retention follows the protocol: weak when class-bound, strong otherwise")
  func defaultRetention() {
    #expect(TickDelegateMulticast.defaultRetention == .weak)
    #expect(ReadingGaugeMulticast.defaultRetention == .strong)
  }

  @Test("A class conformer of a protocol structs may conform to lives while the multicast holds it")
  func classConformerOfAValueProtocolIsHeldStrongly() {
    let log = CallLog()
    var meters = ReadingMeterMulticast()
    weak var weakHeld: ClassMeter?
    weak var strongHeld: ClassMeter?
    do {
      let kept = ClassMeter(log)
      strongHeld = kept
      meters.add(kept)
      let dropped = ClassMeter(log)
      weakHeld = dropped
      meters.add(dropped, retention: .weak)
    }
    #expect(strongHeld != nil)
    #expect(weakHeld == nil)
    meters.measure(3)
    #expect(log.entries == ["class 3"])
  }

  @Test("A class-bound protocol's members are held weakly, as delegates are")
  func classBoundMembersAreWeak() {
    let multicast = TickDelegateMulticast()
    weak var gone: Ticker?
    do {
      let t = Ticker()
      gone = t
      multicast.add(t)
    }
    #expect(gone == nil)
    #expect(multicast.count == 0)
  }

  @Test("MulticastProxy keeps every addition (AIMultiDelegate) unless .unique")
  func multicastProxyStance() throws {
    let cls = try RuntimeClass(name: "MembershipDefaultsTests.Member")
    let d = RuntimeObject(class: cls)
    let plain = MulticastProxy()
    try plain.add(d)
    try plain.add(d)
    #expect(plain.count == 2)
    let unique = MulticastProxy(options: .unique)
    try unique.add(d)
    try unique.add(d)
    #expect(unique.count == 1)
  }
}
