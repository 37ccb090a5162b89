import DelegateProxy
import DelegateProxyTestSupport
import Dispatch
import MessageRuntime
import Synchronization
import Testing

// Protocols that are not class-bound: their multicasts are structs with value semantics
// (or, with `semantics: .reference`, classes), and their members may be values.

/// A sink of lines, as swift-log's `LogHandler` is: conformers are usually structs.
@Delegate
protocol LineSink {
  func write(_ line: String)
  func verbosity() -> Int
  mutating func setPrefix(_ prefix: String)
  mutating func advance(by step: Int) -> Int
  @Optional func flush()
}

/// A struct member: its state is its own, changed by the mutating requirements.
struct PrefixedSink: LineSink, Equatable {
  var name: String
  var prefix = ""
  var total = 0
  let log: CallLog

  init(_ name: String, log: CallLog) {
    self.name = name
    self.log = log
  }

  func write(_ line: String) { log.append("\(name):\(prefix)\(line)") }
  func verbosity() -> Int { total }
  mutating func setPrefix(_ prefix: String) { self.prefix = prefix }
  mutating func advance(by step: Int) -> Int {
    total += step
    return total
  }

  static func == (a: PrefixedSink, b: PrefixedSink) -> Bool {
    a.name == b.name && a.prefix == b.prefix && a.total == b.total
  }
}

/// A class member of the same protocol: mutating requirements change it through its reference.
final class ObjectSink: LineSink, @unchecked Sendable {
  // @unchecked Sendable: the tests call it from one thread at a time.
  let name: String
  var prefix = ""
  let log: CallLog
  init(_ name: String, log: CallLog) {
    self.name = name
    self.log = log
  }
  func write(_ line: String) { log.append("\(name):\(prefix)\(line)") }
  func verbosity() -> Int { 100 }
  func setPrefix(_ prefix: String) { self.prefix = prefix }
  func advance(by step: Int) -> Int { step }
  func flush() { log.append("\(name):flush") }
}

/// A protocol declared elsewhere that is not class-bound, multicast with `@Delegate(for:)`: its
/// restatement has a `mutating` method, so the multicast is a struct.
protocol Handler {
  func handle(_ value: Int)
  mutating func configure(_ level: Int)
}

@Delegate(for: Handler.self)
protocol Handlers: Handler {
  func handle(_ value: Int)
  mutating func configure(_ level: Int)
}

/// A protocol declared elsewhere with no `mutating` method: value semantics asked for.
protocol Emitter {
  func emit(_ value: Int)
}

@Delegate(for: Emitter.self, semantics: .value)
protocol Emitters: Emitter {
  func emit(_ value: Int)
}

struct LoggingEmitter: Emitter {
  let log: CallLog
  func emit(_ value: Int) { log.append("emit \(value)") }
}

struct LevelHandler: Handler {
  var level = 0
  let log: CallLog
  func handle(_ value: Int) { if value >= level { log.append("handled \(value) at \(level)") } }
  mutating func configure(_ level: Int) { self.level = level }
}

/// A class multicast over a protocol that is not class-bound (`semantics: .reference`): one
/// multicast shared by every reference, which threads share in the concurrency test.
@Delegate(semantics: .reference)
protocol Tally {
  func tick()
  mutating func count(_ step: Int)
}

struct TallyCounter: Tally {
  var value = 0
  let ticks: TickCounter
  func tick() { ticks.add() }
  mutating func count(_ step: Int) { value += step }
}

/// A member whose mutating method makes a mutating call on the multicast calling it.
struct ReentrantCounter: Tally {
  let owner: TallyMulticast
  func tick() {}
  mutating func count(_ step: Int) { owner.count(step) }
}

/// Counts ticks from any thread.
final class TickCounter: Sendable {
  private let storage = Atomic<Int>(0)
  func add() { storage.add(1, ordering: .relaxed) }
  var value: Int { storage.load(ordering: .relaxed) }
}

@Suite("Value members and value multicasts")
struct ValueMemberTests {
  @Test func structMembersReceiveCallsInOrder() {
    let log = CallLog()
    var sinks = LineSinkMulticast()
    sinks.add(PrefixedSink("a", log: log))
    sinks.add(PrefixedSink("b", log: log))
    sinks.write("one")
    sinks.write("two")
    #expect(log.entries == ["a:one", "b:one", "a:two", "b:two"])
    #expect(sinks.count == 2)
  }

  @Test func mutatingCallsChangeTheStoredValuesAndLaterCallsSeeThem() {
    let log = CallLog()
    var sinks = LineSinkMulticast()
    let a = sinks.add(PrefixedSink("a", log: log))
    sinks.add(PrefixedSink("b", log: log))
    sinks.setPrefix("> ")
    sinks.write("x")
    #expect(log.entries == ["a:> x", "b:> x"])
    #expect(sinks.advance(by: 2) == 2)
    // The last responder's answer, from the values as the previous call left them.
    #expect(sinks.advance(by: 3) == 5)
    #expect(sinks.verbosity() == 5)
    #expect(sinks.members(ofType: PrefixedSink.self).map(\.total) == [5, 5])
    #expect((sinks.delegate(a) as? PrefixedSink)?.prefix == "> ")
    sinks.setPolicy(.firstResponder, for: \.advanceBy)
    #expect(sinks.advance(by: 1) == 6)
    // Only the first responder was called.
    #expect(sinks.members(ofType: PrefixedSink.self).map(\.total) == [6, 5])
  }

  @Test func copiesOfAValueMulticastAreIndependent() {
    let log = CallLog()
    var a = LineSinkMulticast()
    let first = a.add(PrefixedSink("s1", log: log))
    a.add(PrefixedSink("s2", log: log))
    var b = a
    b.setPrefix("b> ")
    b.add(PrefixedSink("s3", log: log))
    a.write("from a")
    #expect(log.entries == ["s1:from a", "s2:from a"])
    log.clear()
    b.write("from b")
    // s3 came after the prefix was set.
    #expect(log.entries == ["s1:b> from b", "s2:b> from b", "s3:from b"])
    // A token names the same member in every copy; removing it from one leaves the other.
    b.remove(first)
    #expect(b.count == 2 && a.count == 2)
    #expect(a.delegate(first) != nil && b.delegate(first) == nil)
    // A policy set on a copy stays there.
    var c = a
    c.setPolicy(.firstResponder, for: \.verbosity)
    #expect("\(a.policy(for: \.verbosity))" == "\(ReturnPolicy<Int>.lastResponder)")
    #expect("\(c.policy(for: \.verbosity))" == "\(ReturnPolicy<Int>.firstResponder)")
    // A mutating call on a copy changes its members only.
    _ = c.advance(by: 7)
    #expect(a.members(ofType: PrefixedSink.self).map(\.total) == [0, 0])
    #expect(c.members(ofType: PrefixedSink.self).map(\.total) == [7, 7])
  }

  @Test func classAndValueMembersMixed() {
    let log = CallLog()
    let object = ObjectSink("o", log: log)
    var sinks = LineSinkMulticast()
    sinks.add(PrefixedSink("v", log: log))
    sinks.add(object)
    sinks.setPrefix("+")
    sinks.write("m")
    #expect(log.entries == ["v:+m", "o:+m"])
    // The object was changed through its reference; the value in its stored copy.
    #expect(object.prefix == "+")
    #expect(sinks.first(ofType: PrefixedSink.self)?.prefix == "+")
    #expect(sinks.verbosity() == 100)
    #expect(sinks.contains(object))
    // The object is the same object in a copy.
    var copy = sinks
    copy.setPrefix("*")
    #expect(object.prefix == "*")
    #expect(sinks.first(ofType: PrefixedSink.self)?.prefix == "+")
  }

  @Test func weakClassMembersStillVanishWhenReleased() {
    let log = CallLog()
    var sinks = LineSinkMulticast()
    sinks.add(PrefixedSink("v", log: log))
    do {
      let object = ObjectSink("gone", log: log)
      sinks.add(object, retention: .weak)
      sinks.write("1")
      #expect(sinks.count == 2)
    }
    sinks.write("2")
    #expect(log.entries == ["v:1", "gone:1", "v:2"])
    #expect(sinks.count == 1)
  }

  @Test func strongClassMembersOfAProtocolThatIsNotClassBound() {
    let log = CallLog()
    var sinks = LineSinkMulticast()
    do {
      let object = ObjectSink("kept", log: log)
      sinks.add(object, retention: .strong)
    }
    sinks.write("x")
    sinks.setPrefix("p")
    sinks.write("y")
    #expect(log.entries == ["kept:x", "kept:py"])
    #expect(sinks.count == 1)
  }

  @Test func removeByTokenByEqualityAndByPredicate() {
    let log = CallLog()
    var sinks = LineSinkMulticast()
    let a = sinks.add(PrefixedSink("a", log: log))
    sinks.add(PrefixedSink("b", log: log))
    sinks.add(PrefixedSink("c", log: log))
    #expect(sinks.memberIDs.count == 3 && sinks.memberIDs.first == a)
    // Equal values are found by ==.
    #expect(sinks.contains(PrefixedSink("b", log: log)))
    sinks.remove(PrefixedSink("b", log: log))
    #expect(!sinks.contains(PrefixedSink("b", log: log)))
    sinks.remove(a)
    sinks.remove(a)  // gone already: nothing happens
    #expect(sinks.contains { ($0 as? PrefixedSink)?.name == "c" })
    sinks.removeAll { ($0 as? PrefixedSink)?.name == "c" }
    #expect(sinks.count == 0)
    sinks.write("nobody")
    #expect(log.entries.isEmpty)
  }

  @Test func uniqueKeepsOneOfEqualValues() {
    let log = CallLog()
    var sinks = LineSinkMulticast(options: .unique)
    let first = sinks.add(PrefixedSink("a", log: log))
    let again = sinks.add(PrefixedSink("a", log: log))
    #expect(first == again)
    #expect(sinks.count == 1)
  }

  @Test func optionalMethodsOfValueMembers() {
    let log = CallLog()
    let object = ObjectSink("o", log: log)
    var sinks = LineSinkMulticast()
    sinks.add(PrefixedSink("v", log: log))
    sinks.add(object)
    sinks.flush()
    sinks.flush()
    // The struct runs the generated default once: its type is then known not to flush.
    #expect(log.entries == ["o:flush", "o:flush"])
    #expect(sinks.responds(to: \.flush))
    sinks.remove(object)
    #expect(!sinks.responds(to: \.flush))
  }

  @Test func observersHearValueMulticastsAndGoWithCopies() {
    let log = CallLog()
    let heard = CallLog()
    var sinks = LineSinkMulticast()
    sinks.add(PrefixedSink("v", log: log))
    let watching = sinks.observe(\.write) { line in heard.append(line) }
    sinks.write("a")
    var copy = sinks
    copy.add(PrefixedSink("w", log: log))
    copy.write("b")
    sinks.write("c")
    #expect(heard.entries == ["a", "b", "c"])
    watching.cancel()
    copy.write("d")
    #expect(heard.entries == ["a", "b", "c"])
  }

  @Test func pairwiseReducersAndFiltersAnswerAlikeOnTheFastLoopAndTheGeneralPath() {
    let log = CallLog()
    let object = ObjectSink("o", log: log)  // verbosity 100
    var sinks = LineSinkMulticast()
    for (name, total) in [("a", 3), ("b", 1), ("c", 2)] {
      var sink = PrefixedSink(name, log: log)
      sink.total = total
      sinks.add(sink)
    }
    sinks.add(object, retention: .strong)
    sinks.setPolicy(.reduce(.min), for: \.verbosity)
    #expect(sinks.verbosity() == 1)
    sinks.setPolicy(.reduce(.max), for: \.verbosity)
    #expect(sinks.verbosity() == 100)
    // In member order: ((3 * 10 + 1) * 10 + 2) * 10 + 100.
    sinks.setPolicy(.reduce(.combine { $0 * 10 + $1 }), for: \.verbosity)
    #expect(sinks.verbosity() == 3220)
    // An observer puts the method on the general path, which folds the collected answers.
    let watching = sinks.observe(\.verbosity, .after) { _ in }
    #expect(sinks.verbosity() == 3220)
    watching.cancel()
    // A filter chooses the members, values and objects alike, and only their answers fold.
    sinks.setFilter(for: \.write) { sink, line in sink.verbosity() >= line.count }
    sinks.write("xx")
    #expect(log.entries == ["a:xx", "c:xx", "o:xx"])
    sinks.setFilter(for: \.verbosity) { sink, _ in sink.verbosity() < 50 }
    sinks.setPolicy(.reduce(.max), for: \.verbosity)
    #expect(sinks.verbosity() == 3)
    // Nobody admitted: the method's answer for no delegates (an Int's 0), not a fold.
    sinks.setFilter(for: \.verbosity) { _, _ in false }
    #expect(sinks.verbosity() == 0)
    // A copy keeps the filters and folds its own members' answers.
    var copy = sinks
    copy.setFilter(for: \.verbosity, nil)
    copy.add(PrefixedSink("d", log: log))
    #expect(copy.verbosity() == 100)
    #expect(sinks.verbosity() == 0)
  }

  @Test func aValueMulticastInsideAnother() {
    let log = CallLog()
    var inner = LineSinkMulticast()
    inner.add(PrefixedSink("in", log: log))
    var outer = LineSinkMulticast()
    outer.add(PrefixedSink("out", log: log))
    outer.add(inner)
    outer.setPrefix("~")
    outer.write("z")
    #expect(log.entries == ["out:~z", "in:~z"])
    // The outer multicast holds its own copy of `inner`.
    log.clear()
    inner.write("z")
    #expect(log.entries == ["in:z"])
  }

  @Test func foreignProtocolsThatAreNotClassBound() {
    let log = CallLog()
    var handlers = HandlersMulticast()
    handlers.add(LevelHandler(log: log))
    handlers.add(LevelHandler(level: 5, log: log))
    handlers.handle(3)
    handlers.configure(4)
    handlers.handle(4)
    #expect(log.entries == ["handled 3 at 0", "handled 4 at 4", "handled 4 at 4"])
    // A struct that conforms to the foreign protocol: a `Handler` a delegator can hold.
    let asHandler: any Handler = handlers
    asHandler.handle(9)
    #expect(log.count("handled 9 at 4") == 2)

    // A value whose type is not Equatable is never found by value: only by its token.
    #expect(!handlers.contains(LevelHandler(log: log)))
    handlers.remove(LevelHandler(log: log))
    #expect(handlers.count == 2)

    var emitters = EmittersMulticast()
    emitters.add(LoggingEmitter(log: log))
    var copy = emitters
    copy.add(LoggingEmitter(log: log))
    #expect(emitters.count == 1 && copy.count == 2)
    copy.emit(1)
    #expect(log.count("emit 1") == 2)
  }

  @Test func aReferenceMulticastOfValuesIsShared() {
    let ticks = TickCounter()
    let tally = TallyMulticast()
    let id = tally.add(TallyCounter(ticks: ticks))
    let same = tally
    same.count(2)
    tally.count(3)
    tally.tick()
    #expect((tally.delegate(id) as? TallyCounter)?.value == 5)
    #expect(ticks.value == 1)
  }

  /// A member's mutating method that makes a mutating call on its own multicast stops the
  /// process, naming the method, instead of deadlocking on the multicast's lock.
  @Test func aMutatingCallBackIntoTheSameMulticastStopsTheProcess() async {
    await #expect(processExitsWith: .failure) {
      let tally = TallyMulticast()
      tally.add(ReentrantCounter(owner: tally))
      tally.count(1)
    }
  }

  /// Two threads call — lock-free calls and mutating ones — while a third adds and removes
  /// value members: no mutating call is lost on the member that stays, and none of them
  /// races on a stored value (run under ThreadSanitizer by Scripts/sanitize.sh).
  @Test(.tags(.stress)) func concurrentCallsWhileMembersComeAndGo() async {
    let ticks = TickCounter()
    let tally = TallyMulticast()
    let stays = tally.add(TallyCounter(ticks: ticks))
    let rounds = 2_000
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<2 {
        group.addTask {
          for _ in 0..<rounds {
            tally.tick()
            tally.count(1)
          }
        }
      }
      group.addTask {
        for _ in 0..<200 {
          let passing = tally.add(TallyCounter(ticks: ticks))
          tally.tick()
          tally.remove(passing)
        }
      }
    }
    #expect((tally.delegate(stays) as? TallyCounter)?.value == 2 * rounds)
    #expect(tally.count == 1)
    #expect(ticks.value >= 2 * rounds + 200)
  }
}
