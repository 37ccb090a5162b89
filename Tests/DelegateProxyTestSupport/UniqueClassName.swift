import Synchronization

private let classCounter = Atomic<Int>(0)

/// A class name no other test uses (classes register globally by name and tests run in
/// parallel): `base` (the calling function by default) with its letters and digits kept,
/// and a process-wide counter.
package func uniqueClassName(_ base: String = #function) -> String {
  let counter = classCounter.wrappingAdd(1, ordering: .relaxed).oldValue
  return "\(base.filter { $0.isLetter || $0.isNumber })_T\(counter)"
}
