// LBDelegateMatrioska's case: an annotation-clustering plugin plugged into a map view's
// one delegate slot as the outer layer, while the view controller that owns the map
// still receives every delegate message — without subclassing or swizzling the map.
// A Swift protocol, plain classes, and a first-responder multicast.

import DelegateProxy

/// A point of interest on the map (`MKAnnotation`); a cluster groups several.
final class MapAnnotation {
  let title: String
  let x: Double
  let y: Double
  let members: [MapAnnotation]

  init(title: String, x: Double, y: Double, members: [MapAnnotation] = []) {
    self.title = title
    self.x = x
    self.y = y
    self.members = members
  }

  var isCluster: Bool { !members.isEmpty }
}

/// What the map draws for an annotation (`MKAnnotationView`).
final class AnnotationView {
  let look: String
  let annotation: MapAnnotation

  init(look: String, annotation: MapAnnotation) {
    self.look = look
    self.annotation = annotation
  }
}

/// `MKMapViewDelegate`: every method optional, as MapKit's.
@Delegate
protocol MapViewDelegate: AnyObject {
  @Optional func mapView(_ mapView: MapView, regionWillChangeAnimated animated: Bool)
  @Optional func mapView(_ mapView: MapView, regionDidChangeAnimated animated: Bool)
  @Optional func mapView(_ mapView: MapView, viewFor annotation: MapAnnotation) -> AnnotationView?
  @Optional func mapView(_ mapView: MapView, didSelect view: AnnotationView)
}

/// `MKMapView`, reduced: ONE weak delegate slot, a visible region (a square: center and
/// width, in km), the annotations it shows, and the views it draws for them.
final class MapView {
  weak var delegate: (any MapViewDelegate)?
  private(set) var width = 2.0
  /// What is on the map now; a clustering plugin may replace points by clusters.
  var shownAnnotations: [MapAnnotation] = []

  /// Moves or zooms (`setRegion:animated:`), telling the delegate before and after.
  func setRegion(width: Double) {
    say("MapView: region will change")
    delegate?.mapView(self, regionWillChangeAnimated: true)
    self.width = width
    say("MapView: region is now \(decimal(width)) km wide")
    delegate?.mapView(self, regionDidChangeAnimated: true)
  }

  /// Draws every shown annotation with the view the delegate gives, or a default pin.
  func draw() -> [AnnotationView] {
    shownAnnotations.map { annotation in
      delegate?.mapView(self, viewFor: annotation)
        ?? AnnotationView(look: "default red pin", annotation: annotation)
    }
  }

  /// The user taps a drawn view.
  func tap(_ view: AnnotationView) {
    say("MapView: tap on \(view.annotation.title)")
    delegate?.mapView(self, didSelect: view)
  }
}

/// The plugin: regroups nearby annotations into clusters whenever the region changes,
/// and draws clusters as bubbles. It knows nothing of the view controller.
final class ClusteringPlugin: MapViewDelegate {
  var all: [MapAnnotation] = []
  private var bubbles: [AnnotationView] = []

  func mapView(_ mapView: MapView, regionWillChangeAnimated animated: Bool) {
    say("← ClusteringPlugin: pauses clustering while the map moves", level: 2)
  }

  func mapView(_ mapView: MapView, regionDidChangeAnimated animated: Bool) {
    let radius = mapView.width / 10
    var left = all
    var shown: [MapAnnotation] = []
    while let first = left.first {
      let near = left.filter {
        ($0.x - first.x) * ($0.x - first.x) + ($0.y - first.y) * ($0.y - first.y) <= radius * radius
      }
      left.removeAll { a in near.contains { $0 === a } }
      shown.append(
        near.count == 1
          ? first
          : MapAnnotation(
            title: "\(near.count) cafés around \(first.title)", x: first.x, y: first.y,
            members: near))
    }
    mapView.shownAnnotations = shown
    say(
      "← ClusteringPlugin: reclusters \(all.count) places → \(shown.map(\.title).joined(separator: ", "))",
      level: 2)
  }

  func mapView(_ mapView: MapView, viewFor annotation: MapAnnotation) -> AnnotationView? {
    guard annotation.isCluster else {
      say("← ClusteringPlugin: viewFor \(annotation.title) → nil (not a cluster)", level: 2)
      return nil
    }
    let bubble = AnnotationView(
      look: "bubble \"\(annotation.members.count)\"", annotation: annotation)
    bubbles.append(bubble)  // the plugin keeps the views it makes
    say("← ClusteringPlugin: viewFor \(annotation.title) → a bubble", level: 2)
    return bubble
  }
}

/// The view controller that owns the map: keeps a title up to date, draws its own pins
/// and shows details on tap.
final class PlacesViewController: MapViewDelegate {
  private var pins: [AnnotationView] = []

  func mapView(_ mapView: MapView, regionWillChangeAnimated animated: Bool) {
    say("← PlacesViewController: hides the open callout", level: 2)
  }

  func mapView(_ mapView: MapView, regionDidChangeAnimated animated: Bool) {
    say(
      "← PlacesViewController: title becomes \"\(mapView.shownAnnotations.count) markers in view\"",
      level: 2)
  }

  func mapView(_ mapView: MapView, viewFor annotation: MapAnnotation) -> AnnotationView? {
    guard !annotation.isCluster else {
      say("← PlacesViewController: viewFor a cluster → nil (not mine)", level: 2)
      return nil
    }
    let pin = AnnotationView(look: "coffee-cup pin", annotation: annotation)
    pins.append(pin)
    say("← PlacesViewController: viewFor \(annotation.title) → a coffee-cup pin", level: 2)
    return pin
  }

  func mapView(_ mapView: MapView, didSelect view: AnnotationView) {
    say("← PlacesViewController: shows the details of \(view.annotation.title)", level: 2)
  }
}

/// The `map-clustering` scenario: a first-responder multicast with the plugin as its
/// outer layer, a per-method policy, and the plugin unplugged again.
func mapClustering() throws {
  let steps = Steps()

  steps.next("A map view with ONE delegate slot, and the view controller that owns it")
  let map = MapView()
  let controller = PlacesViewController()
  let places = [
    ("Blue Bottle", 0.10, 0.20), ("Sightglass", 0.15, 0.25), ("Ritual", 0.12, 0.17),
    ("Four Barrel", 2.40, 1.10), ("Philz", 2.45, 1.20), ("Equator", -1.80, 2.60),
  ].map { MapAnnotation(title: $0.0, x: $0.1, y: $0.2) }
  map.shownAnnotations = places
  say("the controller adds \(places.count) cafés: \(places.map(\.title).joined(separator: ", "))")

  steps.next(
    "Plug in clustering: a first-responder multicast of [plugin, controller] — the plugin is the outer layer"
  )
  var plugin: ClusteringPlugin? = ClusteringPlugin()
  plugin!.all = places
  let matrioska = MapViewDelegateMulticast(policy: .firstResponder)
  matrioska.add(plugin!)
  matrioska.add(controller)
  map.delegate = matrioska
  say("map.delegate = matrioska (the map is not subclassed, nothing is swizzled)")

  steps.next("The user zooms out to 6 km: void messages reach every layer, outer first")
  map.setRegion(width: 6)

  steps.next(
    "The map draws: mapView(_:viewFor:) returns a value, so only the FIRST responder is asked")
  for view in map.draw() { say("MapView draws \(view.annotation.title) as a \(view.look)") }
  say("the controller's coffee-cup pins are never asked for (LBDelegateMatrioska's rule)")

  steps.next("Beyond the original: a policy for this one method — .reduce(.firstNonNil)")
  matrioska.setPolicy(.reduce(.firstNonNil), for: \.mapViewViewFor)
  let drawn = map.draw()
  for view in drawn { say("MapView draws \(view.annotation.title) as a \(view.look)") }

  steps.next(
    "The user taps a single café: only the controller implements didSelect, so only it hears it")
  if let view = drawn.first(where: { !$0.annotation.isCluster }) { map.tap(view) }
  say(
    "(the plugin's generated default ran once, and the multicast learned: responders for didSelect: \(matrioska.count(respondingTo: \.mapViewDidSelect)))"
  )

  steps.next(
    "The controller unplugs clustering by releasing the plugin (the multicast holds it weakly)")
  plugin = nil
  say("live layers: \(matrioska.count)")
  map.shownAnnotations = places
  map.setRegion(width: 4)
  say("the map keeps its delegate; the view controller still receives everything")

  withExtendedLifetime((controller, matrioska)) {}
}
