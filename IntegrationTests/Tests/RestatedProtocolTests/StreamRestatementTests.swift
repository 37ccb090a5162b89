import DelegateProxy
import Foundation
import Testing

// StreamDelegates.swift is `swift package restate-delegate StreamDelegate --target
// RestatedProtocolTests`'s output, unedited. swift-corelibs-foundation's streams do not
// deliver delegate events on Linux (a scheduled, opened InputStream calls nothing), so the
// test sends the event as a Stream does: to `stream.delegate`.

/// Records the events a stream reports.
final class EventRecorder: NSObject, StreamDelegate {
  var events: [Stream.Event] = []
  func stream(_ aStream: Stream, handle eventCode: Stream.Event) { events.append(eventCode) }
}

@Suite("StreamDelegate restated by the command")
struct StreamRestatementTests {
  @Test("An event sent to the stream's delegate reaches both members")
  func event() {
    let first = EventRecorder()
    let second = EventRecorder()
    let delegates = StreamDelegatesMulticast()
    delegates.add(first)
    delegates.add(second)
    let stream = InputStream(data: Data("abc".utf8))
    stream.delegate = delegates
    stream.delegate?.stream(stream, handle: .hasBytesAvailable)
    #expect(first.events == [.hasBytesAvailable])
    #expect(second.events == [.hasBytesAvailable])
  }
}
