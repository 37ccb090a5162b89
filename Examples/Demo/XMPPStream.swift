// GCDMulticastDelegate, as XMPPFramework's XMPPStream uses it: listeners each on their
// own dispatch queue; a received message broadcast to all of them asynchronously; an IQ
// answered "handled" if any listener handles it, else with an error reply — decided
// without ever blocking the stream's queue.

import DelegateProxy
import Dispatch
import MessageRuntime

/// `XMPPStreamDelegate`, declared once with Swift types (all optional).
enum XMPPStreamDelegateMessages {
  static let didReceiveMessage = Message<Void, RuntimeObject?, RuntimeObject?>(
    "xmppStream:didReceiveMessage:")
  static let didReceiveIQ = Message<Bool, RuntimeObject?, RuntimeObject?>(
    "xmppStream:didReceiveIQ:")

  static let delegateProtocol = RuntimeProtocol(
    name: "XMPPStreamDelegate",
    requirements: [
      .init(didReceiveMessage.selector, didReceiveMessage.signature, required: false),
      .init(didReceiveIQ.selector, didReceiveIQ.signature, required: false),
    ])
}

/// A `<message>` stanza (`XMPPMessage`).
final class XMPPMessage: RuntimeObject, @unchecked Sendable {
  let from: String
  let body: String

  init(class runtimeClass: RuntimeClass, from: String, body: String) {
    self.from = from
    self.body = body
    super.init(class: runtimeClass)
  }

  var sender: String { String(from.prefix { $0 != "@" }) }
}

/// An `<iq type='get'>` stanza (`XMPPIQ`) whose child element is in `namespace`.
final class XMPPIQ: RuntimeObject, @unchecked Sendable {
  let id: String
  let from: String
  let namespace: String

  init(class runtimeClass: RuntimeClass, id: String, from: String, namespace: String) {
    self.id = id
    self.from = from
    self.namespace = namespace
    super.init(class: runtimeClass)
  }
}

/// `XMPPStream`, reduced: its own serial queue, where stanzas are read and handled, and a
/// `MulticastProxy` (GCDMulticastDelegate) whose delegates each come with a queue. It
/// writes what it would put on the wire into a transcript.
final class XMPPStream: RuntimeObject, @unchecked Sendable {
  let streamQueue = QueueName.serialQueue("xmpp.stream")
  /// Messages no listener implements are dropped, as GCDMulticastDelegate does.
  let multicastDelegate = MulticastProxy(
    options: .silentWhenEmpty, protocol: XMPPStreamDelegateMessages.delegateProtocol)
  let transcript = Transcript()
  private let jid = "romeo@montague.lit/orchard"

  private func log(_ line: String) { transcript.record("[\(QueueName.current)] \(line)") }

  /// The stream's own JID. Off the stream's queue it is read with a synchronous hop
  /// onto that queue, as XMPPStream's properties are.
  var myJID: String {
    if QueueName.current == streamQueue.label { return jid }
    let caller = QueueName.current
    return streamQueue.sync {
      log("serves myJID to a caller blocked on \(caller)")
      return jid
    }
  }

  /// `addDelegate:delegateQueue:`.
  func addDelegate(_ delegate: RuntimeObject, delegateQueue: DispatchQueue) throws {
    try multicastDelegate.add(delegate, queue: delegateQueue)
  }

  /// `removeDelegate:delegateQueue:`.
  func removeDelegate(_ delegate: RuntimeObject, delegateQueue: DispatchQueue) {
    multicastDelegate.remove(delegate, queue: delegateQueue)
  }

  /// Writes `xml` to the socket, on the stream's queue (callable from any queue).
  func send(_ xml: String) {
    streamQueue.async { self.log("→ wire: \(xml)") }
  }

  /// The socket delivered a `<message>`: broadcast it, on the stream's queue.
  func receive(_ message: XMPPMessage) {
    streamQueue.async { [self] in
      log("← wire: <message from='\(message.from)'><body>\(message.body)</body></message>")
      do {
        try XMPPStreamDelegateMessages.didReceiveMessage.send(to: multicastDelegate, self, message)
        log("  broadcast xmppStream:didReceiveMessage: (each listener is called on its own queue)")
      } catch {
        log("  broadcast failed: \(error)")
      }
    }
  }

  /// The socket delivered an `<iq>`: ask every listener whether it handles it; when
  /// none does, reply with an error (RFC 6120: an IQ get/set must be answered).
  func receive(_ iq: XMPPIQ) {
    streamQueue.async { [self] in
      log(
        "← wire: <iq type='get' id='\(iq.id)' from='\(iq.from)'><query xmlns='\(iq.namespace)'/></iq>"
      )
      do {
        try multicastDelegate.aggregate(
          XMPPStreamDelegateMessages.didReceiveIQ, self, iq, reducer: .anyTrue,
          completionQueue: streamQueue
        ) { [self] result in
          let handled = (try? result.get()) ?? false
          if handled {
            log("  iq \(iq.id): handled by a listener (any true) — the stream adds nothing")
          } else {
            log("  iq \(iq.id): no listener handled it → error reply")
            log(
              "→ wire: <iq type='error' id='\(iq.id)' to='\(iq.from)'><error type='cancel'><service-unavailable/></error></iq>"
            )
          }
        }
        log(
          "  aggregate(xmppStream:didReceiveIQ:, reducer: .anyTrue) returned at once: the stream's queue is free"
        )
      } catch {
        log("  aggregate failed: \(error)")
      }
    }
  }
}

/// A listener: records what it does, with the queue it runs on, in its transcript.
class XMPPListener: RuntimeObject, @unchecked Sendable {
  let transcript = Transcript()
  func log(_ line: String) {
    transcript.record("[\(QueueName.current)] \(runtimeClass.name): \(line)")
  }
}

/// The chat window: shows messages; handles no IQ.
final class ChatWindow: XMPPListener, @unchecked Sendable {
  static func makeClass() throws -> RuntimeClass {
    let m = XMPPStreamDelegateMessages.self
    let cls = try RuntimeClass(name: "ChatWindow")
    try cls.addMethod(m.didReceiveMessage) { receiver, _, message in
      guard let message = message as? XMPPMessage else { return }
      (receiver as! ChatWindow).log("shows \"\(message.sender): \(message.body)\"")
    }
    try cls.addMethod(m.didReceiveIQ) { receiver, _, iq in
      (receiver as! ChatWindow).log("iq \((iq as? XMPPIQ)?.id ?? "?") is not mine → NO")
      return false
    }
    return cls
  }
}

/// The history logger: archives messages and answers message-archive queries
/// (`urn:xmpp:mam:2`) itself.
final class HistoryLogger: XMPPListener, @unchecked Sendable {
  private var archived = 0

  static func makeClass() throws -> RuntimeClass {
    let m = XMPPStreamDelegateMessages.self
    let cls = try RuntimeClass(name: "HistoryLogger")
    try cls.addMethod(m.didReceiveMessage) { receiver, _, message in
      let logger = receiver as! HistoryLogger
      logger.archived += 1
      logger.log(
        "archives message #\(logger.archived) from \((message as? XMPPMessage)?.sender ?? "?")")
    }
    try cls.addMethod(m.didReceiveIQ) { receiver, sender, iq in
      let logger = receiver as! HistoryLogger
      guard let iq = iq as? XMPPIQ, let stream = sender as? XMPPStream else { return false }
      guard iq.namespace == "urn:xmpp:mam:2" else {
        logger.log("iq \(iq.id) is not an archive query → NO")
        return false
      }
      // A synchronous hop onto the stream's queue: a stream blocked waiting for its
      // listeners would deadlock here.
      let me = stream.myJID
      logger.log(
        "iq \(iq.id) is an archive query for \(me) → replies with \(logger.archived) message(s), YES"
      )
      stream.send("<iq type='result' id='\(iq.id)' to='\(iq.from)'><fin complete='true'/></iq>")
      return true
    }
    return cls
  }
}

/// The notifier: shows a banner for each message; does not implement the IQ method.
final class Notifier: XMPPListener, @unchecked Sendable {
  static func makeClass() throws -> RuntimeClass {
    let cls = try RuntimeClass(name: "Notifier")
    try cls.addMethod(XMPPStreamDelegateMessages.didReceiveMessage) { receiver, _, message in
      (receiver as! Notifier).log(
        "banner \"New message from \((message as? XMPPMessage)?.sender ?? "?")\"")
    }
    return cls
  }
}

/// The `xmpp-stream` scenario: asynchronous broadcast to listeners on their queues and a
/// non-blocking "any true" aggregation for IQs.
func xmppStream() throws {
  let steps = Steps()
  let m = XMPPStreamDelegateMessages.self
  let messageClass = try RuntimeClass(name: "XMPPMessage")
  let iqClass = try RuntimeClass(name: "XMPPIQ")

  steps.next("An XMPPStream with its own queue; three listeners, each added with its own queue")
  let stream = XMPPStream(class: try RuntimeClass(name: "XMPPStream"))
  let chat = ChatWindow(class: try ChatWindow.makeClass())
  let history = HistoryLogger(class: try HistoryLogger.makeClass())
  let notifier = Notifier(class: try Notifier.makeClass())
  let uiQueue = QueueName.serialQueue("ui.main")
  let historyQueue = QueueName.serialQueue("history.io")
  let notifyQueue = QueueName.serialQueue("notify")
  try stream.addDelegate(chat, delegateQueue: uiQueue)
  try stream.addDelegate(history, delegateQueue: historyQueue)
  try stream.addDelegate(notifier, delegateQueue: notifyQueue)
  let proxy = stream.multicastDelegate
  for line in withoutAddresses(proxy.description).split(separator: "\n") { say(String(line)) }
  say(
    "count \(proxy.count); countForSelector(\(m.didReceiveIQ.selector.name)) \(proxy.count(respondingTo: m.didReceiveIQ.selector))"
  )

  let listeners: [XMPPListener] = [chat, history, notifier]
  /// Waits (demo driver only) for the stream, then its listeners, then the replies they
  /// queued back on the stream, and prints each queue's lines in a fixed order.
  func settle() {
    drain([stream.streamQueue])
    drain([uiQueue, historyQueue, notifyQueue])
    drain([stream.streamQueue])
    for transcript in [stream.transcript] + listeners.map(\.transcript) {
      for line in transcript.take() { say(line) }
    }
  }

  steps.next("The server delivers two messages, back to back")
  say("(below: each queue's lines in the order that queue ran them; stream first, then listeners)")
  stream.receive(
    XMPPMessage(class: messageClass, from: "juliet@capulet.lit", body: "Wherefore art thou?"))
  stream.receive(XMPPMessage(class: messageClass, from: "nurse@capulet.lit", body: "Madam!"))
  settle()

  steps.next("An IQ that one listener handles (a message-archive query)")
  stream.receive(
    XMPPIQ(
      class: iqClass, id: "q1", from: "juliet@capulet.lit/balcony", namespace: "urn:xmpp:mam:2"))
  settle()

  steps.next("An IQ that no listener handles")
  stream.receive(
    XMPPIQ(
      class: iqClass, id: "q2", from: "juliet@capulet.lit/balcony", namespace: "urn:example:sonnet")
  )
  settle()

  steps.next(
    "The notifier is removed from its queue (removeDelegate:delegateQueue:); another message")
  stream.removeDelegate(notifier, delegateQueue: notifyQueue)
  say("count \(proxy.count)")
  stream.receive(XMPPMessage(class: messageClass, from: "juliet@capulet.lit", body: "Good night!"))
  settle()

  withExtendedLifetime((chat, history, notifier)) {}
}
