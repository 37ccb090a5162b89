import MessageRuntime

/// One protocol method as a C function of its own C signature, `(self, _cmd, arguments…)`,
/// that calls the method on the multicast whose C face is `self`: what `@Delegate`
/// generates so that ``MulticastCFace/imp(for:)`` is a plain C function into the
/// multicast's own dispatch — no register frame, no decoding, no libffi.
///
/// The macro writes one for each method whose parameters and result it can see to be C
/// scalars (`Int`, `Double`, `Bool`, …) or pointers; a parameter of a named type it
/// cannot see into travels as `void *` and is taken to be a class instance. The
/// multicast checks that against the type's C form (`DelegateValueType`) when it builds
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
  /// The `@convention(c)` function as an IMP: the C face's method for the protocol
  /// method (public for the Benchmarks package, which checks a C face's methods are these).
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
  func fits(_ method: MethodDescription) -> Bool {
    assumedObjects.allSatisfy { index in
      let type = index < 0 ? method.result : method.parameters[index].type
      return type.passesAsObjectAddress
    }
  }

  /// Calls `body` with the multicast whose C face's handle is `target` (the `self` C
  /// passes), as the protocol's existential, held strongly for the call (one
  /// `tryRetain`): `body` calls the method on the multicast, which runs its own dispatch.
  /// Once the multicast's deinit has begun `body` is not run and the call answers zero.
  @inlinable
  public static func call<Delegate, Result>(
    _ target: UnsafeMutableRawPointer?, method: Int, _ body: (Delegate) -> Result
  ) -> Result {
    let face = CFace.face(ofHandle: target)
    guard let existential = face._withUnsafeGuaranteedRef({ $0.retainedMulticast() }) else {
      return cFaceDetachedAnswer(face, method: method, as: Result.self)
    }
    return CFace.withMulticast(existential, as: Delegate.self, body)
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

/// The C call of one protocol method on one delegate, as `@Delegate` generates it: reads
/// the arguments from the frame, calls the delegate, writes the result.
public typealias __CFaceCall<Delegate> = @Sendable (Delegate, __CFaceFrame) -> Void

/// The arguments and result of one C call reaching a plain Swift delegate (through
/// ``MulticastCFace/imp(for:)`` and the multicast's runtime proxy), in their C form.
///
/// Generated code reads each argument as its Swift type and writes the result:
///
/// ```swift
/// { d, f in f.setResult(d.sensorShouldStart(f.argument(0))) }
/// ```
///
/// A Swift class instance arrives as the pointer C passed (the object, +0); a struct as
/// its C bytes, converted to the Swift layout (`DelegateValueType`). Valid only while
/// the call runs.
public struct __CFaceFrame {
  /// How the method's values sit in the frame (+0: the adapter keeps it alive).
  @usableFromInline let method: Unmanaged<CFaceMethod>
  /// The entry's register frame, or nil for a call that arrived as an invocation.
  @usableFromInline let registers: UnsafeMutableRawPointer?
  /// The invocation of a call that does not travel in registers (+0).
  @usableFromInline let invocation: Unmanaged<Invocation>?

  init(method: CFaceMethod, registers: UnsafeMutableRawPointer) {
    self.method = .passUnretained(method)
    self.registers = registers
    invocation = nil
  }

  init(method: CFaceMethod, invocation: Invocation) {
    self.method = .passUnretained(method)
    registers = nil
    self.invocation = .passUnretained(invocation)
  }

  /// The method's parameter at `index` (0 is the first parameter after `_cmd`), as the
  /// Swift type the protocol declares.
  @inlinable
  public func argument<T>(_ index: Int) -> T {
    if let registers {
      // A value that sits whole in one register and has the same bytes in Swift: load it.
      let offset = method._withUnsafeGuaranteedRef { $0.directArguments[index] }
      if offset >= 0 { return registers.load(fromByteOffset: offset, as: T.self) }
    }
    return method._withUnsafeGuaranteedRef { $0.decode(index, from: self, as: T.self) }
  }

  /// Sets the call's result (the value the method returned).
  @inlinable
  public func setResult<T>(_ value: T) {
    if let registers {
      let offset = method._withUnsafeGuaranteedRef { $0.directResult }
      if offset >= 0 {
        // The frame's result words start zeroed: the C value's tail stays zero.
        withUnsafeBytes(of: value) { bytes in
          (registers + offset).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        }
        return
      }
    }
    method._withUnsafeGuaranteedRef { $0.encode(value, into: self) }
  }
}
