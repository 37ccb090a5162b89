import MessageRuntime
import Testing

@testable import DelegateProxy

/// The AIMultiDelegate and LBDelegateMatrioska scenarios again, written as a Swift
/// programmer writes them: a protocol with the attribute and plain classes.
@Delegate(cFace: true)
protocol ListDelegate: AnyObject {
  func list(_ section: Int, didSelect index: Int)
  func heightForRow(_ index: Int) -> Double
  @Optional func shouldHighlight(_ index: Int) -> Bool
}

final class Row: ListDelegate {
  let name: String
  let height: Double
  let log: CallLog
  init(_ name: String, height: Double, log: CallLog) {
    self.name = name
    self.height = height
    self.log = log
  }
  func list(_ section: Int, didSelect index: Int) { log.append("\(self.name) selected \(index)") }
  func heightForRow(_ index: Int) -> Double {
    log.append("\(name) height")
    return height
  }
}

final class Highlighter: ListDelegate {
  let log: CallLog
  init(log: CallLog) { self.log = log }
  func list(_ section: Int, didSelect index: Int) { log.append("highlighter selected \(index)") }
  func heightForRow(_ index: Int) -> Double { 0 }
  func shouldHighlight(_ index: Int) -> Bool {
    log.append("highlighter asked \(index)")
    return index.isMultiple(of: 2)
  }
}

@Suite("AIMultiDelegate with Swift protocols")
struct AIMultiDelegateSwiftTests {
  @Test func addDelegateAndForwardToEveryResponderInOrder() throws {
    let log = CallLog()
    let a = Row("a", height: 10, log: log)
    let b = Row("b", height: 20, log: log)
    let multi = ListDelegateMulticast()
    multi.add(a)
    multi.add(b)
    #expect(multi.delegates.map { ($0 as! Row).name } == ["a", "b"])
    multi.list(0, didSelect: 3)
    #expect(log.entries == ["a selected 3", "b selected 3"])
  }

  @Test func theLastRespondersValueIsReturnedAndEveryResponderIsCalled() throws {
    let log = CallLog()
    let a = Row("a", height: 10, log: log)
    let b = Row("b", height: 20, log: log)
    let multi = ListDelegateMulticast()
    multi.add(a)
    multi.add(b)
    #expect(multi.heightForRow(0) == 20)
    #expect(log.entries == ["a height", "b height"])
  }

  @Test func insertBeforeAndAfterFollowTheNilAndAbsentRules() throws {
    let log = CallLog()
    let (a, b, c, d) = (
      Row("a", height: 1, log: log), Row("b", height: 2, log: log), Row("c", height: 3, log: log),
      Row("d", height: 4, log: log)
    )
    let multi = ListDelegateMulticast()
    multi.add(a)
    multi.insert(b, before: nil)  // nil before → at the end
    multi.insert(c, after: nil)  // nil after → at the beginning
    multi.insert(d, before: a)
    #expect(multi.delegates.map { ($0 as! Row).name } == ["c", "d", "a", "b"])
    let absent = Row("x", height: 0, log: log)
    let e = Row("e", height: 5, log: log)
    multi.insert(e, after: absent)  // absent after → at the beginning
    #expect(multi.delegates.map { ($0 as! Row).name }.first == "e")
  }

  @Test func lastRespondersValueSkipsClassesWithoutTheOptionalMethod() throws {
    let log = CallLog()
    let highlighter = Highlighter(log: log)
    let plain = Row("plain", height: 1, log: log)
    let multi = ListDelegateMulticast()
    multi.add(highlighter)
    multi.add(plain)  // last, but does not implement shouldHighlight
    #expect(multi.shouldHighlight(2) == true)
    #expect(multi.shouldHighlight(3) == false)
    #expect(multi.responds(to: \.shouldHighlight))
    multi.remove(highlighter)
    #expect(!multi.responds(to: \.shouldHighlight))
  }

  @Test func anEmptySilentMulticastAnswersZeroAndADeallocatedDelegateIsSkipped() throws {
    let log = CallLog()
    let silent = ListDelegateMulticast()
    #expect(silent.heightForRow(1) == 0)
    var gone: Row? = Row("gone", height: 9, log: log)
    let stays = Row("stays", height: 4, log: log)
    silent.add(stays)
    silent.add(gone!)
    gone = nil
    #expect(silent.heightForRow(1) == 4)
    #expect(silent.count == 1)
  }
}

@Suite("LBDelegateMatrioska with Swift protocols")
struct LBDelegateMatrioskaSwiftTests {
  @Test func aValueReturningMethodReachesOnlyTheFirstWhileVoidMethodsReachAll() throws {
    let log = CallLog()
    let plugin = Row("plugin", height: 44, log: log)
    let controller = Row("controller", height: 60, log: log)
    let matrioska = ListDelegateMulticast(policy: .firstResponder)
    for d in [plugin, controller] as [any ListDelegate] { matrioska.add(d) }
    #expect(matrioska.heightForRow(0) == 44)
    #expect(log.entries == ["plugin height"])
    matrioska.list(0, didSelect: 1)
    #expect(log.entries.suffix(2) == ["plugin selected 1", "controller selected 1"])
  }

  @Test func whenTheFirstIsDeallocatedTheNextResponderAnswers() throws {
    let log = CallLog()
    var plugin: Row? = Row("plugin", height: 44, log: log)
    let controller = Row("controller", height: 60, log: log)
    let matrioska = ListDelegateMulticast(policy: .firstResponder)
    matrioska.add(plugin!)
    matrioska.add(controller)
    plugin = nil
    #expect(matrioska.heightForRow(0) == 60)
  }

  @Test func aMulticastNestedInAMulticastIsAnOrdinaryDelegate() throws {
    let log = CallLog()
    let inner = ListDelegateMulticast()
    let outer = ListDelegateMulticast(policy: .firstResponder)
    let deep = Row("deep", height: 7, log: log)
    inner.add(deep)
    outer.add(inner)
    #expect(outer.heightForRow(0) == 7)
  }

  @Test func closingACycleOfNestedMulticastsStopsTheProcessNamingIt() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let inner = ListDelegateMulticast()
      let outer = ListDelegateMulticast()
      outer.add(inner)
      inner.add(outer)
    }
    .map { result in
      let text = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(text.contains("cycle of proxies: ListDelegateMulticast"))
    }
  }
}

/// A type the macro cannot see into: checked when a delegate is added.
enum Mood { case calm, stormy }

/// Swift lays `Packed.tag` into `Inner`'s tail padding (offset 9); C puts it at 16.
struct Inner {
  var value: Int64
  var flag: Int8
}

struct Packed {
  var inner: Inner
  var tag: Int8
}

@Delegate(cFace: true)
protocol WeatherDelegate: AnyObject {
  func weather(_ mood: Mood)
}

@Delegate(cFace: true)
protocol PackedDelegate: AnyObject {
  @Default(Packed(inner: Inner(value: 0, flag: 0), tag: 0)) func take(_ packed: Packed) -> Packed
}

final class Forecaster: WeatherDelegate {
  var heard: [Mood] = []
  func weather(_ mood: Mood) { heard.append(mood) }
}

final class PackedEcho: PackedDelegate {
  func take(_ packed: Packed) -> Packed { packed }
}

@Suite("Swift protocols: types checked at run time")
struct SwiftProtocolTypeTests {
  @Test func aTypeTheMacroCannotSeeIntoIsAcceptedAndOnlyItsCFaceIsATypedError() throws {
    let proxy = WeatherDelegateMulticast()
    let forecaster = Forecaster()
    proxy.add(forecaster)
    proxy.weather(.stormy)
    #expect(forecaster.heard == [.stormy])
    // `Mood` is a named type: the macro could not tell it has no C form, so the handle is
    // in the C subset and the run-time check names the parameter.
    let error = #expect(throws: DelegateProxyError.self) { try proxy.runtime.imp(for: \.weather) }
    guard case .unsupportedType(let proto, let method, let parameter, let type, let reason)? = error
    else {
      Issue.record("expected unsupportedType, got \(String(describing: error))")
      return
    }
    #expect(proto == "WeatherDelegate")
    #expect(method == "weather(_:)")
    #expect(parameter == "mood")
    #expect(type.hasSuffix("Mood"))
    #expect(reason.contains("enum"))
    #expect(error?.description.contains("parameter 'mood'") == true)
    #expect(proxy.count == 1)
  }

  @Test func aStructWhoseSwiftLayoutDiffersFromCIsConvertedFieldByField() throws {
    let type = DelegateValueType(Packed.self)
    #expect(type.encoding?.canonicalString == "{Packed={Inner=qc}c}")
    #expect(MemoryLayout<Packed>.size == 10)  // Swift: tag at offset 9
    let value = Packed(inner: Inner(value: 0x0102_0304_0506_0708, flag: 5), tag: 9)
    let c = try #require(type.cBytes(of: value))
    #expect(c.count == 24)  // C: {q c [pad 7]} c [pad 7]
    #expect(c[8] == 5 && c[16] == 9)
    #expect(c[9..<16].allSatisfy { $0 == 0 } && c[17..<24].allSatisfy { $0 == 0 })
    let back = try #require(type.value(fromC: c, as: Packed.self))
    #expect(back.inner.value == value.inner.value && back.inner.flag == 5 && back.tag == 9)

    // Through a dispatch: a reducer on raw C values sees C's layout and its answer comes
    // back as the Swift value.
    let proxy = PackedDelegateMulticast()
    let echo = PackedEcho()
    proxy.add(echo)
    let lastC = Reducer(name: "last C value") { values, _ in
      #expect(values.last?.bytes[16] == 9)
      return values.last?.bytes ?? []
    }
    proxy.setPolicy(.reduce(lastC.relabeled(as: Packed.self)), for: \.take)
    let answer = proxy.take(value)
    #expect(answer.inner.value == value.inner.value && answer.inner.flag == 5 && answer.tag == 9)
    // `.allTrue` for the struct result does not compile (reducers are typed).
  }
}
