import DelegateProxy
import Testing

// A `@Default` is answered through one function the macro generates in the protocol's
// extension (so that a value of the wrong type is one error, on the requirement's line):
// the same answer from a class multicast, a value multicast, a main-actor one, and an
// optional method's default.

/// A decision whose first case must not be answered by accident.
enum Verdict: Equatable, Sendable {
  case allow, deny
}

/// Not class-bound: a value multicast.
@Delegate
protocol Gate {
  @Default(Verdict.deny) func verdict(for id: Int) -> Verdict
  @Optional @Default(Verdict.deny) func fallbackVerdict() -> Verdict
  @Default(Verdict.deny) var mode: Verdict { get }
}

struct OpenGate: Gate {
  func verdict(for id: Int) -> Verdict { .allow }
  var mode: Verdict { .allow }
}

@MainActor
@Delegate
protocol PanelGate: AnyObject {
  @Default(Verdict.deny) func panelVerdict() -> Verdict
}

@MainActor
final class OpenPanel: PanelGate {
  func panelVerdict() -> Verdict { .allow }
}

@Suite("@Default answers")
struct DeclaredDefaultTests {
  @Test func aValueMulticastAnswersTheDeclaredDefault() {
    var gates = GateMulticast()
    #expect(gates.verdict(for: 1) == .deny)
    #expect(gates.fallbackVerdict() == .deny)
    #expect(gates.mode == .deny)
    gates.add(OpenGate())
    #expect(gates.verdict(for: 1) == .allow)
    #expect(gates.mode == .allow)
    // The member lacks the optional method: still the declared default, not `.allow`.
    #expect(gates.fallbackVerdict() == .deny)
    #expect(OpenGate().fallbackVerdict() == .deny)
  }

  @MainActor @Test func aMainActorMulticastAnswersTheDeclaredDefault() {
    let panels = PanelGateMulticast()
    #expect(panels.panelVerdict() == .deny)
    let panel = OpenPanel()
    panels.add(panel)
    #expect(panels.panelVerdict() == .allow)
    withExtendedLifetime(panel) {}
  }
}
