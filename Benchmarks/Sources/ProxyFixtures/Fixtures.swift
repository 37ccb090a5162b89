// Fixtures shared by the Compare executable and the package-benchmark suite: the five
// signatures as typed messages, the delegate classes (C IMPs installed with
// `RuntimeClass.addMethod(_:imp:types:)`) and the argument values every sender uses.

import BenchmarkSupport
import MessageRuntime

/// `{CGPoint=dd}`, laid out as C's `struct { double x, y; }`.
public struct CGPoint: MessageArgument, BitwiseCopyable {
  public var x: Double
  public var y: Double
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
  public static let typeEncoding: TypeEncoding = .structure(
    name: "CGPoint", fields: [.double, .double])
  /// Its bytes are its C representation: typed sends copy it with the other arguments.
  public static var representation: MessageArgumentRepresentation { .bitwise }
}

/// `{Big40=qqqqq}`: a 40-byte struct, returned in memory.
public struct Big40: MessageArgument, BitwiseCopyable {
  public var a: Int64, b: Int64, c: Int64, d: Int64, e: Int64
  public init(a: Int64, b: Int64, c: Int64, d: Int64, e: Int64) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
    self.e = e
  }
  public static let typeEncoding: TypeEncoding = .structure(
    name: "Big40", fields: [.longLong, .longLong, .longLong, .longLong, .longLong])
}

/// The five benchmark signatures.
public enum BenchSignature: Int, CaseIterable, Sendable {
  case qd, object, point, ten, big40

  /// The C enum value.
  public var c: bs_signature { bs_signature(rawValue: UInt32(rawValue)) }
  /// The ObjC method encoding, e.g. `q@:qd`.
  public var encoding: String { String(cString: bs_signature_encoding(c)) }
  /// The selector the signature is sent as.
  public var selector: Selector { Selector(String(cString: bs_signature_selector(c))) }
  /// The delegate IMP (a C function).
  public var delegateIMP: IMP { IMP(unsafeFunction: bs_delegate_imp(c)) }
  /// The interned method signature.
  public var methodSignature: MethodSignature { try! MethodSignature.parse(encoding) }
}

/// The five signatures as typed messages (what a Swift caller writes).
public enum Messages {
  public static let qd = Message<Int, Int, Double>("value:scale:")
  public static let object = Message<Void, RuntimeObject?>("observe:")
  public static let point = Message<Void, RuntimeObject?, CGPoint, UnsafeMutablePointer<CGPoint>>(
    "view:movedTo:out:")
  public static let ten = Message<Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int>(
    "sum:b:c:d:e:f:g:h:i:j:")
  public static let big40 = Message<Big40, Int>("make:")

  /// The encodings the typed messages derive, by signature (checked at start-up against
  /// the C table, so the Swift and C senders agree on what they send).
  public static func encoding(of signature: BenchSignature) -> String {
    switch signature {
    case .qd: qd.signature.encoding
    case .object: object.signature.encoding
    case .point: point.signature.encoding
    case .ten: ten.signature.encoding
    case .big40: big40.signature.encoding
    }
  }
}

/// The classes and shared objects the benchmarks use.
public enum Fixtures {
  /// A delegate class implementing all five signatures with the C IMPs.
  public static let delegateClass: RuntimeClass = {
    let cls = try! RuntimeClass(name: "BenchDelegate")
    for sig in BenchSignature.allCases {
      try! cls.addMethod(sig.selector, imp: sig.delegateIMP, types: sig.encoding)
    }
    return cls
  }()

  /// A class implementing none of them (the 997 bystanders of `responders_3_of_1000`).
  public static let bystanderClass: RuntimeClass = try! RuntimeClass(name: "BenchBystander")

  /// The object passed as the `@` argument of `v@:@` and the point signature.
  public static let argumentObject: RuntimeObject = {
    let object = RuntimeObject(class: bystanderClass)
    bs_set_object_argument(UnsafeMutableRawPointer(object.rawValue))
    return object
  }()

  /// Checks that the typed messages and the C table name the same encodings; call once
  /// at start-up. Returns the mismatches (empty when all agree).
  public static func verify() -> [String] {
    _ = argumentObject
    var problems: [String] = []
    for sig in BenchSignature.allCases where Messages.encoding(of: sig) != sig.encoding {
      problems.append(
        "\(sig): Swift message encodes \(Messages.encoding(of: sig)), C table says \(sig.encoding)")
    }
    return problems
  }

  /// `count` fresh delegates.
  public static func delegates(_ count: Int) -> [RuntimeObject] {
    (0..<count).map { _ in RuntimeObject(class: delegateClass) }
  }

  /// `members` objects of which the ones at `responderIndices` are delegates and the
  /// rest bystanders.
  public static func members(_ members: Int, responderIndices: Set<Int>) -> [RuntimeObject] {
    (0..<members).map {
      RuntimeObject(class: responderIndices.contains($0) ? delegateClass : bystanderClass)
    }
  }
}
