import MessageRuntime

/// Swift values to and from their C bytes in place, with no allocation (the C entries'
/// path; ``DelegateValueType/cBytes(of:)`` is the array-returning form reducers use).
extension DelegateValueType {
  /// Whether a value's Swift bytes are its C bytes (a prefix of them, the rest padding):
  /// Swift class instances (their address), bitwise structs and scalar
  /// `MessageArgument`s other than runtime objects and classes.
  var isBitwiseInC: Bool {
    switch conversion {
    case .bitwise?, .object?: return true
    case .messageArgument?:
      switch encoding?.unqualified {
      case .char?, .unsignedChar?, .short?, .unsignedShort?, .int?, .unsignedInt?, .long?,
        .unsignedLong?, .longLong?, .unsignedLongLong?, .float?, .double?, .bool?, .pointer?,
        .cString?:
        return true
      default: return false
      }
    case .fields?, nil: return false
    }
  }

  /// The Swift value whose C bytes are at `source` (aligned for the C type).
  func readC<T>(from source: UnsafeRawPointer, as: T.Type) -> T {
    switch conversion {
    case .bitwise?, .object?:
      // Swift's bytes are the C value's first bytes; a reference is copied (+1).
      return source.load(as: T.self)
    case .fields(let copies, _, _)?:
      return withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { slot in
        let raw = UnsafeMutableRawPointer(slot.baseAddress!)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<T>.size)
        for c in copies {
          (raw + c.swiftOffset).copyMemory(from: source + c.cOffset, byteCount: c.size)
        }
        return slot.baseAddress!.move()
      }
    case .messageArgument(let argument)?:
      guard let value = argument.load(from: source) as? T else {
        fatalError("\(name): a C argument of \(argument) is not a \(T.self) (runtime bug)")
      }
      return value
    case nil:
      // A Swift value with no C form travels as a SwiftValueObject (`@`).
      let handle = source.load(as: OpaquePointer?.self)
      if let value = SwiftValueObject.value(of: handle, as: T.self) { return value }
      fatalError(
        "\(name) has no C form and the message carried no Swift value of it (\(handle.map { "\($0)" } ?? "nil")); send it through a stand-in"
      )
    }
  }

  /// Writes `value` as a runtime message carries it: its C bytes, or — for a value with
  /// no C form — the handle of a ``SwiftValueObject`` holding a copy, which `kept` keeps
  /// alive until the message has been handled.
  func writeMessageArgument<T>(
    _ value: T, to destination: UnsafeMutableRawPointer, keeping kept: inout [RuntimeObject]
  ) {
    guard conversion == nil else { return writeC(value, to: destination) }
    let object = SwiftValueObject(value)
    kept.append(object)
    destination.storeBytes(of: object.rawValue, as: OpaquePointer.self)
  }

  /// Writes `value`'s C bytes to `destination` (zeroed, the C type's size); package:
  /// DelegateProxyTesting's typed stubs write their answers with it.
  package func writeC<T>(_ value: T, to destination: UnsafeMutableRawPointer) {
    switch conversion {
    case .bitwise(let swiftSize, _)?:
      withUnsafeBytes(of: value) {
        destination.copyMemory(from: $0.baseAddress!, byteCount: swiftSize)
      }
    case .object?:
      // The address, +0: the C caller receives the object without a reference.
      withUnsafeBytes(of: value) { destination.copyMemory(from: $0.baseAddress!, byteCount: 8) }
    case .fields(let copies, _, _)?:
      withUnsafeBytes(of: value) { src in
        for c in copies {
          (destination + c.cOffset).copyMemory(
            from: src.baseAddress! + c.swiftOffset, byteCount: c.size)
        }
      }
    case .messageArgument?:
      (value as? any MessageArgument)?.store(to: destination)
    case nil:
      break
    }
  }
}
