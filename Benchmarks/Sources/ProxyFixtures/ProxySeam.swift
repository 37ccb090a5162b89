// The proxy the proxy rows measure, built in ONE place.
//
// ┌──────────────────────────────────────────────────────────────────────────────────┐
// │ STAND-IN. `DelegateProxy.MulticastProxy` does not exist yet, so the proxy rows    │
// │ (proxy_c, proxy_swift, responders_*) measure `ForwardingMulticastStandIn`: a      │
// │ MessageRuntime `ForwardingProxy` subclass that forwards every message through the │
// │ general path (libffi closure → Invocation → forwardInvocation → invoke(target:)). │
// │ Rows record it as "path": "forwarding-general" (`proxyPath`).                     │
// │                                                                                   │
// │ To measure MulticastProxy, change the body of `makeProxy` (one line) and          │
// │ `proxyPath`; nothing else in the benchmarks builds a proxy.                       │
// └──────────────────────────────────────────────────────────────────────────────────┘

import MessageRuntime

/// What the proxy rows measure, recorded in each row's "path".
public let proxyPath = "forwarding-general"

/// The proxy under test over `members`, in order, for messages of `signature`. Every
/// member that implements a message receives it; a value-returning message returns the
/// last responder's value (AIMultiDelegate's `.lastResponder` policy).
public func makeProxy(members: [RuntimeObject], signature: BenchSignature) -> RuntimeObject {
  // MulticastProxy: return MulticastProxy(delegates: members, policy: .lastResponder)
  ForwardingMulticastStandIn(members: members)
}

/// STAND-IN for `DelegateProxy.MulticastProxy` (see above): the multicast forwarder a
/// user could write today on MessageRuntime alone. Per message it asks each member
/// `responds(to:)` and re-issues the invocation to those that do; the last value stays
/// in the invocation and is returned to the sender.
public final class ForwardingMulticastStandIn: ForwardingProxy, @unchecked Sendable {
  public let members: [RuntimeObject]

  public init(members: [RuntimeObject]) {
    self.members = members
    super.init()
  }

  public override func methodSignature(for selector: Selector) -> MethodSignature? {
    for member in members {
      if let signature = member.methodSignature(for: selector) { return signature }
    }
    return nil
  }

  public override func forwardInvocation(_ invocation: Invocation) throws {
    guard let selector = invocation.selector else { return }
    for member in members where member.responds(to: selector) {
      try invocation.invoke(target: member)
    }
  }
}
