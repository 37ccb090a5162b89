import DelegateProxy
import Dispatch
import MessageRuntime
import Testing

// `inout` parameters: the secondary-delegate proxy's `targetContentOffset` out-pointer, as
// Swift spells it. Delegates run in order, each sees the value the previous one left, the
// caller sees the last.

final class ScrollSurface: Sendable {}

struct ScrollStop: Error, Equatable {
  let at: Double
}

@Delegate
protocol ScrollEvents: AnyObject {
  func scrollWillEndDragging(_ view: ScrollSurface, velocity: Double, target: inout Double)
  func scroll(_ view: ScrollSurface, title: inout String, tags: inout [String]) -> Int
  func scrollAdjust(_ view: ScrollSurface, offset: inout Double) throws
  func scrollSettle(_ view: ScrollSurface, offset: inout Double) async -> Double
  @Optional func scrollSnap(_ view: ScrollSurface, to target: inout Double)
}

/// Adds `step` to every target it sees (and records what it saw).
final class Stepper: ScrollEvents, @unchecked Sendable {
  // @unchecked Sendable: `seen` is a Lock; the rest is immutable.
  let step: Double
  let throwsAbove: Double?
  let seen = Lock<[Double]>([])
  init(step: Double, throwsAbove: Double? = nil) {
    self.step = step
    self.throwsAbove = throwsAbove
  }
  func scrollWillEndDragging(_ view: ScrollSurface, velocity: Double, target: inout Double) {
    seen.withLock { $0.append(target) }
    target += step * velocity
  }
  func scroll(_ view: ScrollSurface, title: inout String, tags: inout [String]) -> Int {
    title += "+\(Int(step))"
    tags.append("s\(Int(step))")
    return tags.count
  }
  func scrollAdjust(_ view: ScrollSurface, offset: inout Double) throws {
    seen.withLock { $0.append(offset) }
    if let limit = throwsAbove, offset > limit { throw ScrollStop(at: offset) }
    offset += step
  }
  func scrollSettle(_ view: ScrollSurface, offset: inout Double) async -> Double {
    await Task.yield()
    seen.withLock { $0.append(offset) }
    offset += step
    return offset
  }
}

/// Doubles every target; implements the optional snap.
final class Doubler: ScrollEvents, @unchecked Sendable {
  // @unchecked Sendable: no state of its own but a Lock.
  let snapped = Lock(0)
  func scrollWillEndDragging(_ view: ScrollSurface, velocity: Double, target: inout Double) {
    target *= 2
  }
  func scroll(_ view: ScrollSurface, title: inout String, tags: inout [String]) -> Int {
    title = title.uppercased()
    return -1
  }
  func scrollAdjust(_ view: ScrollSurface, offset: inout Double) throws { offset *= 2 }
  func scrollSettle(_ view: ScrollSurface, offset: inout Double) async -> Double {
    offset *= 2
    return offset
  }
  func scrollSnap(_ view: ScrollSurface, to target: inout Double) {
    snapped.withLock { $0 += 1 }
    target = target.rounded()
  }
}

@Suite("inout parameters")
struct InoutTests {
  let view = ScrollSurface()

  @Test func eachDelegateSeesWhatThePreviousOneLeftAndTheCallerSeesTheLast() throws {
    let first = Stepper(step: 10)
    let doubler = Doubler()
    let last = Stepper(step: 1)
    let events = ScrollEventsMulticast()
    for d in [first, doubler, last] as [any ScrollEvents] { events.add(d) }
    var target = 5.0
    events.scrollWillEndDragging(view, velocity: 0.5, target: &target)
    // 5 + 10·0.5 = 10, ×2 = 20, + 1·0.5 = 20.5
    #expect(first.seen.withLock { $0 } == [5])
    #expect(last.seen.withLock { $0 } == [20])
    #expect(target == 20.5)

    // Two inout parameters of Swift types, and a result under the policy.
    var title = "page"
    var tags: [String] = []
    #expect(events.scroll(view, title: &title, tags: &tags) == 2)  // last responder
    #expect(title == "PAGE+10+1")
    #expect(tags == ["s10", "s1"])
  }

  @Test func withNoDelegateTheCallersValueIsUntouched() throws {
    let events = ScrollEventsMulticast()
    var target = 3.25
    events.scrollWillEndDragging(view, velocity: 1, target: &target)
    #expect(target == 3.25)
    do {
      let gone = Stepper(step: 100)
      events.add(gone)
    }
    events.scrollWillEndDragging(view, velocity: 1, target: &target)
    #expect(target == 3.25)
    var title = "t"
    var tags = ["x"]
    #expect(events.scroll(view, title: &title, tags: &tags) == 0)  // no answer: Int's 0
    #expect(title == "t" && tags == ["x"])
  }

  @Test func aClassWithoutTheOptionalMethodNeitherWritesNorCounts() throws {
    let events = ScrollEventsMulticast()
    let stepper = Stepper(step: 1)  // no scrollSnap
    let doubler = Doubler()
    events.add(stepper)
    events.add(doubler)
    var target = 2.6
    events.scrollSnap(view, to: &target)
    #expect(target == 3)
    #expect(doubler.snapped.withLock { $0 } == 1)
    #expect(events.count(respondingTo: \.scrollSnapTo) == 1)
  }

  @Test func aQueuedDelegateIsWaitedForSoTheNextSeesItsWrite() throws {
    let queue = DispatchQueue(label: "inout.queued")
    let queued = Stepper(step: 100)
    let after = Stepper(step: 1)
    let events = ScrollEventsMulticast()
    events.add(queued, queue: queue)
    events.add(after)
    var target = 1.0
    events.scrollWillEndDragging(view, velocity: 1, target: &target)
    #expect(queued.seen.withLock { $0 } == [1])
    #expect(after.seen.withLock { $0 } == [101])
    #expect(target == 102)
  }

  @Test func observersAndMessageSequencesGetCopiesNotTheCallersVariable() async throws {
    let events = ScrollEventsMulticast()
    let stepper = Stepper(step: 10)
    events.add(stepper)
    let before = Lock<[Double]>([])
    let after = Lock<[Double]>([])
    let watchingBefore = events.observe(\.scrollWillEndDraggingVelocityTarget, .before) {
      _, _, target in
      before.withLock { $0.append(target.value) }
      target.value = 99  // a copy's: the delegates and the caller do not see it
    }
    let watchingAfter = events.observe(\.scrollWillEndDraggingVelocityTarget) { _, _, target in
      after.withLock { $0.append(target.value) }
    }
    let messages = events.messages(\.scrollWillEndDraggingVelocityTarget)
    do {
      var target = 1.0
      events.scrollWillEndDragging(view, velocity: 1, target: &target)
      #expect(target == 11)
    }
    #expect(before.withLock { $0 } == [1])
    #expect(after.withLock { $0 } == [11])
    // The sequence's element outlives the caller's variable and holds what it was when
    // the call ended.
    for await (_, velocity, target) in messages {
      #expect(velocity == 1)
      #expect(target.value == 11)
      break
    }
    watchingBefore.cancel()
    watchingAfter.cancel()
    #expect(stepper.seen.withLock { $0 } == [1])
  }

  @Test func aThrowingMethodStopsAtTheFirstErrorWithTheWritesBeforeIt() throws {
    let events = ScrollEventsMulticast()
    let first = Stepper(step: 5)
    let limit = Stepper(step: 1, throwsAbove: 5)
    let never = Stepper(step: 1000)
    for d in [first, limit, never] { events.add(d) }
    var offset = 1.0
    #expect(throws: ScrollStop(at: 6)) { try events.scrollAdjust(view, offset: &offset) }
    #expect(offset == 6)  // the first delegate's write stands
    #expect(never.seen.withLock { $0 }.isEmpty)

    // Every delegate runs under .runAll, each seeing the previous write.
    events.setErrorPolicy(.runAll, for: \.scrollAdjustOffset)
    offset = 1
    #expect(throws: MemberErrors.self) { try events.scrollAdjust(view, offset: &offset) }
    #expect(never.seen.withLock { $0 } == [6])
    #expect(offset == 1006)
  }

  @Test func anAsyncMethodAwaitsInOrderEvenWhenConcurrencyIsAsked() async throws {
    let events = ScrollEventsMulticast()
    let a = Stepper(step: 1)
    let b = Doubler()
    let c = Stepper(step: 3)
    for d in [a, b, c] as [any ScrollEvents] { events.add(d) }
    events.setConcurrency(.concurrent, for: \.scrollSettleOffset)
    var offset = 4.0
    let answer = await events.scrollSettle(view, offset: &offset)
    // (4 + 1) × 2 + 3 = 13, in order: concurrency cannot apply to a shared variable.
    #expect(offset == 13)
    #expect(answer == 13)  // the last responder's answer
    #expect(c.seen.withLock { $0 } == [10])
  }

  @Test func anInjectedSecondaryAdjustsAfterThePrimary() throws {
    final class Panel {
      weak var delegate: (any ScrollEvents)?
    }
    let panel = Panel()
    let primary = Stepper(step: 2)
    panel.delegate = primary
    let secondary = Doubler()
    let injection = ScrollEventsMulticast.inject(secondary, into: panel, at: \.delegate)
    var target = 1.0
    panel.delegate?.scrollWillEndDragging(view, velocity: 1, target: &target)
    #expect(target == 6)  // (1 + 2) × 2
    injection.remove()
    panel.delegate?.scrollWillEndDragging(view, velocity: 1, target: &target)
    #expect(target == 8)
  }

  @Test func theMethodHasNoCFormAndItsParameterSaysInout() throws {
    let method = ScrollEventsMulticast.delegateProtocol.methods[0]
    #expect(method.parameters.map(\.isInout) == [false, false, true])
    #expect(method.hasInout)
    #expect(!method.hasCForm)
  }
}
