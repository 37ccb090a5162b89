// LBDelegateMatrioska's case: an annotation-clustering plugin plugged into a map view's
// one delegate slot as the outer layer, while the view controller that owns the map
// still receives every delegate message — without subclassing or swizzling the map.

import DelegateProxy
import MessageRuntime

/// `MKMapViewDelegate`, declared once with Swift types (all optional).
enum MapViewDelegateMessages {
  static let regionWillChange = Message<Void, RuntimeObject?, Bool>(
    "mapView:regionWillChangeAnimated:")
  static let regionDidChange = Message<Void, RuntimeObject?, Bool>(
    "mapView:regionDidChangeAnimated:")
  static let viewForAnnotation = Message<RuntimeObject?, RuntimeObject?, RuntimeObject?>(
    "mapView:viewForAnnotation:")
  static let didSelect = Message<Void, RuntimeObject?, RuntimeObject?>(
    "mapView:didSelectAnnotationView:")

  static let delegateProtocol = RuntimeProtocol(
    name: "MKMapViewDelegate",
    requirements: [
      .init(regionWillChange.selector, regionWillChange.signature, required: false),
      .init(regionDidChange.selector, regionDidChange.signature, required: false),
      .init(viewForAnnotation.selector, viewForAnnotation.signature, required: false),
      .init(didSelect.selector, didSelect.signature, required: false),
    ])
}

/// A point of interest on the map (`MKAnnotation`); a cluster groups several.
final class MapAnnotation: RuntimeObject, @unchecked Sendable {
  let title: String
  let x: Double
  let y: Double
  let members: [MapAnnotation]

  init(
    class runtimeClass: RuntimeClass, title: String, x: Double, y: Double,
    members: [MapAnnotation] = []
  ) {
    self.title = title
    self.x = x
    self.y = y
    self.members = members
    super.init(class: runtimeClass)
  }

  var isCluster: Bool { !members.isEmpty }
}

/// What the map draws for an annotation (`MKAnnotationView`).
final class AnnotationView: RuntimeObject, @unchecked Sendable {
  let look: String
  let annotation: MapAnnotation

  init(class runtimeClass: RuntimeClass, look: String, annotation: MapAnnotation) {
    self.look = look
    self.annotation = annotation
    super.init(class: runtimeClass)
  }
}

/// `MKMapView`, reduced: ONE weak delegate slot, a visible region (a square: center and
/// width, in km), the annotations it shows, and the views it draws for them. It asks
/// `responds(to:)` before each optional message, as MapKit does.
final class MapView: RuntimeObject, @unchecked Sendable {
  weak var delegate: RuntimeObject?
  private(set) var center = (x: 0.0, y: 0.0)
  private(set) var width = 2.0
  /// What is on the map now; a clustering plugin may replace points by clusters.
  var shownAnnotations: [MapAnnotation] = []
  private var drawnViews: [AnnotationView] = []
  private let viewClass: RuntimeClass

  init(class runtimeClass: RuntimeClass, viewClass: RuntimeClass) {
    self.viewClass = viewClass
    super.init(class: runtimeClass)
  }

  private func delegate(respondingTo selector: Selector) -> RuntimeObject? {
    guard let delegate, delegate.responds(to: selector) else { return nil }
    return delegate
  }

  /// Moves or zooms (`setRegion:animated:`), telling the delegate before and after.
  func setRegion(center: (x: Double, y: Double), width: Double) throws {
    let m = MapViewDelegateMessages.self
    say("MapView: region will change → \(m.regionWillChange.selector.name)")
    if let d = delegate(respondingTo: m.regionWillChange.selector) {
      try m.regionWillChange.send(to: d, self, true)
    }
    self.center = center
    self.width = width
    say("MapView: region is now \(decimal(width)) km wide → \(m.regionDidChange.selector.name)")
    if let d = delegate(respondingTo: m.regionDidChange.selector) {
      try m.regionDidChange.send(to: d, self, true)
    }
  }

  /// Draws every shown annotation with the view the delegate gives, or a default pin.
  func draw() throws -> [AnnotationView] {
    let m = MapViewDelegateMessages.self
    let asks = delegate(respondingTo: m.viewForAnnotation.selector)
    drawnViews = try shownAnnotations.map { annotation in
      let given = try asks.flatMap { try m.viewForAnnotation.send(to: $0, self, annotation) }
      return given as? AnnotationView
        ?? AnnotationView(class: viewClass, look: "default red pin", annotation: annotation)
    }
    return drawnViews
  }

  /// The user taps a drawn view.
  func tap(_ view: AnnotationView) throws {
    let m = MapViewDelegateMessages.self
    say("MapView: tap on \(view.annotation.title) → \(m.didSelect.selector.name)")
    if let d = delegate(respondingTo: m.didSelect.selector) {
      try m.didSelect.send(to: d, self, view)
    }
  }
}

/// The plugin: regroups nearby annotations into clusters whenever the region changes,
/// and draws clusters as bubbles. It knows nothing of the view controller.
final class ClusteringPlugin: RuntimeObject, @unchecked Sendable {
  var all: [MapAnnotation] = []
  private var clusters: [MapAnnotation] = []
  private var bubbles: [AnnotationView] = []
  private let annotationClass: RuntimeClass
  private let viewClass: RuntimeClass

  init(class runtimeClass: RuntimeClass, annotationClass: RuntimeClass, viewClass: RuntimeClass) {
    self.annotationClass = annotationClass
    self.viewClass = viewClass
    super.init(class: runtimeClass)
  }

  /// Greedy clustering: points closer than a tenth of the region's width join.
  func recluster(_ map: MapView) {
    let radius = map.width / 10
    var left = all
    var shown: [MapAnnotation] = []
    clusters = []
    while let first = left.first {
      let near = left.filter {
        ($0.x - first.x) * ($0.x - first.x) + ($0.y - first.y) * ($0.y - first.y) <= radius * radius
      }
      left.removeAll { a in near.contains { $0 === a } }
      if near.count == 1 {
        shown.append(first)
      } else {
        let cluster = MapAnnotation(
          class: annotationClass, title: "\(near.count) cafés around \(first.title)", x: first.x,
          y: first.y, members: near)
        clusters.append(cluster)
        shown.append(cluster)
      }
    }
    map.shownAnnotations = shown
  }

  static func makeClass() throws -> RuntimeClass {
    let m = MapViewDelegateMessages.self
    let cls = try RuntimeClass(name: "ClusteringPlugin")
    cls.addProtocol(m.delegateProtocol)
    try cls.addMethod(m.regionWillChange) { _, _, _ in
      say("← ClusteringPlugin: pauses clustering while the map moves", level: 2)
    }
    try cls.addMethod(m.regionDidChange) { receiver, map, _ in
      let plugin = receiver as! ClusteringPlugin
      guard let map = map as? MapView else { return }
      plugin.recluster(map)
      say(
        "← ClusteringPlugin: reclusters \(plugin.all.count) places → \(map.shownAnnotations.map(\.title).joined(separator: ", "))",
        level: 2)
    }
    try cls.addMethod(m.viewForAnnotation) { receiver, _, annotation in
      let plugin = receiver as! ClusteringPlugin
      guard let annotation = annotation as? MapAnnotation else { return nil }
      guard annotation.isCluster else {
        say("← ClusteringPlugin: viewFor \(annotation.title) → nil (not a cluster)", level: 2)
        return nil
      }
      let bubble = AnnotationView(
        class: plugin.viewClass, look: "bubble \"\(annotation.members.count)\"",
        annotation: annotation)
      plugin.bubbles.append(bubble)  // the plugin keeps the views it makes
      say("← ClusteringPlugin: viewFor \(annotation.title) → a bubble", level: 2)
      return bubble
    }
    return cls
  }
}

/// The view controller that owns the map: it adds the places, keeps a title up to date,
/// draws its own pins and shows details on tap.
final class PlacesViewController: RuntimeObject, @unchecked Sendable {
  private var pins: [AnnotationView] = []
  private let viewClass: RuntimeClass

  init(class runtimeClass: RuntimeClass, viewClass: RuntimeClass) {
    self.viewClass = viewClass
    super.init(class: runtimeClass)
  }

  static func makeClass() throws -> RuntimeClass {
    let m = MapViewDelegateMessages.self
    let cls = try RuntimeClass(name: "PlacesViewController")
    cls.addProtocol(m.delegateProtocol)
    try cls.addMethod(m.regionWillChange) { _, _, _ in
      say("← PlacesViewController: hides the open callout", level: 2)
    }
    try cls.addMethod(m.regionDidChange) { _, map, _ in
      let shown = (map as? MapView)?.shownAnnotations.count ?? 0
      say("← PlacesViewController: title becomes \"\(shown) markers in view\"", level: 2)
    }
    try cls.addMethod(m.viewForAnnotation) { receiver, _, annotation in
      let controller = receiver as! PlacesViewController
      guard let annotation = annotation as? MapAnnotation, !annotation.isCluster else {
        say("← PlacesViewController: viewFor a cluster → nil (not mine)", level: 2)
        return nil
      }
      let pin = AnnotationView(
        class: controller.viewClass, look: "coffee-cup pin", annotation: annotation)
      controller.pins.append(pin)
      say("← PlacesViewController: viewFor \(annotation.title) → a coffee-cup pin", level: 2)
      return pin
    }
    try cls.addMethod(m.didSelect) { _, _, view in
      let title = (view as? AnnotationView)?.annotation.title ?? "?"
      say("← PlacesViewController: pushes the detail page for \(title)", level: 2)
    }
    return cls
  }
}

/// The `map-clustering` scenario: a first-responder proxy with the plugin as its outer
/// layer, a per-selector policy, and the plugin unplugged again.
func mapClustering() throws {
  let steps = Steps()
  let m = MapViewDelegateMessages.self
  let annotationClass = try RuntimeClass(name: "MKPointAnnotation")
  let viewClass = try RuntimeClass(name: "MKAnnotationView")

  steps.next("A map view with ONE delegate slot, and the view controller that owns it")
  let map = MapView(class: try RuntimeClass(name: "MKMapView"), viewClass: viewClass)
  let controller = PlacesViewController(
    class: try PlacesViewController.makeClass(), viewClass: viewClass)
  let places = [
    ("Blue Bottle", 0.10, 0.20), ("Sightglass", 0.15, 0.25), ("Ritual", 0.12, 0.17),
    ("Four Barrel", 2.40, 1.10), ("Philz", 2.45, 1.20), ("Equator", -1.80, 2.60),
  ].map { MapAnnotation(class: annotationClass, title: $0.0, x: $0.1, y: $0.2) }
  map.shownAnnotations = places
  say("the controller adds \(places.count) cafés: \(places.map(\.title).joined(separator: ", "))")

  steps.next(
    "Plug in clustering: LBDelegateMatrioska(delegates: [plugin, controller]) — the plugin is the outer layer"
  )
  var plugin: ClusteringPlugin? = ClusteringPlugin(
    class: try ClusteringPlugin.makeClass(), annotationClass: annotationClass, viewClass: viewClass)
  plugin!.all = places
  let matrioska = try MulticastProxy(delegates: [plugin!, controller], policy: .firstResponder)
  map.delegate = matrioska
  say("map.delegate = matrioska (the map is not subclassed, nothing is swizzled)")
  say(
    "matrioska conforms to <MKMapViewDelegate>: \(matrioska.conforms(to: m.delegateProtocol)) (because a member does)"
  )
  say(
    "responds(to: \(m.didSelect.selector.name)) → \(matrioska.responds(to: m.didSelect.selector)) (the controller implements it)"
  )
  say(
    "responds(to: mapView:didUpdateUserLocation:) → \(matrioska.responds(to: "mapView:didUpdateUserLocation:")) (no layer does)"
  )

  steps.next("The user zooms out to 6 km: void messages reach every layer, outer first")
  try map.setRegion(center: (0.5, 1.0), width: 6)

  steps.next(
    "The map draws: mapView:viewForAnnotation: returns a value, so only the FIRST responder is asked"
  )
  for view in try map.draw() { say("MapView draws \(view.annotation.title) as a \(view.look)") }
  say("outcome: \(matrioska.report(for: m.viewForAnnotation.selector).outcome)")
  say("the controller's coffee-cup pins are never asked for (LBDelegateMatrioska's rule)")

  steps.next("Beyond the original: a policy for this one selector — .reduce(.firstNonNil)")
  matrioska.setPolicy(.reduce(.firstNonNil), for: m.viewForAnnotation.selector)
  let drawn = try map.draw()
  for view in drawn { say("MapView draws \(view.annotation.title) as a \(view.look)") }
  let path = matrioska.fastPath(for: m.viewForAnnotation.selector).map { "the C fast path (\($0))" }
  say(
    "outcome: \(matrioska.report(for: m.viewForAnnotation.selector).outcome); taken by \(path ?? "forwardInvocation")"
  )

  steps.next(
    "The user taps a single café: only the controller implements didSelect, so only it hears it")
  if let view = drawn.first(where: { !$0.annotation.isCluster }) { try map.tap(view) }

  steps.next(
    "The controller unplugs clustering by releasing the plugin (the matrioska holds it weakly)")
  plugin = nil
  say(
    "live layers: \(matrioska.count) (\(matrioska.delegates.map(\.runtimeClass.name).joined(separator: ", ")))"
  )
  map.shownAnnotations = places
  try map.setRegion(center: (0.5, 1.0), width: 4)
  say("the map keeps its delegate; the view controller still receives everything")

  withExtendedLifetime((controller, matrioska)) {}
}
