// GCDMulticastDelegate, as XMPPFramework's XMPPStream uses it: listeners each on their
// own dispatch queue; a received message broadcast to all of them asynchronously; an IQ
// answered "handled" if any listener handles it, else with an error reply — decided
// without ever blocking the stream's queue. A Swift protocol and plain classes.

import DelegateProxy
import Dispatch

/// A `<message>` stanza (`XMPPMessage`).
final class XMPPMessage: Sendable {
  let from: String
  let body: String

  init(from: String, body: String) {
    self.from = from
    self.body = body
  }

  var sender: String { String(from.prefix { $0 != "@" }) }
}

/// An `<iq type='get'>` stanza (`XMPPIQ`) whose child element is in `namespace`.
final class XMPPIQ: Sendable {
  let id: String
  let from: String
  let namespace: String

  init(id: String, from: String, namespace: String) {
    self.id = id
    self.from = from
    self.namespace = namespace
  }
}

/// `XMPPStreamDelegate` (all optional).
@Delegate
protocol XMPPStreamDelegate: AnyObject {
  @Optional func xmppStream(_ sender: XMPPStream, didReceiveMessage message: XMPPMessage)
  @Optional func xmppStream(_ sender: XMPPStream, didReceiveIQ iq: XMPPIQ) -> Bool
}

/// `XMPPStream`, reduced: its own serial queue, where stanzas are read and handled, and a
/// multicast delegate whose listeners each come with a queue. It writes what it would
/// put on the wire into a transcript.
final class XMPPStream: Sendable {
  let streamQueue = QueueName.serialQueue("xmpp.stream")
  let multicastDelegate = XMPPStreamDelegateMulticast()
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
  func addDelegate(_ delegate: any XMPPStreamDelegate, delegateQueue: DispatchQueue) throws {
    multicastDelegate.add(delegate, queue: delegateQueue)
  }

  /// `removeDelegate:delegateQueue:`.
  func removeDelegate(_ delegate: any XMPPStreamDelegate, delegateQueue: DispatchQueue) {
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
      multicastDelegate.xmppStream(self, didReceiveMessage: message)
      log("  broadcast xmppStream(_:didReceiveMessage:) (each listener is called on its own queue)")
    }
  }

  /// The socket delivered an `<iq>`: ask every listener whether it handles it; when
  /// none does, reply with an error (RFC 6120: an IQ get/set must be answered).
  func receive(_ iq: XMPPIQ) {
    streamQueue.async { [self] in
      log(
        "← wire: <iq type='get' id='\(iq.id)' from='\(iq.from)'><query xmlns='\(iq.namespace)'/></iq>"
      )
      multicastDelegate.aggregate(
        \.xmppStreamDidReceiveIQ, self, iq, reducer: .anyTrue, completionQueue: streamQueue
      ) { [self] handled in
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
        "  aggregate(\\.xmppStreamDidReceiveIQ, reducer: .anyTrue) returned at once: the stream's queue is free"
      )
    }
  }
}

/// A listener: records what it does, with the queue it runs on, in its transcript.
class XMPPListener: @unchecked Sendable {
  // @unchecked Sendable: each listener's mutable state is touched only on the one queue
  // it was added with (GCDMulticastDelegate's contract); the transcript is locked.
  let transcript = Transcript()
  func log(_ line: String) {
    transcript.record("[\(QueueName.current)] \(type(of: self)): \(line)")
  }
}

/// The chat window: shows messages; handles no IQ.
final class ChatWindow: XMPPListener, XMPPStreamDelegate, @unchecked Sendable {
  func xmppStream(_ sender: XMPPStream, didReceiveMessage message: XMPPMessage) {
    log("shows \"\(message.sender): \(message.body)\"")
  }

  func xmppStream(_ sender: XMPPStream, didReceiveIQ iq: XMPPIQ) -> Bool {
    log("iq \(iq.id) is not mine → NO")
    return false
  }
}

/// The history logger: archives messages and answers message-archive queries
/// (`urn:xmpp:mam:2`) itself.
final class HistoryLogger: XMPPListener, XMPPStreamDelegate, @unchecked Sendable {
  private var archived = 0

  func xmppStream(_ sender: XMPPStream, didReceiveMessage message: XMPPMessage) {
    archived += 1
    log("archives message #\(archived) from \(message.sender)")
  }

  func xmppStream(_ sender: XMPPStream, didReceiveIQ iq: XMPPIQ) -> Bool {
    guard iq.namespace == "urn:xmpp:mam:2" else {
      log("iq \(iq.id) is not an archive query → NO")
      return false
    }
    // A synchronous hop onto the stream's queue: a stream blocked waiting for its
    // listeners would deadlock here.
    let me = sender.myJID
    log("iq \(iq.id) is an archive query for \(me) → replies with \(archived) message(s), YES")
    sender.send("<iq type='result' id='\(iq.id)' to='\(iq.from)'><fin complete='true'/></iq>")
    return true
  }
}

/// The notifier: shows a banner for each message; does not implement the IQ method.
final class Notifier: XMPPListener, XMPPStreamDelegate, @unchecked Sendable {
  func xmppStream(_ sender: XMPPStream, didReceiveMessage message: XMPPMessage) {
    log("banner \"New message from \(message.sender)\"")
  }
}

/// The `xmpp-stream` scenario: asynchronous broadcast to listeners on their queues and a
/// non-blocking "any true" aggregation for IQs.
func xmppStream() throws {
  let steps = Steps()

  steps.next("An XMPPStream with its own queue; three listeners, each added with its own queue")
  let stream = XMPPStream()
  let chat = ChatWindow()
  let history = HistoryLogger()
  let notifier = Notifier()
  let uiQueue = QueueName.serialQueue("ui.main")
  let historyQueue = QueueName.serialQueue("history.io")
  let notifyQueue = QueueName.serialQueue("notify")
  try stream.addDelegate(chat, delegateQueue: uiQueue)
  try stream.addDelegate(history, delegateQueue: historyQueue)
  try stream.addDelegate(notifier, delegateQueue: notifyQueue)
  let proxy = stream.multicastDelegate
  for line in proxy.description.split(separator: "\n") { say(String(line)) }
  say("count \(proxy.count)")

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
  stream.receive(XMPPMessage(from: "juliet@capulet.lit", body: "Wherefore art thou?"))
  stream.receive(XMPPMessage(from: "nurse@capulet.lit", body: "Madam!"))
  settle()

  steps.next("An IQ that one listener handles (a message-archive query)")
  stream.receive(XMPPIQ(id: "q1", from: "juliet@capulet.lit/balcony", namespace: "urn:xmpp:mam:2"))
  settle()

  steps.next("An IQ that no listener handles")
  stream.receive(
    XMPPIQ(id: "q2", from: "juliet@capulet.lit/balcony", namespace: "urn:example:sonnet"))
  settle()
  say(
    "the notifier does not implement the IQ method: its class is known not to, \(proxy.count(respondingTo: \.xmppStreamDidReceiveIQ)) responders remain"
  )

  steps.next(
    "The notifier is removed from its queue (removeDelegate:delegateQueue:); another message")
  stream.removeDelegate(notifier, delegateQueue: notifyQueue)
  say("count \(proxy.count)")
  stream.receive(XMPPMessage(from: "juliet@capulet.lit", body: "Good night!"))
  settle()

  withExtendedLifetime((chat, history, notifier)) {}
}
