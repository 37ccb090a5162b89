import DelegateProxy
import DelegateProxyTesting
import Foundation
import MessageRuntime
import Testing

// A double for a Swift delegate protocol whose types have no C form: the stand-in sends
// each such value as a SwiftValueObject; the double records its own copy, matches it,
// and answers Swift results from stubs.

enum Presence: Equatable, Sendable {
  case online(since: Int)
  case away(String?)
}

final class Room: Sendable {}

@Delegate(cFace: true)
protocol RoomDelegate: AnyObject {
  func room(_ room: Room, didReceive message: String, from sender: String?)
  func room(_ room: Room, member: String, is presence: Presence, tags: [String: Int])
  func room(_ room: Room, titleFor row: Int) -> String?
  func roomMembers(_ room: Room) -> [String]
  func room(_ room: Room, open url: URL, completion: @escaping @Sendable (Bool) -> Void)
}

/// A Swift delegator of the room protocol.
final class RoomClient {
  weak var delegate: (any RoomDelegate)?
}

@Suite("Doubles see Swift values")
struct SwiftValueDoubleTests {
  @Test func recordedArgumentsAreTheSwiftValuesSent() throws {
    let double = try SwiftDelegateDouble(RoomDelegateMulticast.self)
    let client = RoomClient()
    client.delegate = double.delegate
    let room = Room()
    client.delegate?.room(
      room, didReceive: "héllo 👋 — a message longer than fifteen bytes", from: nil)
    client.delegate?.room(room, member: "zoë", is: .away("lunch"), tags: ["a": 1, "b": 2])

    let received = try #require(double.calls(to: \.roomDidReceiveFrom).first)
    #expect(received.0 === room)
    #expect(received.1 == "héllo 👋 — a message longer than fifteen bytes")
    #expect(received.2 == nil)
    let recorded = try #require(double.recordedCalls(to: \.roomDidReceiveFrom).first)
    #expect(recorded.arguments[1].text == "héllo 👋 — a message longer than fifteen bytes")

    double.verify(\.roomMemberIsTags, called: .once) { _, member, presence, tags in
      member == "zoë" && presence == .away("lunch") && tags == ["b": 2, "a": 1]
    }
    double.verifyNever(\.roomMemberIsTags) { _, _, presence, _ in presence == .online(since: 1) }
  }

  @Test func stubsAnswerSwiftResultsAndUnstubbedOnesAnswerTheEmptyValue() throws {
    let double = try SwiftDelegateDouble(RoomDelegateMulticast.self)
    let standIn = double.delegate
    let room = Room()
    #expect(standIn.room(room, titleFor: 1) == nil)  // no stub: String?'s empty answer
    #expect(standIn.roomMembers(room) == [])
    double.stub(\.roomTitleFor) { _, row in "Row \(row)" }
    double.stub(\.roomTitleFor, where: { _, row in row == 0 }, .returning("General"))
    double.stub(\.roomMembers, .returning(["ann", "bob"]))
    #expect(standIn.room(room, titleFor: 2) == "Row 2")
    #expect(standIn.room(room, titleFor: 0) == "General")
    #expect(standIn.roomMembers(room) == ["ann", "bob"])
  }

  @Test func aCompletionHandlerReachesTheDoubleAndCanBeCalled() throws {
    let double = try SwiftDelegateDouble(RoomDelegateMulticast.self)
    let standIn = double.delegate
    let answered = Lock<[Bool]>([])
    // A stub calls the completion handler it receives; the recorded call keeps it too.
    double.stub(\.roomOpenCompletion) { _, url, completion in completion(url.isFileURL) }
    standIn.room(Room(), open: URL(string: "file:///tmp/a.txt")!) { ok in
      answered.withLock { $0.append(ok) }
    }
    let (_, url, completion) = try #require(double.calls(to: \.roomOpenCompletion).first)
    #expect(url.lastPathComponent == "a.txt")
    completion(false)
    #expect(answered.withLock { $0 } == [true, false])
  }

  @Test func aDoubleInAMulticastHearsSwiftValuesBesideAPlainDelegate() throws {
    final class Listener: RoomDelegate {
      var heard: [String] = []
      func room(_ room: Room, didReceive message: String, from sender: String?) {
        heard.append(message)
      }
      func room(_ room: Room, member: String, is presence: Presence, tags: [String: Int]) {}
      func room(_ room: Room, titleFor row: Int) -> String? { "listener" }
      func roomMembers(_ room: Room) -> [String] { [] }
      func room(_ room: Room, open url: URL, completion: @escaping @Sendable (Bool) -> Void) {}
    }
    let double = try SwiftDelegateDouble(RoomDelegateMulticast.self)
    double.stub(\.roomTitleFor, .returning("double"))
    let listener = Listener()
    let multicast = RoomDelegateMulticast()
    multicast.add(listener)
    multicast.add(double.delegate)
    multicast.room(Room(), didReceive: "both", from: "me")
    #expect(listener.heard == ["both"])
    double.verify(\.roomDidReceiveFrom, called: .once) { _, message, sender in
      message == "both" && sender == "me"
    }
    #expect(multicast.room(Room(), titleFor: 0) == "double")  // last responder
  }

  @Test func aFailingTypedVerificationWritesTheSwiftValues() throws {
    let double = try SwiftDelegateDouble(RoomDelegateMulticast.self)
    double.delegate.room(Room(), member: "zoë", is: .online(since: 3), tags: [:])
    let line = #line + 1
    let found = failures { double.verify(\.roomMemberIsTags) { _, member, _, _ in member == "ann" } }
    #expect(found.map(\.line) == [line])
    #expect(
      found.first?.message == """
        Expected room(_:member:is:tags:) with matching arguments to be called at least once on DelegateDouble <RoomDelegate> (nice), but it was never called.
        Calls of room(_:member:is:tags:) with other arguments:
          room(_:member:is:tags:)(room: <Room>, member: "zoë", presence: online(since: 3), tags: [:])
        """)
    let titles = failures { double.verify(\.roomTitleFor, called: .once) }
    #expect(
      titles.first?.message.hasPrefix(
        "Expected room(_:titleFor:) -> String? to be called exactly once on DelegateDouble <RoomDelegate> (nice), but it was never called.\nDelegateDouble <RoomDelegate> (nice) received:\n  room(_:member:is:tags:)("
      ) == true)
  }
}

/// A protocol of the Swift types DeliveryCheck has samples of.
@Delegate(cFace: true)
protocol NoteDelegate: AnyObject {
  func note(_ text: String, title: String?, tags: [String], link: URL, body: Data)
  func note(_ id: Int, counts: [String: Int], when: Date, rating: Int?)
}

@Suite("DeliveryCheck with Swift values")
struct SwiftValueDeliveryCheckTests {
  @Test func swiftValuesAreSentAndComparedAsValuesThroughAMulticast() throws {
    let first = try SwiftDelegateDouble(NoteDelegateMulticast.self)
    let second = try SwiftDelegateDouble(NoteDelegateMulticast.self)
    let multicast = NoteDelegateMulticast()
    for s in [first.delegate, second.delegate] { multicast.add(s) }
    let check = DeliveryCheck(seed: 5, randomCases: 3)
    let text = first.knownMethod(\.noteTitleTagsLinkBody)
    let cases = check.cases(for: text, methodIndex: 0, values: ArgumentValues())
    // Boundary cases walk each type's samples; the String's four make four boundaries.
    #expect(cases.filter { $0.label.hasPrefix("boundary") }.count == 4)
    // The multicast's runtime object carries each message to the Swift stand-ins, which
    // send it on to the doubles in objects of their own: compared as values.
    let failures = try check.run(to: [first, second]) { invocation in
      try invocation.invoke(target: multicast.runtime.proxy())
    }
    #expect(failures == 0)
    let last = try #require(second.calls(to: \.noteCountsWhenRating).last)
    #expect(last.2.timeIntervalSince1970.isFinite)
  }

  @Test func aSenderThatChangesASwiftValueFailsNamingIt() throws {
    let double = try SwiftDelegateDouble(NoteDelegateMulticast.self)
    let standIn = double.delegate
    let text = double.knownMethod(\.noteTitleTagsLinkBody)
    let messages = failureMessages {
      DeliveryCheck(seed: 1, randomCases: 0).run([text], to: [double]) { _ in
        standIn.note(
          "changed", title: nil, tags: [], link: URL(string: "file:///")!, body: Data())
      }
    }
    #expect(messages.count == 4)
    #expect(messages.first?.contains("(boundary 0)") == true)
    #expect(messages.first?.contains("\"\"") == true)  // the String sent, as Swift writes it
  }
}
