import MessageRuntime

/// A `@Delegate` multicast as the message runtime and C code see it
/// (`multicast.runtime`): the runtime object C code messages, its C handle, each method's
/// selector and C implementation, and C callback adapters of a library's own signature.
/// See `CFace.swift` for how C calls reach the Swift delegates.
public struct MulticastCFace<Delegate, Handles: MessageHandles>: Sendable {
  /// The multicast.
  let multicast: DelegateMulticast<Delegate, Handles>

  /// A method C callers can reach, named by its handle in `Handles.CHandles`: the
  /// methods whose parameter and result types have a C form (`\.sensorDidRead`). A
  /// method taking or returning a Swift-only type (`String`, a closure, an enum…) has no
  /// handle there, so asking for its C face does not compile.
  public typealias CHandleKey<Arguments, Result> = KeyPath<
    Handles.CHandles, MessageHandle<Delegate, Arguments, Result>
  >

  /// The runtime object C code messages (made on first use): one method per protocol
  /// method, each running the multicast's own dispatch — its members, policies,
  /// observers and queues, as a Swift call does — so a message sent to it from C, or an
  /// ``Invocation`` invoked on it, reaches the delegates exactly as a Swift call would.
  /// It answers `responds(to:)` as the multicast does. It has no members or policies of
  /// its own: configure the multicast. Throws
  /// ``DelegateProxyError/unsupportedType(protocol:method:parameter:type:reason:)`` when a
  /// named type of the protocol turned out, at run time, to have no C form.
  public func proxy() throws(DelegateProxyError) -> RuntimeObject {
    try multicast.cFace()
  }

  /// The C handle C code passes as `self`, a `dp_id` (`OpaquePointer` in Swift, so it
  /// passes to C functions declared with `dp_runtime.h`'s types as it is): the
  /// ``proxy()``'s `RuntimeObject.rawValue`.
  ///
  /// Valid while the multicast lives (the multicast keeps its C face); it keeps nothing
  /// alive, so whoever hands it to C keeps the multicast for as long as C may use it.
  public func rawValue() throws(DelegateProxyError) -> OpaquePointer {
    try multicast.cFace().rawValue
  }

  /// The selector of the method `message` names (`_cmd` for C callers).
  public func selector<Handle: MessageHandleProtocol>(for message: KeyPath<Handles, Handle>)
    -> Selector
  {
    method(message).selector
  }

  /// The method's description as the runtime sees it: its selector, Swift name, types and
  /// whether it is required.
  public func method<Handle: MessageHandleProtocol>(_ message: KeyPath<Handles, Handle>)
    -> MethodDescription
  {
    multicast.protocolDescription.methods[multicast.index(of: message)]
  }

  /// The implementation C calls for `message` with ``rawValue()`` as `self`
  /// (`methodForSelector:`): a real C function pointer that runs the multicast's dispatch
  /// of the method, under its policy — the same function whatever the membership and
  /// policies become, so it may be kept. Throws
  /// ``DelegateProxyError/unsupportedType(protocol:method:parameter:type:reason:)`` for a
  /// method whose named type turned out, at run time, to have no C form (a struct
  /// holding a `String`: the macro cannot see into named types).
  public func imp<Arguments, Result>(for message: CHandleKey<Arguments, Result>) throws -> IMP {
    let description = multicast.protocolDescription
    let method = description.methods[Handles.CHandles()[keyPath: message].index]
    _ = try method.cSignature(in: description.name)
    return try multicast.cFace().imp(for: method.selector)
  }

  /// A C callback of a library's own signature — the method's parameters with a `void *`
  /// context at `context` (or none) — whose function pointer reaches the multicast's
  /// delegates under the method's policy: expat's handlers, SQLite's hooks, libcurl's
  /// write callback, delivered to plain Swift classes. Register the adapter's
  /// `CallbackAdapter.context` with the library and keep the adapter while the library
  /// holds its function pointer (see `CallbackAdapter`). Throws
  /// `CallbackAdapterError` for a callback the package cannot carry, or
  /// ``DelegateProxyError`` for a method type with no C form.
  public func callbackAdapter<Arguments, Result>(
    for message: CHandleKey<Arguments, Result>, context: CallbackContext,
    defaultResult: CallbackResult? = nil, sharingContextWith other: CallbackAdapter? = nil
  ) throws -> CallbackAdapter {
    let description = multicast.protocolDescription
    let method = description.methods[Handles.CHandles()[keyPath: message].index]
    let signature = try method.cSignature(in: description.name)
    var arguments = Array(signature.argumentTypes.dropFirst(2))
    switch context {
    case .first: arguments.insert(.pointer(.void), at: 0)
    case .last: arguments.append(.pointer(.void))
    case .argument(let k): arguments.insert(.pointer(.void), at: min(max(k, 0), arguments.count))
    case .none: break
    }
    return try CallbackAdapter(
      CallbackSignature(returnType: signature.returnType, arguments: arguments), context: context,
      receiver: proxy(), selector: method.selector, defaultResult: defaultResult,
      sharingContextWith: other)
  }
}
