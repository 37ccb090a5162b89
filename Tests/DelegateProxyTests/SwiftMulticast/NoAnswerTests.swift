import DelegateProxy
import Testing

// What a call nobody answers returns: the protocol's `@Default`, else the result type's
// empty value — in the three states every program reaches (no delegate yet, all
// delegates gone, an optional method no delegate implements). Never a trap.

final class Link: Sendable {}

@Delegate
protocol LinkDelegate: AnyObject {
  func linkShouldConnect(_ link: Link) -> Bool
  @Default(true) func linkShouldRetry(_ link: Link) -> Bool
  func linkRetryLimit(_ link: Link) -> Int
  @Default(3) func linkTimeout(_ link: Link) -> Int
  func linkName(_ link: Link) -> String?
  @Default("guest") func linkUser(_ link: Link) -> String?
  @Optional @Default(true) func linkAllowsCompression(_ link: Link) -> Bool
  @Optional func linkPriority(_ link: Link) -> Int
  @Optional func linkProxy(_ link: Link) -> String?
  @Optional @Default(["direct"]) func linkRoutes(_ link: Link) -> [String]
}

/// Implements the required methods only, answering unlike every default.
final class PlainLinkListener: LinkDelegate {
  func linkShouldConnect(_ link: Link) -> Bool { true }
  func linkShouldRetry(_ link: Link) -> Bool { false }
  func linkRetryLimit(_ link: Link) -> Int { 9 }
  func linkTimeout(_ link: Link) -> Int { 30 }
  func linkName(_ link: Link) -> String? { "plain" }
  func linkUser(_ link: Link) -> String? { "root" }
}

/// A delegator as written without a multicast: what `?? value` it falls back on is what
/// the multicast must answer when nobody answers.
final class LinkDevice {
  weak var delegate: (any LinkDelegate)?
  let link = Link()
  var retries: Bool { delegate?.linkShouldRetry(link) ?? true }
}

@Suite("No answer: defaults instead of traps")
struct NoAnswerTests {
  let link = Link()

  /// Every value-returning method's answer, in declaration order, as text.
  func answers(_ proxy: LinkDelegateMulticast) -> [String] {
    [
      "\(proxy.linkShouldConnect(link))", "\(proxy.linkShouldRetry(link))",
      "\(proxy.linkRetryLimit(link))", "\(proxy.linkTimeout(link))",
      "\(proxy.linkName(link) ?? "nil")", "\(proxy.linkUser(link) ?? "nil")",
      "\(proxy.linkAllowsCompression(link))", "\(proxy.linkPriority(link))",
      "\(proxy.linkProxy(link) ?? "nil")", "\(proxy.linkRoutes(link))",
    ]
  }

  static let declared = [
    "false", "true", "0", "3", "nil", "guest", "true", "0", "nil", "[\"direct\"]",
  ]

  @Test(arguments: [ReturnPolicy<Any>.lastResponder, .firstResponder])
  func anEmptyMulticastAnswersTheDeclaredDefaults(policy: ReturnPolicy<Any>) {
    let proxy = LinkDelegateMulticast(policy: policy)
    #expect(answers(proxy) == Self.declared)
  }

  @Test func aMulticastWhoseDelegatesAreAllGoneAnswersTheDeclaredDefaults() throws {
    let proxy = LinkDelegateMulticast()
    do {
      let a = PlainLinkListener()
      let b = PlainLinkListener()
      proxy.add(a)
      proxy.add(b)
      #expect(answers(proxy)[0...5] == ["true", "false", "9", "30", "plain", "root"])
    }
    #expect(answers(proxy) == Self.declared)
    #expect(proxy.count == 0)
  }

  @Test func anOptionalMethodNoDelegateImplementsAnswersItsDefaultFromTheFirstCall() throws {
    let proxy = LinkDelegateMulticast()
    let plain = PlainLinkListener()
    proxy.add(plain)
    let first = answers(proxy)
    #expect(first[6...] == ["true", "0", "nil", "[\"direct\"]"])
    #expect(answers(proxy) == first)
    proxy.setPolicy(.reduce(.firstNonNil), for: \.linkProxy)
    #expect(proxy.linkProxy(link) == nil)
  }

  @Test func theDelegatorsOwnFallbackIsWhatTheMulticastAnswers() {
    let device = LinkDevice()
    #expect(device.retries == true)  // no delegate: the delegator's `?? true`
    let proxy = LinkDelegateMulticast()
    device.delegate = proxy
    #expect(device.retries == true)  // an empty multicast: the declared @Default(true)
  }

  @Test func truthReducersAndAggregationAnswerForNoValuesAsDocumented() async throws {
    let proxy = LinkDelegateMulticast()
    proxy.setPolicy(.reduce(.allTrue), for: \.linkShouldConnect)
    #expect(proxy.linkShouldConnect(link) == true)  // all of none: true
    proxy.setPolicy(.reduce(.anyTrue), for: \.linkShouldConnect)
    #expect(proxy.linkShouldConnect(link) == false)
    #expect(await proxy.aggregate(\.linkTimeout, link) == 3)
    #expect(await proxy.aggregate(\.linkUser, link) == "guest")
    #expect(await proxy.aggregate(\.linkShouldRetry, link) == true)
  }
}

@Delegate
protocol ProxyChoice: AnyObject {
  @Default(nil) func proxyHost(for link: Link) -> String?
  @Optional @Default(nil) func proxyPort(for link: Link) -> Int?
}

final class FixedProxy: ProxyChoice {
  func proxyHost(for link: Link) -> String? { "cache.local" }
}

@Suite("@Default(nil)")
struct DefaultNilTests {
  @Test(
    "compiles for an optional result and answers nil when nobody answers, the member's answer otherwise"
  )
  func defaultNil() {
    let link = Link()
    let choice = ProxyChoiceMulticast()
    #expect(choice.proxyHost(for: link) == nil)
    #expect(choice.proxyPort(for: link) == nil)
    let fixed = FixedProxy()
    choice.add(fixed)
    #expect(choice.proxyHost(for: link) == "cache.local")
    #expect(choice.proxyPort(for: link) == nil)
  }
}
