// The `secondaryDelegate` category on `UIScrollView`: a web view owns its scroll view's
// delegate; a view controller that must not touch that slot injects itself as a
// secondary delegate and takes part in `scrollViewWillEndDragging(_:withVelocity:
// targetContentOffset:)` — a CGPoint by value and a pointer each delegate adjusts in
// turn. A Swift protocol, plain classes, and the scroll view's own `weak var delegate`.

import DelegateProxy

/// A point (`CGPoint`): a plain Swift struct, `{CGPoint=dd}` to C.
struct CGPoint: CustomStringConvertible {
  var x: Double
  var y: Double
  var description: String { "(\(decimal(x)), \(decimal(y)))" }
}

/// `UIScrollViewDelegate` (every method optional, as UIKit's).
@Delegate
protocol ScrollViewDelegate: AnyObject {
  @Optional func scrollViewDidScroll(_ scrollView: ScrollView)
  @Optional func scrollViewWillEndDragging(
    _ scrollView: ScrollView, withVelocity velocity: CGPoint,
    targetContentOffset: UnsafeMutablePointer<CGPoint>)
  @Optional func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool
}

/// `UIScrollView`, reduced: ONE weak delegate slot and a content offset.
final class ScrollView {
  weak var delegate: (any ScrollViewDelegate)?
  private(set) var contentOffset = CGPoint(x: 0, y: 0)

  /// The user's finger moves the content.
  func drag(to y: Double) {
    contentOffset.y = y
    say("ScrollView: dragged to \(contentOffset)")
    delegate?.scrollViewDidScroll(self)
  }

  /// The finger lifts with `velocity` (points per ms): the scroll view proposes where
  /// deceleration would stop, lets the delegate change it, then goes there.
  func endDragging(velocity: CGPoint) {
    var target = CGPoint(
      x: contentOffset.x + velocity.x * 320, y: contentOffset.y + velocity.y * 320)
    say("ScrollView: finger lifts at \(contentOffset), velocity \(velocity); proposes \(target)")
    withUnsafeMutablePointer(to: &target) { pointer in
      delegate?.scrollViewWillEndDragging(
        self, withVelocity: velocity, targetContentOffset: pointer)
    }
    contentOffset = target
    say("ScrollView: decelerates to \(contentOffset)")
  }

  /// A tap on the status bar: scrolls to the top unless the delegate says no.
  func tapStatusBar() {
    let allowed = delegate?.scrollViewShouldScrollToTop(self) ?? true
    if allowed { contentOffset = CGPoint(x: 0, y: 0) }
    say("ScrollView: answer \(allowed) → offset \(contentOffset)")
  }
}

/// The web view's own scroll-view delegate: paginated reading, pages 800 pt high.
final class WebViewScrollDelegate: ScrollViewDelegate {
  static let pageHeight = 800.0

  func scrollViewDidScroll(_ scrollView: ScrollView) {
    say(
      "← WebView's delegate: renders tiles of page \(Int(scrollView.contentOffset.y / Self.pageHeight) + 1)",
      level: 2)
  }

  func scrollViewWillEndDragging(
    _ scrollView: ScrollView, withVelocity velocity: CGPoint,
    targetContentOffset: UnsafeMutablePointer<CGPoint>
  ) {
    let before = targetContentOffset.pointee
    let pages = before.y / Self.pageHeight
    let page =
      velocity.y > 0 ? pages.rounded(.up) : velocity.y < 0 ? pages.rounded(.down) : pages.rounded()
    targetContentOffset.pointee.y = page * Self.pageHeight
    say(
      "← WebView's delegate: snaps \(before) to the top of page \(Int(page) + 1): \(targetContentOffset.pointee)",
      level: 2)
  }

  func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
    say("← WebView's delegate: scroll to top? yes", level: 2)
    return true
  }
}

/// `UIWebView`: owns its scroll view and that scroll view's delegate.
final class WebView {
  let scrollView = ScrollView()
  private let scrollDelegate = WebViewScrollDelegate()

  func finishLoading() { scrollView.delegate = scrollDelegate }
}

/// The view controller showing an article in the web view. It may not set the scroll
/// view's delegate, so it injects itself as a secondary delegate: it shows reading
/// progress and stops flicks at the end of the article, where the comments begin.
final class ArticleViewController: ScrollViewDelegate {
  static let articleEnd = 2000.0

  func scrollViewDidScroll(_ scrollView: ScrollView) {
    say(
      "← ArticleViewController: reading progress \(Int(min(scrollView.contentOffset.y / Self.articleEnd, 1) * 100))%",
      level: 2)
  }

  func scrollViewWillEndDragging(
    _ scrollView: ScrollView, withVelocity velocity: CGPoint,
    targetContentOffset: UnsafeMutablePointer<CGPoint>
  ) {
    let before = targetContentOffset.pointee
    targetContentOffset.pointee.y = min(targetContentOffset.pointee.y, Self.articleEnd)
    say(
      "← ArticleViewController: sees \(before); the article ends at \(decimal(Self.articleEnd)), so \(targetContentOffset.pointee)",
      level: 2)
  }

  func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
    say("← ArticleViewController: scroll to top? no (keeps the reader's place)", level: 2)
    return false
  }
}

/// The `secondary-scroll-delegate` scenario: injection into the scroll view's own slot, a
/// pointer adjusted by both delegates, a late primary, and removal.
func secondaryScrollDelegate() throws {
  let steps = Steps()

  steps.next("A WebView owns its ScrollView; the page loads and the web view sets ITS delegate")
  let webView = WebView()
  let scrollView = webView.scrollView
  webView.finishLoading()
  say("scrollView.delegate: \(scrollView.delegate.map { "\(type(of: $0))" } ?? "nil")")

  steps.next("viewDidLoad: the controller injects itself beside it — no subclass, no swizzling")
  let controller = ArticleViewController()
  let injection = ScrollViewDelegateMulticast.inject(
    controller, into: scrollView, at: \.delegate)
  say(
    "scrollView.delegate is now a \(type(of: scrollView.delegate!)): the web view's delegate, then the controller"
  )
  say("the injection owns that multicast (the slot is weak); the controller keeps the injection")

  steps.next("The user drags: both hear scrollViewDidScroll, in order")
  scrollView.drag(to: 1330)

  steps.next("The user flicks: targetContentOffset passes through both delegates in order")
  scrollView.endDragging(velocity: CGPoint(x: 0, y: 2.5))

  steps.next("A tap on the status bar: both are asked, the last one's answer wins")
  scrollView.tapStatusBar()

  steps.next("The web view reloads with a new delegate, set through the injection (a late primary)")
  let reloaded = WebViewScrollDelegate()
  injection.setPrimary(reloaded)
  say("members: \(injection.multicast.count); the controller is kept")
  scrollView.drag(to: 400)

  steps.next("The controller goes away and removes itself: the web view's delegate is restored")
  injection.remove()
  say(
    "scrollView.delegate: \(scrollView.delegate.map { "\(type(of: $0))" } ?? "nil") (no multicast)")
  scrollView.drag(to: 2100)
  scrollView.endDragging(velocity: CGPoint(x: 0, y: 0.8))
  scrollView.tapStatusBar()

  withExtendedLifetime((controller, reloaded)) {}
}
