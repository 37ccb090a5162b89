import DelegateProxy
import Synchronization

/// The calls members saw, in order, shared by the members of one side of a test.
final class GenLog: Sendable {
  private let storage = Mutex<[String]>([])
  func record(_ entry: String) { storage.withLock { $0.append(entry) } }
  var entries: [String] { storage.withLock { $0 } }
}

/// What a failing member throws.
struct GenError: Error, CustomStringConvertible {
  let member: Int
  let method: String
  var description: String { "GenError(m\(member).\(method))" }
}

/// A struct parameter and result type.
struct GenPoint: Equatable, Sendable {
  var x: Int
  var y: Int
}

/// An enum parameter and result type.
enum GenMode: Sendable { case fast, slow, off }

/// A class parameter type.
final class GenToken: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

/// Which of its protocol's methods a generated member (an object or a value) implements (the reference skips a
/// member for an optional method it lacks, as the multicast does).
protocol GenMember {
  var implements: Set<String> { get }
}

/// A call's outcome as text: its answer, or its error (every error of a `MemberErrors`,
/// in order).
func genOutcome(_ body: () async throws -> String) async -> String {
  do {
    return try await body()
  } catch let errors as MemberErrors {
    return "errors " + errors.errors.map { "\($0)" }.joined(separator: ", ")
  } catch {
    return "error \(error)"
  }
}
