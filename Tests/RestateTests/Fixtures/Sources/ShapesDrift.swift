// The drifted version of Shapes.swift: `added` (with a default), `escaping`'s closure
// changed, `main` removed. The module the RestateTests fixtures' symbol graphs describe (make-fixtures.sh): one
// requirement of each shape a restatement writes.
public final class Widget {}
public protocol Base: AnyObject {
  func baseEvent(_ w: Widget)
}
public protocol Events: Base {
  func plain(_ w: Widget, didChange value: Int)
  func added(_ w: Widget, note: String)
  func escaping(_ w: Widget, completion: @escaping (Int64) -> Void)
  func sendable(_ w: Widget, completion: @escaping @Sendable (Int?) -> Void)
  func nonEscaping(_ w: Widget, body: (Int) -> Void)
  func optionalClosure(_ w: Widget, handler: ((Int) -> Void)?)
  func auto(_ w: Widget, message: @autoclosure () -> String)
  func both(_ w: Widget, value: inout Double) async throws -> Bool
  func generic<T: Equatable>(_ w: Widget, value: T) where T: Sendable
  var name: String { get set }
  var count: Int { get }
  subscript(key: String) -> Int? { get }
  @available(*, deprecated, message: "use plain")
  func old(_ w: Widget)
  @available(macOS 13, *)
  func newer(_ w: Widget)
  @MainActor func isolated(_ w: Widget)
  func sending(_ w: Widget, value: sending Widget)
  func answer(_ w: Widget) -> Widget
}
extension Events {
  public func plain(_ w: Widget, didChange value: Int) {}
  public func added(_ w: Widget, note: String) {}
}
public protocol Tracks {
  associatedtype Span: AnyObject
  func start() -> Span
  mutating func reset()
  func anySpan() -> any Shapes.Span
}
public protocol Span: AnyObject {}
public typealias Tags = [String: Int]
public typealias Names = [String]
public enum Mode { case off, on }
public protocol Tagged: AnyObject {
  var tags: Tags { get set }
  func names() -> Names
  func count() -> Int
  var mode: Mode { get }
}
