import DelegateProxy
import Foundation
import MessageRuntime
import Testing

// Two more of Foundation's delegate protocols that deliver events on Linux, each driven
// by its real delegator: NSKeyedArchiver's (no default implementations on Linux: all five
// methods restated; a value-returning one substitutes what is archived) and NSCache's
// (it refines NSObjectProtocol: `object: NSObject.self`).

@Delegate(for: NSKeyedArchiverDelegate.self)
protocol ArchiveEvents: NSKeyedArchiverDelegate {
  override func archiver(_ archiver: NSKeyedArchiver, willEncode object: Any) -> Any?
  override func archiver(_ archiver: NSKeyedArchiver, didEncode object: Any?)
  override func archiver(
    _ archiver: NSKeyedArchiver, willReplace object: Any?, withObject newObject: Any?)
  override func archiverWillFinish(_ archiver: NSKeyedArchiver)
  override func archiverDidFinish(_ archiver: NSKeyedArchiver)
}

/// Records the classes it sees archived; archives everything as it is.
final class ArchiveAuditor: NSKeyedArchiverDelegate {
  var encoded: [String] = []
  var finished = 0
  func archiver(_ archiver: NSKeyedArchiver, willEncode object: Any) -> Any? { object }
  func archiver(_ archiver: NSKeyedArchiver, didEncode object: Any?) {
    encoded.append(object.map { "\(type(of: $0))" } ?? "nil")
  }
  func archiver(
    _ archiver: NSKeyedArchiver, willReplace object: Any?, withObject newObject: Any?
  ) {}
  func archiverWillFinish(_ archiver: NSKeyedArchiver) {}
  func archiverDidFinish(_ archiver: NSKeyedArchiver) { finished += 1 }
}

/// Archives "[redacted]" in place of any string that contains "secret".
final class Redactor: NSKeyedArchiverDelegate {
  func archiver(_ archiver: NSKeyedArchiver, willEncode object: Any) -> Any? {
    if let string = object as? NSString, string.contains("secret") {
      return NSString(string: "[redacted]")
    }
    return object
  }
  func archiver(_ archiver: NSKeyedArchiver, didEncode object: Any?) {}
  func archiver(
    _ archiver: NSKeyedArchiver, willReplace object: Any?, withObject newObject: Any?
  ) {}
  func archiverWillFinish(_ archiver: NSKeyedArchiver) {}
  func archiverDidFinish(_ archiver: NSKeyedArchiver) {}
}

@Delegate(for: NSCacheDelegate.self, object: NSObject.self)
protocol CacheEvents: NSCacheDelegate {
  override func cache(_ cache: NSCache<AnyObject, AnyObject>, willEvictObject obj: Any)
}

/// Records what its cache evicts.
final class EvictionLog: NSObject, NSCacheDelegate {
  var evicted: [String] = []
  func cache(_ cache: NSCache<AnyObject, AnyObject>, willEvictObject obj: Any) {
    evicted.append("\(obj)")
  }
}

@Suite("More Foundation delegates through a multicast")
struct FoundationDelegateTests {
  @Test func anArchiversDelegatesAuditAndRedactTogether() throws {
    let auditor = ArchiveAuditor()
    let redactor = Redactor()
    let events = ArchiveEventsMulticast()
    events.add(auditor)
    events.add(redactor)  // last: its substitution is what is archived
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.delegate = events
    let notes: NSArray = [NSString(string: "shopping list"), NSString(string: "secret plan")]
    archiver.encode(notes, forKey: "notes")
    archiver.finishEncoding()
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
    unarchiver.requiresSecureCoding = false
    let decoded = unarchiver.decodeObject(forKey: "notes") as? [String]
    #expect(decoded == ["shopping list", "[redacted]"])
    // Both heard every call (the array and its two strings, and the end).
    #expect(auditor.encoded.count == 3)
    #expect(auditor.finished == 1)
    // Members the other way round: the auditor's answer (the object as it is) is last.
    events.remove(auditor)
    events.insert(auditor, at: 1)
    let plain = NSKeyedArchiver(requiringSecureCoding: false)
    plain.delegate = events
    plain.encode(notes, forKey: "notes")
    plain.finishEncoding()
    let again = try NSKeyedUnarchiver(forReadingFrom: plain.encodedData)
    again.requiresSecureCoding = false
    #expect(again.decodeObject(forKey: "notes") as? [String] == ["shopping list", "secret plan"])
  }

  @Test func aCachesEvictionsReachEveryDelegateThroughTheObject() throws {
    let first = EvictionLog()
    let second = EvictionLog()
    let events = CacheEventsMulticast()
    events.add(first)
    events.add(second)
    // The same operations on a twin cache with a plain delegate: what NSCache evicts on
    // Linux (a count limit's victims) is what both members must hear.
    let plain = EvictionLog()
    let twin = NSCache<NSString, NSString>()
    let cache = NSCache<NSString, NSString>()
    twin.delegate = plain
    cache.delegate = events.object
    for c in [twin, cache] {
      c.countLimit = 1
      c.setObject("one", forKey: "1")
      c.setObject("two", forKey: "2")
      c.setObject("three", forKey: "3")
    }
    #expect(!plain.evicted.isEmpty)
    #expect(first.evicted == plain.evicted)
    #expect(second.evicted == first.evicted)
  }
}
