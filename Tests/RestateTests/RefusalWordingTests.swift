import DelegateProxyMacros
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import Testing

@testable import DelegateProxyRestateCore

/// The command's reason for each shape the `@Delegate` macro refuses is the macro's own:
/// the command reads the restatement with the macro's model (DelegateProxyMacroSupport), and
/// here the macro itself expands the hand restatement of the same shape through swift-syntax's
/// macro expansion, as the compiler would, and the two messages must be equal.
@Suite("The command's refusals in the macro's words")
struct RefusalWordingTests {
  /// One shape the macro refuses, as a foreign protocol `P` declares it.
  struct Shape: CustomTestStringConvertible, Sendable {
    /// What it is.
    var name: String
    /// `P`'s members: (symbol kind, declaration), as the symbol graph prints them.
    var members: [(String, String)]
    /// The hand restatement's `where` clause and members (the macro's side).
    var hand: String
    /// Whether `P` is class-bound.
    var classBound = true

    var testDescription: String { name }
  }

  /// Every refused shape the command can meet in a protocol it restates (the generator's
  /// list, IntegrationTests/Scripts/generate-protocols.py, but `@Default` on a void method,
  /// which only a restatement can have, and a result with no empty value, which the command
  /// writes and names with the `--default` to pass: DefaultOptionTests).
  static let shapes: [Shape] = [
    Shape(
      name: "typed throws",
      members: [("swift.method", "func probe(_ a: Int) throws(GenError) -> Int")],
      hand: "{\n  func probe(_ a: Int) throws(GenError) -> Int\n}"),
    Shape(
      name: "rethrows",
      members: [("swift.method", "func probe(_ a: Int, _ f: () throws -> Void) rethrows")],
      hand: "{\n  func probe(_ a: Int, _ f: () throws -> Void) rethrows\n}"),
    Shape(
      name: "variadic parameter", members: [("swift.method", "func probe(_ a: Int...)")],
      hand: "{\n  func probe(_ a: Int...)\n}"),
    Shape(
      name: "static method", members: [("swift.type.method", "static func probe(_ a: Int)")],
      hand: "{\n  static func probe(_ a: Int)\n}"),
    Shape(
      name: "initializer", members: [("swift.init", "init(probe: Int)")],
      hand: "{\n  init(probe: Int)\n}"),
    Shape(
      name: "Self in a parameter", members: [("swift.method", "func probe(_ a: Self, _ b: Int)")],
      hand: "{\n  func probe(_ a: Self, _ b: Int)\n}"),
    Shape(
      name: "non-escaping closure in an async method",
      members: [("swift.method", "func probe(_ f: (Int) -> Void) async")],
      hand: "{\n  func probe(_ f: (Int) -> Void) async\n}"),
    Shape(
      name: "'some' parameter", members: [("swift.method", "func probe(_ a: some Collection)")],
      hand: "{\n  func probe(_ a: some Collection)\n}"),
    Shape(
      name: "static property", members: [("swift.type.property", "static var probe: Int { get }")],
      hand: "{\n  static var probe: Int { get }\n}"),
    Shape(
      name: "generic subscript",
      members: [("swift.subscript", "subscript<T>(probe a: T) -> Int { get }")],
      hand: "{\n  subscript<T>(probe a: T) -> Int { get }\n}"),
    Shape(
      name: "typed throws getter",
      members: [("swift.property", "var probe: Int { get throws(GenError) }")],
      hand: "{\n  var probe: Int { get throws(GenError) }\n}"),
    Shape(
      name: "mutating requirement that throws",
      members: [("swift.method", "mutating func probe(_ a: Int) throws")],
      hand: "{\n  mutating func probe(_ a: Int) throws\n}", classBound: false),
    Shape(
      name: "associated type as a parameter",
      members: [
        ("swift.associatedtype", "associatedtype Probe : Sendable"),
        ("swift.method", "func probe(_ a: Probe)"),
      ],
      hand: "where Probe: Probes {\n  func probe(_ a: Probe)\n}"),
    Shape(
      name: "associated type held in a result",
      members: [
        ("swift.associatedtype", "associatedtype Probe : Sendable"),
        ("swift.method", "func probe() -> [Probe]"),
      ],
      hand: "where Probe: Probes {\n  func probe() -> [Probe]\n}"),
    Shape(
      name: "associated type in a property",
      members: [
        ("swift.associatedtype", "associatedtype Probe : Sendable"),
        ("swift.property", "var probe: Probe { get }"),
      ],
      hand: "where Probe: Probes {\n  var probe: Probe { get }\n}"),
  ]

  /// `P` read from a symbol graph of those members.
  static func parent(_ shape: Shape) throws -> ForeignProtocol {
    var index = SymbolGraphIndex()
    index.add(try FixtureGraphs.graph(module: "M", protocol: "P", members: shape.members))
    var parent = ForeignProtocol(try index.findProtocol(named: "P"), in: index)
    parent.isClassBound = shape.classBound
    return parent
  }

  /// What the macro reports when it expands `source`, as the compiler would run it.
  static func macroMessages(_ source: String) -> [String] {
    let file = Parser.parse(source: source)
    let context = BasicMacroExpansionContext()
    _ = file.expand(
      macroSpecs: ["Delegate": MacroSpec(type: DelegateMacro.self)],
      contextGenerator: { _ in context }, indentationWidth: .spaces(2))
    return context.diagnostics.map(\.message)
  }

  /// The command's message, and the reason in it.
  static func commandReason(_ parent: ForeignProtocol, bindings: [(String, String)] = [])
    -> String?
  {
    let writer = RestatementWriter(
      parent: parent, parentSpelling: "P", restatingName: "Ps", bindings: bindings,
      command: "test")
    do {
      _ = try writer.write(over: nil)
      return nil
    } catch RestateError.refusedRequirement(_, _, let reason) {
      return reason
    } catch {
      return "\(error)"
    }
  }

  @Test("Each refused requirement: the command's reason is the macro's message", arguments: shapes)
  func sameReason(_ shape: Shape) throws {
    let parent = try Self.parent(shape)
    let macro = Self.macroMessages("@Delegate(for: P.self)\nprotocol Ps: P \(shape.hand)\n")
    #expect(macro.count == 1, "the macro: \(macro)")
    let reason = try #require(Self.commandReason(parent), "the command wrote \(shape.name)")
    #expect(reason == macro.first)
    // Bound or not, an associated type's use is refused in the same words.
    if parent.requirements.contains(where: { $0.kind == .associatedType }) {
      #expect(Self.commandReason(parent, bindings: [("Probe", "Probes")]) == macro.first)
    }
  }

  @Test("The command's full message names the protocol, the requirement and the macro's reason")
  func message() throws {
    let parent = try Self.parent(Self.shapes[2])
    let error = RestateError.refusedRequirement(
      protocolName: "P", declaration: "func probe(_ a: Int...)",
      reason: try #require(Self.commandReason(parent)))
    #expect(
      error.description
        == "P requires 'func probe(_ a: Int...)', which @Delegate cannot forward: parameter 'a' of 'probe(_:)' is variadic, which has no C form; pass a pointer and a count instead"
    )
  }

  @Test(
    "An associated type left unbound: the file is written, and the command gives the macro's reason and --bind"
  )
  func unbound() throws {
    for constraint in ["", " : Sendable", " : AnyObject"] {
      let parent = try Self.parent(
        Shape(
          name: "associated type",
          members: [
            ("swift.associatedtype", "associatedtype Probe\(constraint)"),
            ("swift.method", "func probe() -> Probe"),
          ], hand: ""))
      let writer = RestatementWriter(
        parent: parent, parentSpelling: "P", restatingName: "Ps", command: "test")
      let output = try writer.write(over: nil)
      // What the macro says of the restating protocol's own `associatedtype Probe`: the
      // restatement has no constraint binding it.
      let macro = Self.macroMessages(
        "@Delegate(for: P.self)\nprotocol Ps: P {\n  associatedtype Probe\n}\n")
      #expect(output.unbound.map(\.reason) == macro)
      #expect(
        output.unbound.first?.description
          == "P's associated type 'Probe' is not bound: @Delegate cannot bind the associated type 'Probe': it has no constraint; constrain it to one @Delegate protocol ('associatedtype Probe: P'), and the multicast binds it to that protocol's multicast (PMulticast), gathering the members' answers into one; in a restatement that constraint is the 'where' clause: pass --bind Probe=P, P a @Delegate protocol restating Probe's constraint"
      )
      // Bound: nothing to say, and the macro expands the restatement.
      let bound = try RestatementWriter(
        parent: parent, parentSpelling: "P", restatingName: "Ps", bindings: [("Probe", "Probes")],
        command: "test"
      ).write(over: nil)
      #expect(bound.unbound.isEmpty)
      #expect(
        bound.text.contains("protocol Ps: P where Probe: Probes {\n  func probe() -> Probe\n}"))
      #expect(Self.macroMessages(bound.text).isEmpty)
    }
  }

  @Test("A refused requirement with a default implementation is left to it, with a note")
  func refusedWithDefault() throws {
    let parent = try Self.parent(Self.shapes[0])
    var withDefault = parent
    withDefault.requirements[0].hasDefault = true
    let output = try RestatementWriter(parent: withDefault, parentSpelling: "P", command: "test")
      .write(over: nil)
    let macro = Self.macroMessages(
      "@Delegate(for: P.self)\nprotocol Ps: P \(Self.shapes[0].hand)\n")
    #expect(
      output.notes == [
        "not restated: 'func probe(_ a: Int) throws(GenError) -> Int' (\(macro[0]); its default implementation answers)"
      ])
  }
}
