import DelegateProxyTestSupport
import Foundation
import MessageRuntime
import Testing

@testable import DelegateProxy

/// A protocol that does not ask for a C face: its multicast has none.
@Delegate
protocol QuietDelegate: AnyObject {
  func quietDidChange(_ value: Int)
}

/// The same methods with a C face asked for.
@Delegate(cFace: true)
protocol LoudDelegate: AnyObject {
  func loudDidChange(_ value: Int)
}

/// A delegate of both protocols, recording what it hears.
private final class Listener: QuietDelegate, LoudDelegate, @unchecked Sendable {
  // @unchecked Sendable: `heard` is written and read on the test's thread only.
  var heard: [Int] = []
  func quietDidChange(_ value: Int) { heard.append(value) }
  func loudDidChange(_ value: Int) { heard.append(value) }
}

/// `@Delegate(cFace: true)` generates the C face; `@Delegate` alone generates none.
@Suite("A C face on request")
struct CFaceOnRequestTests {
  @Test func onlyAMulticastWhoseProtocolAsksConformsToTheCFace() {
    #expect(!(QuietDelegateMulticast() as AnyObject is any __CFaceProviding))
    #expect(LoudDelegateMulticast() as AnyObject is any __CFaceProviding)
  }

  @Test func withoutOneTheCFaceIsATypedErrorNamingTheFix() throws {
    let multicast = QuietDelegateMulticast()
    #expect(throws: DelegateProxyError.noCFace(protocol: "QuietDelegate")) {
      _ = try multicast.cFace()
    }
    #expect(
      DelegateProxyError.noCFace(protocol: "QuietDelegate").description.contains(
        "@Delegate(cFace: true)"))
  }

  @Test func withOneCCallsReachTheDelegates() throws {
    let multicast = LoudDelegateMulticast()
    let listener = Listener()
    multicast.add(listener)
    typealias Entry = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> Void
    let imp = try multicast.runtime.imp(for: \.loudDidChange)
    imp.unsafeCast(to: Entry.self)(
      try multicast.runtime.rawValue(), multicast.runtime.selector(for: \.loudDidChange).rawValue,
      42)
    #expect(listener.heard == [42])
  }
}

/// What the compiler says when a multicast without a C face is asked for one.
@Suite(
  "What the compiler says about a C face not asked for", .tags(.compiler),
  .enabled(if: TestSelection.runs("compiler")))
struct CFaceOnRequestDiagnosticsTests {
  let modules: BuiltModules

  init() throws { modules = try BuiltModules.find().get() }

  @Test func runtimeAndStandInNameCFaceTrue() throws {
    let result = try modules.typecheck(
      """
      import MessageRuntime
      @Delegate
      protocol Quiet: AnyObject {
        func quietDidChange(_ value: Int)
      }
      func use(_ multicast: QuietMulticast, _ target: RuntimeObject) {
        _ = multicast.runtime
        _ = QuietMulticast.standIn(for: target)
      }
      """)
    #expect(result.status != 0)
    #expect(
      result.diagnostics.contains {
        $0.contains("'runtime' is unavailable") && $0.contains("@Delegate(cFace: true)")
      }, "\(result.diagnostics)")
    #expect(
      result.diagnostics.contains {
        $0.contains("'standIn(for:)' is unavailable") && $0.contains("@Delegate(cFace: true)")
      }, "\(result.diagnostics)")
  }

  @Test func askedForTheSameUsesCompile() throws {
    let result = try modules.typecheck(
      """
      import MessageRuntime
      @Delegate(cFace: true)
      protocol Loud: AnyObject {
        func loudDidChange(_ value: Int)
      }
      func use(_ multicast: LoudMulticast, _ target: RuntimeObject) throws {
        _ = try multicast.runtime.imp(for: \\.loudDidChange)
        _ = LoudMulticast.standIn(for: target)
      }
      """)
    #expect(result.status == 0, "\(result.diagnostics)")
  }
}
