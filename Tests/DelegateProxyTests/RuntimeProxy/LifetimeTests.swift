import Dispatch
import Synchronization
import Testing

@testable import DelegateProxy
@testable import MessageRuntime

/// No retain cycles: proxies, delegates, delegators, injected secondaries, observations,
/// routes and closure IMPs all go away when their user drops them — proved with weak
/// references after each object was used on every path (routes installed, general path
/// taken, queued copies delivered).
@Suite("Lifetimes") struct LifetimeTests {
  static let value = Message<Int, Int>("lifetimeValue:")
  static let ping = Message<Void, Int>("lifetimePing:")
  static let big = Message<Big5, Int>("lifetimeBig:")

  struct Big5: MessageArgument, BitwiseCopyable, Equatable {
    var a, b, c, d, e: Int64
    static let typeEncoding: TypeEncoding = .structure(
      name: "LifetimeBig5", fields: Array(repeating: .longLong, count: 5))
  }

  /// A class with closure IMPs for every message of this suite.
  static func delegateClass(_ tag: Int) throws -> RuntimeClass {
    let cls = try RuntimeClass(name: uniqueClassName("Lifetime\(tag)"))
    try cls.addMethod(value) { _, x in x + tag }
    try cls.addMethod(ping) { _, _ in }
    try cls.addMethod(big) { _, n in Big5(a: Int64(tag), b: Int64(n), c: 0, d: 0, e: 0) }
    return cls
  }

  /// Every kind of member and attachment, each used, then dropped by the user: nothing
  /// keeps anything else alive.
  @Test func proxyMembersObserversAndNestedProxiesFormNoCycle() throws {
    weak var weakProxy: MulticastProxy?
    weak var weakNested: MulticastProxy?
    weak var weakWeakMember: RuntimeObject?
    weak var weakStrongMember: RuntimeObject?
    weak var weakQueued: RuntimeObject?
    weak var weakInner: RuntimeObject?
    weak var weakClass: RuntimeClass?
    let queue = DispatchQueue(label: "lifetime.queued")
    do {
      let cls = try Self.delegateClass(1)
      weakClass = cls
      let proxy = MulticastProxy()
      let nested = MulticastProxy()
      let weakMember = RuntimeObject(class: cls)
      let strongMember = RuntimeObject(class: cls)
      let queued = RuntimeObject(class: cls)
      let inner = RuntimeObject(class: cls)
      (weakProxy, weakNested, weakWeakMember, weakStrongMember, weakQueued, weakInner) = (
        proxy, nested, weakMember, strongMember, queued, inner
      )
      try proxy.add(weakMember)
      try proxy.add(strongMember, retention: .strong)
      try nested.add(inner, retention: .strong)
      try proxy.add(nested, retention: .strong)
      #expect(proxy.fastPath(for: Self.big.selector) == nil)  // a forwarder: general path
      try proxy.add(queued, queue: queue)
      let observation = proxy.observe(Self.value.selector) { _ in }
      let stream = proxy.messages(Self.ping.selector)
      // Every path once: general (observed, queued, nested) and C routes.
      #expect(try Self.value.send(to: proxy, 1) == 2)
      try Self.ping.send(to: proxy, 1)
      #expect(try Self.big.send(to: proxy, 3).b == 3)
      let other = MulticastProxy()
      try other.add(weakMember)
      #expect(other.fastPath(for: Self.value.selector) == .registers)
      #expect(other.fastPath(for: Self.big.selector) == memoryResultPath)
      #expect(try Self.big.send(to: other, 4).b == 4)
      queue.sync {}
      withExtendedLifetime((observation, stream)) {}
    }
    queue.sync {}  // queued copies (which retain the proxy) have run and been released
    Quiescence.waitForDeferredReleases()  // routes release what they kept after a grace period
    #expect(weakProxy == nil)
    #expect(weakNested == nil)
    #expect(weakWeakMember == nil)
    #expect(weakStrongMember == nil)
    #expect(weakQueued == nil)
    #expect(weakInner == nil)
    #expect(weakClass == nil)
  }

  /// Members do not keep their proxy alive, and a proxy keeps only its strong members.
  @Test func dropTheProxyFirstThenTheDelegates() throws {
    weak var weakProxy: MulticastProxy?
    weak var weakStrong: RuntimeObject?
    let cls = try Self.delegateClass(2)
    let weakMember = RuntimeObject(class: cls)
    do {
      let proxy = MulticastProxy()
      weakProxy = proxy
      try proxy.add(weakMember)
      do {
        let strong = RuntimeObject(class: cls)
        weakStrong = strong
        try proxy.add(strong, retention: .strong)
      }
      #expect(weakStrong != nil)  // kept by the proxy
      #expect(try Self.value.send(to: proxy, 0) == 2)
    }
    Quiescence.waitForDeferredReleases()  // routes release what they kept after a grace period
    #expect(weakProxy == nil)  // the members held no reference to it
    #expect(weakStrong == nil)  // released with the proxy
    #expect(try Self.value.send(to: weakMember, 1) == 3)  // and the weak member is untouched
  }

  /// A delegator (its slot), its delegate, an injected secondary and the injection
  /// proxy: dropping the delegator frees the proxy; the delegates live as long as their
  /// owners keep them, and none keeps the others.
  @Test func delegatorSlotAndInjectedSecondaryFormNoCycle() throws {
    let cls = try scrollDelegateClass()
    // The delegator goes first.
    do {
      weak var weakView: ScrollView?
      weak var weakProxy: MulticastProxy?
      weak var weakPrimary: Named?
      weak var weakSecondary: Named?
      var primary: Named? = Named(cls, "primary")
      var secondary: Named? = Named(cls, "secondary")
      do {
        let view = ScrollView()
        weakView = view
        view.delegate = primary
        try view.setSecondaryDelegate(secondary)
        weakProxy = view.delegateSlot.proxy
        try view.scroll()
        #expect(try view.shouldScrollToTop() == false)
        #expect(weakProxy?.fastPath(for: ScrollMessages.didScroll.selector) == .registers)
      }
      #expect(weakView == nil)
      #expect(weakProxy == nil)
      #expect(primary?.counter.load(ordering: .relaxed) == 1)
      weakPrimary = primary
      weakSecondary = secondary
      primary = nil
      secondary = nil
      #expect(weakPrimary == nil && weakSecondary == nil)
    }
    // The delegates go first; the slot keeps its proxy until the delegator goes.
    do {
      weak var weakProxy: MulticastProxy?
      weak var weakSecondary: Named?
      var view: ScrollView? = ScrollView()
      do {
        let primary = Named(cls, "primary")
        let secondary = Named(cls, "secondary")
        weakSecondary = secondary
        view!.delegate = primary
        try view!.setSecondaryDelegate(secondary)
        weakProxy = view!.delegateSlot.proxy
        try view!.scroll()
      }
      #expect(weakSecondary == nil)
      #expect(weakProxy != nil)
      #expect(view!.delegate == nil)
      try view!.scroll()  // nothing to call, nothing crashes
      view = nil
      #expect(weakProxy == nil)
    }
  }

  /// A proxy's routes go with it: their boxes are freed when it is deallocated, and the
  /// route memory they retire is reclaimed once no read section can see it.
  @Test func aDeallocatedProxyFreesItsRoutes() throws {
    let cls = try Self.delegateClass(3)
    let member = RuntimeObject(class: cls)
    weak var weakRegisterRoute: RouteBox?
    weak var weakMemoryRoute: RouteBox?
    do {
      let proxy = MulticastProxy()
      try proxy.add(member)
      #expect(proxy.fastPath(for: Self.value.selector) == .registers)
      #expect(proxy.fastPath(for: Self.big.selector) == memoryResultPath)
      weakRegisterRoute = proxy.ownMethods.first { $0.selector == Self.value.selector }?.route
      weakMemoryRoute = proxy.ownMethods.first { $0.selector == Self.big.selector }?.route
      #expect(weakRegisterRoute != nil && weakMemoryRoute != nil)
      #expect(try Self.big.send(to: proxy, 1).a == 3)
    }
    Quiescence.waitForDeferredReleases()  // routes release what they kept after a grace period
    #expect(weakRegisterRoute == nil)
    #expect(weakMemoryRoute == nil)
    #expect(try Self.value.send(to: member, 0) == 3)
  }

  /// The C memory of a dropped proxy's routes (route records, target lists, member
  /// flags) is retired, held while a read section that may see it is open, and freed
  /// after. Run alone in a child process so no other test retires memory meanwhile and
  /// the count is exact.
  @Test func routeMemoryIsRetiredAndReclaimed() async {
    await #expect(processExitsWith: .success) {
      let cls = try! LifetimeTests.delegateClass(4)
      let member = RuntimeObject(class: cls)
      var proxy: MulticastProxy? = MulticastProxy()
      try! proxy!.add(member)
      guard proxy!.fastPath(for: LifetimeTests.value.selector) == .registers,
        proxy!.fastPath(for: LifetimeTests.big.selector) == memoryResultPath
      else { exit(2) }
      _ = try! LifetimeTests.value.send(to: proxy!, 1)
      // Earlier retirements (target lists replaced while the proxy was set up) go first.
      guard Quiescence.reclaim() == 0 else { exit(3) }
      let pendingInside = Quiescence.readSection(UnsafeRawPointer(proxy!.rawValue)) {
        () -> UInt64 in
        proxy = nil
        return Quiescence.reclaim()
      }
      // Three routes (value and ping on registers, big on the memory-result path), each
      // retired with its target list; the closure method each route kept for the member
      // (retired in the route's domain, this proxy's); and the member's removed flag: all
      // still waiting for this section of the proxy's domain.
      guard pendingInside == 7 else { exit(Int32(10 + pendingInside)) }
      guard Quiescence.reclaim() == 0 else { exit(5) }
      withExtendedLifetime(member) {}
    }
  }

  /// Closure IMPs go with the class or object that owns their method, even after a
  /// proxy routed to them: a route keeps the methods it calls only until the target is
  /// removed or deallocated, the proxy rebuilds (any change of membership) or is
  /// deallocated — and then lets go of them after a grace period.
  @Test func closureIMPsAreFreedAfterBeingRouted() throws {
    weak var classIMP: ClosureIMP?
    weak var ownIMP: ClosureIMP?
    let proxy = MulticastProxy()
    do {
      let cls = try Self.delegateClass(5)
      let member = RuntimeObject(class: cls)
      try member.setMethod(Message<Int>("lifetimeOwn")) { _ in 9 }
      classIMP = cls.method(for: Self.value.selector)?.closure
      ownIMP = member.method(for: "lifetimeOwn")?.closure
      #expect(classIMP != nil && ownIMP != nil)
      try proxy.add(member)
      #expect(proxy.fastPath(for: "lifetimeOwn") == .registers)
      #expect(try Message<Int>("lifetimeOwn").send(to: proxy) == 9)
      #expect(try Self.value.send(to: proxy, 1) == 6)
    }
    // The member is gone; its routes let go of the methods they called after a grace
    // period, and a rebuild drops the routes themselves.
    let unrelated = RuntimeObject()
    try proxy.add(unrelated)  // a rebuild: the dead member's routes are dropped
    Quiescence.waitForDeferredReleases()  // routes release what they kept after a grace period
    #expect(classIMP == nil)
    #expect(ownIMP == nil)
    // And with the proxy itself.
    weak var laterIMP: ClosureIMP?
    var holder: MulticastProxy? = MulticastProxy()
    do {
      let cls = try Self.delegateClass(6)
      let member = RuntimeObject(class: cls)
      laterIMP = cls.method(for: Self.value.selector)?.closure
      try holder!.add(member)
      #expect(try Self.value.send(to: holder!, 1) == 7)
    }
    holder = nil
    Quiescence.waitForDeferredReleases()  // routes release what they kept after a grace period
    #expect(laterIMP == nil)
  }

  /// A delegate's method closure that captures the proxy: weakly (as a block captures
  /// `self`) it makes no cycle. Strongly, it does while the proxy routes to it — the
  /// route keeps the methods it calls — and removing the delegate breaks it.
  @Test func aMethodClosureCapturingItsProxy() throws {
    weak var weakProxy: MulticastProxy?
    do {
      let proxy = MulticastProxy()
      weakProxy = proxy
      let cls = try RuntimeClass(name: uniqueClassName("CapturesWeakly"))
      try cls.addMethod(Self.value) { [weak proxy] _, x in proxy == nil ? -1 : x }
      let member = RuntimeObject(class: cls)
      try proxy.add(member, retention: .strong)
      #expect(try Self.value.send(to: proxy, 1) == 1)
    }
    Quiescence.waitForDeferredReleases()  // routes release what they kept after a grace period
    #expect(weakProxy == nil)

    let cls = try RuntimeClass(name: uniqueClassName("CapturesStrongly"))
    let member = RuntimeObject(class: cls)
    do {
      let proxy = MulticastProxy()
      weakProxy = proxy
      try cls.addMethod(Self.value) { _, x in proxy.count + x }
      try proxy.add(member)
      #expect(proxy.fastPath(for: Self.value.selector) == .registers)
      #expect(try Self.value.send(to: proxy, 1) == 2)
      proxy.remove(member)  // the route no longer keeps the closure
    }
    cls.removeMethod(Self.value.selector)  // nor does the class
    Quiescence.waitForDeferredReleases()  // routes release what they kept after a grace period
    #expect(weakProxy == nil)
  }

  /// A delegate's own method closure that captures its proxy strongly makes no cycle
  /// through the proxy's route: once the delegate is deallocated, its membership lets go
  /// of the method the route kept, after a grace period and with no rebuild, and the proxy
  /// goes too. (Under Scripts/sanitize.sh address, LeakSanitizer would report the cycle.)
  @Test func aRoutedMethodClosureCapturingItsProxyMakesNoCycle() throws {
    weak var weakProxy: MulticastProxy?
    weak var weakMember: RuntimeObject?
    weak var weakIMP: ClosureIMP?
    do {
      let proxy = MulticastProxy()
      weakProxy = proxy
      let member = RuntimeObject()
      weakMember = member
      try member.setMethod(Self.value) { _, x in proxy.count + x }
      weakIMP = member.method(for: Self.value.selector)?.closure
      try proxy.add(member)
      #expect(proxy.fastPath(for: Self.value.selector) == .registers)
      #expect(try Self.value.send(to: proxy, 1) == 2)
    }
    #expect(weakMember == nil)
    Quiescence.waitForDeferredReleases()
    #expect(weakIMP == nil)
    #expect(weakProxy == nil)
  }

  /// Forwarding closures are made once per signature and kept for the life of the
  /// process (like the interned signature they serve): every proxy, dead or alive,
  /// forwards a signature through the same IMP. Asserted by identity — they are by
  /// design never freed.
  @Test func forwardingClosuresAreCachedPerSignature() throws {
    let signature = Self.value.signature
    let cached = try Runtime.forwardingIMP(for: signature)
    let first: IMP
    do {
      let proxy = MulticastProxy(options: .silentWhenEmpty)
      try proxy.declare(Self.value)
      #expect(proxy.fastPath(for: Self.value.selector) == nil)  // no responder: forwarded
      first = try proxy.imp(for: Self.value.selector)
      #expect(try Self.value.send(to: proxy, 1) == 0)
    }
    let second = MulticastProxy(options: .silentWhenEmpty)
    try second.declare(Self.value)
    #expect(first == cached)
    #expect(try second.imp(for: Self.value.selector) == cached)
    #expect(try Runtime.forwardingIMP(for: MethodSignature.parse(signature.encoding)) == cached)
    #expect(try Runtime.forwardingIMP(for: Self.ping.signature) != cached)
  }
}
