import DelegateProxy
import DelegateProxyTesting
import Dispatch
import Foundation
import MessageRuntime
import Testing

// A delegate protocol as Swift programmers write them: strings, optionals, enums with
// payloads, errors, Foundation values, collections, tuples, closures, generic types and
// structs holding them — none of which has a C form.

/// The delegator of the chat protocol.
final class Chat: Sendable {
  let name: String
  init(name: String) { self.name = name }
}

enum ChatEvent: Equatable, Sendable {
  case joined(String)
  case left(name: String, reason: Int?)
  case typing
}

struct ChatTag: Equatable, Sendable {
  var name: String
  var scores: [Int]
}

struct Labelled<Value: Sendable>: Sendable {
  var label: String
  var value: Value
}

struct ChatFailure: Error, Equatable {
  let code: Int
}

@Delegate(cFace: true)
protocol ChatDelegate: AnyObject {
  func chat(_ chat: Chat, didReceive message: String)
  func chat(_ chat: Chat, didSee event: ChatEvent)
  func chat(_ chat: Chat, titleFor row: Int) -> String?
  func chat(_ chat: Chat, open url: URL, data: Data, at date: Date)
  func chat(
    _ chat: Chat, members: [String], scores: [String: Int], tags: Set<String>, tag: ChatTag,
    pair: (Int, String), labelled: Labelled<Int?>)
  func chat(_ chat: Chat, confirm completion: @escaping @Sendable (Bool) -> Void)
  func chat(_ chat: Chat, didFail error: any Error)
  func chatTitle(_ chat: Chat) -> String
  func chatMembers(_ chat: Chat) -> [String]
  func chatEvent(_ chat: Chat) -> ChatEvent?
  func chatNamer(_ chat: Chat) -> (@Sendable (Int) -> String)?
}

/// Records what it heard as text; answers with its name.
final class ChatListener: ChatDelegate, @unchecked Sendable {
  // @unchecked Sendable: `heard` is a Lock; `name` and `title` are immutable.
  let name: String
  let title: String?
  let heard = Lock<[String]>([])
  init(_ name: String, title: String? = nil) {
    self.name = name
    self.title = title
  }
  func note(_ text: String) { heard.withLock { $0.append(text) } }

  func chat(_ chat: Chat, didReceive message: String) { note("\(name) got \(message)") }
  func chat(_ chat: Chat, didSee event: ChatEvent) { note("\(name) saw \(event)") }
  func chat(_ chat: Chat, titleFor row: Int) -> String? { title.map { "\($0) #\(row)" } }
  func chat(_ chat: Chat, open url: URL, data: Data, at date: Date) {
    note("\(name) opens \(url.lastPathComponent) \(data.count)B \(date.timeIntervalSince1970)")
  }
  func chat(
    _ chat: Chat, members: [String], scores: [String: Int], tags: Set<String>, tag: ChatTag,
    pair: (Int, String), labelled: Labelled<Int?>
  ) {
    note(
      "\(name) members \(members) \(scores.sorted { $0.key < $1.key }) \(tags.sorted()) \(tag.name)\(tag.scores) \(pair.0)\(pair.1) \(labelled.label)=\(String(describing: labelled.value))"
    )
  }
  func chat(_ chat: Chat, confirm completion: @escaping @Sendable (Bool) -> Void) {
    completion(name != "no")
  }
  func chat(_ chat: Chat, didFail error: any Error) { note("\(name) failed \(error)") }
  func chatTitle(_ chat: Chat) -> String { "\(name)'s chat" }
  func chatMembers(_ chat: Chat) -> [String] { [name] }
  func chatEvent(_ chat: Chat) -> ChatEvent? { title == nil ? nil : .joined(name) }
  func chatNamer(_ chat: Chat) -> (@Sendable (Int) -> String)? {
    let name = name
    return { "\(name)-\($0)" }
  }
}

@Suite("Swift types in delegate protocols")
struct SwiftTypesTests {
  let chat = Chat(name: "lobby")

  @Test func everySwiftTypeReachesEveryDelegateSynchronously() throws {
    let a = ChatListener("a")
    let b = ChatListener("b")
    let proxy = ChatDelegateMulticast()
    proxy.add(a)
    proxy.add(b)
    proxy.chat(chat, didReceive: "héllo 👋")
    proxy.chat(chat, didSee: .left(name: "zoë", reason: nil))
    proxy.chat(
      chat, open: URL(string: "https://example.org/files/report.pdf")!,
      data: Data([1, 2, 3]), at: Date(timeIntervalSince1970: 86400))
    proxy.chat(
      chat, members: ["x", "y"], scores: ["y": 2, "x": 1], tags: ["t2", "t1"],
      tag: ChatTag(name: "tag", scores: [4, 5]), pair: (7, "seven"),
      labelled: Labelled(label: "n", value: nil))
    proxy.chat(chat, didFail: ChatFailure(code: 3))
    for (listener, name) in [(a, "a"), (b, "b")] {
      #expect(
        listener.heard.withLock { $0 } == [
          "\(name) got héllo 👋",
          "\(name) saw left(name: \"zoë\", reason: nil)",
          "\(name) opens report.pdf 3B 86400.0",
          "\(name) members [\"x\", \"y\"] [(key: \"x\", value: 1), (key: \"y\", value: 2)] [\"t1\", \"t2\"] tag[4, 5] 7seven n=nil",
          "\(name) failed ChatFailure(code: 3)",
        ])
    }
  }

  @Test func swiftResultsFollowTheReturnPolicies() throws {
    let a = ChatListener("a", title: "A")
    let b = ChatListener("b")
    let c = ChatListener("c", title: "C")
    let proxy = ChatDelegateMulticast()
    for listener in [a, b, c] { proxy.add(listener) }
    #expect(proxy.chatTitle(chat) == "c's chat")  // last responder
    #expect(proxy.chat(chat, titleFor: 2) == "C #2")
    proxy.setPolicy(.firstResponder, for: \.chatTitle)
    #expect(proxy.chatTitle(chat) == "a's chat")
    // First non-nil: b answers nil, so a's (and not c's) title wins when a comes first;
    // with a removed, c's.
    proxy.setPolicy(.reduce(.firstNonNil), for: \.chatTitleFor)
    #expect(proxy.chat(chat, titleFor: 5) == "A #5")
    proxy.remove(a)
    #expect(proxy.chat(chat, titleFor: 5) == "C #5")
    proxy.setPolicy(.reduce(.firstNonNil), for: \.chatEvent)
    #expect(proxy.chatEvent(chat) == .joined("c"))
    // A typed fold of Swift values.
    proxy.add(a)
    proxy.setPolicy(
      .reduce(.collect([String].self, name: "all members") { $0.flatMap { $0 } }),
      for: \.chatMembers)
    #expect(proxy.chatMembers(chat) == ["b", "c", "a"])
    proxy.setPolicy(.reduce(.fold(String.self, initial: "", +)), for: \.chatTitle)
    #expect(proxy.chatTitle(chat) == "b's chatc's chata's chat")
    // A closure result, called after the dispatch.
    #expect(proxy.chatNamer(chat)?(4) == "a-4")
  }

  @Test func aCompletionHandlerIsCalledByEveryDelegate() throws {
    let proxy = ChatDelegateMulticast()
    let yes = ChatListener("yes")
    let no = ChatListener("no")
    proxy.add(yes)
    proxy.add(no)
    let answers = Lock<[Bool]>([])
    proxy.chat(chat, confirm: { ok in answers.withLock { $0.append(ok) } })
    #expect(answers.withLock { $0 } == [true, false])
  }

  @Test func aQueuedDelegateGetsItsOwnCopyOfEachValue() async throws {
    let queue = DispatchQueue(label: "chat.listener")
    let queued = ChatListener("q", title: "Q")
    let proxy = ChatDelegateMulticast()
    proxy.add(queued, queue: queue)
    // The caller's values go out of scope before the queue runs.
    do {
      var message = "first"
      proxy.chat(chat, didReceive: message)
      message += " changed"
      proxy.chat(chat, didSee: .joined(String(repeating: "long name ", count: 8)))
    }
    // A value-returning call waits for the queued delegate.
    #expect(proxy.chat(chat, titleFor: 1) == "Q #1")
    await proxy.broadcast(\.chatDidReceive, chat, "last")
    #expect(
      queued.heard.withLock { $0 } == [
        "q got first", "q saw joined(\"\(String(repeating: "long name ", count: 8))\")",
        "q got last",
      ])
    let title = await proxy.aggregate(\.chatTitleFor, chat, 9, reducer: .firstNonNil)
    #expect(title == "Q #9")
  }

  @Test func observersAndMessageSequencesSeeTheSwiftValues() async throws {
    let proxy = ChatDelegateMulticast()
    proxy.add(ChatListener("a"))
    let seen = Lock<[String]>([])
    let observation = proxy.observe(\.chatDidSee) { _, event in
      seen.withLock { $0.append("\(event)") }
    }
    let messages = proxy.messages(\.chatDidReceive)
    proxy.chat(chat, didSee: .typing)
    proxy.chat(chat, didReceive: "one")
    proxy.chat(chat, didReceive: "two")
    observation.cancel()
    proxy.chat(chat, didSee: .joined("late"))
    #expect(seen.withLock { $0 } == ["typing"])
    var received: [String] = []
    for await (_, text) in messages {
      received.append(text)
      if received.count == 2 { break }
    }
    #expect(received == ["one", "two"])
  }

  @Test func aDelegateWhoseStructHidesAStringIsAcceptedWhenAdded() throws {
    // Before: a struct the macro cannot see into was refused at run time by add().
    let proxy = ChatDelegateMulticast()
    let a = ChatListener("a")
    proxy.add(a)
    proxy.chat(
      chat, members: [], scores: [:], tags: [], tag: ChatTag(name: "hidden", scores: []),
      pair: (0, ""), labelled: Labelled(label: "l", value: 3))
    #expect(a.heard.withLock { $0 } == ["a members [] [] [] hidden[] 0 l=Optional(3)"])
  }

  @Test func anInjectedDelegateHearsSwiftValuesBesideThePrimary() throws {
    final class Room {
      weak var delegate: (any ChatDelegate)?
    }
    let room = Room()
    let primary = ChatListener("primary", title: "P")
    room.delegate = primary
    let secondary = ChatListener("secondary")
    let injection = ChatDelegateMulticast.inject(secondary, into: room, at: \.delegate)
    room.delegate?.chat(chat, didReceive: "to both")
    room.delegate?.chat(chat, didSee: .left(name: "x", reason: 4))
    #expect(
      primary.heard.withLock { $0 } == [
        "primary got to both", "primary saw left(name: \"x\", reason: Optional(4))",
      ])
    #expect(
      secondary.heard.withLock { $0 } == [
        "secondary got to both", "secondary saw left(name: \"x\", reason: Optional(4))",
      ])
    // The primary answers, as before the injection; the secondary only hears.
    #expect(room.delegate?.chat(chat, titleFor: 0) == "P #0")
    injection.remove()
    #expect(room.delegate === primary)
  }

  @Test func theRuntimeProtocolCarriesSwiftValuesAsObjects() throws {
    let description = ChatDelegateMulticast.delegateProtocol
    let received = try #require(
      description.method(for: MessageRuntime.Selector("chat:didReceive:")))
    #expect(!received.hasCForm)
    #expect(received.parameters[1].type.encoding == nil)
    #expect(try received.signature(in: description.name).encoding.hasPrefix("v"))
    #expect(throws: DelegateProxyError.self) {
      try received.cSignature(in: description.name)
    }
  }
}

/// Every method of the chat protocol once, with values of every type family: what each
/// path must deliver unchanged.
func sendEveryTypeFamily(to delegate: any ChatDelegate, _ chat: Chat) {
  delegate.chat(chat, didReceive: "héllo 👋 — longer than fifteen bytes")
  delegate.chat(chat, didSee: .left(name: "zoë", reason: 7))
  delegate.chat(
    chat, open: URL(string: "https://example.org/a/report.pdf")!, data: Data([9, 8, 7, 6]),
    at: Date(timeIntervalSince1970: 1_000))
  delegate.chat(
    chat, members: ["x", "y"], scores: ["y": 2, "x": 1], tags: ["t2", "t1"],
    tag: ChatTag(name: "tag", scores: [4, 5]), pair: (7, "seven"),
    labelled: Labelled(label: "n", value: 3))
  delegate.chat(chat, didFail: ChatFailure(code: 11))
}

/// The lines a listener called directly hears from `sendEveryTypeFamily`.
func directlyHeardLines(_ name: String, _ chat: Chat) -> [String] {
  let direct = ChatListener(name)
  sendEveryTypeFamily(to: direct, chat)
  return direct.heard.withLock { $0 }
}

@Suite("Every type family through every path")
struct SwiftTypesPathTests {
  let chat = Chat(name: "paths")

  @Test func throughAQueuedDelegate() throws {
    let queue = DispatchQueue(label: "paths.queued")
    let listener = ChatListener("q")
    let proxy = ChatDelegateMulticast()
    proxy.add(listener, queue: queue)
    sendEveryTypeFamily(to: proxy, chat)  // the caller's values are gone when the queue runs
    queue.sync {}
    #expect(listener.heard.withLock { $0 } == directlyHeardLines("q", chat))
  }

  @Test func throughObserversAndMessageSequences() async throws {
    let listener = ChatListener("o")
    let proxy = ChatDelegateMulticast()
    proxy.add(listener)
    // Observers re-send what they see to a listener of their own: it must hear the same.
    let echo = ChatListener("o")
    let observations = [
      proxy.observe(\.chatDidReceive) { c, m in echo.chat(c, didReceive: m) },
      proxy.observe(\.chatDidSee) { c, e in echo.chat(c, didSee: e) },
      proxy.observe(\.chatOpenDataAt) { c, u, d, t in echo.chat(c, open: u, data: d, at: t) },
      proxy.observe(\.chatMembersScoresTagsTagPairLabelled) { c, m, s, t, g, p, l in
        echo.chat(c, members: m, scores: s, tags: t, tag: g, pair: p, labelled: l)
      },
      proxy.observe(\.chatDidFail) { c, e in echo.chat(c, didFail: e) },
    ]
    let opened = proxy.messages(\.chatOpenDataAt)
    let failed = proxy.messages(\.chatDidFail)
    sendEveryTypeFamily(to: proxy, chat)
    for o in observations { o.cancel() }
    #expect(echo.heard.withLock { $0 } == directlyHeardLines("o", chat))
    for await (_, url, data, date) in opened {
      #expect(url.lastPathComponent == "report.pdf" && data == Data([9, 8, 7, 6]))
      #expect(date == Date(timeIntervalSince1970: 1_000))
      break
    }
    for await (_, error) in failed {
      #expect(error as? ChatFailure == ChatFailure(code: 11))
      break
    }
  }

  @Test func throughAnInjectedSecondary() throws {
    final class Room {
      weak var delegate: (any ChatDelegate)?
    }
    let room = Room()
    let primary = ChatListener("i")
    room.delegate = primary
    let secondary = ChatListener("i")
    let injection = ChatDelegateMulticast.inject(secondary, into: room, at: \.delegate)
    sendEveryTypeFamily(to: try #require(room.delegate), chat)
    #expect(primary.heard.withLock { $0 } == directlyHeardLines("i", chat))
    #expect(secondary.heard.withLock { $0 } == directlyHeardLines("i", chat))
    injection.remove()
  }

  @Test func throughADoubleBehindAStandIn() throws {
    let double = try SwiftDelegateDouble(ChatDelegateMulticast.self, responding: .all)
    let proxy = ChatDelegateMulticast()
    proxy.add(double.delegate)
    sendEveryTypeFamily(to: proxy, chat)
    let received = try #require(double.calls(to: \.chatDidReceive).first)
    #expect(received.1 == "héllo 👋 — longer than fifteen bytes")
    let seen = try #require(double.calls(to: \.chatDidSee).first)
    #expect(seen.1 == .left(name: "zoë", reason: 7))
    let (_, url, data, date) = try #require(double.calls(to: \.chatOpenDataAt).first)
    #expect(url.lastPathComponent == "report.pdf")
    #expect(data == Data([9, 8, 7, 6]))
    #expect(date == Date(timeIntervalSince1970: 1_000))
    let (_, members, scores, tags, tag, pair, labelled) = try #require(
      double.calls(to: \.chatMembersScoresTagsTagPairLabelled).first)
    #expect(members == ["x", "y"])
    #expect(scores == ["x": 1, "y": 2])
    #expect(tags == ["t1", "t2"])
    #expect(tag == ChatTag(name: "tag", scores: [4, 5]))
    #expect(pair.0 == 7 && pair.1 == "seven")
    #expect(labelled.value == 3)
    let failed = try #require(double.calls(to: \.chatDidFail).first)
    #expect(failed.1 as? ChatFailure == ChatFailure(code: 11))
    double.verify(\.chatDidSee, called: .once) { _, event in event == .left(name: "zoë", reason: 7) }
  }
}
