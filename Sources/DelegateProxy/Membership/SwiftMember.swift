import Dispatch
import MessageRuntime

/// A `@Delegate` multicast's member: a ``Member`` whose delegate is a plain Swift object,
/// kept as its protocol's existential for the dispatch loops to call.
@usableFromInline
final class SwiftMember<Delegate>: Member, @unchecked Sendable {
  // @unchecked Sendable: as Member; `existential` is written once in init and only read after.

  /// The delegate as its protocol's existential, stored at +0: the stored existential does not keep
  /// the object alive (`object` or `strong` does), so it is never deinitialized, only
  /// deallocated.
  @usableFromInline let existential: UnsafeMutablePointer<Delegate>
  /// The delegate's class (a stand-in's own identity: `DelegateOptional.identity(of:)`),
  /// for optional methods it does not implement.
  let typeID: ObjectIdentifier
  /// Whether the member's answers count: false for a plugin injected beside a delegator's
  /// own delegate (``DelegateMulticastProtocol/inject(_:into:at:answering:)``), which hears
  /// every call while the delegator's delegate answers. Such a member puts the methods
  /// that return a value on the general path.
  @usableFromInline let answers: Bool

  init(
    _ delegate: Delegate, object: AnyObject, retention: Retention, queue: DispatchQueue?,
    answers: Bool = true
  ) {
    self.answers = answers
    typeID = DelegateOptional.identity(of: object)
    let existential = UnsafeMutablePointer<Delegate>.allocate(capacity: 1)
    existential.initialize(to: delegate)
    self.existential = existential
    // The stored copy took a strong reference; give it back so the existential holds +0.
    Unmanaged.passUnretained(object).release()
    super.init(
      object, typeName: String(reflecting: type(of: object)), retention: retention, queue: queue)
  }

  deinit {
    // Not deinitialize(): its reference is +0 (see init).
    existential.deallocate()
  }

  /// The delegate, strongly held, or nil once it is being deallocated.
  var delegate: Delegate? {
    guard strong != nil || object.tryRetain() else { return nil }
    defer { if strong == nil { object.release() } }
    return existential.pointee
  }
}
