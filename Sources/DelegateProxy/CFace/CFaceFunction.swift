import MessageRuntime

/// One protocol method as a C function of its own C signature, `(self, _cmd, arguments…)`,
/// that calls one delegate's Swift method: what `@Delegate` generates so that the C
/// routes behind ``MulticastRuntimeFace/imp(for:)`` reach plain Swift delegates with a plain
/// C call — no register frame, no decoding, no libffi.
///
/// The macro writes one for each method whose parameters and result it can see to be C
/// scalars (`Int`, `Double`, `Bool`, …) or pointers; a parameter of a named type it
/// cannot see into travels as `void *` and is taken to be a class instance. The
/// multicast checks that against the type's C form (``DelegateValueType``) when it builds
/// its C face and serves a method whose guess was wrong (a struct, say) through frames
/// instead, so a wrong guess costs speed, never correctness.
///
/// ```swift
/// // generated for `func value(_ a: Int, scale: Double) -> Int`:
/// __CFaceFunction({ (target, _, p0, p1) in
///   __CFaceFunction.call(target, method: 0) { (d: any Listener) in d.value(p0, scale: p1) }
/// } as @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int, Double) -> Int)
/// ```
public struct __CFaceFunction: Sendable {
  /// The `@convention(c)` function as an IMP: what a C route calls for the method on
  /// each delegate's adapter.
  public let imp: IMP
  /// The parameters (by index from 0, the first after `_cmd`) taken to be class
  /// instances; -1 stands for the result.
  let assumedObjects: [Int]

  /// Wraps `function`, a `@convention(c)` function of the method's C signature whose
  /// parameters at `objects` (and result, for -1) pass class instances as `void *`.
  public init<Function>(_ function: Function, objects: [Int] = []) {
    imp = IMP(unsafeFunction: function)
    assumedObjects = objects
  }

  /// Whether the entry's guesses hold for `method`: each parameter taken for a class
  /// instance has the C form of one.
  func fits(_ method: DelegateMethodDescription) -> Bool {
    assumedObjects.allSatisfy { index in
      let type = index < 0 ? method.result : method.parameters[index].type
      return type.passesAsObjectAddress
    }
  }

  /// Calls `body` with the delegate of the C face adapter whose handle is `target` (the
  /// `self` a C route passes), holding it strongly for the call (one `tryRetain`); a removed or
  /// deallocating delegate is not called, and the call answers what a gone member
  /// answers (zero, or true under all-true).
  @inlinable
  public static func call<Delegate, Result>(
    _ target: UnsafeMutableRawPointer?, method: Int, _ body: (Delegate) -> Result
  ) -> Result {
    let token = cFaceEnter(target, method: method)
    guard let existential = token.existential else {
      return cFaceGoneAnswer(token, method: method, as: Result.self)
    }
    // The stored existential is at +0: its bits plus the reference `enter` took
    // make an owned value, which the call consumes — one retain and one release per
    // call (reading `pointee` would copy: a second pair).
    let result = withUnsafeTemporaryAllocation(of: Delegate.self, capacity: 1) { value in
      UnsafeMutableRawPointer(value.baseAddress!).copyMemory(
        from: existential, byteCount: MemoryLayout<Delegate>.size)
      return body(value.baseAddress!.move())
    }
    if token.isOptional { cFaceExit(token, method: method) }
    return result
  }

  /// A `void *` argument as the Swift type the method declares (a class instance, +0,
  /// or a pointer): the same bits.
  @inlinable
  public static func value<T>(_ raw: UnsafeMutableRawPointer?, as type: T.Type = T.self) -> T {
    unsafeBitCast(raw, to: T.self)
  }

  /// A class instance or pointer result as C's `void *` (+0, as every object result of
  /// the package's C face).
  @inlinable
  public static func raw<T>(_ value: T) -> UnsafeMutableRawPointer? {
    unsafeBitCast(value, to: UnsafeMutableRawPointer?.self)
  }
}

/// What `__CFaceFunction/call(_:method:_:)` carries from entering a call to leaving it.
@usableFromInline
struct CFaceCallToken {
  /// The adapter (+0: the route's read section keeps it alive).
  @usableFromInline let receiver: Unmanaged<CFaceReceiverCore>
  /// The delegate's stored existential, nil when the member is gone.
  @usableFromInline let existential: UnsafeMutableRawPointer?
  /// Whether the method is optional: the call must be followed by
  /// `cFaceExit(_:method:)`.
  @usableFromInline let isOptional: Bool
  /// ``DelegateOptional/learned`` before the call (optional methods only).
  @usableFromInline let learned: UInt64

  @usableFromInline
  init(
    receiver: Unmanaged<CFaceReceiverCore>, existential: UnsafeMutableRawPointer?, isOptional: Bool,
    learned: UInt64
  ) {
    self.receiver = receiver
    self.existential = existential
    self.isOptional = isOptional
    self.learned = learned
  }
}
