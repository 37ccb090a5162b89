import DelegateProxy
import DelegateProxyTestSupport
import Dispatch
import Testing

// The copy and the mutating write of a value multicast (issue #33): a copy's first table is
// made from the table it copies, list by list; a mutating call on an engine no other copy
// shares stores the members' new values where they are, publishing nothing. What they keep:
// value semantics, memberships, blocks, the responders of optional methods, remembered reads.

/// A sink whose level is read as a remembered fold, and whose tag a `mutating` call sets.
@Delegate
protocol TaggedSink {
  func emit(_ line: String)
  func level() -> Int
  mutating func retag(_ tag: String)
  mutating func raise(by step: Int) -> Int
  @Optional func flush()
}

/// A struct member: a tag and a level of its own.
struct TagSink: TaggedSink {
  var tag: String
  var stored: Int
  let log: CallLog

  func emit(_ line: String) { log.append("\(tag):\(line)") }
  func level() -> Int { stored }
  mutating func retag(_ tag: String) { self.tag = tag }
  mutating func raise(by step: Int) -> Int {
    stored += step
    return stored
  }
}

/// A class member that implements the optional method.
final class FlushingSink: TaggedSink, @unchecked Sendable {
  // @unchecked Sendable: the tests call it from one thread at a time.
  let name: String
  let log: CallLog
  init(_ name: String, log: CallLog) {
    self.name = name
    self.log = log
  }
  func emit(_ line: String) { log.append("\(name):\(line)") }
  func level() -> Int { 100 }
  func retag(_ tag: String) { log.append("\(name) retag \(tag)") }
  func raise(by step: Int) -> Int { 100 }
  func flush() { log.append("\(name):flush") }
}

@Suite("Copies and mutating writes of value multicasts")
struct ValueCopyTests {
  @Test func aCopyWrittenAfterTheCopyLeavesTheOriginalAndItsRememberedRead() {
    let log = CallLog()
    var a = TaggedSinkMulticast()
    a.add(TagSink(tag: "s1", stored: 3, log: log))
    a.add(TagSink(tag: "s2", stored: 7, log: log))
    a.setPolicy(.reduce(.min), for: \.level)
    a.remember(\.level)
    #expect(a.level() == 3)
    for i in 0..<3 {
      var b = a
      b.retag("r\(i)")
      #expect(b.raise(by: 10) == 17)
      // The copy's remembered read was forgotten by its write; the original's was not.
      #expect(b.level() == 13)
      #expect(a.level() == 3)
      b.emit("x")
      #expect(log.entries == ["r\(i):x", "r\(i):x"])
      log.clear()
    }
    a.emit("y")
    #expect(log.entries == ["s1:y", "s2:y"])
    #expect(a.members(ofType: TagSink.self).map(\.stored) == [3, 7])
  }

  @Test func writesOnAnEngineNoOtherCopySharesKeepMembershipsAndMoveTheGeneration() {
    let log = CallLog()
    var sinks = TaggedSinkMulticast()
    let first = sinks.add(TagSink(tag: "a", stored: 1, log: log))
    let second = sinks.add(TagSink(tag: "b", stored: 2, log: log))
    sinks.setPolicy(.reduce(.max), for: \.level)
    sinks.remember(\.level)
    #expect(sinks.level() == 2)
    let before = sinks.__engine.generation
    #expect(sinks.raise(by: 5) == 7)
    #expect(sinks.__engine.generation != before)
    #expect(sinks.level() == 7)
    #expect(sinks.memberIDs == [first, second])
    #expect((sinks.delegate(first) as? TagSink)?.stored == 6)
    sinks.remove(first)
    #expect(sinks.level() == 7 && sinks.count == 1)
    #expect(sinks.raise(by: 1) == 8)
    #expect(sinks.level() == 8)
  }

  @Test func aCopyKeepsBlocksAndTheRespondersOfOptionalMethods() {
    let log = CallLog()
    let muted = FlushingSink("muted", log: log)
    let object = FlushingSink("object", log: log)
    var a = TaggedSinkMulticast()
    a.add(TagSink(tag: "v", stored: 0, log: log))
    a.add(muted)
    a.add(object)
    a.__uniqueEngine().block(muted)
    a.flush()
    #expect(log.entries == ["object:flush"])
    log.clear()
    var b = a
    b.retag("b")
    b.emit("x")
    b.flush()
    #expect(log.entries == ["object retag b", "b:x", "object:x", "object:flush"])
    log.clear()
    // Still blocked in the copy; the original's value untouched by the copy's write.
    #expect(b.__engine.isBlocked(muted))
    a.emit("y")
    #expect(log.entries == ["v:y", "object:y"])
    withExtendedLifetime((muted, object)) {}
  }

  @Test func aVoidWriteOverValuesOnlyChangesTheCopysOwnLiveMembers() {
    let log = CallLog()
    var a = TaggedSinkMulticast()
    let first = a.add(TagSink(tag: "a", stored: 1, log: log))
    let second = a.add(TagSink(tag: "b", stored: 5, log: log))
    a.setPolicy(.reduce(.max), for: \.level)
    a.remember(\.level)
    #expect(a.level() == 5)
    var b = a
    b.remove(second)
    // Every member a value, none queued: each written where the copy stores it.
    b.retag("t")
    b.emit("x")
    #expect(log.entries == ["t:x"])
    log.clear()
    a.emit("y")
    #expect(log.entries == ["a:y", "b:y"])
    #expect(a.level() == 5 && b.level() == 1)
    #expect((b.delegate(first) as? TagSink)?.tag == "t")
    #expect((a.delegate(first) as? TagSink)?.tag == "a")
    #expect(b.memberIDs == [first] && a.memberIDs == [first, second])
  }

  @Test func aCopyAfterAWeakMemberWasDeallocatedDropsIt() {
    let log = CallLog()
    var a = TaggedSinkMulticast()
    a.add(TagSink(tag: "v", stored: 1, log: log))
    do {
      let transient = FlushingSink("transient", log: log)
      a.add(transient, retention: .weak)
      #expect(a.count == 2)
    }
    var b = a
    b.retag("b")
    b.emit("x")
    #expect(log.entries == ["b:x"])
    #expect(b.count == 1)
  }

  @Test func aQueuedValueMemberIsWrittenThroughAPublishedTable() {
    let log = CallLog()
    let queue = DispatchQueue(label: "value-copy-tests")
    var sinks = TaggedSinkMulticast()
    sinks.add(TagSink(tag: "direct", stored: 1, log: log))
    sinks.add(TagSink(tag: "queued", stored: 2, log: log), queue: queue)
    sinks.setPolicy(.reduce(.max), for: \.level)
    sinks.remember(\.level)
    #expect(sinks.level() == 2)
    #expect(sinks.raise(by: 3) == 5)
    sinks.retag("t")
    #expect(sinks.level() == 5)
    sinks.emit("x")
    queue.sync {}
    #expect(log.entries.sorted() == ["t:x", "t:x"])
    var copy = sinks
    #expect(copy.raise(by: 1) == 6)
    #expect(sinks.level() == 5 && copy.level() == 6)
  }
}
