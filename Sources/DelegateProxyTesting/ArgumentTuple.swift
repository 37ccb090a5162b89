/// A method's Swift arguments, one value per parameter, as its typed handle's
/// `Arguments`: the value itself for one parameter, `()` for none, a tuple otherwise.
enum ArgumentTuple {
  /// `values` as `Arguments`; nil when a value is missing or of another type.
  static func make<Arguments>(_ values: [Any?], as _: Arguments.Type) -> Arguments? {
    var all: [Any] = []
    for value in values {
      guard let value else { return nil }
      all.append(value)
    }
    let v = all
    // The runtime casts a tuple of `Any`s to a tuple type element by element.
    let tuple: Any
    switch v.count {
    case 0: tuple = ()
    case 1: return v[0] as? Arguments
    case 2: tuple = (v[0], v[1])
    case 3: tuple = (v[0], v[1], v[2])
    case 4: tuple = (v[0], v[1], v[2], v[3])
    case 5: tuple = (v[0], v[1], v[2], v[3], v[4])
    case 6: tuple = (v[0], v[1], v[2], v[3], v[4], v[5])
    case 7: tuple = (v[0], v[1], v[2], v[3], v[4], v[5], v[6])
    case 8: tuple = (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])
    case 9: tuple = (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8])
    case 10: tuple = (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9])
    case 11: tuple = (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10])
    case 12: tuple = (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11])
    default: return nil
    }
    return tuple as? Arguments
  }
}
