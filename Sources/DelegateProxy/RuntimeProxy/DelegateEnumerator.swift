import Dispatch
import MessageRuntime

/// A snapshot of a proxy's delegates for custom aggregation (`GCDMulticastDelegate`'s
/// `GCDMulticastDelegateEnumerator`): each live delegate with its queue, in order,
/// optionally only those of a class or that implement a selector.
///
/// The membership is fixed when the enumerator is made; a delegate removed or
/// deallocated afterwards is skipped when reached (the original nulls a removed node so
/// its snapshot skips it). Each element holds its delegate strongly.
///
/// ```swift
/// for (delegate, queue) in proxy.delegateEnumerator(respondingTo: shouldPerform.selector) {
///   group.enter()
///   (queue ?? .global()).async { … group.leave() }
/// }
/// ```
public struct DelegateEnumerator: Sequence, IteratorProtocol, Sendable {
  /// A delegate and the queue it wants to be called on (nil: any thread).
  public typealias Element = (delegate: RuntimeObject, queue: DispatchQueue?)

  private let entries: [ProxyMember]
  private let ofClass: RuntimeClass?
  private let selector: Selector?
  private var index = 0

  init(entries: [ProxyMember], ofClass: RuntimeClass?, selector: Selector?) {
    self.entries = entries
    self.ofClass = ofClass
    self.selector = selector
  }

  /// The next live delegate that passes the filters (`getNextDelegate:delegateQueue:`).
  public mutating func next() -> Element? {
    while index < entries.count {
      let entry = entries[index]
      index += 1
      guard !entry.isRemoved, let delegate = entry.delegate else { continue }
      if let ofClass, !delegate.runtimeClass.isSubclass(of: ofClass) { continue }
      if let selector, entry.isForwarder, !delegate.responds(to: selector) { continue }
      return (delegate, entry.queue)
    }
    return nil
  }
}

extension MulticastProxy {
  /// A snapshot enumerator over the live delegates and their queues, optionally only
  /// instances of `ofClass` (or a subclass) and only those implementing `selector`
  /// (`delegateEnumerator`, `getNextDelegate:delegateQueue:ofClass:` / `forSelector:`).
  public func delegateEnumerator(
    ofClass: RuntimeClass? = nil, respondingTo selector: Selector? = nil
  )
    -> DelegateEnumerator
  {
    let table = currentTable
    let entries = selector.map { table.list(for: $0).responders } ?? table.members
    return DelegateEnumerator(entries: entries, ofClass: ofClass, selector: selector)
  }
}
