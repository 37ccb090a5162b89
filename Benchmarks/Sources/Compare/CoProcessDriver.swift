// A driver run as a co-process (the GNUstep NSProxy driver, GNUstep/driver.m, and the
// signal-library peers, Peers/): it calibrates its rows, then takes one repetition of
// every row each time Compare finishes a sweep of its own, so its rows are sampled in
// the same stretches of time as the rows they are compared with. Protocol (lines on its
// stdin/stdout): it says "ready N"; "sweep" → "swept K"; "finish" → one JSON row per
// line, then "end".

import Foundation

final class CoProcessDriver {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private let process = Process()
  private let toDriver = Pipe()
  private let fromDriver = Pipe()
  private var buffer = Data()

  /// Starts the driver and waits until it has checked and calibrated its rows.
  init(path: String, minRepetitionMilliseconds: Double) throws {
    signal(SIGPIPE, SIG_IGN)  // a driver that died must not take Compare with it
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["--serve", "--min-ms", String(minRepetitionMilliseconds)]
    process.standardInput = toDriver
    process.standardOutput = fromDriver
    do { try process.run() } catch {
      throw Failure(description: "could not start \(path): \(error)")
    }
    guard let line = readLine(), line.hasPrefix("ready") else {
      throw Failure(
        description: "the driver stopped before it was ready (exit status \(exitStatus()))")
    }
  }

  /// One repetition of every row of the driver.
  func sweep() throws {
    try send("sweep")
    guard let line = readLine(), line.hasPrefix("swept") else {
      throw Failure(description: "the driver stopped during a sweep (exit status \(exitStatus()))")
    }
  }

  /// Allocation counts and medians: the rows.
  func finish() throws -> [ExternalRow] {
    try send("finish")
    var rows: [ExternalRow] = []
    let decoder = JSONDecoder()
    while let line = readLine() {
      if line == "end" {
        process.waitUntilExit()
        return rows
      }
      if line.hasPrefix("{"), let row = try? decoder.decode(ExternalRow.self, from: Data(line.utf8))
      {
        rows.append(row)
      }
    }
    throw Failure(
      description: "the driver stopped before reporting its rows (exit status \(exitStatus()))")
  }

  private func send(_ command: String) throws {
    do { try toDriver.fileHandleForWriting.write(contentsOf: Data((command + "\n").utf8)) } catch {
      throw Failure(description: "the driver is gone (\(error))")
    }
  }

  /// The next line from the driver, or nil at end of file.
  private func readLine() -> String? {
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
        buffer.removeSubrange(buffer.startIndex...newline)
        return line
      }
      let chunk = fromDriver.fileHandleForReading.availableData
      if chunk.isEmpty { return nil }
      buffer.append(chunk)
    }
  }

  private func exitStatus() -> String {
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    return String(process.terminationStatus)
  }
}
