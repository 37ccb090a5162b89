import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Every error `@Delegate` reports: what it cannot support, each on the offending
/// declaration, parameter or attribute, with nothing generated.
@Suite struct DelegateDiagnosticTests {
  @Test func notAProtocol() {
    assertDelegateExpansion(
      """
      @Delegate
      struct SensorDelegate {
        func reset()
      }
      """,
      expandedSource: """
        struct SensorDelegate {
          func reset()
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "@Delegate applies to a protocol, not to a struct; declare a protocol and attach @Delegate to it",
          line: 1, column: 1)
      ]
    )
  }

  @Test func unsupportedInheritance() {
    assertDelegateExpansion(
      """
      @Delegate
      protocol SensorDelegate: AnyObject, Equatable, Sendable {
        func reset()
      }
      """,
      expandedSource: """
        protocol SensorDelegate: AnyObject, Equatable, Sendable {
          func reset()
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "@Delegate protocol 'SensorDelegate' inherits from 'Equatable', whose requirements a multicast cannot forward ('Self' or associated types, initializers); inherit from AnyObject, Sendable or a delegate protocol",
          line: 2, column: 37)
      ]
    )
  }

  @Test func unsupportedMembers() {
    assertDelegateExpansion(
      """
      @Delegate
      protocol SensorDelegate: AnyObject {
        associatedtype Reading
        var name: String { get }
        subscript(index: Int) -> Int { get }
        init(name: Int)
        static func make()
        func reset()
      }
      """,
      expandedSource: """
        protocol SensorDelegate: AnyObject {
          associatedtype Reading
          var name: String { get }
          subscript(index: Int) -> Int { get }
          init(name: Int)
          static func make()
          func reset()
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "@Delegate cannot bind the associated type 'Reading': it has no constraint; constrain it to one @Delegate protocol ('associatedtype Reading: P'), and the multicast binds it to that protocol's multicast (PMulticast), gathering the members' answers into one",
          line: 3, column: 3),
        // The property and the subscript are supported (StateExpansionTests).
        DiagnosticSpec(
          message:
            "@Delegate does not support initializer requirements: delegates are created by their owners, not by the proxy; remove it",
          line: 6, column: 3),
        DiagnosticSpec(
          message:
            "@Delegate does not support 'static' requirements ('make()'): messages go to delegate instances; make it an instance method",
          line: 7, column: 3, fixIts: [FixItSpec(message: "remove 'static'")]),
      ]
    )
  }

  @Test func genericsAndVariadics() {
    assertDelegateExpansion(
      """
      @Delegate
      protocol SensorDelegate: AnyObject {
        func read<T>(_ value: T)
        func write(_ value: some Numeric)
        func sensorDidFail(_ code: Int32) throws
        func sensorWillStart() async
        func sensorDidStart() async throws
        func sensor(values: Int32...)
      }
      """,
      expandedSource: """
        protocol SensorDelegate: AnyObject {
          func read<T>(_ value: T)
          func write(_ value: some Numeric)
          func sensorDidFail(_ code: Int32) throws
          func sensorWillStart() async
          func sensorDidStart() async throws
          func sensor(values: Int32...)
        }
        """,
      diagnostics: [
        // The generic method is supported: forwarded on the Swift path (StateExpansionTests).
        DiagnosticSpec(
          message:
            "parameter 'value' of 'write(_:)' has a 'some' type, which makes the method generic; @Delegate needs a concrete type",
          line: 4, column: 23),
        DiagnosticSpec(
          message:
            "parameter 'values' of 'sensor(values:)' is variadic, which has no C form; pass a pointer and a count instead",
          line: 8, column: 15),
      ]
    )
  }

  @Test func aNonEscapingClosureOfAnAsyncMethodIsRefused() {
    assertDelegateExpansion(
      """
      @Delegate
      protocol VisitDelegate: AnyObject {
        func visit(_ each: (Int) -> Void) async
        func map(_ transform: @Sendable (String) -> String) async -> String
      }
      """,
      expandedSource: """
        protocol VisitDelegate: AnyObject {
          func visit(_ each: (Int) -> Void) async
          func map(_ transform: @Sendable (String) -> String) async -> String
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "parameter 'each' of the async method 'visit(_:)' is a non-escaping closure, which cannot be lent across its delegates' suspensions; mark it '@escaping'",
          line: 3, column: 22, fixIts: [FixItSpec(message: "insert '@escaping'")]),
        DiagnosticSpec(
          message:
            "parameter 'transform' of the async method 'map(_:)' is a non-escaping closure, which cannot be lent across its delegates' suspensions; mark it '@escaping'",
          line: 4, column: 25, fixIts: [FixItSpec(message: "insert '@escaping'")]),
      ]
    )
  }

  @Test func swiftTypesAreAcceptedAndOnlyWhatCannotBeForwardedOrAnsweredIsRefused() {
    assertDelegateExpansion(
      """
      @Delegate
      protocol SensorDelegate: AnyObject {
        func a(_ handler: @escaping () -> Void, _ pair: (Int, Double), _ values: [Int32])
        func b(_ table: [String: Int], _ name: String, _ value: Any, _ count: Int?)
        func c(_ set: Set<Int>, _ level: Optional<Double>, _ letter: Character)
        func name() -> String
        func pair() -> (Int, label: String?)
        func h(_ other: Self)
        func me() -> Self?
        func handler() -> () -> Void
        func failure() -> any Error
        func object() -> AnyObject
        @Default(1) func stop()
        @Default func limit() -> Int
      }
      """,
      expandedSource: """
        protocol SensorDelegate: AnyObject {
          func a(_ handler: @escaping () -> Void, _ pair: (Int, Double), _ values: [Int32])
          func b(_ table: [String: Int], _ name: String, _ value: Any, _ count: Int?)
          func c(_ set: Set<Int>, _ level: Optional<Double>, _ letter: Character)
          func name() -> String
          func pair() -> (Int, label: String?)
          func h(_ other: Self)
          func me() -> Self?
          func handler() -> () -> Void
          func failure() -> any Error
          func object() -> AnyObject
          func stop()
          func limit() -> Int
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "'pair()' answers the tuple '(Int, label: String?)', which has no empty value to answer when no delegate answers (only optionals, Bool, numbers, strings and collections have one); declare the answer with @Default(…)",
          line: 7, column: 18, fixIts: [FixItSpec(message: "insert '@Default(<#value#>)'")]),
        DiagnosticSpec(
          message:
            "parameter 'other' of 'h(_:)' uses 'Self', which a multicast cannot forward: each delegate's 'Self' is its own type; use the protocol's existential or a concrete type",
          line: 8, column: 19),
        DiagnosticSpec(
          message:
            "the result of 'me()' uses 'Self', which a multicast cannot forward: each delegate's 'Self' is its own type; use the protocol's existential or a concrete type",
          line: 9, column: 16),
        DiagnosticSpec(
          message:
            "'handler()' answers a closure, which has no empty value to answer when no delegate answers (only optionals, Bool, numbers, strings and collections have one); declare the answer with @Default(…)",
          line: 10, column: 21, fixIts: [FixItSpec(message: "insert '@Default(<#value#>)'")]),
        DiagnosticSpec(
          message:
            "'failure()' answers 'any Error', which has no empty value to answer when no delegate answers (only optionals, Bool, numbers, strings and collections have one); declare the answer with @Default(…)",
          line: 11, column: 21, fixIts: [FixItSpec(message: "insert '@Default(<#value#>)'")]),
        DiagnosticSpec(
          message:
            "'object()' answers 'AnyObject', which has no empty value to answer when no delegate answers (only optionals, Bool, numbers, strings and collections have one); declare the answer with @Default(…)",
          line: 12, column: 20, fixIts: [FixItSpec(message: "insert '@Default(<#value#>)'")]),
        DiagnosticSpec(
          message:
            "@Default on 'stop()' has nothing to give: the method returns nothing; remove @Default",
          line: 13, column: 3, fixIts: [FixItSpec(message: "remove '@Default(1)'")]),
        DiagnosticSpec(
          message:
            "@Default on 'limit()' needs exactly one value, such as @Default(true)",
          line: 14, column: 3),
      ]
    )
  }

  /// Overloads share a derived handle and selector, so the later one is asked to name
  /// them (OverloadExpansionTests); one `@Selector` written on both is refused.
  @Test func duplicateSelectors() {
    assertDelegateExpansion(
      """
      @Delegate
      protocol SensorDelegate: AnyObject {
        @Selector("sensor:didRead:") func sensor(_ sensor: Sensor, didRead value: Int32)
        @Selector("sensor:didRead:") func sensor(_ sensor: Sensor, didRead value: Double)
        @Selector("sensor:didRead:") func sensor(_ sensor: Sensor, read value: Int32)
      }
      """,
      expandedSource: """
        protocol SensorDelegate: AnyObject {
          func sensor(_ sensor: Sensor, didRead value: Int32)
          func sensor(_ sensor: Sensor, didRead value: Double)
          func sensor(_ sensor: Sensor, read value: Int32)
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "'sensor(_:didRead:)' would have the handle '\\.sensorDidRead' and the selector 'sensor:didRead:', which another overload of it declared before it already has; name this one's with @Handle(\"…\") and @Selector(\"…\") (a handle never changes when another requirement is added)",
          line: 4, column: 37,
          notes: [NoteSpec(message: "'sensor(_:didRead:)' declared here", line: 3, column: 37)],
          fixIts: [
            FixItSpec(
              message:
                "insert '@Handle(\"sensorDidReadSensorDouble\") @Selector(\"sensorSensorDouble:didRead:\")'"
            )
          ]),
        DiagnosticSpec(
          message:
            "'sensor(_:read:)' would have the selector 'sensor:didRead:', which 'sensor(_:didRead:)' declared before it already has; name this one's with @Selector(\"…\") (a selector never changes when another requirement is added)",
          line: 5, column: 37,
          notes: [NoteSpec(message: "'sensor(_:didRead:)' declared here", line: 3, column: 37)],
          fixIts: [FixItSpec(message: "insert '@Selector(\"<#selector#>\")'")]),
      ]
    )
  }

  /// The Fix-Its applied: the later overload named after its parameter types, and
  /// `@Default` with a placeholder for a result with no empty value.
  @Test func fixItsNameTheOverloadAndInsertDefault() {
    assertDelegateExpansion(
      """
      @Delegate
      protocol RecorderDelegate: AnyObject {
        func record(_ value: Int64)
        func record(_ value: Double)
        func range() -> (Int, Int)
      }
      """,
      expandedSource: """
        protocol RecorderDelegate: AnyObject {
          func record(_ value: Int64)
          func record(_ value: Double)
          func range() -> (Int, Int)
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "'range()' answers the tuple '(Int, Int)', which has no empty value to answer when no delegate answers (only optionals, Bool, numbers, strings and collections have one); declare the answer with @Default(…)",
          line: 5, column: 19, fixIts: [FixItSpec(message: "insert '@Default(<#value#>)'")]),
        DiagnosticSpec(
          message:
            "'record(_:)' would have the handle '\\.record' and the selector 'record:', which another overload of it declared before it already has; name this one's with @Handle(\"…\") and @Selector(\"…\") (a handle never changes when another requirement is added)",
          line: 4, column: 8,
          notes: [NoteSpec(message: "'record(_:)' declared here", line: 3, column: 8)],
          fixIts: [
            FixItSpec(message: "insert '@Handle(\"recordDouble\") @Selector(\"recordDouble:\")'")
          ]),
      ],
      fixedSource: """
        @Delegate
        protocol RecorderDelegate: AnyObject {
          func record(_ value: Int64)
          @Handle("recordDouble") @Selector("recordDouble:") func record(_ value: Double)
          @Default(<#value#>) func range() -> (Int, Int)
        }
        """
    )
  }

  @Test func badSelectors() {
    assertDelegateExpansion(
      #"""
      @Delegate
      protocol SensorDelegate: AnyObject {
        @Selector("sensorFailed:") func sensor(_ sensor: Sensor, didFailWith code: Int32)
        @Selector("") func reset()
        @Selector(name) func start(_ sensor: Sensor)
        @Selector("stop:\(suffix)") func stop(_ sensor: Sensor)
        @Selector("pause-now") func pause()
        @Selector("resume:") func resume()
      }
      """#,
      expandedSource: #"""
        protocol SensorDelegate: AnyObject {
          func sensor(_ sensor: Sensor, didFailWith code: Int32)
          func reset()
          func start(_ sensor: Sensor)
          func stop(_ sensor: Sensor)
          func pause()
          func resume()
        }
        """#,
      diagnostics: [
        DiagnosticSpec(
          message:
            "@Selector(\"sensorFailed:\") on 'sensor(_:didFailWith:)' has 1 colon but the method takes 2 parameters; write one name piece and one colon per parameter, such as \"name:with:\"",
          line: 3, column: 3),
        DiagnosticSpec(
          message:
            "@Selector(\"\") on 'reset()' is empty; write one name piece and one colon per parameter, such as \"name:with:\"",
          line: 4, column: 3),
        DiagnosticSpec(
          message:
            "@Selector on 'start(_:)' needs one plain string literal, such as @Selector(\"name:with:\")",
          line: 5, column: 3),
        DiagnosticSpec(
          message:
            "@Selector on 'stop(_:)' needs one plain string literal, such as @Selector(\"name:with:\")",
          line: 6, column: 3),
        DiagnosticSpec(
          message:
            "@Selector(\"pause-now\") on 'pause()' contains '-'; a selector has only letters, digits, '_' and ':'; write one name piece and one colon per parameter, such as \"name:with:\"",
          line: 7, column: 3),
        DiagnosticSpec(
          message:
            "@Selector(\"resume:\") on 'resume()' has 1 colon but the method takes 0 parameters; write one name piece and one colon per parameter, such as \"name:with:\"",
          line: 8, column: 3),
      ]
    )
  }

  @Test func primaryAssociatedTypeWhereClauseIfConfigAndMessageNames() {
    assertDelegateExpansion(
      """
      @Delegate
      protocol SensorDelegate<Reading>: AnyObject where Self: Sendable {
        #if DEBUG
        func debug()
        #endif
        func a(_ x: Int32, b y: Int32)
        func aB(_ x: Int32, _ y: Int32)
      }
      """,
      expandedSource: """
        protocol SensorDelegate<Reading>: AnyObject where Self: Sendable {
          #if DEBUG
          func debug()
          #endif
          func a(_ x: Int32, b y: Int32)
          func aB(_ x: Int32, _ y: Int32)
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "@Delegate cannot bind the associated type 'Reading': it is not declared in the protocol; declare it as 'associatedtype Reading: P', P being a @Delegate protocol",
          line: 2, column: 25),
        DiagnosticSpec(
          message:
            "@Delegate protocol 'SensorDelegate' has the 'where' requirement 'Self: Sendable'; the only one @Delegate takes is 'Name: P', binding the associated type 'Name' to the multicast of the @Delegate protocol 'P'",
          line: 2, column: 51),
        DiagnosticSpec(
          message:
            "@Delegate protocols may contain only methods; move this declaration out of the protocol",
          line: 3, column: 3),
        DiagnosticSpec(
          message:
            "'aB(_:_:)' would have the handle '\\.aB', which 'a(_:b:)' declared before it already has; name this one's with @Handle(\"…\") (a handle never changes when another requirement is added)",
          line: 7, column: 8,
          notes: [NoteSpec(message: "'a(_:b:)' declared here", line: 6, column: 8)],
          fixIts: [FixItSpec(message: "insert '@Handle(\"<#name#>\")'")]),
      ]
    )
  }

  /// Plain `throws` and `async` are accepted (EffectsExpansionTests); typed throws and
  /// `rethrows` stay refused, with the reason.
  @Test func typedThrowsAndRethrows() {
    assertDelegateExpansion(
      """
      @Delegate
      protocol SensorDelegate: AnyObject {
        func sensorDidFail(_ code: Int32) throws(SensorError)
        func sensorWillRetry(_ code: Int32) rethrows
      }
      """,
      expandedSource: """
        protocol SensorDelegate: AnyObject {
          func sensorDidFail(_ code: Int32) throws(SensorError)
          func sensorWillRetry(_ code: Int32) rethrows
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "@Delegate does not support 'throws(SensorError)' requirements ('sensorDidFail(_:)'): under the .runAll error policy a multicast throws every delegate's error at once (MemberErrors), which no single typed error can carry; declare it plain 'throws'",
          line: 3, column: 37, fixIts: [FixItSpec(message: "replace with 'throws'")]),
        DiagnosticSpec(
          message:
            "@Delegate does not support 'rethrows' requirements ('sensorWillRetry(_:)'): a multicast's conformance cannot rethrow only what its caller's closure throws, since its delegates may throw too; declare it plain 'throws'",
          line: 4, column: 39, fixIts: [FixItSpec(message: "replace with 'throws'")]),
      ]
    )
  }

  /// A multicast is a class: a protocol refining `Actor` is refused; actors conform to an
  /// `AnyObject`-bound protocol with `async` requirements (AsyncDelegateTests).
  @Test func actorBoundProtocol() {
    assertDelegateExpansion(
      """
      @Delegate
      protocol CounterDelegate: Actor {
        func counterDidChange(_ value: Int) async
      }
      """,
      expandedSource: """
        protocol CounterDelegate: Actor {
          func counterDidChange(_ value: Int) async
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "@Delegate protocol 'CounterDelegate' inherits from 'Actor', but its multicast is a class, which cannot conform to Actor; write 'protocol CounterDelegate: AnyObject' with async requirements: actors conform to it",
          line: 2, column: 27)
      ]
    )
  }
}
