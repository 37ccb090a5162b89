// Every requirement of Foundation's StreamDelegate, inherited ones included, restated
// for @Delegate by `swift package restate-delegate StreamDelegate --target RestatedProtocolTests`.
// Re-run it when the dependency changes; `--check` fails when this falls out of step.
// Comments and attributes you add to a requirement (@Default, @Selector) are kept;
// policies are set in code, on the multicast, so nothing else here needs editing.
import DelegateProxy
import Foundation

@Delegate(for: StreamDelegate.self)
protocol StreamDelegates: StreamDelegate {
  func stream(_ aStream: Stream, handle eventCode: Stream.Event)
}
