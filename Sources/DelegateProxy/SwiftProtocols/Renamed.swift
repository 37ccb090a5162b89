import MessageRuntime

// The names #24 retired (one name per concept; see the Glossary article), kept as
// deprecated aliases so that code written against them compiles, with a fix-it.

/// Renamed ``MessageHandle``.
@available(*, deprecated, renamed: "MessageHandle")
public typealias DelegateMessage<Delegate, Arguments, Result> = MessageHandle<
  Delegate, Arguments, Result
>

/// Renamed ``ThrowingMessageHandle``.
@available(*, deprecated, renamed: "ThrowingMessageHandle")
public typealias ThrowingDelegateMessage<Delegate, Arguments, Result> = ThrowingMessageHandle<
  Delegate, Arguments, Result
>

/// Renamed ``AsyncMessageHandle``.
@available(*, deprecated, renamed: "AsyncMessageHandle")
public typealias AsyncDelegateMessage<Delegate, Arguments, Result> = AsyncMessageHandle<
  Delegate, Arguments, Result
>

/// Renamed ``MessageHandleProtocol``.
@available(*, deprecated, renamed: "MessageHandleProtocol")
public typealias DelegateMessageHandle = MessageHandleProtocol

/// Renamed ``MessageHandles``.
@available(*, deprecated, renamed: "MessageHandles")
public typealias DelegateMessages = MessageHandles

/// Renamed ``ProtocolDescription``.
@available(*, deprecated, renamed: "ProtocolDescription")
public typealias DelegateProtocol<Delegate> = ProtocolDescription<Delegate>

/// Renamed ``MethodDescription``.
@available(*, deprecated, renamed: "MethodDescription")
public typealias DelegateMethodDescription = MethodDescription

/// Renamed ``MemberErrors``.
@available(*, deprecated, renamed: "MemberErrors")
public typealias DelegateErrors = MemberErrors

/// Renamed ``Generational``.
@available(*, deprecated, renamed: "Generational")
public typealias RespondsToGeneration = Generational

/// Renamed ``MulticastCFace``.
@available(*, deprecated, renamed: "MulticastCFace")
public typealias MulticastRuntimeFace<Delegate, Handles: MessageHandles> = MulticastCFace<
  Delegate, Handles
>

extension Generational {
  /// Renamed ``Generational/generation``.
  @available(*, deprecated, renamed: "generation")
  public var respondsToGeneration: UInt64 { generation }
}

extension DelegateMulticast {
  /// Renamed ``DelegateMulticast/HandleKey``.
  @available(*, deprecated, renamed: "HandleKey")
  public typealias MessageKey<Arguments, Result> = HandleKey<Arguments, Result>
}

extension MulticastCFace {
  /// Renamed ``MulticastCFace/CHandleKey``.
  @available(*, deprecated, renamed: "CHandleKey")
  public typealias CMessageKey<Arguments, Result> = CHandleKey<Arguments, Result>
}
