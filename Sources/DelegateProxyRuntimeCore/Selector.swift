internal import DelegateProxyCCore

/// A method name, interned once and compared by identity (`SEL`, `sel_registerName`).
///
/// Two selectors with the same name are the same selector: equality and hashing are a
/// pointer comparison, so a selector is as cheap to compare as a C pointer.
// Sendable: the record is immutable and immortal once interned.
public struct Selector: Hashable, @unchecked Sendable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  /// The interned C record (`dp_sel`); valid for the life of the process.
  package let raw: OpaquePointer

  /// Interns `name` (`sel_registerName`). Thread-safe; O(1) expected.
  public init(_ name: String) {
    var name = name
    raw = name.withUTF8 { dp_sel_register_name_n($0.baseAddress, $0.count) }
  }

  /// Interns a string literal: `let sel: Selector = "tableView:numberOfRowsInSection:"`.
  public init(stringLiteral value: String) { self.init(value) }

  package init(raw: OpaquePointer) { self.raw = raw }

  /// The selector whose C record (``rawValue``) is `rawValue`: a `dp_sel` received from
  /// C code (`_cmd`, or one `dp_sel_register_name` returned). It must be a selector this
  /// runtime interned; any such record is valid for the life of the process.
  public init(rawValue: OpaquePointer) {
    raw = rawValue
  }

  /// The selector's interned C record, a `dp_sel` (`SEL` in `dp_runtime.h`): what C code
  /// takes as `_cmd`. Swift imports `dp_sel` as `OpaquePointer`, so it passes to such C
  /// functions as it is. Selectors are never freed: it stays valid for the life of the
  /// process, and equal selectors have the same `rawValue`.
  public var rawValue: OpaquePointer { raw }

  /// The selector registered under `name`, or nil if no one registered it
  /// (unlike `init(_:)`, this never registers).
  public static func registered(_ name: String) -> Selector? {
    dp_sel_lookup_name(name).map(Selector.init(raw:))
  }

  /// How many distinct selectors the process has registered.
  package static var registeredCount: Int { dp_sel_count() }

  /// The selector's name (`sel_getName`).
  public var name: String { String(cString: dp_sel_get_name(raw)) }

  /// The number of arguments the name implies (the count of ':').
  package var argumentCount: Int {
    var n = 0
    var p = dp_sel_get_name(raw)!
    while p.pointee != 0 {
      if p.pointee == 0x3A { n += 1 }
      p += 1
    }
    return n
  }

  public var description: String { name }

  public static func == (a: Selector, b: Selector) -> Bool { a.raw == b.raw }
  public func hash(into hasher: inout Hasher) { hasher.combine(raw) }
}
