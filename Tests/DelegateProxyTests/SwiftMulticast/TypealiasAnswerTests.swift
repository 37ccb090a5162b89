import DelegateProxy
import Testing

// A result type spelled through a typealias has the empty value of the type it names: the
// macro cannot see through the alias, so the type checker confirms it (and a user's enum
// with no `@Default` does not compile: EmptyAnswerDiagnosticsTests).

/// swift-log's shape: `Logger.Metadata` is a dictionary, `Logger.Level` a number here.
enum AliasLogger {
  typealias Metadata = [String: String]
  typealias Level = Int32
}
typealias AliasNames = Set<String>
typealias AliasReply = Substring?

@Delegate
protocol AliasAnswers: AnyObject {
  func metadata(for key: String) -> AliasLogger.Metadata
  func level() -> AliasLogger.Level
  func names() -> AliasNames
  func reply() -> AliasReply
  @Optional func flags() -> [AliasLogger.Level]
  var title: Swift.String { get }
  subscript(metadataKey key: String) -> AliasLogger.Metadata { get }
}

/// Answers every method, unlike its empty value.
final class AliasAnswerer: AliasAnswers {
  func metadata(for key: String) -> AliasLogger.Metadata { [key: "v"] }
  func level() -> AliasLogger.Level { 7 }
  func names() -> AliasNames { ["a"] }
  func reply() -> AliasReply { "r" }
  var title: String { "t" }
  subscript(metadataKey key: String) -> AliasLogger.Metadata { [key: "s"] }
}

@Suite("No answer through typealiases")
struct TypealiasAnswerTests {
  @Test func nobodyAnsweringGivesTheAliasedTypesEmptyValue() {
    let multicast = AliasAnswersMulticast()
    #expect(multicast.metadata(for: "k") == [:])
    #expect(multicast.level() == 0)
    #expect(multicast.names() == [])
    #expect(multicast.reply() == nil)
    #expect(multicast.flags() == [])
    #expect(multicast.title == "")
    #expect(multicast[metadataKey: "k"] == [:])
  }

  @Test func anAnswerIsTheMembersNotTheEmptyValue() {
    let multicast = AliasAnswersMulticast()
    let answerer = AliasAnswerer()
    multicast.add(answerer)
    #expect(multicast.metadata(for: "k") == ["k": "v"])
    #expect(multicast.level() == 7)
    #expect(multicast.names() == ["a"])
    #expect(multicast.reply() == "r")
    // An optional method the member lacks: the empty value, through the alias.
    #expect(multicast.flags() == [])
    #expect(multicast[metadataKey: "k"] == ["k": "s"])
    withExtendedLifetime(answerer) {}
  }
}
