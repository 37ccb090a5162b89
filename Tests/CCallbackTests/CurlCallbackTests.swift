import DelegateProxy
import DelegateProxyCCallbackSupport
import Glibc
import MessageRuntime
import Synchronization
import Testing

/// libcurl's write callback (context last) fetching a file:// URL, fanned out to two sinks.
/// libcurl is loaded at run time (DelegateProxyCCallbackSupport): a machine without
/// libcurl.so.4 fails these tests, naming why, rather than skipping them.
@Suite("libcurl callbacks (context last)") struct CurlCallbackTests {
  // size_t (*)(char *ptr, size_t size, size_t nmemb, void *userdata): bytes taken
  static let write = Message<UInt, UnsafeMutablePointer<CChar>?, UInt, UInt>("write:size:count:")

  /// A sink that keeps what it is given and answers how many bytes it took.
  final class Sink: RuntimeObject, @unchecked Sendable {
    // @unchecked Sendable: the mutexes are the only mutable state.
    let bytes = Lock<[UInt8]>([])
    let chunks = Atomic<Int>(0)
    /// Stop after this many chunks by taking nothing (curl then fails the transfer).
    let refuseAfter = Atomic<Int>(Int.max)

    override init(class runtimeClass: RuntimeClass = .root) {
      super.init(class: runtimeClass)
      try! setMethod(CurlCallbackTests.write) { receiver, ptr, size, count in
        let sink = receiver as! Sink
        let n = sink.chunks.add(1, ordering: .relaxed).newValue
        if n > sink.refuseAfter.load(ordering: .relaxed) { return 0 }
        let total = Int(size * count)
        ptr!.withMemoryRebound(to: UInt8.self, capacity: total) { p in
          sink.bytes.withLock { $0.append(contentsOf: UnsafeBufferPointer(start: p, count: total)) }
        }
        return UInt(total)
      }
    }
  }

  /// A file of `count` bytes (a repeating pattern) under /tmp; its path.
  func makeFile(_ count: Int) throws -> (path: String, contents: [UInt8]) {
    var template = Array("/tmp/dp-curl-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    try #require(fd >= 0)
    let contents = (0..<count).map { UInt8(truncatingIfNeeded: $0 % 251) }
    let written = contents.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, count) }
    close(fd)
    try #require(written == count)
    return (template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, contents)
  }

  /// Fails, with dlopen's message, when libcurl.so.4 cannot be loaded.
  func requireCurl() throws {
    let why = ccb_curl_load_error().map { String(cString: $0) }
    try #require(why == nil, "libcurl is needed for these tests: \(why ?? "")")
  }

  @Test func fetchesAFileIntoTwoSinks() throws {
    try requireCurl()
    let (path, contents) = try makeFile(10_000)
    defer { unlink(path) }
    let sinks = [Sink(), Sink()]
    let proxy = try MulticastProxy(delegates: sinks)  // the last sink's answer is curl's
    let adapter = try CallbackAdapter(for: Self.write, context: .last, receiver: proxy)
    #expect(adapter.callback.encoding == "Q*QQ^v")
    #expect(adapter.path == .registers)
    var error = [CChar](repeating: 0, count: Int(CCB_CURL_ERROR_SIZE))
    let code = ccb_curl_fetch(
      "file://" + path, try adapter.function(as: ccb_write_fn.self), adapter.context, 1024, &error)
    #expect(
      code == CCB_CURLE_OK,
      "\(error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })")
    for sink in sinks {
      #expect(sink.bytes.withLock { $0 } == contents)
      #expect(sink.chunks.load(ordering: .relaxed) >= 2)
    }
  }

  @Test func bytesTakenAreHonoured() throws {
    try requireCurl()
    let (path, contents) = try makeFile(10_000)
    defer { unlink(path) }
    let sinks = [Sink(), Sink()]
    sinks[1].refuseAfter.store(1, ordering: .relaxed)  // the answering sink stops after one chunk
    let proxy = try MulticastProxy(delegates: sinks)
    let adapter = try CallbackAdapter(for: Self.write, context: .last, receiver: proxy)
    var error = [CChar](repeating: 0, count: Int(CCB_CURL_ERROR_SIZE))
    let code = ccb_curl_fetch(
      "file://" + path, try adapter.function(as: ccb_write_fn.self), adapter.context, 1024, &error)
    #expect(
      code == CCB_CURLE_WRITE_ERROR,
      "\(error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })")
    // curl stopped at the second chunk: both sinks saw exactly two calls.
    #expect(sinks.map { $0.chunks.load(ordering: .relaxed) } == [2, 2])
    let first = sinks[1].bytes.withLock { $0 }
    #expect(!first.isEmpty && first.count < contents.count)
    #expect(Array(contents.prefix(first.count)) == first)
  }
}
