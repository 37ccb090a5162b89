import Dispatch

/// What `@Delegate` generates for a protocol that is not class-bound: a struct that
/// conforms to the protocol and has value semantics, over a ``DelegateMulticast`` it
/// shares with its copies until one of them changes (copy on write).
///
/// ```swift
/// @Delegate
/// protocol Sink {
///   func write(_ line: String)
///   mutating func setPrefix(_ prefix: String)
/// }
///
/// var a = SinkMulticast()
/// a.add(FileSink())              // a struct: held by value
/// var b = a                      // b has a's members…
/// b.setPrefix("b: ")             // …and changes only its own copies of them
/// ```
///
/// As the protocol's contract is value semantics, a copy of the multicast is a new
/// multicast: adding, removing, blocking, a policy and a `mutating` call on one copy leave
/// the others as they were (a copy of swift-log's `Logger` that changes its level does not
/// change another copy's handlers). Members that are values are copied with it; members
/// that are objects are the same objects in every copy (held as the copy they were added
/// to holds them: weakly unless added with ``Retention/strong``). Observers go with every
/// copy; cancelling one removes it from all.
///
/// Calls that are not `mutating` are sent to the members without a lock, as from a
/// class multicast; a `mutating` call changes each member's stored value (see
/// ``DelegateMulticast/__sendMutating(_:_:_:)``). Such a multicast has no C face and no
/// `messages(_:)` sequence.
public protocol DelegateValueMulticast<Delegate>: Sendable {
  /// The protocol's existential (`any Sink`).
  associatedtype Delegate
  /// The typed handles of the protocol's methods.
  associatedtype Handles: MessageHandles

  /// Generated: the multicast this copy shares with the others, or this copy's own values
  /// of its members, which hold that multicast (one reference either way). Not for direct
  /// use.
  var __storage: __ValueMulticastStorage<Delegate, Handles> { get set }
  /// An empty multicast: `policy` is the policy of every method without one of its own;
  /// ``MulticastOptions/unique`` keeps each delegate once (values: by `==`).
  init(policy: ReturnPolicy<Any>, options: MulticastOptions)
}

extension DelegateValueMulticast {
  /// An empty multicast whose methods answer as the last responder does.
  public init() { self.init(policy: .lastResponder, options: []) }

  /// The multicast the value reads — shared with its copies, or, when this copy keeps
  /// values of its own, one made with them. Not for direct use.
  public var __engine: DelegateMulticast<Delegate, Handles> { __storage.engine }

  /// The multicast the value changes, copied first when another copy shares it or this
  /// copy keeps values of its own. Not for direct use.
  public mutating func __uniqueEngine() -> DelegateMulticast<Delegate, Handles> {
    __storage.uniqueEngine()
  }

  // MARK: Membership

  /// Adds `delegate` at the end: a value is held by value (its own copy, which `mutating`
  /// calls change); an object is held as `retention` says, by default strongly unless the
  /// protocol is class-bound (``DelegateMulticast/defaultRetention``).
  /// With `queue`, the member is called on that queue. Returns the membership, which names
  /// a value member for ``remove(_:)-(MemberID)`` and ``delegate(_:)``.
  @discardableResult
  public mutating func add(
    _ delegate: Delegate, queue: DispatchQueue? = nil, retention: Retention? = nil
  ) -> MemberID {
    __uniqueEngine().add(delegate, queue: queue, retention: retention)
  }

  /// Inserts `delegate` at `index` among the members (clamped to `0...count`).
  @discardableResult
  public mutating func insert(
    _ delegate: Delegate, at index: Int, queue: DispatchQueue? = nil, retention: Retention? = nil
  ) -> MemberID {
    __uniqueEngine().insert(delegate, at: index, queue: queue, retention: retention)
  }

  /// Removes the membership `member` names; a membership already gone does nothing.
  public mutating func remove(_ member: MemberID) {
    guard __engine.delegate(member) != nil else { return }
    __uniqueEngine().remove(member)
  }

  /// Removes `delegate`: an object by identity, a value by `==` when its type is
  /// `Equatable` (else nothing: remove it by its ``MemberID``).
  public mutating func remove(_ delegate: Delegate) {
    guard __engine.contains(delegate) else { return }
    __uniqueEngine().remove(delegate)
  }

  /// Removes every member for which `predicate` is true (given each member: an object, or a
  /// copy of a value).
  public mutating func removeAll(where predicate: (Delegate) -> Bool) {
    guard __engine.contains(where: predicate) else { return }
    __uniqueEngine().removeAll(where: predicate)
  }

  /// Removes every member.
  public mutating func removeAll() {
    guard !__engine.memberIDs.isEmpty else { return }
    __uniqueEngine().removeAll()
  }

  // MARK: Policies

  /// The policy of every method without one of its own.
  public var defaultPolicy: ReturnPolicy<Any> {
    get { __engine.defaultPolicy }
    set { __uniqueEngine().defaultPolicy = newValue }
  }

  /// Sets the policy of one method (nil returns it to the default), typed by its result.
  public mutating func setPolicy<Handle: MessageHandleProtocol>(
    _ policy: ReturnPolicy<Handle.Result>?, for message: KeyPath<Handles, Handle>
  ) {
    __uniqueEngine().setPolicy(policy, for: message)
  }

  /// Sets which members a call of `message` reaches, from each member and the call's
  /// arguments (nil: every member again) — see ``DelegateMulticast/setFilter(for:_:)``.
  public mutating func setFilter<Handle: MessageHandleProtocol>(
    for message: KeyPath<Handles, Handle>,
    _ filter: (@Sendable (Delegate, Handle.Arguments) -> Bool)?
  ) where Handle.Delegate == Delegate {
    __uniqueEngine().setFilter(for: message, filter)
  }

  /// Sets what a `throws` method does when a delegate throws (nil returns it to
  /// ``DelegateErrorPolicy/stopAtFirst``) — see ``DelegateMulticast/setErrorPolicy(_:for:)-(_,KeyPath<Handles,ThrowingMessageHandle<Delegate,Arguments,Result>>)``.
  public mutating func setErrorPolicy<Arguments, Result>(
    _ policy: DelegateErrorPolicy?,
    for message: KeyPath<Handles, ThrowingMessageHandle<Delegate, Arguments, Result>>
  ) {
    __uniqueEngine().setErrorPolicy(policy, for: message)
  }

  /// Sets what an `async throws` method does when a delegate throws (nil returns it to
  /// ``DelegateErrorPolicy/stopAtFirst``).
  public mutating func setErrorPolicy<Arguments, Result>(
    _ policy: DelegateErrorPolicy?,
    for message: KeyPath<Handles, AsyncMessageHandle<Delegate, Arguments, Result>>
  ) {
    __uniqueEngine().setErrorPolicy(policy, for: message)
  }

  /// The error policy in force for a method.
  public func errorPolicy<Handle: MessageHandleProtocol>(for message: KeyPath<Handles, Handle>)
    -> DelegateErrorPolicy
  {
    __engine.errorPolicy(for: message)
  }

  /// Sets how an `async` method awaits its delegates (nil returns it to
  /// ``DelegateConcurrency/sequential``) — see ``DelegateMulticast/setConcurrency(_:for:)``.
  public mutating func setConcurrency<Arguments, Result>(
    _ concurrency: DelegateConcurrency?,
    for message: KeyPath<Handles, AsyncMessageHandle<Delegate, Arguments, Result>>
  ) {
    __uniqueEngine().setConcurrency(concurrency, for: message)
  }

  /// The concurrency in force for a method.
  public func concurrency<Handle: MessageHandleProtocol>(for message: KeyPath<Handles, Handle>)
    -> DelegateConcurrency
  {
    __engine.concurrency(for: message)
  }

  /// The policy in force for a method.
  public func policy<Handle: MessageHandleProtocol>(for message: KeyPath<Handles, Handle>)
    -> ReturnPolicy<Handle.Result>
  {
    __engine.policy(for: message)
  }

  // MARK: Queries

  /// The live members, in order: objects, and copies of the values as they are now.
  public var delegates: [Delegate] { __engine.delegates }
  /// How many live members the multicast has.
  public var count: Int { __engine.count }
  /// The live memberships, in call order.
  public var memberIDs: [MemberID] { __engine.memberIDs }
  /// The member `member` names, as it is now; nil when the membership is gone.
  public func delegate(_ member: MemberID) -> Delegate? { __engine.delegate(member) }
  /// Whether `delegate` is a live member (an object by identity, an `Equatable` value by `==`).
  public func contains(_ delegate: Delegate) -> Bool { __engine.contains(delegate) }
  /// Whether some live member satisfies `predicate`.
  public func contains(where predicate: (Delegate) -> Bool) -> Bool {
    __engine.contains(where: predicate)
  }
  /// The live members of type `type`, in order (values as they are now).
  public func members<T>(ofType type: T.Type) -> [T] { __engine.members(ofType: type) }
  /// The first live member of type `type`.
  public func first<T>(ofType type: T.Type) -> T? { __engine.first(ofType: type) }
  /// Whether some live member implements the method, or an observer watches it.
  public func responds<Handle: MessageHandleProtocol>(to message: KeyPath<Handles, Handle>)
    -> Bool
  {
    __engine.responds(to: message)
  }

  // MARK: Observation

  /// Calls `handler` with the arguments each time the method is called on this multicast
  /// (and on the copies made from it afterwards), before or after its members. Keep the
  /// returned observation: dropping or cancelling it removes the observer from every copy.
  public mutating func observe<Handle: MessageHandleProtocol>(
    _ message: KeyPath<Handles, Handle>, _ phase: ObservationPhase = .after,
    _ handler: @escaping @Sendable (Handle.Arguments) -> Void
  ) -> MessageObservation {
    __uniqueEngine().observe(message, phase, handler)
  }
}

extension DelegateValueMulticast {
  // MARK: Remembered reads

  /// Remembers the answer of the property read `read` until this copy next changes, instead
  /// of asking every member on each read — see ``DelegateMulticast/remember(_:)``:
  ///
  /// ```swift
  /// sinks.setPolicy(.reduce(.min), for: \.logLevel)
  /// sinks.remember(\.logLevel)   // Logger reads it before every line
  /// ```
  ///
  /// Only for a read whose answer depends only on the members' stored values; while one of
  /// its responders is an object, it is asked every time. Copies remember their own answers.
  public mutating func remember<Result>(
    _ read: KeyPath<Handles, MessageHandle<Delegate, Void, Result>>
  ) {
    __uniqueEngine().remember(read)
  }

  /// Remembers `read`'s answer and lets it outlive the calls of `write`, which the caller
  /// promises never change it — see ``DelegateMulticast/remember(_:across:)``:
  ///
  /// ```swift
  /// sinks.remember(\.logLevel, across: \.setSubscriptMetadataKey)
  /// ```
  public mutating func remember<Result, Arguments>(
    _ read: KeyPath<Handles, MessageHandle<Delegate, Void, Result>>,
    across write: KeyPath<Handles, MessageHandle<Delegate, Arguments, Void>>
  ) {
    __uniqueEngine().remember(read, across: write)
  }

  /// Stops remembering `read`'s answer: every read asks the members.
  public mutating func forget<Result>(
    _ read: KeyPath<Handles, MessageHandle<Delegate, Void, Result>>
  ) {
    __uniqueEngine().forget(read)
  }

  /// Whether `read`'s answer is remembered (``remember(_:)``).
  public func remembers<Result>(_ read: KeyPath<Handles, MessageHandle<Delegate, Void, Result>>)
    -> Bool
  {
    __engine.remembers(read)
  }
}
