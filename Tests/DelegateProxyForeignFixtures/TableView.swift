// A delegator and its delegate protocols as a dependency would declare them — in a module
// that knows nothing of DelegateProxy — modelled on UIKit's UIScrollView/UITableView: a
// refining protocol, methods with default implementations in protocol extensions (the
// Swift spelling of "optional"), and value-returning calls with a `?? value` fallback.

/// A scrollable view: the part of `TableView` its `ScrollDelegate` hears about.
public class ScrollView {
  /// How far the content is scrolled.
  public internal(set) var contentOffset: Double = 0

  init() {}
}

/// Told about scrolling (`UIScrollViewDelegate`).
public protocol ScrollDelegate: AnyObject {
  /// The content moved. Required: no default.
  func scrollViewDidScroll(_ scrollView: ScrollView)
  /// Whether a tap on the status bar may scroll to the top (default: yes).
  func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool
  /// The content stopped moving (default: nothing).
  func scrollViewDidEndDecelerating(_ scrollView: ScrollView)
}

extension ScrollDelegate {
  /// Yes: scrolling to the top is allowed.
  public func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool { true }
  /// Nothing.
  public func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {}
}

/// Told about a table's rows (`UITableViewDelegate`); refines `ScrollDelegate`.
public protocol TableDelegate: ScrollDelegate {
  /// A row was selected. Required: no default.
  func tableView(_ tableView: TableView, didSelectRowAt row: Int)
  /// A row's height (default: the table's `rowHeight`).
  func tableView(_ tableView: TableView, heightForRowAt row: Int) -> Double
  /// Whether a row may be highlighted, and so selected (default: yes).
  func tableView(_ tableView: TableView, shouldHighlightRowAt row: Int) -> Bool
  /// A section's header title (default: none).
  func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String?
}

extension TableDelegate {
  /// The table's `rowHeight`.
  public func tableView(_ tableView: TableView, heightForRowAt row: Int) -> Double {
    tableView.rowHeight
  }
  /// Yes.
  public func tableView(_ tableView: TableView, shouldHighlightRowAt row: Int) -> Bool { true }
  /// None.
  public func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
    nil
  }
}

/// A table of rows that asks its delegate about heights, highlighting and titles, and
/// tells it about selection and scrolling — as UITableView does.
public final class TableView: ScrollView {
  /// The delegate; the table does not keep it alive.
  public weak var delegate: (any TableDelegate)?
  /// The height of a row when there is no delegate to ask.
  public var rowHeight: Double = 44
  /// The rows selected so far, in order.
  public private(set) var selectedRows: [Int] = []

  /// A table with no delegate.
  public override init() {}

  /// Lays out `rows` rows: each row's height from the delegate, `rowHeight` without one.
  public func layout(rows: Int) -> [Double] {
    (0..<rows).map { delegate?.tableView(self, heightForRowAt: $0) ?? rowHeight }
  }

  /// The header titles of `sections` sections (nil where there is none).
  public func headers(sections: Int) -> [String?] {
    (0..<sections).map { delegate?.tableView(self, titleForHeaderInSection: $0) ?? nil }
  }

  /// A tap on a row: selected (and the delegate told) unless the delegate refuses to
  /// highlight it. Returns whether it was selected.
  @discardableResult
  public func tap(row: Int) -> Bool {
    guard delegate?.tableView(self, shouldHighlightRowAt: row) ?? true else { return false }
    selectedRows.append(row)
    delegate?.tableView(self, didSelectRowAt: row)
    return true
  }

  /// Scrolls by `distance` and tells the delegate, then that the scrolling stopped.
  public func scroll(by distance: Double) {
    contentOffset += distance
    delegate?.scrollViewDidScroll(self)
    delegate?.scrollViewDidEndDecelerating(self)
  }

  /// A tap on the status bar: back to the top unless the delegate says no. Returns
  /// whether it scrolled.
  @discardableResult
  public func scrollToTop() -> Bool {
    guard delegate?.scrollViewShouldScrollToTop(self) ?? true else { return false }
    contentOffset = 0
    delegate?.scrollViewDidScroll(self)
    return true
  }
}
