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

@Delegate
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
    let double = try DelegateDouble(RoomDelegateMulticast.self)
    let client = RoomClient()
    let standIn = double.delegate(as: RoomDelegateMulticast.self)
    client.delegate = standIn
    let room = Room()
    client.delegate?.room(
      room, didReceive: "héllo 👋 — a message longer than fifteen bytes", from: nil)
    client.delegate?.room(room, member: "zoë", is: .away("lunch"), tags: ["a": 1, "b": 2])

    let received = try #require(double.calls(to: "room:didReceive:from:").first)
    #expect(
      try received.swiftArgument(1, as: String.self)
        == "héllo 👋 — a message longer than fifteen bytes")
    #expect(try received.swiftArgument(2, as: String?.self) == .some(nil))
    #expect(throws: DoubleError.self) { try received.swiftArgument(1, as: Int.self) }
    #expect(received.arguments[1].text == "héllo 👋 — a message longer than fifteen bytes")

    double.verify(
      "room:member:is:tags:", called: .once,
      with: [
        .any, .swiftValue("zoë"), .swiftValue(Presence.away("lunch")),
        .swiftValue(["b": 2, "a": 1]),
      ])
    double.verifyNever(
      "room:member:is:tags:", with: [.any, .any, .swiftValue(Presence.online(since: 1)), .any])
  }

  @Test func stubsAnswerSwiftResultsAndUnstubbedOnesAnswerTheEmptyValue() throws {
    let double = try DelegateDouble(RoomDelegateMulticast.self)
    let standIn = double.delegate(as: RoomDelegateMulticast.self)
    let room = Room()
    #expect(standIn.room(room, titleFor: 1) == nil)  // no stub: String?'s empty answer
    #expect(standIn.roomMembers(room) == [])
    try double.stub("room:titleFor:", .returning(Optional("General")))
    try double.stub("roomMembers:", .returning(["ann", "bob"]))
    #expect(standIn.room(room, titleFor: 2) == "General")
    #expect(standIn.roomMembers(room) == ["ann", "bob"])
  }

  @Test func aCompletionHandlerReachesTheDoubleAndCanBeCalled() throws {
    let double = try DelegateDouble(RoomDelegateMulticast.self)
    let standIn = double.delegate(as: RoomDelegateMulticast.self)
    let answered = Lock<[Bool]>([])
    standIn.room(Room(), open: URL(string: "file:///tmp/a.txt")!) { ok in
      answered.withLock { $0.append(ok) }
    }
    let call = try #require(double.calls(to: "room:open:completion:").first)
    #expect(try call.swiftArgument(1, as: URL.self).lastPathComponent == "a.txt")
    let completion = try call.swiftArgument(2, as: (@Sendable (Bool) -> Void).self)
    completion(true)
    #expect(answered.withLock { $0 } == [true])
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
    let double = try DelegateDouble(RoomDelegateMulticast.self)
    try double.stub("room:titleFor:", .returning(Optional("double")))
    let standIn = double.delegate(as: RoomDelegateMulticast.self)
    let listener = Listener()
    let multicast = RoomDelegateMulticast()
    multicast.add(listener)
    multicast.add(standIn)
    multicast.room(Room(), didReceive: "both", from: "me")
    #expect(listener.heard == ["both"])
    double.verify(
      "room:didReceive:from:", called: .once,
      with: [.any, .swiftValue("both"), .swiftValue(Optional("me"))])
    #expect(multicast.room(Room(), titleFor: 0) == "double")  // last responder
  }
}

/// A protocol of the Swift types DeliveryCheck has samples of.
@Delegate
protocol NoteDelegate: AnyObject {
  func note(_ text: String, title: String?, tags: [String], link: URL, body: Data)
  func note(_ id: Int, counts: [String: Int], when: Date, rating: Int?)
}

@Suite("DeliveryCheck with Swift values")
struct SwiftValueDeliveryCheckTests {
  @Test func swiftValuesAreSentAndComparedAsValuesThroughAMulticast() throws {
    let first = try DelegateDouble(NoteDelegateMulticast.self)
    let second = try DelegateDouble(NoteDelegateMulticast.self)
    let multicast = NoteDelegateMulticast()
    let standIns = [
      first.delegate(as: NoteDelegateMulticast.self),
      second.delegate(as: NoteDelegateMulticast.self),
    ]
    for s in standIns { multicast.add(s) }
    let check = DeliveryCheck(seed: 5, randomCases: 3)
    let text = try #require(first.knownMethod("note:title:tags:link:body:"))
    let cases = check.cases(for: text, methodIndex: 0, values: ArgumentValues())
    // Boundary cases walk each type's samples; the String's four make four boundaries.
    #expect(cases.filter { $0.label.hasPrefix("boundary") }.count == 4)
    // The multicast's runtime object carries each message to the Swift stand-ins, which
    // send it on to the doubles in objects of their own: compared as values.
    let failures = try check.run(to: [first, second]) { invocation in
      try invocation.invoke(target: multicast.runtime.proxy())
    }
    #expect(failures == 0)
    let last = try #require(second.calls(to: "note:counts:when:rating:").last)
    #expect(try last.swiftArgument(2, as: Date.self).timeIntervalSince1970.isFinite)
  }

  @Test func aSenderThatChangesASwiftValueFailsNamingIt() throws {
    let double = try DelegateDouble(NoteDelegateMulticast.self)
    let standIn = double.delegate(as: NoteDelegateMulticast.self)
    let text = try #require(double.knownMethod("note:title:tags:link:body:"))
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
