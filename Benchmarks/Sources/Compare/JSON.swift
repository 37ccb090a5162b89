// A small JSON value that keeps key order (so latest.json reads top-down: machine,
// then rows) and the reader for the co-process drivers' rows.

import Foundation

indirect enum JSON {
  case string(String)
  case number(Double)
  case int(Int)
  case bool(Bool)
  case null
  case array([JSON])
  case object([(String, JSON)])

  /// Rounds to 4 significant decimals for readability; NaN and infinities become null.
  static func measured(_ x: Double) -> JSON {
    guard x.isFinite else { return .null }
    return .number((x * 10_000).rounded() / 10_000)
  }

  func render(indent: Int = 0, inline: Bool = false) -> String {
    let pad = String(repeating: "  ", count: indent)
    let inner = String(repeating: "  ", count: indent + 1)
    switch self {
    case .string(let s): return JSON.quote(s)
    case .number(let x):
      if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
      return "\(x)"
    case .int(let i): return String(i)
    case .bool(let b): return b ? "true" : "false"
    case .null: return "null"
    case .array(let items):
      if items.isEmpty { return "[]" }
      if inline || items.allSatisfy({ $0.isScalar }) {
        return "[" + items.map { $0.render(inline: true) }.joined(separator: ", ") + "]"
      }
      return "[\n"
        + items.map { inner + $0.render(indent: indent + 1, inline: $0.isRowLike) }.joined(
          separator: ",\n")
        + "\n" + pad + "]"
    case .object(let fields):
      if fields.isEmpty { return "{}" }
      if inline {
        return "{"
          + fields.map { JSON.quote($0.0) + ": " + $0.1.render(inline: true) }.joined(
            separator: ", ") + "}"
      }
      return "{\n"
        + fields.map { inner + JSON.quote($0.0) + ": " + $0.1.render(indent: indent + 1) }.joined(
          separator: ",\n")
        + "\n" + pad + "}"
    }
  }

  var isScalar: Bool {
    switch self {
    case .array, .object: false
    default: true
    }
  }

  /// Rows (objects of scalars and scalar arrays) print one per line.
  var isRowLike: Bool {
    guard case .object(let fields) = self else { return false }
    return fields.allSatisfy { field in
      if case .array(let items) = field.1 { return items.allSatisfy(\.isScalar) }
      return field.1.isScalar
    }
  }

  static func quote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        if scalar.value < 0x20 {
          out += String(format: "\\u%04x", scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}

/// A row as a co-process driver prints it (one JSON object per line).
struct ExternalRow: Decodable {
  let name: String
  let signature: String
  let fanout: Int
  let ns_per_message: Double
  let allocs_per_message: Double?
  let frees_per_message: Double?
  let path: String?
  let median_of: Int?
  let repetitions: [Double]?
  let messages_per_repetition: Int?

  /// Reads every line of `path` that parses as a row; other lines are ignored.
  static func read(_ path: String) throws -> [ExternalRow] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let decoder = JSONDecoder()
    return text.split(separator: "\n").compactMap { line in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard trimmed.hasPrefix("{") else { return nil }
      return try? decoder.decode(ExternalRow.self, from: Data(trimmed.utf8))
    }
  }
}
