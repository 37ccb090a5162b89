import DelegateProxy
import MessageRuntime
import Testing

/// A recording test double for a delegate protocol: a runtime object that answers
/// `responds(to:)` for exactly the methods it is told to, records every message it
/// receives, answers from stubs, and verifies what it received (OCMock's mocks, for
/// this runtime).
///
/// It is an ordinary `RuntimeObject` whose methods are closure IMPs, so every caller
/// reaches it the same way: a Swift `Message` or `Invocation`, a `MulticastProxy` it is
/// a member of (queued or not), C code through `imp(for:)`, a real C
/// library through a `CallbackAdapter`.
///
/// ```swift
/// let dataSource = try DelegateDouble(tableDataSource, mode: .strict)
/// try dataSource.stub("tableView:numberOfRowsInSection:", .returning(3))
/// table.dataSource = dataSource                       // or a proxy it belongs to
/// table.reloadData()
/// dataSource.verify("tableView:numberOfRowsInSection:", called: .exactly(1), with: [.any, 0])
/// ```
///
/// **What is recorded.** Each call's selector, its arguments' bytes (with Swift names and
/// types when the double was made from a `@Delegate` protocol), its order among every
/// double's calls, and its thread and queue (``RecordedCall``). Object arguments are
/// recorded by handle and description, not retained: a delegator that passes itself
/// would otherwise be kept alive by its own delegate. (A `@Delegate` protocol's stand-in
/// also hands the double its Swift arguments, which it keeps until ``resetCalls()``: the
/// stand-in holds the double weakly, so this closes no cycle.) A partial double holds its
/// real delegate weakly, as RxCocoa's `forwardToDelegate` does.
///
/// For a `@Delegate` protocol, use ``SwiftDelegateDouble``: the same double, stubbed and
/// verified by the protocol's typed handles.
///
/// **Unanswered calls.** A call no stub matches answers zero in ``DoubleMode/nice`` mode;
/// in ``DoubleMode/strict`` mode it is also a test failure naming the method and its
/// arguments — recorded at once when the call runs inside a test, else by the next
/// verification (a call on a delegate's queue). A partial double passes such calls to its
/// delegate instead.
///
/// **Responds.** The double has a method — and `responds(to:)` is true — for exactly the
/// methods chosen with ``RespondingMethods``. A `MulticastProxy` reads a member's
/// methods when it is added: call `reloadMethods()` after ``setResponds(_:to:)``.
// @unchecked Sendable (restating RuntimeObject's): the mutable state is behind `state`, a
// `Lock` (a pthread mutex, so ThreadSanitizer sees it); every other stored property is a
// `let` of a Sendable type, and `forwardee`'s weak reference is only loaded (weak loads
// are atomic). Not final: ``SwiftDelegateDouble`` (this module's only subclass, which
// adds no stored state) is the typed face of a double of a `@Delegate` protocol.
public class DelegateDouble: RuntimeObject, @unchecked Sendable {
  /// The double's name in messages: the protocol's name, or "signatures".
  public let name: String
  /// What the double does with a call no stub answers.
  public let mode: DoubleMode
  /// Where the double was made: unexpected calls met inside a test are reported here.
  let place: IssueLocation
  /// Every method the double knows, in declaration order (answered or not).
  package let knownMethods: [DoubledMethod]

  private let methodsBySelector: [Selector: DoubledMethod]
  private let forwardee: WeakObject
  private let forwardeeWasGiven: Bool

  struct Stub {
    let matchers: [ArgumentMatcher]?
    let answers: [StubAnswer]
    var served = 0
    /// A typed stub's condition on the call's arguments (``SwiftDelegateDouble``).
    var filter: (@Sendable ([RecordedArgument]) -> Bool)? = nil
  }

  struct State {
    var calls: [RecordedCall] = []
    var stubs: [Selector: [Stub]] = [:]
    /// Failures met during calls that could not be recorded then (no test running on
    /// the calling thread); the next verification records them.
    var pendingFailures: [String] = []
    /// The Swift stand-ins handed out, one per protocol (they hold the double weakly).
    var standIns: [ObjectIdentifier: KeptValue] = [:]
    /// The values typed stubs answered, kept until the calls are reset: a class instance
    /// is answered as its unretained address, a Swift value as a `SwiftValueObject`,
    /// and the stand-in reads either after the double's method has returned.
    var answered: [KeptValue] = []
  }
  let state = Lock(State())

  /// The class every double is an instance of (its methods are its own).
  package static let doubleClass: RuntimeClass = try! RuntimeClass(name: "DelegateDouble")

  /// A double for `methods`.
  ///
  /// - Parameters:
  ///   - methods: the methods it knows (stubs and verifications may name only these).
  ///   - name: its name in messages.
  ///   - responding: the methods it has and `responds(to:)` for.
  ///   - mode: what it does with a call no stub answers.
  ///   - delegate: for a partial double, the real delegate unanswered calls go to (held
  ///     weakly; only the methods it responds to are forwarded).
  ///   - fileID, filePath, line, column: where failures of unexpected calls are reported
  ///     (by default the line that makes the double), under Swift Testing or XCTest.
  /// - Throws: ``DoubleError/unknownSelector(_:double:)`` for a selector in
  ///   `responding` the double does not know.
  public convenience init(
    methods: [DoubledMethod], name: String, responding: RespondingMethods = .all,
    mode: DoubleMode = .nice, forwardingTo delegate: RuntimeObject? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) throws(DoubleError) {
    try self.init(
      knowing: methods, name: name, responding: responding, mode: mode, forwardingTo: delegate,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The designated initializer behind every other (``SwiftDelegateDouble``'s too).
  init(
    knowing methods: [DoubledMethod], name: String, responding: RespondingMethods,
    mode: DoubleMode, forwardingTo delegate: RuntimeObject?, at place: IssueLocation
  ) throws(DoubleError) {
    self.name = name
    self.mode = mode
    self.place = place
    self.knownMethods = methods
    var table: [Selector: DoubledMethod] = [:]
    for m in methods { table[m.selector] = m }
    self.methodsBySelector = table
    self.forwardee = WeakObject(delegate)
    self.forwardeeWasGiven = delegate != nil
    super.init(class: DelegateDouble.doubleClass)
    let answered: [Selector]
    switch responding {
    case .all: answered = methods.map(\.selector)
    case .required: answered = methods.filter(\.isRequired).map(\.selector)
    case .only(let selectors): answered = selectors
    }
    for selector in answered { try setResponds(true, to: selector) }
  }

  /// A double for a runtime protocol's methods (and those of the protocols it inherits).
  public convenience init(
    _ proto: RuntimeProtocol, responding: RespondingMethods = .all, mode: DoubleMode = .nice,
    forwardingTo delegate: RuntimeObject? = nil, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) throws(DoubleError) {
    try self.init(
      knowing: proto.allRequirements.map {
        DoubledMethod(selector: $0.selector, signature: $0.signature, isRequired: $0.isRequired)
      }, name: proto.name, responding: responding, mode: mode, forwardingTo: delegate,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// A double for a list of message signatures: selector name → method encoding, e.g.
  /// `["parser:didStartElement:": "v@:@*"]`. Every method counts as required.
  /// Throws ``DoubleError/invalidSignature(selector:encoding:reason:)`` for a bad encoding.
  public convenience init(
    signatures: KeyValuePairs<String, String>, responding: RespondingMethods = .all,
    mode: DoubleMode = .nice, forwardingTo delegate: RuntimeObject? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) throws(DoubleError) {
    var methods: [DoubledMethod] = []
    for (selector, encoding) in signatures {
      do {
        let signature = try MethodSignature.parse(encoding)
        methods.append(DoubledMethod(selector: Selector(selector), signature: signature))
      } catch {
        throw .invalidSignature(selector: selector, encoding: encoding, reason: "\(error)")
      }
    }
    try self.init(
      knowing: methods, name: "signatures", responding: responding, mode: mode,
      forwardingTo: delegate,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The methods of a `@Delegate` protocol, with their Swift names and types.
  static func methods<Delegate>(of description: ProtocolDescription<Delegate>) throws(DoubleError)
    -> [DoubledMethod]
  {
    var methods: [DoubledMethod] = []
    for m in description.methods {
      do {
        var method =
          DoubledMethod(
            selector: m.selector, signature: try m.signature(in: description.name),
            isRequired: m.isRequired, swiftName: m.swiftName,
            parameterNames: m.parameters.map(\.name),
            parameterTypes: m.parameters.map { DelegateDouble.unqualified($0.type.name) }
          )
        method.parameterValueTypes = m.parameters.map(\.type)
        method.parameterLent = m.parameters.map(\.isLent)
        method.resultType = m.result.isVoid ? nil : DelegateDouble.unqualified(m.result.name)
        method.resultValueType = m.result
        methods.append(method)
      } catch {
        throw .unsupportedProtocol("\(error)")
      }
    }
    return methods
  }

  /// Whether the double was made with a delegate to forward to (a partial double).
  package var hasDelegate: Bool { forwardeeWasGiven }

  /// A Swift type name as Swift code writes it: without module names
  /// (`MyTests.Reading` → `Reading`, `Swift.Optional<Swift.String>` → `String?`,
  /// `Swift.Array<Swift.Int>` → `[Int]`).
  static func unqualified(_ name: String) -> String { SwiftTypeName.written(name) }

  // MARK: Methods and responds

  /// The method the double knows for `selector`.
  package func knownMethod(_ selector: Selector) -> DoubledMethod? { methodsBySelector[selector] }

  /// Gives the double its recording method for `selector` (`responds(to:)` becomes true)
  /// or takes it away. A `MulticastProxy` that has the double as a member must
  /// `reloadMethods()` to see the change.
  public func setResponds(_ responds: Bool, to selector: Selector) throws(DoubleError) {
    let method = try known(selector)
    guard responds else {
      removeMethod(selector)
      return
    }
    do {
      try setMethod(selector, signature: method.signature) { [weak self] invocation in
        self?.receive(invocation, method)
      }
    } catch {
      throw .methodInstallationFailed(selector: selector, reason: "\(error)")
    }
  }

  func known(_ selector: Selector) throws(DoubleError) -> DoubledMethod {
    guard let method = methodsBySelector[selector] else {
      throw .unknownSelector(selector, double: description)
    }
    return method
  }

  /// The stand-in kept under `key` (one per protocol), made by `make` the first time.
  func keptStandIn(for key: ObjectIdentifier, _ make: () -> Any) -> Any {
    if let kept = state.withLock({ $0.standIns[key] }) { return kept.value }
    // A stand-in is Sendable (DelegateStandIn); KeptValue carries it across the lock.
    let made = KeptValue(value: make())
    return state.withLock { s -> KeptValue in
      if let kept = s.standIns[key] { return kept }
      s.standIns[key] = made
      return made
    }.value
  }

  // MARK: Recorded calls

  /// Every call received, in order.
  public var calls: [RecordedCall] { state.withLock { $0.calls } }

  /// The calls of `selector`, in order.
  public func calls(to selector: Selector) -> [RecordedCall] {
    state.withLock { $0.calls.filter { $0.selector == selector } }
  }

  /// Forgets the calls received so far, and the values kept with them (stubs stay).
  public func resetCalls() {
    state.withLock {
      $0.calls.removeAll()
      $0.answered.removeAll()
    }
  }

  /// `DelegateDouble <Protocol> (mode)`.
  public override var description: String { "DelegateDouble <\(name)> (\(mode))" }

  // MARK: Receiving

  /// Records `invocation`, then answers it: a stub, the real delegate, or zero.
  private func receive(_ invocation: Invocation, _ method: DoubledMethod) {
    let delivery = SwiftArguments.current.flatMap { d in
      d.target == ObjectIdentifier(self) && d.selector == method.selector
        && d.values.count == method.arity ? d : nil
    }
    let (arguments, live) = DelegateDouble.record(invocation, method, delivery)
    let (call, answers, served) = state.withLock { s in
      var answers: [StubAnswer]? = nil
      var served = 0
      if var list = s.stubs[method.selector],
        let k = list.indices.last(where: { list[$0].accepts(arguments) })
      {
        answers = list[k].answers
        served = list[k].served
        list[k].served += 1
        s.stubs[method.selector] = list
      }
      let sequence = RecordedCall.counter.add(1, ordering: .relaxed).newValue
      let call = RecordedCall(
        selector: method.selector, signature: method.signature, arguments: arguments,
        sequence: sequence, context: .current, wasStubbed: answers != nil,
        swiftName: method.swiftName, resultType: method.resultType)
      s.calls.append(call)
      return (call, answers, served)
    }
    if !method.signature.returnsVoid {
      invocation.withUnsafeReturnValue { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }
    guard let answers else {
      if forwardeeWasGiven {
        forward(invocation, call)
      } else if mode == .strict {
        fail(
          "Unexpected call \(call.swiftDescription ?? call.description) to strict \(description): no stub answers it (received on \(call.context))"
        )
      }
      return
    }
    for answer in answers {
      do {
        try apply(answer, served: served, to: invocation, call, live)
      } catch {
        // A `throws` method's stand-in throws it to the delegator; a caller that cannot
        // receive an error (a non-throwing method, a C caller) gets a test failure.
        if let delivery, delivery.canThrow {
          delivery.thrown = error
          state.withLock { s in
            if let k = s.calls.lastIndex(where: { $0.sequence == call.sequence }) {
              s.calls[k].thrownError = error
            }
          }
          return
        }
        fail(
          "A stub of \(call.swiftDescription ?? call.selector.name) on \(description) threw \(error), which its caller cannot receive (\(delivery == nil ? "not a @Delegate stand-in's call" : "the method does not throw"))"
        )
      }
    }
  }

  /// Runs one stub answer on `invocation`.
  private func apply(
    _ answer: StubAnswer, served: Int, to invocation: Invocation, _ call: RecordedCall,
    _ live: [Any?]
  ) throws {
    switch answer.action {
    case .answer(let body):
      if let kept = try body(invocation, live) { state.withLock { $0.answered.append(kept) } }
    case .returnBytes(let values, _):
      try? invocation.setReturnBytes(values[min(served, values.count - 1)])
    case .write(let bytes, _, let position):
      guard let pointer = call.arguments[position].pointer else { return }
      UnsafeMutableRawPointer(mutating: pointer).copyMemory(from: bytes, byteCount: bytes.count)
    case .perform(let body):
      try body(invocation)
    case .forward:
      forward(invocation, call)
    }
  }

  /// Sends `invocation` to the real delegate, if it responds to the message.
  private func forward(_ invocation: Invocation, _ call: RecordedCall) {
    guard let delegate = forwardee.object, delegate.responds(to: call.selector) else { return }
    do { try invocation.invoke(target: delegate) } catch {
      fail("Forwarding \(call) from \(description) to \(delegate) failed: \(error)")
    }
  }

  /// Records a failure now when a test is running on this thread, else keeps it for the
  /// next verification.
  func fail(_ message: String) {
    if Test.current != nil {
      place.record(message)
    } else {
      state.withLock { $0.pendingFailures.append(message) }
    }
  }

  /// Records the failures kept from calls outside a test, at `location`.
  func reportPendingFailures(at location: IssueLocation) {
    let pending = state.withLock { s in
      defer { s.pendingFailures.removeAll() }
      return s.pendingFailures
    }
    for message in pending { location.record(message) }
  }

  /// The method's own arguments of `invocation`, as recorded values, and — for a
  /// `@Delegate` protocol's method — as the Swift values a stub receives (`delivery`'s,
  /// when a stand-in sent the call: class instances and closures as themselves; an
  /// `inout` argument as the caller's variable, where the recorded one is a copy).
  private static func record(
    _ invocation: Invocation, _ method: DoubledMethod, _ delivery: SwiftArguments?
  ) -> (recorded: [RecordedArgument], live: [Any?]) {
    var live: [Any?] = []
    let recorded = (0..<method.arity).map { position in
      let type = method.signature.argumentTypes[signatureIndex(position)].unqualified
      let bytes = (try? invocation.argumentBytes(at: position)) ?? []
      var string: String? = nil
      if type == .cString, bytes.count == MemoryLayout<UInt>.size {
        let raw = bytes.withUnsafeBytes { $0.load(as: UInt.self) }
        if let p = UnsafePointer<CChar>(bitPattern: raw) { string = ValueText.cString(p) }
      }
      // A Swift value with no C form arrives as a SwiftValueObject: keep its value.
      var swiftCopy: Any? = nil
      let lent = method.parameterLent.indices.contains(position) && method.parameterLent[position]
      if type == .object, bytes.count == MemoryLayout<UInt>.size, !lent {
        let raw = bytes.withUnsafeBytes { $0.load(as: UInt.self) }
        swiftCopy = SwiftValueObject.value(of: OpaquePointer(bitPattern: raw), as: Any.self)
      }
      // The Swift value: the stand-in's own argument, else the value its C form or its
      // SwiftValueObject carried (a class instance from a C caller is only an address).
      let valueType =
        method.parameterValueTypes.indices.contains(position)
        ? method.parameterValueTypes[position] : nil
      var value: Any? = nil
      if valueType != nil {
        value = delivery?.values[position] ?? swiftCopy ?? valueType?.anyValue(fromC: bytes)
      }
      live.append(value)
      // Recorded: an `inout` argument as it arrived (a copy), no lent closure.
      let kept: Any? =
        lent ? nil : (value as? any DelegateInoutArgument).map { $0.detachedCopy() } ?? value
      return RecordedArgument(
        type: type, bytes: bytes,
        name: method.parameterNames.indices.contains(position)
          ? method.parameterNames[position] : nil,
        swiftType: method.parameterTypes.indices.contains(position)
          ? method.parameterTypes[position] : nil,
        text: lent
          ? "<non-escaping closure, lent for the call>"
          : swiftCopy.map { String(describing: $0) }
            ?? ValueText.text(bytes, type, dereference: true), string: string,
        valueType: method.parameterValueTypes.indices.contains(position)
          ? method.parameterValueTypes[position] : nil, swiftCopy: swiftCopy,
        swiftArgument: kept)
    }
    return (recorded, live)
  }

  /// The index in `MethodSignature.argumentTypes` (which lists `self` and `_cmd` first)
  /// of the method's argument at `position` (0 = the first after `_cmd`, as `Invocation`
  /// counts).
  static func signatureIndex(_ position: Int) -> Int { position + 2 }
}

extension DelegateDouble.Stub {
  /// Whether the stub's matchers and filter accept `arguments` (none: every call).
  func accepts(_ arguments: [RecordedArgument]) -> Bool {
    if let filter, !filter(arguments) { return false }
    guard let matchers else { return true }
    return matchers.count == arguments.count
      && zip(matchers, arguments).allSatisfy { $0.matches($1) }
  }
}

/// A double receives the Swift arguments of the calls its stand-ins send (DelegateProxy's
/// `DelegateStandIn` hands them over during the call).
extension DelegateDouble: SwiftArgumentsReceiver {}
