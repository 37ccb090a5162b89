import MessageRuntime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 (an ephemeral port), for tests that drive a real
/// `URLSession`: each connection gets one response — `body` with a `Content-Length`,
/// written in `chunkSize` pieces with a pause between them, so the client sees the body
/// arrive in several reads — and is closed. Runs on its own POSIX thread until `stop()`.
// @unchecked Sendable: `listener`, `port`, `body` and the chunking are immutable after
// init; `requests` is a Lock; `thread` is written in init and read by `stop()` only.
final class LoopbackHTTPServer: @unchecked Sendable {
  /// What went wrong while setting up the listening socket.
  struct SetupError: Error, CustomStringConvertible {
    /// The POSIX call that failed.
    let call: String
    /// Its errno.
    let code: Int32
    var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
  }

  /// The port the server listens on.
  let port: UInt16
  /// The bytes every response carries.
  let body: [UInt8]
  /// The request lines received so far (`GET /path HTTP/1.1`), in order.
  let requests = Lock<[String]>([])

  private let listener: Int32
  private let chunkSize: Int
  private let pauseMicroseconds: UInt32
  private var thread: pthread_t = pthread_t()

  /// Starts listening and serving.
  init(body: [UInt8], chunkSize: Int = 1024, pauseMicroseconds: UInt32 = 20_000) throws {
    self.body = body
    self.chunkSize = chunkSize
    self.pauseMicroseconds = pauseMicroseconds
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw SetupError(call: "socket", code: errno) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0  // ephemeral
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 8) == 0 else {
      let code = errno
      close(fd)
      throw SetupError(call: bound == 0 ? "listen" : "bind", code: code)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0 else {
      let code = errno
      close(fd)
      throw SetupError(call: "getsockname", code: code)
    }
    listener = fd
    port = UInt16(bigEndian: address.sin_port)
    let context = Unmanaged.passRetained(self).toOpaque()
    pthread_create(
      &thread, nil,
      { raw in
        let server = Unmanaged<LoopbackHTTPServer>.fromOpaque(raw!).takeRetainedValue()
        server.serve()
        return nil
      }, context)
  }

  /// `http://127.0.0.1:<port><path>`.
  func url(_ path: String = "/") -> String { "http://127.0.0.1:\(port)\(path)" }

  /// Stops accepting (the blocked `accept` returns) and waits for the thread to end.
  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    pthread_join(thread, nil)
    close(listener)
  }

  private func serve() {
    while true {
      let connection = accept(listener, nil, nil)
      if connection < 0 { return }  // stopped
      respond(on: connection)
      close(connection)
    }
  }

  private func respond(on connection: Int32) {
    // Read the request head (a GET has no body).
    var head: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1024)
    while !head.ends(with: Array("\r\n\r\n".utf8)) {
      let n = read(connection, &buffer, buffer.count)
      if n <= 0 { return }
      head += buffer[..<n]
    }
    let requestLine = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self)
    requests.withLock { $0.append(requestLine) }
    let header =
      "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
      + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    guard writeAll(Array(header.utf8), to: connection) else { return }
    var offset = 0
    while offset < body.count {
      let end = min(offset + chunkSize, body.count)
      guard writeAll(Array(body[offset..<end]), to: connection) else { return }
      offset = end
      // The pause lets the client read each chunk on its own: several didReceive calls.
      if offset < body.count { usleep(pauseMicroseconds) }
    }
  }

  private func writeAll(_ bytes: [UInt8], to connection: Int32) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes {
        send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if n <= 0 { return false }
      sent += n
    }
    return true
  }
}

extension Array where Element: Equatable {
  fileprivate func ends(with suffix: [Element]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}
