import DelegateProxyRestateCore
import Foundation

/// The committed symbol graphs (Fixtures/make-fixtures.sh writes them).
enum FixtureGraphs {
  /// The directory of one fixture: `Shapes`, `ShapesDrift`, `FoundationXML`.
  static func directory(_ name: String) -> String {
    Bundle.module.resourceURL!.appendingPathComponent("Fixtures").appendingPathComponent(name).path
  }

  /// An index of the given fixtures.
  static func index(_ names: String...) throws -> SymbolGraphIndex {
    var index = SymbolGraphIndex()
    for name in names { try index.addDirectory(directory(name)) }
    return index
  }

  /// The protocol `name` read from the given fixtures.
  static func parent(_ name: String, in fixtures: String...) throws -> ForeignProtocol {
    var index = SymbolGraphIndex()
    for fixture in fixtures { try index.addDirectory(directory(fixture)) }
    return ForeignProtocol(try index.findProtocol(named: name), in: index)
  }

  /// A graph from JSON text, for shapes the fixtures do not have.
  static func graph(_ json: String) throws -> SymbolGraph {
    try JSONDecoder().decode(SymbolGraph.self, from: Data(json.utf8))
  }

  /// A one-protocol graph of module `module` whose protocol `P` has the given members
  /// (kind identifier, declaration text), none with a default; an associated type is
  /// titled with its name.
  static func graph(module: String, protocol name: String, members: [(String, String)]) throws
    -> SymbolGraph
  {
    var symbols = [
      #"{"kind":{"identifier":"swift.protocol"},"identifier":{"precise":"s:\#(module)\#(name)P"},"pathComponents":["\#(name)"],"declarationFragments":[{"kind":"keyword","spelling":"protocol \#(name) : AnyObject"}]}"#
    ]
    var relationships: [String] = []
    for (index, member) in members.enumerated() {
      let escaped = member.1.replacingOccurrences(of: "\"", with: "\\\"")
      // An associated type's title is its name (the command binds it by name).
      let title =
        member.0 == "swift.associatedtype"
        ? String(member.1.split(separator: " ")[1]) : "m\(index)"
      symbols.append(
        #"{"kind":{"identifier":"\#(member.0)"},"identifier":{"precise":"s:\#(module)\#(name)M\#(index)"},"pathComponents":["\#(name)","\#(title)"],"declarationFragments":[{"kind":"text","spelling":"\#(escaped)"}]}"#
      )
      relationships.append(
        #"{"kind":"requirementOf","source":"s:\#(module)\#(name)M\#(index)","target":"s:\#(module)\#(name)P"}"#
      )
    }
    return try graph(
      #"{"module":{"name":"\#(module)"},"symbols":[\#(symbols.joined(separator: ","))],"relationships":[\#(relationships.joined(separator: ","))]}"#
    )
  }
}
