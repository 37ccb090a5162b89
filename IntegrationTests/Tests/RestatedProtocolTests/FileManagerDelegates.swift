// Every requirement of FoundationEssentials's FileManagerDelegate, inherited ones included, restated
// for @Delegate by `swift package restate-delegate FileManagerDelegate --target RestatedProtocolTests`.
// Re-run it when the dependency changes; `--check` fails when this falls out of step.
// Comments and attributes you add to a requirement (@Default, @Selector) are kept;
// policies are set in code, on the multicast, so nothing else here needs editing.
import DelegateProxy
import Foundation

@Delegate(for: FileManagerDelegate.self)
protocol FileManagerDelegates: FileManagerDelegate {
  func fileManager(_ fileManager: FileManager, shouldCopyItemAtPath srcPath: String,
      toPath dstPath: String) -> Bool
  func fileManager(_ fileManager: FileManager, shouldProceedAfterError error: any Error,
      copyingItemAtPath srcPath: String, toPath dstPath: String) -> Bool
  func fileManager(_ fileManager: FileManager, shouldMoveItemAtPath srcPath: String,
      toPath dstPath: String) -> Bool
  func fileManager(_ fileManager: FileManager, shouldProceedAfterError error: any Error,
      movingItemAtPath srcPath: String, toPath dstPath: String) -> Bool
  func fileManager(_ fileManager: FileManager, shouldLinkItemAtPath srcPath: String,
      toPath dstPath: String) -> Bool
  func fileManager(_ fileManager: FileManager, shouldProceedAfterError error: any Error,
      linkingItemAtPath srcPath: String, toPath dstPath: String) -> Bool
  func fileManager(_ fileManager: FileManager, shouldRemoveItemAtPath path: String) -> Bool
  func fileManager(_ fileManager: FileManager, shouldProceedAfterError error: any Error,
      removingItemAtPath path: String) -> Bool
  func fileManager(_ fileManager: FileManager, shouldCopyItemAt srcURL: URL, to dstURL: URL) -> Bool
  func fileManager(_ fileManager: FileManager, shouldProceedAfterError error: any Error,
      copyingItemAt srcURL: URL, to dstURL: URL) -> Bool
  func fileManager(_ fileManager: FileManager, shouldMoveItemAt srcURL: URL, to dstURL: URL) -> Bool
  func fileManager(_ fileManager: FileManager, shouldProceedAfterError error: any Error,
      movingItemAt srcURL: URL, to dstURL: URL) -> Bool
  func fileManager(_ fileManager: FileManager, shouldLinkItemAt srcURL: URL, to dstURL: URL) -> Bool
  func fileManager(_ fileManager: FileManager, shouldProceedAfterError error: any Error,
      linkingItemAt srcURL: URL, to dstURL: URL) -> Bool
  func fileManager(_ fileManager: FileManager, shouldRemoveItemAt URL: URL) -> Bool
  func fileManager(_ fileManager: FileManager, shouldProceedAfterError error: any Error,
      removingItemAt URL: URL) -> Bool
}
