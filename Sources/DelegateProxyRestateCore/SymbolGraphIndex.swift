import Foundation

/// Every symbol of a set of symbol graphs, by USR, with the relationships between them:
/// what a protocol's requirements, default implementations and parents are looked up in.
public struct SymbolGraphIndex: Sendable {
  /// A symbol and the module whose graph declares it.
  public struct Entry: Sendable {
    /// The symbol.
    public var symbol: SymbolGraph.Symbol
    /// The module of the graph that holds it.
    public var module: String
  }

  /// Symbols by USR (the first graph that declares one wins: `M@N` graphs repeat nothing).
  public private(set) var symbols: [String: Entry] = [:]
  /// Every relationship, in the graphs' order (the declaration order of requirements).
  public private(set) var relationships: [SymbolGraph.Relationship] = []
  /// The modules whose graphs were added, in order.
  public private(set) var modules: [String] = []

  /// An empty index.
  public init() {}

  /// Adds a decoded graph.
  public mutating func add(_ graph: SymbolGraph) {
    if !modules.contains(graph.module.name) { modules.append(graph.module.name) }
    for symbol in graph.symbols where symbols[symbol.identifier.precise] == nil {
      symbols[symbol.identifier.precise] = Entry(symbol: symbol, module: graph.module.name)
    }
    relationships.append(contentsOf: graph.relationships)
  }

  /// Adds every `*.symbols.json` file of a directory (SwiftPM's and
  /// `swift-symbolgraph-extract`'s output), in name order so the result does not depend on
  /// the file system's order.
  public mutating func addDirectory(_ path: String) throws {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: path)
    } catch {
      throw RestateError.unreadableSymbolGraph(path: path, reason: "not a readable directory")
    }
    for name in names.sorted() where name.hasSuffix(".symbols.json") {
      try addFile((path as NSString).appendingPathComponent(name))
    }
  }

  /// Adds one `*.symbols.json` file.
  public mutating func addFile(_ path: String) throws {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw RestateError.unreadableSymbolGraph(path: path, reason: "no such file")
    }
    do {
      add(try JSONDecoder().decode(SymbolGraph.self, from: data))
    } catch {
      throw RestateError.unreadableSymbolGraph(path: path, reason: "\(error)")
    }
  }

  /// The protocol a name denotes: `XMLParserDelegate`, or qualified by its module
  /// (`Tracing.Span`). Throws when no type has the name, when several protocols do, or when
  /// the type is not a protocol.
  public func findProtocol(named name: String) throws -> Entry {
    let matches = symbols.values.filter { entry in
      let path = entry.symbol.pathComponents.joined(separator: ".")
      return path == name || "\(entry.module).\(path)" == name
    }
    let protocols = matches.filter { $0.symbol.kind.identifier == "swift.protocol" }
    if protocols.count > 1 {
      let names = protocols.map {
        "\($0.module).\($0.symbol.pathComponents.joined(separator: "."))"
      }
      throw RestateError.ambiguousName(name: name, candidates: names.sorted())
    }
    if let found = protocols.first { return found }
    if let other = matches.min(by: { $0.module < $1.module }) {
      throw RestateError.notAProtocol(
        name: name, kind: Self.describe(kind: other.symbol.kind.identifier))
    }
    throw RestateError.protocolNotFound(name: name, searched: modules)
  }

  /// "a class", "a struct", … for the kinds a name may wrongly denote.
  static func describe(kind: String) -> String {
    switch kind {
    case "swift.class": return "a class"
    case "swift.struct": return "a struct"
    case "swift.enum": return "an enum"
    case "swift.typealias": return "a type alias"
    case "swift.func": return "a function"
    case "swift.var": return "a variable"
    default: return "a '\(kind)'"
    }
  }
}
