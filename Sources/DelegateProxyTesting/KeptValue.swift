/// A value a double, stub or matcher keeps alive.
// @unchecked Sendable: stubs and matchers only hold their value, so that objects whose
// handles they answer or compare are not deallocated (and their addresses reused) while
// they exist; the one value read back is a double's Swift stand-in, a DelegateStandIn,
// which is Sendable itself.
struct KeptValue: @unchecked Sendable {
  let value: Any
}
