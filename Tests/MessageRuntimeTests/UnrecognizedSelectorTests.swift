import DelegateProxyCTestSupport
import Testing

@testable import MessageRuntime

/// The C trap for an unknown selector, against `doesNotRecognizeSelector:` ("Handles
/// messages the receiver doesn't recognize … subclasses can override it"): it says what
/// the receiver's `doesNotRecognize` says, and names the selector it was called with.
@Suite("Unrecognized selectors from C") struct UnrecognizedSelectorTests {
  @Test func doesNotRecognizeSelectorOverrideIsWhatTheCTrapSays() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      final class Strict: RuntimeObject, @unchecked Sendable {
        override func doesNotRecognize(_ selector: Selector) -> RuntimeError {
          .invocationIncomplete("Strict refuses \(selector.name)")
        }
      }
      let object = Strict()
      dp_test_c_send_void(object.rawValue, Selector("unknownToStrict").rawValue)
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(stderr.contains("Strict refuses unknownToStrict"))
  }

  @Test func doesNotRecognizeSelectorOverrideMayNameAnotherClass() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      final class Standing: RuntimeObject, @unchecked Sendable {
        override func doesNotRecognize(_ selector: Selector) -> RuntimeError {
          .unrecognizedSelector(className: "StoodInFor", selector: selector)
        }
      }
      let object = Standing()
      dp_test_c_send_void(object.rawValue, Selector("unknownToStanding").rawValue)
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      stderr.contains("-[StoodInFor unknownToStanding]: unrecognized selector sent to instance 0x"))
  }

  @Test func aCachedTrapNamesTheSelectorItIsCalledWith() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let object = RuntimeObject()
      dp_test_c_call_cached_imp(
        object.rawValue, Selector("cachedFirst").rawValue, Selector("lookedUpSecond").rawValue)
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(stderr.contains("-[Object cachedFirst]: unrecognized selector sent to instance 0x"))
  }

  /// A cached trap called for a receiver whose `doesNotRecognize` is overridden says what
  /// the override says about the selector the trap is called with.
  @Test func aCachedTrapHonoursTheDoesNotRecognizeSelectorOverride() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      final class Strict: RuntimeObject, @unchecked Sendable {
        override func doesNotRecognize(_ selector: Selector) -> RuntimeError {
          .invocationIncomplete("Strict refuses \(selector.name)")
        }
      }
      let object = Strict()
      dp_test_c_call_cached_imp(
        object.rawValue, Selector("cachedFirst").rawValue, Selector("lookedUpSecond").rawValue)
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(stderr.contains("Strict refuses cachedFirst"))
    #expect(!stderr.contains("lookedUpSecond"))
  }
}
