import Dispatch
import MessageRuntime

/// A `@Delegate` multicast's member: a ``Member`` whose delegate is a plain Swift object —
/// or, for a protocol that is not class-bound, a value (a struct, an enum) the multicast
/// holds itself — kept as its protocol's existential for the dispatch loops to call.
@usableFromInline
final class SwiftMember<Delegate>: Member, @unchecked Sendable {
  // @unchecked Sendable: as Member; `existential` is written once in init and only read after
  // (a value member's new value after a mutating call goes into a new record), except by a
  // mutating call on a value multicast's engine that no other copy shares, which no
  // dispatch can be reading (DelegateMulticast.__sendMutatingOwned).

  /// The delegate as its protocol's existential. An object's is stored at +0: the stored
  /// existential does not keep the object alive (`object` or `strong` does), so it is never
  /// deinitialized, only deallocated. A value's is owned (``isValue``). (RT5 of
  /// CFFIShim/Core/include/dp_swift_runtime.h: the runtime facts this relies on, and their tests.)
  @usableFromInline let existential: UnsafeMutablePointer<Delegate>
  /// Whether the member is a value the multicast holds (its existential owns it; `object`
  /// is an anchor of its own that only gives the record what every ``Member`` has). A value
  /// is always alive, is called by the fast loop in place (a bitwise copy, never destroyed:
  /// `SwiftResponder.withBorrowedDelegate`), and has no C face.
  @usableFromInline let isValue: Bool
  /// The delegate's class (a stand-in's own identity: `DelegateOptional.identity(of:)`),
  /// or a value's type, for optional methods it does not implement.
  let typeID: ObjectIdentifier
  /// Whether the member's answers count: false for a plugin injected beside a delegator's
  /// own delegate (``DelegateMulticastProtocol/inject(_:into:at:answering:)``), which hears
  /// every call while the delegator's delegate answers. Such a member puts the methods
  /// that return a value on the general path.
  @usableFromInline let answers: Bool
  /// A value member's place among its multicast's value members, in member order: where a
  /// copy of a value multicast keeps its own value of it (``__ValueMembers``). Assigned when
  /// the multicast publishes a table or is made as a copy
  /// (`DelegateMulticast.numberValueMembers`), and written only when it changes — which it
  /// does only when value members are added or removed, on an engine that no copy of the
  /// value multicast shares and so no dispatch reads. Unchecked: a checked class `var` costs
  /// every dispatch of such a copy a `swift_beginAccess` per member.
  @exclusivity(unchecked) @usableFromInline var valueIndex = 0

  init(
    _ delegate: Delegate, object: AnyObject, retention: Retention, queue: DispatchQueue?,
    answers: Bool = true, id: UInt64? = nil, copying source: SwiftMember? = nil
  ) {
    self.answers = answers
    isValue = false
    typeID = source?.typeID ?? DelegateOptional.identity(of: object)
    let existential = UnsafeMutablePointer<Delegate>.allocate(capacity: 1)
    existential.initialize(to: delegate)
    self.existential = existential
    // The stored copy took a strong reference; give it back so the existential holds +0.
    Unmanaged.passUnretained(object).release()
    super.init(
      object, typeName: source?.typeName ?? String(reflecting: type(of: object)),
      retention: retention, queue: queue, id: id)
  }

  /// A record holding the value `value` (not a class instance), a membership of its own.
  convenience init(value: Delegate, queue: DispatchQueue?, answers: Bool = true) {
    let dynamicType = type(of: value as Any)
    self.init(
      value: value, typeID: ObjectIdentifier(dynamicType),
      typeName: String(reflecting: dynamicType), anchor: ValueMemberAnchor(), queue: queue,
      answers: answers, flag: nil, id: nil)
  }

  /// A record holding the value `value`, its type and anchor given: the records that
  /// replace or copy a value member reuse the first record's (working out a type's name
  /// demangles it; an anchor is an allocation).
  required init(
    value: Delegate, typeID: ObjectIdentifier, typeName: String, anchor: AnyObject,
    queue: DispatchQueue?, answers: Bool, flag: RouteMembership?, id: UInt64?
  ) {
    self.answers = answers
    isValue = true
    self.typeID = typeID
    let existential = UnsafeMutablePointer<Delegate>.allocate(capacity: 1)
    existential.initialize(to: value)
    self.existential = existential
    super.init(
      anchor, typeName: typeName, retention: .strong, queue: queue, flag: flag, id: id)
  }

  deinit {
    // An object's existential is +0 (see init): not deinitialized.
    if isValue { existential.deinitialize(count: 1) }
    existential.deallocate()
  }

  /// The delegate, strongly held, or nil once it is being deallocated (a value: a copy).
  var delegate: Delegate? {
    guard strong != nil || object.tryRetain() else { return nil }
    defer { if strong == nil { object.release() } }
    return existential.pointee
  }

  /// This membership with the value `value` in place of its own: what a mutating call
  /// publishes (call only on a value member). The same membership: its number, its removed
  /// flag, its block count.
  func replacingValue(with value: Delegate) -> SwiftMember {
    let record = SwiftMember(
      value: value, typeID: typeID, typeName: typeName, anchor: strong!, queue: queue,
      answers: answers, flag: flag, id: id)
    record.blockCount = blockCount
    return record
  }

  /// The same membership for another multicast (a copy of a value multicast): the same
  /// number, a value copied or the same object with the same retention, a removed flag
  /// of its own; nil when the object is being deallocated.
  func copiedForAnotherMulticast() -> SwiftMember? {
    if isValue { return copiedValue() }
    guard let delegate else { return nil }
    let copy = SwiftMember(
      delegate, object: delegate as AnyObject, retention: retention, queue: queue,
      answers: answers, id: id, copying: self)
    copy.blockCount = blockCount
    return copy
  }

  /// ``copiedForAnotherMulticast()`` for a value member (never nil). Made through
  /// `type(of: self)`, and returning no optional: this runs unspecialised, where naming
  /// `SwiftMember<Delegate>` or an optional of it looks its metadata up each time.
  func copiedValue() -> SwiftMember { copiedValue(from: existential) }

  /// ``copiedValue()`` holding the value at `value` (a copy's own value of this member,
  /// ``__ValueMembers``) instead of this record's.
  func copiedValue(from value: UnsafeMutablePointer<Delegate>) -> SwiftMember {
    // The copies of one membership share its anchor: nothing outside them sees it.
    let copy = type(of: self).init(
      value: value.pointee, typeID: typeID, typeName: typeName, anchor: strong!,
      queue: queue, answers: answers, flag: nil, id: id)
    copy.blockCount = blockCount
    return copy
  }
}

/// What a value member's record holds where an object member's holds its delegate: an
/// object of the membership's own (its records in copies of the multicast share it), always
/// alive, that nothing else references (so no `remove` or `contains` by object finds it).
private final class ValueMemberAnchor: Sendable {}

extension SwiftMember: DelegateMember {}
