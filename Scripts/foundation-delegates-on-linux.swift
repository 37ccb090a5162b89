// Which of Foundation's delegate protocols deliver events on Linux, each tried with a plain
// delegate (no multicast) on its real delegator: StreamDelegate (data, file and memory
// streams scheduled on the current run loop), NSCacheDelegate, NSKeyedArchiverDelegate,
// NSKeyedUnarchiverDelegate and PortDelegate (a SocketPort on loopback). Prints what each
// delegate heard.
//
//   swift Scripts/foundation-delegates-on-linux.swift
//
// (XMLParserDelegate, FileManagerDelegate and URLSession's delegates are driven by tests:
// ForeignProtocolTests, URLSessionDelegateTests. NetService is not in Foundation on Linux.)

import Foundation

final class StreamLog: NSObject, StreamDelegate {
  var events: [String] = []
  func stream(_ aStream: Stream, handle eventCode: Stream.Event) {
    var names: [String] = []
    if eventCode.contains(.openCompleted) { names.append("openCompleted") }
    if eventCode.contains(.hasBytesAvailable) {
      names.append("hasBytesAvailable")
      if let input = aStream as? InputStream {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = input.read(&buffer, maxLength: 64)
        names.append("read \(n)")
      }
    }
    if eventCode.contains(.hasSpaceAvailable) { names.append("hasSpaceAvailable") }
    if eventCode.contains(.endEncountered) {
      names.append("endEncountered")
      aStream.close()
    }
    if eventCode.contains(.errorOccurred) { names.append("errorOccurred") }
    events.append(names.joined(separator: "+"))
  }
}

func runLoop(_ seconds: Double) {
  let until = Date().addingTimeInterval(seconds)
  while Date() < until { _ = RunLoop.current.run(mode: .default, before: until) }
}

func tryStream(_ label: String, _ stream: Stream) {
  let log = StreamLog()
  stream.delegate = log
  stream.schedule(in: .current, forMode: .default)
  stream.open()
  runLoop(1.0)
  print("\(label): status \(stream.streamStatus.rawValue), events \(log.events)")
  stream.close()
}

tryStream("InputStream(data:)", InputStream(data: Data("hello stream".utf8)))
let path = NSTemporaryDirectory() + "/dp-stream-\(getpid()).txt"
try! Data("file contents".utf8).write(to: URL(fileURLWithPath: path))
tryStream("InputStream(fileAtPath:)", InputStream(fileAtPath: path)!)
tryStream("OutputStream.toMemory()", OutputStream.toMemory())
print("Stream.getBoundStreams: not in swift-corelibs-foundation")
// The delegate property is read back?
let s = InputStream(data: Data())
let l = StreamLog()
s.delegate = l
print("delegate set and read back: \(s.delegate === l)")

// NSCacheDelegate
final class CacheLog: NSObject, NSCacheDelegate {
  var evicted: [String] = []
  func cache(_ cache: NSCache<AnyObject, AnyObject>, willEvictObject obj: Any) {
    evicted.append("\(obj)")
  }
}
let cache = NSCache<NSString, NSString>()
let cacheLog = CacheLog()
cache.delegate = cacheLog
cache.countLimit = 1
cache.setObject("one", forKey: "1")
cache.setObject("two", forKey: "2")
cache.removeObject(forKey: "2")
print("NSCache evictions: \(cacheLog.evicted)")

// NSKeyedArchiverDelegate
final class ArchiveLog: NSKeyedArchiverDelegate {
  var events: [String] = []
  func archiver(_ archiver: NSKeyedArchiver, willEncode object: Any) -> Any? {
    events.append("willEncode \(type(of: object))")
    return object
  }
  func archiver(_ archiver: NSKeyedArchiver, didEncode object: Any?) { events.append("didEncode") }
  func archiver(_ archiver: NSKeyedArchiver, willReplace object: Any?, withObject newObject: Any?) {
    events.append("willReplace")
  }
  func archiverWillFinish(_ archiver: NSKeyedArchiver) { events.append("willFinish") }
  func archiverDidFinish(_ archiver: NSKeyedArchiver) { events.append("didFinish") }
}
let archiver = NSKeyedArchiver(requiringSecureCoding: false)
let archiveLog = ArchiveLog()
archiver.delegate = archiveLog
archiver.encode(NSArray(array: [NSString(string: "a"), NSNumber(value: 1)]), forKey: "root")
archiver.finishEncoding()
print("NSKeyedArchiver: \(archiveLog.events)")

final class UnarchiveLog: NSKeyedUnarchiverDelegate {
  var events: [String] = []
  func unarchiver(
    _ unarchiver: NSKeyedUnarchiver, cannotDecodeObjectOfClassName name: String,
    originalClasses classNames: [String]
  ) -> AnyClass? {
    events.append("cannotDecode \(name)")
    return nil
  }
  func unarchiver(_ unarchiver: NSKeyedUnarchiver, didDecode object: Any?) -> Any? {
    events.append("didDecode \(object.map { "\(type(of: $0))" } ?? "nil")")
    return object
  }
  func unarchiver(_ unarchiver: NSKeyedUnarchiver, willReplace object: Any, with newObject: Any) {
    events.append("willReplace")
  }
  func unarchiverWillFinish(_ unarchiver: NSKeyedUnarchiver) { events.append("willFinish") }
  func unarchiverDidFinish(_ unarchiver: NSKeyedUnarchiver) { events.append("didFinish") }
}
let unarchiver = try! NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
unarchiver.requiresSecureCoding = false
let unarchiveLog = UnarchiveLog()
unarchiver.delegate = unarchiveLog
_ = unarchiver.decodeObject(forKey: "root")
unarchiver.finishDecoding()
print("NSKeyedUnarchiver: \(unarchiveLog.events)")

// PortDelegate with SocketPort on loopback
final class PortLog: PortDelegate {
  var messages: [String] = []
  func handle(_ message: PortMessage) {
    messages.append("message id \(message.msgid), \(message.components?.count ?? -1) components")
  }
}
let receive = SocketPort(tcpPort: 0)
if let receive {
  let portLog = PortLog()
  receive.setDelegate(portLog)
  receive.schedule(in: .current, forMode: .default)
  print("SocketPort receive: \(receive)")
  var portNumber: UInt16 = 0
  receive.address.withUnsafeBytes { raw in
    let sin = raw.load(as: sockaddr_in.self)
    portNumber = UInt16(bigEndian: sin.sin_port)
  }
  print("port \(portNumber)")
  if let send = SocketPort(remoteWithTCPPort: portNumber, host: "127.0.0.1") {
    let ok = send.send(
      before: Date().addingTimeInterval(2), components: NSMutableArray(array: [Data("x".utf8)]),
      from: nil, reserved: 0)
    print("send returned \(ok)")
    runLoop(1.5)
    print("PortDelegate messages: \(portLog.messages)")
  }
} else {
  print("SocketPort(tcpPort: 0) is nil")
}
