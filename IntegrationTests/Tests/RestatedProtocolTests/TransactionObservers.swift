// Every requirement of GRDB's TransactionObserver, inherited ones included, restated
// for @Delegate by `swift package restate-delegate TransactionObserver --target RestatedProtocolTests`.
// Re-run it when the dependency changes; `--check` fails when this falls out of step.
// Comments and attributes you add to a requirement (@Default, @Selector) are kept;
// policies are set in code, on the multicast, so nothing else here needs editing.
import DelegateProxy
import GRDB

@Delegate(for: TransactionObserver.self)
protocol TransactionObservers: TransactionObserver {
  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool
  func databaseDidChange()
  func databaseDidChange(with event: DatabaseEvent)
  func databaseWillCommit() throws
  func databaseDidCommit(_ db: Database)
  func databaseDidRollback(_ db: Database)
}
