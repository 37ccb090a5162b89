import DelegateProxyTestSupport
import Testing

@testable import MessageRuntime

/// A struct with inner padding, as a C caller would lay it out.
private struct Padded: MessageArgument, BitwiseCopyable, Equatable {
  var tag: Int8
  var value: Double
  static let typeEncoding: TypeEncoding = .structure(name: "Padded", fields: [.char, .double])
  static var representation: MessageArgumentRepresentation { .bitwise }
}

/// A type whose bytes are not its C representation: it must be stored on its own.
private struct Doubled: MessageArgument, BitwiseCopyable, Equatable {
  var value: Int32
  static let typeEncoding: TypeEncoding = .int
  static func load(from pointer: UnsafeRawPointer) -> Doubled {
    Doubled(value: pointer.load(as: Int32.self) / 2)
  }
  func store(to pointer: UnsafeMutableRawPointer) {
    pointer.storeBytes(of: value * 2, as: Int32.self)
  }
}

/// Typed sends copy their arguments into the frame as one tuple when the tuple's layout
/// is the frame's and every value is its own C representation (object references become
/// handles); otherwise each argument is stored through its type.
@Suite("Typed messages") struct TypedMessageTests {
  @Test func argumentsOfEveryWidthObjectsAndPaddingArriveIntact() throws {
    let mixed = Message<
      Int, Int8, RuntimeObject?, Double, Bool, Int16, RuntimeObject, Padded, UInt8, Float
    >(
      "mixed:object:double:flag:short:other:padded:byte:float:")
    #expect(mixed._packedObjectOffsets != nil)
    let cls = try RuntimeClass(name: uniqueClassName())
    let other = RuntimeObject(class: cls)
    let seen = Lock<[String]>([])
    try cls.addMethod(mixed) { receiver, a, object, d, flag, short, second, padded, byte, float in
      seen.withLock {
        $0.append(
          "\(a) \(object.map { $0 === receiver } ?? false) \(d) \(flag) \(short) \(second === other) "
            + "\(padded.tag)/\(padded.value) \(byte) \(float)")
      }
      return Int(a) + Int(short)
    }
    let receiver = RuntimeObject(class: cls)
    #expect(
      try mixed.send(
        to: receiver, -3, receiver, 2.5, true, -300, other, Padded(tag: 7, value: 0.25), 200, 1.5)
        == -303)
    #expect(
      try mixed.send(
        to: receiver, 4, nil, -1, false, 5, other, Padded(tag: -1, value: 3), 0, -0.5) == 9)
    #expect(
      seen.withLock { $0 } == [
        "-3 true 2.5 true -300 true 7/0.25 200 1.5", "4 false -1.0 false 5 true -1/3.0 0 -0.5",
      ])
  }

  @Test func aTypeThatConvertsIsStoredOnItsOwn() throws {
    let message = Message<Doubled, Doubled, Int>("doubled:plus:")
    #expect(message._packedObjectOffsets == nil)
    let cls = try RuntimeClass(name: uniqueClassName())
    try cls.addMethod(message) { _, d, n in Doubled(value: d.value + Int32(n)) }
    let receiver = RuntimeObject(class: cls)
    #expect(try message.send(to: receiver, Doubled(value: 20), 1).value == 21)
  }
}
