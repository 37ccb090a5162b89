// The proxy the proxy rows measure, built in ONE place: DelegateProxy's MulticastProxy
// with AIMultiDelegate's policy (every responder called, the last one's value returned).

import DelegateProxy
import MessageRuntime

/// The proxy under test over `members`, in order. It holds them weakly: the workload
/// keeps them alive.
public func makeProxy(members: [RuntimeObject], signature: BenchSignature) -> MulticastProxy {
  do {
    return try MulticastProxy(delegates: members, policy: .lastResponder)
  } catch {
    fatalError("benchmark proxy over \(members.count) members: \(error)")
  }
}

/// Which path the proxy takes for `signature`, recorded in each proxy row's "path".
public func proxyPath(_ proxy: MulticastProxy, _ signature: BenchSignature) -> String {
  switch proxy.fastPath(for: signature.selector) {
  case .registers: "route-registers"
  case .registersAndMemory: "route-registers-memory"
  case .libffi: "route-libffi"
  case nil: "forwarding-general"
  }
}
