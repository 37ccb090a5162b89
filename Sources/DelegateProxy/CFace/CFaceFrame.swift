import MessageRuntime

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
/// its C bytes, converted to the Swift layout (``DelegateValueType``). Valid only while
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
