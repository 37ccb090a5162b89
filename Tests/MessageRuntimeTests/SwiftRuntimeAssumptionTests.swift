import DelegateProxy
import DelegateProxyCFFIShim
import DelegateProxyTestSupport
import DelegateProxyTesting
import Dispatch
// RT6: the reflection SPI the package uses, called here directly.
@_spi(Reflection) import Swift
import Testing

@testable import MessageRuntime

/// What the package assumes about the Swift runtime — RT1 to RT11, listed with their
/// sources in CFFIShim/Core/include/dp_swift_runtime.h — each checked on the toolchain the
/// tests run on, so a toolchain that changes one fails the test named after it.
@Suite("Swift runtime assumptions (dp_swift_runtime.h)") struct SwiftRuntimeAssumptionTests {
  /// An object whose deinit asks the runtime about itself (RT1).
  final class AsksInDeinit {
    let onDeinit: (UnsafeMutableRawPointer) -> Void
    init(_ onDeinit: @escaping (UnsafeMutableRawPointer) -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit(Unmanaged.passUnretained(self).toOpaque()) }
  }

  /// A plain object for counting references.
  final class Counted: OpenAssumptionProtocol, ClassAssumptionProtocol {
    var calls = 0
    func touch() { calls += 1 }
  }

  /// Answers whether its deinit ran.
  final class Flag: @unchecked Sendable {
    // @unchecked Sendable: set and read on the test's own thread only.
    var value = false
  }

  @Test("RT1 tryRetain on a live object takes one strong reference")
  func tryRetainOnLiveObject() {
    let object = Counted()
    let address = Unmanaged.passUnretained(object).toOpaque()
    withExtendedLifetime(object) {
      let before = swift_retainCount(address)
      #expect(dp_swift_try_retain(address))
      #expect(swift_retainCount(address) == before + 1)
      dp_swift_release(address)  // RT3
      #expect(swift_retainCount(address) == before)
    }
  }

  @Test("RT1 tryRetain fails while the object's deinit runs")
  func tryRetainFailsDuringDeinit() {
    var answers: [Bool] = []
    do {
      _ = AsksInDeinit { address in
        answers.append(dp_swift_try_retain(address))
        // The package's own wrappers: the C route's owner check and UnownedObject's.
        answers.append(dp_owner_try_retain(address) != nil)
      }
    }
    #expect(answers == [false, false])
  }

  @Test("RT1 tryRetain fails after deinit, memory kept by an unowned reference")
  func tryRetainFailsAfterDeinit() {
    let deinited = Flag()
    var object: AsksInDeinit? = AsksInDeinit { _ in deinited.value = true }
    let unowned = UnownedObject(object!)
    #expect(unowned.isAlive)
    object = nil
    #expect(deinited.value)
    // The memory is still allocated (RT2): asking is safe, and the answer is no.
    #expect(!unowned.tryRetain())
    #expect(unowned.object() == nil)
    #expect(swift_unownedRetainCount(unowned.address) >= 1)
    unowned.releaseUnowned()
  }

  @Test("RT2 unowned retain and release count one each")
  func unownedCounts() {
    let object = Counted()
    let address = Unmanaged.passUnretained(object).toOpaque()
    withExtendedLifetime(object) {
      let strong = swift_retainCount(address)
      let before = swift_unownedRetainCount(address)
      let first = UnownedObject(object)
      let second = UnownedObject(object)
      #expect(swift_unownedRetainCount(address) == before + 2)
      // An unowned reference is not a strong one.
      #expect(swift_retainCount(address) == strong)
      first.releaseUnowned()
      #expect(swift_unownedRetainCount(address) == before + 1)
      second.releaseUnowned()
      #expect(swift_unownedRetainCount(address) == before)
    }
  }

  @Test("RT5 an object's existential holds one strong reference")
  func existentialHoldsOneReference() {
    let object = Counted()
    let address = Unmanaged.passUnretained(object).toOpaque()
    withExtendedLifetime(object) {
      let before = swift_retainCount(address)
      // A protocol any type may adopt (an opaque container: the reference in its buffer).
      let open = UnsafeMutablePointer<any OpenAssumptionProtocol>.allocate(capacity: 1)
      open.initialize(to: object)
      #expect(swift_retainCount(address) == before + 1)
      // A class-bound protocol (a class existential: the reference and a witness table).
      let bound = UnsafeMutablePointer<any ClassAssumptionProtocol>.allocate(capacity: 1)
      bound.initialize(to: object)
      #expect(swift_retainCount(address) == before + 2)
      open.deinitialize(count: 1)
      bound.deinitialize(count: 1)
      #expect(swift_retainCount(address) == before)
      open.deallocate()
      bound.deallocate()
    }
  }

  @Test("RT5 a +0 existential calls and lets the object die")
  func plusZeroExistential() {
    weak var watched: Counted?
    let stored = UnsafeMutablePointer<any OpenAssumptionProtocol>.allocate(capacity: 1)
    do {
      let object = Counted()
      watched = object
      let address = Unmanaged.passUnretained(object).toOpaque()
      let before = swift_retainCount(address)
      // What SwiftMember does: store, then give the stored reference back.
      stored.initialize(to: object)
      Unmanaged.passUnretained(object).release()
      #expect(swift_retainCount(address) == before)
      stored.pointee.touch()
      #expect(object.calls == 1)
      #expect(swift_retainCount(address) == before)
    }
    // The +0 existential kept nothing alive; it is deallocated, never deinitialized.
    #expect(watched == nil)
    stored.deallocate()
  }

  @Test("RT5 a multicast's weakly held member costs its delegate no strong reference")
  func multicastMemberIsPlusZero() {
    let log = CallLog()
    weak var watched: RecordingSensorListener?
    let multicast = SensorDelegateMulticast()
    do {
      let listener = RecordingSensorListener("a", log: log)
      watched = listener
      let address = Unmanaged.passUnretained(listener).toOpaque()
      let before = swift_retainCount(address)
      multicast.add(listener)
      #expect(swift_retainCount(address) == before)
      multicast.sensor(Sensor(), didRead: Reading(celsius: 21.5, sensorID: 1))
      #expect(swift_retainCount(address) == before)
    }
    #expect(watched == nil)
    // The member's delegate is gone: the call reaches nobody, and nothing crashes.
    multicast.sensor(Sensor(), didRead: Reading(celsius: 3, sensorID: 1))
    #expect(log.entries == ["a read 21.5"])
  }

  struct Inner {
    var a: Int8
    var b: Int32
  }
  struct Fields {
    var x: Double
    var flag: Bool
    var inner: Inner
    var count: Int16
  }

  @Test("RT6 _forEachField walks a struct's stored properties")
  func forEachField() {
    var seen: [(String, Int, Any.Type)] = []
    let walked = _forEachField(of: Fields.self, options: []) { name, offset, type, _ in
      seen.append((String(cString: name), offset, type))
      return true
    }
    #expect(walked)
    #expect(seen.map(\.0) == ["x", "flag", "inner", "count"])
    #expect(
      seen.map(\.1) == [
        MemoryLayout<Fields>.offset(of: \.x)!, MemoryLayout<Fields>.offset(of: \.flag)!,
        MemoryLayout<Fields>.offset(of: \.inner)!, MemoryLayout<Fields>.offset(of: \.count)!,
      ])
    #expect(same(seen[0].2, Double.self) && same(seen[1].2, Bool.self))
    #expect(same(seen[2].2, Inner.self) && same(seen[3].2, Int16.self))
    // What the package derives from the walk: the C struct of the fields.
    #expect(DelegateValueType(Inner.self).encoding?.canonicalString == "{Inner=ci}")
  }

  enum Choice { case a, b }
  typealias CFunction = @convention(c) (Int32, Double) -> Float

  /// The first word of a type's metadata.
  static func kind(_ type: Any.Type) -> UInt {
    unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee
  }

  @Test("RT7 metadata kinds")
  func metadataKinds() {
    #expect(Self.kind(Fields.self) == 0x200)
    #expect(Self.kind(Choice.self) == 0x201)
    #expect(Self.kind(Int?.self) == 0x202)
    #expect(Self.kind((Int, Int).self) == 0x301)
    #expect(Self.kind(CFunction.self) == 0x302)
    #expect(Self.kind((any OpenAssumptionProtocol).self) == 0x303)
  }

  @Test("RT8 a @convention(c) function type's metadata")
  func functionMetadata() throws {
    let metadata = unsafeBitCast(CFunction.self, to: UnsafeRawPointer.self)
    let word = MemoryLayout<UInt>.size
    let flags = metadata.load(fromByteOffset: word, as: UInt.self)
    #expect(flags & 0xFFFF == 2)  // parameters
    #expect((flags >> 16) & 0xFF == 3)  // the C convention
    #expect(same(metadata.load(fromByteOffset: word * 2, as: Any.Type.self), Float.self))
    #expect(same(metadata.load(fromByteOffset: word * 3, as: Any.Type.self), Int32.self))
    #expect(same(metadata.load(fromByteOffset: word * 4, as: Any.Type.self), Double.self))
    // What the package reads from it: a callback's arity and argument types checked.
    let matching = try CallbackSignature(parsing: "fid")
    #expect(CallbackFunctionType.mismatch(CFunction.self, matching) == nil)
    let wrongArity = try CallbackSignature(parsing: "fi")
    #expect(CallbackFunctionType.mismatch(CFunction.self, wrongArity) != nil)
  }

  @Test("RT9 _isPOD tells trivial types from reference-holding ones")
  func isPOD() {
    #expect(_isPOD(Fields.self))
    #expect(!_isPOD(String.self))
    #expect(!_isPOD(Counted.self))
  }

  @Test("RT10 a @convention(c) function is one C function pointer")
  func cFunctionIsAPointer() {
    let function: CFunction = { Float(Double($0) + $1) }
    #expect(MemoryLayout<CFunction>.size == MemoryLayout<UnsafeRawPointer>.size)
    let raw = unsafeBitCast(function, to: UnsafeRawPointer.self)
    let back = unsafeBitCast(raw, to: CFunction.self)
    #expect(back(2, 0.5) == 2.5)
    // The package's IMP round-trips it the same way.
    let imp = IMP(unsafeFunction: function)
    #expect(imp.address == raw)
    #expect(imp.unsafeCast(to: CFunction.self)(1, 1) == 2)
  }

  @Test("RT11 dispatch_queue_get_label through @_silgen_name")
  func queueLabel() {
    let queue = DispatchQueue(label: "dp.runtime-assumptions.rt11")
    let label = queue.sync { CallContext.current.queueLabel }
    #expect(label == "dp.runtime-assumptions.rt11")
  }

  @Test("RT12 an existential's size tells class-bound from opaque")
  func existentialSizes() {
    let word = MemoryLayout<UnsafeRawPointer>.size
    #expect(MemoryLayout<any ClassAssumptionProtocol>.size < 4 * word)
    #expect(MemoryLayout<any RefinedClassAssumptionProtocol>.size < 4 * word)
    #expect(MemoryLayout<any OpenAssumptionProtocol>.size >= 4 * word)
    #expect(MemoryLayout<any RefinedOpenAssumptionProtocol>.size >= 4 * word)
  }
}

/// Refines a class-bound protocol: still one reference and one witness table (RT12).
protocol RefinedClassAssumptionProtocol: ClassAssumptionProtocol {}
/// Refines an open protocol: still an opaque container (RT12).
protocol RefinedOpenAssumptionProtocol: OpenAssumptionProtocol {}

/// Whether two metatypes are the same type.
private func same(_ a: Any.Type, _ b: Any.Type) -> Bool {
  ObjectIdentifier(a) == ObjectIdentifier(b)
}

/// A protocol any type may adopt: its existential is an opaque container (RT5).
protocol OpenAssumptionProtocol { func touch() }
/// A class-bound protocol: its existential is a reference and a witness table (RT5).
protocol ClassAssumptionProtocol: AnyObject { func touch() }
