import DelegateProxy
import Foundation
import Synchronization
import Testing

// FileManagerDelegates.swift is `swift package restate-delegate FileManagerDelegate --target
// RestatedProtocolTests`'s output, unedited: on Linux the protocol has no default
// implementations, so a restatement that missed one of its sixteen would not compile.

/// Records each question FileManager asks, and lets everything proceed.
final class FileRecorder: FileManagerDelegate {
  let calls = Mutex<[String]>([])

  func record(_ call: String) -> Bool {
    calls.withLock { $0.append(call) }
    return true
  }

  func fileManager(
    _ fileManager: FileManager, shouldCopyItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool {
    record("shouldCopyItemAtPath")
  }
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    copyingItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool {
    record("proceedCopyingPath")
  }
  func fileManager(
    _ fileManager: FileManager, shouldMoveItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool {
    record("shouldMoveItemAtPath")
  }
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    movingItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool {
    record("proceedMovingPath")
  }
  func fileManager(
    _ fileManager: FileManager, shouldLinkItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool {
    record("shouldLinkItemAtPath")
  }
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    linkingItemAtPath srcPath: String, toPath dstPath: String
  ) -> Bool {
    record("proceedLinkingPath")
  }
  func fileManager(_ fileManager: FileManager, shouldRemoveItemAtPath path: String) -> Bool {
    record("shouldRemoveItemAtPath")
  }
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error,
    removingItemAtPath path: String
  ) -> Bool {
    record("proceedRemovingPath")
  }
  func fileManager(_ fileManager: FileManager, shouldCopyItemAt srcURL: URL, to dstURL: URL) -> Bool
  {
    record("shouldCopyItemAt")
  }
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error, copyingItemAt srcURL: URL,
    to dstURL: URL
  ) -> Bool {
    record("proceedCopying")
  }
  func fileManager(_ fileManager: FileManager, shouldMoveItemAt srcURL: URL, to dstURL: URL) -> Bool
  {
    record("shouldMoveItemAt")
  }
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error, movingItemAt srcURL: URL,
    to dstURL: URL
  ) -> Bool {
    record("proceedMoving")
  }
  func fileManager(_ fileManager: FileManager, shouldLinkItemAt srcURL: URL, to dstURL: URL) -> Bool
  {
    record("shouldLinkItemAt")
  }
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error, linkingItemAt srcURL: URL,
    to dstURL: URL
  ) -> Bool {
    record("proceedLinking")
  }
  func fileManager(_ fileManager: FileManager, shouldRemoveItemAt URL: URL) -> Bool {
    record("shouldRemoveItemAt")
  }
  func fileManager(
    _ fileManager: FileManager, shouldProceedAfterError error: any Error, removingItemAt URL: URL
  ) -> Bool {
    record("proceedRemoving")
  }
}

@Suite("FileManagerDelegate restated by the command")
struct FileManagerRestatementTests {
  @Test("A real FileManager copy and removal ask both members")
  func copyAndRemove() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("restate-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = directory.appendingPathComponent("a.txt")
    let copy = directory.appendingPathComponent("b.txt")
    try Data("x".utf8).write(to: source)

    let first = FileRecorder()
    let second = FileRecorder()
    let delegates = FileManagerDelegatesMulticast()
    delegates.add(first)
    delegates.add(second)
    let manager = FileManager()
    manager.delegate = delegates
    try manager.copyItem(at: source, to: copy)
    try manager.removeItem(at: copy)
    #expect(!FileManager.default.fileExists(atPath: copy.path))
    for member in [first, second] {
      let calls = member.calls.withLock { $0 }
      #expect(calls.contains("shouldCopyItemAt"))
      #expect(calls.contains("shouldRemoveItemAt"))
    }
  }
}
