import Dispatch
import MessageRuntime

/// What a proxy will do with one selector — the answer to "why does my delegate
/// message go nowhere?": who responds, with which signature, under which policy.
package struct SelectorReport: Sendable, CustomStringConvertible {
  /// The selector.
  package let selector: Selector
  /// The records that implement it, in the order they are called (forwarders included
  /// only if they answer now), live or not.
  package let responders: [ProxyMember]
  /// The signature messages to it have, and where it came from.
  package let signature: MethodSignature?
  /// Where ``signature`` came from.
  package let signatureSource: SignatureSource
  /// The policy in force.
  package let policy: ReturnPolicy<ReturnValue>
  /// Whether ``policy`` is an override for this selector.
  package let policyIsOverride: Bool
  /// How many observers are called before and after delivery.
  package let observerCount: (before: Int, after: Int)
  /// The proxy's answer to `responds(to:)`.
  package let respondsTo: Bool
  /// Whether an empty `lastResponder` send is dropped instead of raising.
  package let silentWhenEmpty: Bool
  /// All members, for context.
  package let members: [ProxyMember]

  /// The responders that would be called now.
  package var liveResponders: [ProxyMember] { responders.filter { !$0.isRemoved && $0.isAlive } }

  /// What a send does now, in one sentence.
  package var outcome: String {
    let live = liveResponders
    if signature == nil && live.isEmpty {
      return
        "unrecognized selector: no member implements it and no protocol or declaration gives its signature"
    }
    if live.isEmpty {
      if observerCount.before + observerCount.after > 0 {
        return "no delegate is called; observers hear it"
      }
      if case .lastResponder = policy, !silentWhenEmpty {
        return
          "unrecognized selector: no live delegate implements it (set silentWhenEmpty to drop it)"
      }
      return "dropped: no live delegate implements it; a value-returning send returns zero"
    }
    if signature?.returnsVoid ?? true { return "delivered to \(live.count) delegate(s) in order" }
    switch policy {
    case .lastResponder: return "all \(live.count) called; the last one's value is returned"
    case .firstResponder:
      return "only the first (\(live[0].delegateClass.name)) is called; its value is returned"
    case .reduce(let r): return "all \(live.count) called; values folded by \(r.name)"
    }
  }

  /// A readable rendering, for logs and diagnostics.
  package var description: String {
    var lines = ["\(selector.name):"]
    lines.append("  signature: \(signature?.encoding ?? "none") (from \(signatureSource))")
    lines.append("  policy: \(policy)\(policyIsOverride ? " (override)" : " (default)")")
    lines.append("  responds(to:): \(respondsTo)")
    if responders.isEmpty {
      lines.append("  responders: none")
    } else {
      lines.append("  responders:")
      for (i, r) in responders.enumerated() { lines.append("    \(i). \(r)") }
    }
    if observerCount.before + observerCount.after > 0 {
      lines.append("  observers: \(observerCount.before) before, \(observerCount.after) after")
    }
    lines.append("  members: \(members.count)")
    for (i, m) in members.enumerated() {
      let implements =
        m.isForwarder
        ? "asks at each message"
        : (m.methods[selector] != nil ? "implements it" : "does not implement it")
      lines.append("    \(i). \(m) — \(implements)")
    }
    lines.append("  outcome: \(outcome)")
    return lines.joined(separator: "\n")
  }
}

extension MulticastProxy {
  /// What the proxy does with `selector` now — responders, signature and its source, the
  /// policy in force, observers, and the outcome of a send — one fact per line, for logs
  /// (the same shape as ``DelegateMulticast/report(for:)``).
  public func report(for selector: Selector) -> String { selectorReport(for: selector).description }

  /// ``report(for:)`` as data, for the package's tests.
  package func selectorReport(for selector: Selector) -> SelectorReport {
    let facts = reportFacts(forKey: selector)
    let table = currentTable
    let list = table.list(for: selector)
    return SelectorReport(
      selector: selector,
      responders: list.responders.filter { !$0.isForwarder || responds($0, to: selector) },
      signature: methodSignature(for: selector), signatureSource: list.signatureSource,
      policy: facts.policy, policyIsOverride: facts.isOverride, observerCount: facts.observers,
      respondsTo: responds(to: selector), silentWhenEmpty: table.silentWhenEmpty,
      members: facts.members)
  }

  /// The proxy and its members — class, weak or strong, queue, alive — one per line.
  var membersDescription: String {
    let table = currentTable
    let members = table.members.filter { !$0.isRemoved }
    var lines = [
      "<\(runtimeClass.name) \(rawValue): \(members.count) member(s), default policy \(table.defaultPolicy)"
        + (table.silentWhenEmpty ? ", silent when empty" : "")
        + (table.protocolDescription.map { ", protocol <\($0.name)>" } ?? "")
        + ", generation \(table.generation)"
    ]
    for (i, m) in members.enumerated() { lines.append("  \(i). \(m)") }
    let overrides = table.lists.values.filter(\.policyIsOverride).sorted {
      $0.selector.name < $1.selector.name
    }
    for r in overrides { lines.append("  policy for \(r.selector.name) → \(r.policy)") }
    return lines.joined(separator: "\n") + ">"
  }
}

/// Where a selector's signature came from (the signature its responder list uses).
package enum SignatureSource: Sendable, CustomStringConvertible {
  /// The first delegate (in order) that implements the selector.
  case delegate(className: String)
  /// The proxy's protocol.
  case `protocol`(name: String)
  /// Declared with `declare(_:)`, or remembered from a delegate that has left.
  case declared
  /// No signature is known.
  case none

  /// A readable rendering, for logs and diagnostics.
  package var description: String {
    switch self {
    case .delegate(let cls): return "delegate \(cls)"
    case .protocol(let name): return "protocol <\(name)>"
    case .declared: return "declared or remembered"
    case .none: return "none"
    }
  }
}

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
