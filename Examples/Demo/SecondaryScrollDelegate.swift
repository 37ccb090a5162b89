// The `secondaryDelegate` category on `UIScrollView`: a web view owns its scroll view's
// delegate; a view controller that must not touch that slot injects itself as a
// secondary delegate and takes part in
// `scrollViewWillEndDragging:withVelocity:targetContentOffset:` — a CGPoint by value
// and a pointer each delegate adjusts in turn.

import DelegateProxy
import MessageRuntime

/// A point (`CGPoint`), passed by value: `{CGPoint=dd}`.
struct CGPoint: MessageArgument, BitwiseCopyable, CustomStringConvertible {
  var x: Double
  var y: Double
  static let typeEncoding: TypeEncoding = .structure(name: "CGPoint", fields: [.double, .double])
  static var representation: MessageArgumentRepresentation { .bitwise }
  var description: String { "(\(decimal(x)), \(decimal(y)))" }
}

/// `UIScrollViewDelegate`, declared once with Swift types (all optional).
enum ScrollViewDelegateMessages {
  static let didScroll = Message<Void, RuntimeObject?>("scrollViewDidScroll:")
  static let willEndDragging = Message<
    Void, RuntimeObject?, CGPoint, UnsafeMutablePointer<CGPoint>
  >(
    "scrollViewWillEndDragging:withVelocity:targetContentOffset:")
  static let shouldScrollToTop = Message<Bool, RuntimeObject?>("scrollViewShouldScrollToTop:")

  static let delegateProtocol = RuntimeProtocol(
    name: "UIScrollViewDelegate",
    requirements: [
      .init(didScroll.selector, didScroll.signature, required: false),
      .init(willEndDragging.selector, willEndDragging.signature, required: false),
      .init(shouldScrollToTop.selector, shouldScrollToTop.signature, required: false),
    ])
}

/// `UIScrollView`, reduced: ONE delegate slot (a `DelegateSlot`, so others can inject
/// secondary delegates), a content offset, and a `responds(to:)` cache kept valid by
/// the slot's generation. It sends to `delegateTarget`: the delegate, or the injection
/// proxy while there are secondaries.
final class ScrollView: RuntimeObject, Delegator, @unchecked Sendable {
  let delegateSlot = DelegateSlot(protocol: ScrollViewDelegateMessages.delegateProtocol)
  private let respondsCache = RespondsToCache()
  private(set) var contentOffset = CGPoint(x: 0, y: 0)

  /// The target to send `selector` to, if it responds (asked through the cache).
  private func target(for selector: Selector) -> RuntimeObject? {
    guard let target = delegateTarget, respondsCache.responds(target, to: selector) else {
      say("ScrollView: no delegate responds to \(selector.name)")
      return nil
    }
    say("ScrollView → \(target.runtimeClass.name): \(selector.name)")
    return target
  }

  /// The user's finger moves the content.
  func drag(to y: Double) throws {
    contentOffset.y = y
    say("ScrollView: dragged to \(contentOffset)")
    let m = ScrollViewDelegateMessages.self
    if let t = target(for: m.didScroll.selector) { try m.didScroll.send(to: t, self) }
  }

  /// The finger lifts with `velocity` (points per ms): the scroll view proposes where
  /// deceleration would stop, lets the delegates change it, then goes there.
  func endDragging(velocity: CGPoint) throws {
    var targetOffset = CGPoint(
      x: contentOffset.x + velocity.x * 320, y: contentOffset.y + velocity.y * 320)
    say(
      "ScrollView: finger lifts at \(contentOffset), velocity \(velocity); proposes \(targetOffset)"
    )
    let m = ScrollViewDelegateMessages.self
    if let t = target(for: m.willEndDragging.selector) {
      try withUnsafeMutablePointer(to: &targetOffset) { pointer in
        try m.willEndDragging.send(to: t, self, velocity, pointer)
      }
    }
    contentOffset = targetOffset
    say("ScrollView: decelerates to \(contentOffset)")
  }

  /// A tap on the status bar: scrolls to the top unless the delegate says no.
  func tapStatusBar() throws {
    let m = ScrollViewDelegateMessages.self
    var allowed = true
    if let t = target(for: m.shouldScrollToTop.selector) {
      allowed = try m.shouldScrollToTop.send(to: t, self)
    }
    if allowed { contentOffset = CGPoint(x: 0, y: 0) }
    say("ScrollView: answer \(allowed) → offset \(contentOffset)")
  }
}

/// The web view's own scroll-view delegate: paginated reading, pages 800 pt high.
final class WebViewScrollDelegate: RuntimeObject, @unchecked Sendable {
  static let pageHeight = 800.0

  static func makeClass() throws -> RuntimeClass {
    let m = ScrollViewDelegateMessages.self
    let cls = try RuntimeClass(name: "WebViewScrollDelegate")
    try cls.addMethod(m.didScroll) { _, scrollView in
      let y = (scrollView as? ScrollView)?.contentOffset.y ?? 0
      say("← WebView's delegate: renders tiles of page \(Int(y / pageHeight) + 1)", level: 2)
    }
    try cls.addMethod(m.willEndDragging) { _, _, velocity, target in
      let before = target.pointee
      let pages = before.y / pageHeight
      let page =
        velocity.y > 0
        ? pages.rounded(.up) : velocity.y < 0 ? pages.rounded(.down) : pages.rounded()
      target.pointee.y = page * pageHeight
      say(
        "← WebView's delegate: snaps \(before) to the top of page \(Int(page) + 1): \(target.pointee)",
        level: 2)
    }
    try cls.addMethod(m.shouldScrollToTop) { _, _ in
      say("← WebView's delegate: scroll to top? yes", level: 2)
      return true
    }
    return cls
  }
}

/// `UIWebView`: owns its scroll view and that scroll view's delegate slot. Its delegate is
/// set when the first page has loaded — late, after the controller injected itself.
final class WebView {
  let scrollView: ScrollView
  private let scrollDelegate: WebViewScrollDelegate

  init(scrollViewClass: RuntimeClass, delegateClass: RuntimeClass) {
    scrollView = ScrollView(class: scrollViewClass)
    scrollDelegate = WebViewScrollDelegate(class: delegateClass)
  }

  func finishLoading() {
    scrollView.delegate = scrollDelegate
  }
}

/// The view controller showing an article in the web view. It may not set the scroll
/// view's delegate, so it injects itself as a secondary delegate: it shows reading
/// progress and stops flicks at the end of the article, where the comments begin.
final class ArticleViewController: RuntimeObject, @unchecked Sendable {
  static let articleEnd = 2000.0

  static func makeClass() throws -> RuntimeClass {
    let m = ScrollViewDelegateMessages.self
    let cls = try RuntimeClass(name: "ArticleViewController")
    try cls.addMethod(m.didScroll) { _, scrollView in
      let y = (scrollView as? ScrollView)?.contentOffset.y ?? 0
      say(
        "← ArticleViewController: reading progress \(Int(min(y / articleEnd, 1) * 100))%", level: 2)
    }
    try cls.addMethod(m.willEndDragging) { _, _, _, target in
      let before = target.pointee
      target.pointee.y = min(target.pointee.y, articleEnd)
      say(
        "← ArticleViewController: sees \(before); the article ends at \(decimal(articleEnd)), so \(target.pointee)",
        level: 2)
    }
    try cls.addMethod(m.shouldScrollToTop) { _, _ in
      say("← ArticleViewController: scroll to top? no (keeps the reader's place)", level: 2)
      return false
    }
    return cls
  }
}

/// The `secondary-scroll-delegate` scenario: injection through a `DelegateSlot`, a late
/// primary delegate, a pointer adjusted by both delegates, and removal.
func secondaryScrollDelegate() throws {
  let steps = Steps()
  let m = ScrollViewDelegateMessages.self

  steps.next("The message at stake cannot be observed any other way (no KVO for it):")
  say("\(m.willEndDragging.selector.name)  \(m.willEndDragging.signature.encoding)")
  say("velocity: a CGPoint by value; targetContentOffset: a pointer the delegates may change")

  steps.next(
    "A WebView owns its ScrollView and that scroll view's delegate (not set until a page loads)")
  let webView = WebView(
    scrollViewClass: try RuntimeClass(name: "UIScrollView"),
    delegateClass: try WebViewScrollDelegate.makeClass())
  let scrollView = webView.scrollView
  let controller = ArticleViewController(class: try ArticleViewController.makeClass())
  say("scrollView.delegate: \(scrollView.delegate?.runtimeClass.name ?? "nil")")

  steps.next("viewDidLoad: the controller injects itself — scrollView.secondaryDelegate = self")
  try scrollView.setSecondaryDelegate(controller)
  say("delegate: \(scrollView.delegate?.runtimeClass.name ?? "nil") (untouched)")
  say("secondaryDelegate: \(scrollView.secondaryDelegate?.runtimeClass.name ?? "nil")")
  say("the scroll view now sends to: \(scrollView.delegateTarget?.runtimeClass.name ?? "nil")")
  say("(the original required the primary delegate to be set first — here it is not set yet)")

  steps.next("The user scrolls before the page has loaded")
  try scrollView.drag(to: 300)

  steps.next("The page loads; the web view sets ITS delegate now, late")
  let generation = scrollView.delegateSlot.respondsToGeneration
  webView.finishLoading()
  say("delegate: \(scrollView.delegate?.runtimeClass.name ?? "nil")")
  say("secondaryDelegate: \(scrollView.secondaryDelegate?.runtimeClass.name ?? "nil") (kept)")
  say("slot generation changed: \(scrollView.delegateSlot.respondsToGeneration != generation)")
  if let proxy = scrollView.delegateSlot.proxy {
    for line in withoutAddresses(proxy.description).split(separator: "\n") { say(String(line)) }
  }

  steps.next(
    "The user drags, then flicks: targetContentOffset passes through both delegates in order")
  try scrollView.drag(to: 1330)
  try scrollView.endDragging(velocity: CGPoint(x: 0, y: 2.5))
  let path = scrollView.delegateSlot.proxy?.fastPath(for: m.willEndDragging.selector)
  say(
    "(the injection proxy sent it by \(path.map { "the C fast path, \($0)" } ?? "forwardInvocation"))"
  )

  steps.next("A tap on the status bar: both are asked, the last one's answer wins")
  try scrollView.tapStatusBar()

  steps.next("The controller goes away and removes itself: the plain delegate is restored")
  scrollView.removeSecondaryDelegate(controller)
  say("secondaryDelegate: \(scrollView.secondaryDelegate?.runtimeClass.name ?? "nil")")
  say(
    "the scroll view now sends to: \(scrollView.delegateTarget?.runtimeClass.name ?? "nil") (no proxy)"
  )
  try scrollView.drag(to: 2100)
  try scrollView.endDragging(velocity: CGPoint(x: 0, y: 0.8))
  try scrollView.tapStatusBar()

  withExtendedLifetime(controller) {}
}
