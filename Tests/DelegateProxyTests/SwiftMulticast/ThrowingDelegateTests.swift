import DelegateProxy
import DelegateProxyTestSupport
import Dispatch
import Testing

// `throws` requirements: the error policies (stop at the first error, or run every
// delegate and throw them all) under each return policy, delegates on queues, throwing
// aggregation and broadcast.

final class Vault: Sendable {}

struct VaultFailure: Error, Equatable {
  let who: String
}

@Delegate
protocol VaultDelegate: AnyObject {
  func vaultWillSave(_ vault: Vault) throws
  func vaultShouldLock(_ vault: Vault) throws -> Bool
  func vaultTitle(_ vault: Vault, index: Int) throws -> String?
  @Optional func vaultRetries(_ vault: Vault) throws -> Int
}

/// A delegate that logs each call and answers, or throws, as it was told.
final class VaultListener: VaultDelegate, Sendable {
  let name: String
  let log: CallLog
  let fails: Bool
  let lock: Bool
  let title: String?

  init(_ name: String, _ log: CallLog, fails: Bool = false, lock: Bool = true, title: String? = nil)
  {
    self.name = name
    self.log = log
    self.fails = fails
    self.lock = lock
    self.title = title
  }

  private func call() throws {
    log.append(name)
    if fails { throw VaultFailure(who: name) }
  }

  func vaultWillSave(_ vault: Vault) throws { try call() }
  func vaultShouldLock(_ vault: Vault) throws -> Bool {
    try call()
    return lock
  }
  func vaultTitle(_ vault: Vault, index: Int) throws -> String? {
    try call()
    return title.map { "\($0) \(index)" }
  }
}

/// Implements the optional method too.
final class RetryingVaultListener: VaultDelegate, Sendable {
  let retries: Int
  init(retries: Int) { self.retries = retries }
  func vaultWillSave(_ vault: Vault) throws {}
  func vaultShouldLock(_ vault: Vault) throws -> Bool { true }
  func vaultTitle(_ vault: Vault, index: Int) throws -> String? { nil }
  func vaultRetries(_ vault: Vault) throws -> Int {
    if retries < 0 { throw VaultFailure(who: "retrying") }
    return retries
  }
}

/// The `who` of each error a `MemberErrors` holds.
func failures(_ error: any Error) -> [String] {
  guard let errors = error as? MemberErrors else { return ["not MemberErrors: \(error)"] }
  return errors.errors.map { ($0 as? VaultFailure)?.who ?? "\($0)" }
}

@Suite("throws requirements")
struct ThrowingDelegateTests {
  let vault = Vault()

  /// A multicast of `listeners`, made by name from the log: `!` marks one that throws.
  func multicast(_ names: [String], _ log: CallLog, policy: ReturnPolicy<Any> = .lastResponder)
    throws -> (VaultDelegateMulticast, [VaultListener])
  {
    let proxy = VaultDelegateMulticast(policy: policy)
    let listeners = names.map { name in
      VaultListener(
        name.replacingOccurrences(of: "!", with: ""), log, fails: name.hasSuffix("!"),
        lock: !name.hasPrefix("no"), title: name.hasPrefix("t") ? name : nil)
    }
    for l in listeners { proxy.add(l) }
    return (proxy, listeners)
  }

  @Test func theDefaultErrorPolicyStopsAtTheFirstError() throws {
    let log = CallLog()
    let (proxy, listeners) = try multicast(["a", "b!", "c!"], log)
    #expect(proxy.errorPolicy(for: \.vaultWillSave) == .stopAtFirst)
    #expect(throws: VaultFailure(who: "b")) { try proxy.vaultWillSave(vault) }
    #expect(log.entries == ["a", "b"])
    withExtendedLifetime(listeners) {}
  }

  @Test func runAllCallsEveryDelegateAndThrowsEveryErrorInOrder() throws {
    let log = CallLog()
    let (proxy, listeners) = try multicast(["a", "b!", "c", "d!"], log)
    proxy.setErrorPolicy(.runAll, for: \.vaultWillSave)
    #expect(proxy.errorPolicy(for: \.vaultWillSave) == .runAll)
    let error = #expect(throws: MemberErrors.self) { try proxy.vaultWillSave(vault) }
    #expect(error.map(failures) == ["b", "d"])
    #expect(log.entries == ["a", "b", "c", "d"])
    // One error is still reported as MemberErrors: callers catch one type.
    let log2 = CallLog()
    let (single, others) = try multicast(["a!", "b"], log2)
    single.setErrorPolicy(.runAll, for: \.vaultWillSave)
    let one = #expect(throws: MemberErrors.self) { try single.vaultWillSave(vault) }
    #expect(one.map(failures) == ["a"])
    // Back to the default.
    proxy.setErrorPolicy(nil, for: \.vaultWillSave)
    #expect(proxy.errorPolicy(for: \.vaultWillSave) == .stopAtFirst)
    withExtendedLifetime((listeners, others)) {}
  }

  @Test(arguments: [DelegateErrorPolicy.stopAtFirst, .runAll])
  func lastResponderAnswersTheLastWhenNobodyThrows(errorPolicy: DelegateErrorPolicy) throws {
    let log = CallLog()
    let (proxy, listeners) = try multicast(["a", "noB"], log)
    proxy.setErrorPolicy(errorPolicy, for: \.vaultShouldLock)
    #expect(try proxy.vaultShouldLock(vault) == false)
    #expect(log.entries == ["a", "noB"])
    let (failing, others) = try multicast(["a", "b!", "c"], log)
    failing.setErrorPolicy(errorPolicy, for: \.vaultShouldLock)
    do {
      _ = try failing.vaultShouldLock(vault)
      Issue.record("no error")
    } catch {
      if errorPolicy == .stopAtFirst {
        #expect(error as? VaultFailure == VaultFailure(who: "b"))
      } else {
        #expect(failures(error) == ["b"])
      }
    }
    #expect(log.entries == ["a", "noB", "a", "b"] + (errorPolicy == .runAll ? ["c"] : []))
    withExtendedLifetime((listeners, others)) {}
  }

  @Test(arguments: [DelegateErrorPolicy.stopAtFirst, .runAll])
  func firstResponderCallsOnlyTheFirstEvenWhenItThrows(errorPolicy: DelegateErrorPolicy) throws {
    let log = CallLog()
    let (proxy, listeners) = try multicast(["a!", "b"], log, policy: .firstResponder)
    proxy.setErrorPolicy(errorPolicy, for: \.vaultShouldLock)
    do {
      _ = try proxy.vaultShouldLock(vault)
      Issue.record("no error")
    } catch {
      #expect(
        errorPolicy == .stopAtFirst
          ? error as? VaultFailure == VaultFailure(who: "a") : failures(error) == ["a"])
    }
    #expect(log.entries == ["a"])
    let (answering, others) = try multicast(["noA", "b"], log, policy: .firstResponder)
    answering.setErrorPolicy(errorPolicy, for: \.vaultShouldLock)
    #expect(try answering.vaultShouldLock(vault) == false)
    #expect(log.entries == ["a", "noA"])
    withExtendedLifetime((listeners, others)) {}
  }

  @Test(arguments: [DelegateErrorPolicy.stopAtFirst, .runAll])
  func reducersFoldTheAnswersOrReportTheErrors(errorPolicy: DelegateErrorPolicy) throws {
    let log = CallLog()
    let (proxy, listeners) = try multicast(["a", "noB", "c"], log)
    proxy.setPolicy(.reduce(.allTrue), for: \.vaultShouldLock)
    proxy.setErrorPolicy(errorPolicy, for: \.vaultShouldLock)
    #expect(try proxy.vaultShouldLock(vault) == false)
    proxy.setPolicy(.reduce(.anyTrue), for: \.vaultShouldLock)
    #expect(try proxy.vaultShouldLock(vault) == true)
    // firstNonNil over a Swift optional: the first title, not the last.
    let (titled, titledListeners) = try multicast(["a", "t1", "t2"], log)
    titled.setPolicy(.reduce(.firstNonNil), for: \.vaultTitleIndex)
    titled.setErrorPolicy(errorPolicy, for: \.vaultTitleIndex)
    #expect(try titled.vaultTitle(vault, index: 4) == "t1 4")
    // An error beats every answer.
    let (failing, failingListeners) = try multicast(["t1", "b!", "t2!"], log)
    failing.setPolicy(.reduce(.firstNonNil), for: \.vaultTitleIndex)
    failing.setErrorPolicy(errorPolicy, for: \.vaultTitleIndex)
    do {
      _ = try failing.vaultTitle(vault, index: 1)
      Issue.record("no error")
    } catch {
      #expect(
        errorPolicy == .stopAtFirst
          ? error as? VaultFailure == VaultFailure(who: "b") : failures(error) == ["b", "t2"])
    }
    withExtendedLifetime((listeners, titledListeners, failingListeners)) {}
  }

  @Test func anOptionalThrowingMethodReachesOnlyItsImplementers() throws {
    let log = CallLog()
    let proxy = VaultDelegateMulticast()
    let plain = VaultListener("plain", log)
    let retrying = RetryingVaultListener(retries: 3)
    proxy.add(plain)
    proxy.add(retrying)
    #expect(try proxy.vaultRetries(vault) == 3)
    #expect(proxy.count(respondingTo: \.vaultRetries) == 1)
    let failing = RetryingVaultListener(retries: -1)
    proxy.add(failing)
    #expect(throws: VaultFailure(who: "retrying")) { try proxy.vaultRetries(vault) }
    proxy.removeAll()
    // Nobody answers: the result type's empty value.
    #expect(try proxy.vaultRetries(vault) == 0)
    withExtendedLifetime((plain, retrying, failing)) {}
  }

  @Test func observersSeeTheArgumentsAlsoWhenADelegateThrows() throws {
    let log = CallLog()
    let (proxy, listeners) = try multicast(["a!"], log)
    let seen = CallLog()
    let before = proxy.observe(\.vaultTitleIndex, .before) { _, index in
      seen.append("before \(index)")
    }
    let after = proxy.observe(\.vaultTitleIndex) { _, index in seen.append("after \(index)") }
    #expect(throws: VaultFailure(who: "a")) { try proxy.vaultTitle(vault, index: 7) }
    #expect(seen.entries == ["before 7", "after 7"])
    withExtendedLifetime((listeners, before, after)) {}
  }

  @Test func anErrorThrownOnADelegatesQueueReachesTheConformancesCaller() throws {
    let log = CallLog()
    let queue = DispatchQueue(label: "vault.queue")
    let proxy = VaultDelegateMulticast()
    let onQueue = VaultListener("queued", log, fails: true)
    let later = VaultListener("later", log)
    proxy.add(onQueue, queue: queue)
    proxy.add(later)
    // A void throwing method waits for the queued delegate: its error must reach the caller.
    #expect(throws: VaultFailure(who: "queued")) { try proxy.vaultWillSave(vault) }
    #expect(log.entries == ["queued"])
    proxy.setErrorPolicy(.runAll, for: \.vaultWillSave)
    let error = #expect(throws: MemberErrors.self) { try proxy.vaultWillSave(vault) }
    #expect(error.map(failures) == ["queued"])
    #expect(log.entries == ["queued", "queued", "later"])
    withExtendedLifetime((onQueue, later)) {}
  }

  @Test func aggregateAndBroadcastRethrowAnErrorFromAQueuedDelegate() async throws {
    let log = CallLog()
    let proxy = VaultDelegateMulticast()
    let first = VaultListener("first", log, title: "t")
    let queued = VaultListener("queued", log, fails: true)
    proxy.add(first)
    proxy.add(queued, queue: DispatchQueue(label: "vault.aggregate"))
    await #expect(throws: VaultFailure(who: "queued")) {
      try await proxy.aggregate(\.vaultShouldLock, vault, reducer: .allTrue)
    }
    await #expect(throws: VaultFailure(who: "queued")) {
      try await proxy.broadcast(\.vaultWillSave, vault)
    }
    #expect(log.entries == ["first", "queued", "first", "queued"])
    proxy.remove(queued)
    #expect(try await proxy.aggregate(\.vaultTitleIndex, vault, 2, reducer: .firstNonNil) == "t 2")
    try await proxy.broadcast(\.vaultWillSave, vault)
    proxy.setErrorPolicy(.runAll, for: \.vaultWillSave)
    let failing = VaultListener("failing", log, fails: true)
    proxy.add(failing, queue: DispatchQueue(label: "vault.broadcast"))
    let thrown = await #expect(throws: MemberErrors.self) {
      try await proxy.broadcast(\.vaultWillSave, vault)
    }
    #expect(thrown.map(failures) == ["failing"])
    withExtendedLifetime((first, queued, failing)) {}
  }
}
