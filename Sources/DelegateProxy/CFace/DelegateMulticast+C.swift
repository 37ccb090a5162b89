import MessageRuntime

/// The C face: C code reaches a multicast's plain Swift delegates through real C function
/// pointers.
///
/// ```swift
/// let proxy = SensorDelegateMulticast()
/// try proxy.add(display)                                   // plain Swift classes
/// c_library_set_reading_callback(                          // a C library's one slot
///   try proxy.imp(for: \.sensorDidRead).rawValue, try proxy.rawValue,
///   proxy.selector(for: \.sensorDidRead).rawValue)
/// ```
/// ```c
/// // C: calls it as any IMP; a Swift object travels as void *, a struct by value
/// ((void (*)(dp_id, dp_sel, void *, struct reading))imp)(self, cmd, sensor, r);
/// ```
///
/// Behind ``rawValue`` is ``runtimeProxy``, a ``MulticastProxy`` whose members are the
/// multicast's own (its protocol, policies and members in order, handed over each time the
/// multicast changes). Each member appears there as an adapter whose methods are C functions into Swift, so the proxy's C routes call
/// Swift code with a plain C call: for a method of C scalars, pointers and class
/// instances, the `@convention(c)` function of its own signature that `@Delegate`
/// generates (`__CFaceFunction`: one `tryRetain`, the call, one release); for others
/// (structs by value), a static C entry per return class that decodes the registers
/// (``SwiftEntryObject``). A removed or
/// deallocated delegate is never called from C either; adapters hold delegates as the
/// multicast does (weakly unless strong) and nothing that leads back to the multicast.
///
/// A Swift class instance travels as its address (+0, `void *` in C), a struct by value
/// in its C layout (`{Reading=di}`). Signatures whose arguments or result do not travel
/// in registers reach the delegates through libffi closures instead of entries.
extension DelegateMulticast {
  /// The multicast's runtime face: a ``MulticastProxy`` C code messages (made on first
  /// use). Configure the multicast, not this proxy: the multicast overwrites its policies
  /// and members.
  public final var runtimeProxy: MulticastProxy {
    get throws(DelegateProxyError) { try cFace().proxy }
  }

  /// The C handle C code passes as `self`, a `dp_id` (`OpaquePointer` in Swift, so it
  /// passes to C functions declared with `dp_runtime.h`'s types as it is): the
  /// ``runtimeProxy``'s `RuntimeObject.rawValue`.
  ///
  /// Valid while the multicast lives (the multicast keeps its runtime proxy); it keeps
  /// nothing alive, so whoever hands it to C keeps the multicast for as long as C may use
  /// it.
  public final var rawValue: OpaquePointer {
    get throws(DelegateProxyError) { try cFace().proxy.rawValue }
  }

  /// The selector of the method `message` names (`_cmd` for C callers).
  public final func selector<Arguments, Result>(for message: MessageKey<Arguments, Result>)
    -> Selector
  {
    protocolDescription.methods[index(of: message)].selector
  }

  /// A method C callers can reach, named by its handle in `Messages.CMessages`: the
  /// methods whose parameter and result types have a C form (`\.sensorDidRead`). A
  /// method taking or returning a Swift-only type (`String`, a closure, an enum…) has no
  /// handle there, so asking for its C face does not compile.
  public typealias CMessageKey<Arguments, Result> = KeyPath<
    Messages.CMessages, DelegateMessage<Delegate, Arguments, Result>
  >

  /// The implementation C calls for `message` with ``rawValue`` as `self`
  /// (`methodForSelector:`): a real C function pointer that reaches every delegate under
  /// the method's policy. Look it up again after changing membership or policies. Throws
  /// ``DelegateProxyError/unsupportedType(protocol:method:parameter:type:reason:)`` for a
  /// method whose named type turned out, at run time, to have no C form (a struct
  /// holding a `String`: the macro cannot see into named types).
  public final func imp<Arguments, Result>(for message: CMessageKey<Arguments, Result>) throws
    -> IMP
  {
    let method = protocolDescription.methods[Messages.CMessages()[keyPath: message].index]
    _ = try method.cSignature(in: protocolDescription.name)
    let face = try cFace()
    // C calls that met a gone member or learned a missing optional method asked for a
    // rebuild; no Swift code runs after a C call to do it.
    rebuildIfNeeded()
    return try face.proxy.imp(for: method.selector)
  }

  /// The C face, made (and given the members) on first use.
  private func cFace() throws(DelegateProxyError) -> CFace<Delegate> {
    if let face = state.withLock({ $0.cFace }) { return face }
    return try update { s throws(DelegateProxyError) in
      if let face = s.cFace { return face }
      let face = try CFace(
        description: protocolDescription, calls: Self.__cCalls, entries: Self.__cFunctions,
        arguments: Self.__cArguments, rebuild: needsRebuild)
      s.cFace = face
      return face
    }
  }
}

extension DelegateMulticast {
  /// A C callback of a library's own signature — the method's parameters with a `void *`
  /// context at `context` (or none) — whose function pointer reaches this multicast's
  /// delegates under the method's policy: expat's handlers, SQLite's hooks, libcurl's
  /// write callback, delivered to plain Swift classes. Register the adapter's
  /// `CallbackAdapter.context` with the library and keep the adapter while the library
  /// holds its function pointer (see `CallbackAdapter`). Throws
  /// `CallbackAdapterError` for a callback the package cannot carry, or
  /// ``DelegateProxyError`` for a method type with no C form.
  public final func callbackAdapter<Arguments, Result>(
    for message: CMessageKey<Arguments, Result>, context: CallbackContext,
    defaultResult: CallbackResult? = nil, sharingContextWith other: CallbackAdapter? = nil
  ) throws -> CallbackAdapter {
    let method = protocolDescription.methods[Messages.CMessages()[keyPath: message].index]
    let signature = try method.cSignature(in: protocolDescription.name)
    var arguments = Array(signature.argumentTypes.dropFirst(2))
    switch context {
    case .first: arguments.insert(.pointer(.void), at: 0)
    case .last: arguments.append(.pointer(.void))
    case .argument(let k): arguments.insert(.pointer(.void), at: min(max(k, 0), arguments.count))
    case .none: break
    }
    return try CallbackAdapter(
      CallbackSignature(returnType: signature.returnType, arguments: arguments), context: context,
      receiver: runtimeProxy, selector: method.selector, defaultResult: defaultResult,
      sharingContextWith: other)
  }
}
