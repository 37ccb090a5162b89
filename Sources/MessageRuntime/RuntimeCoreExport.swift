// The libffi-free half of the runtime (selectors, type encodings, IMPs, locks, read
// sections) is its own module, DelegateProxyRuntimeCore, so that the @Delegate product can
// build on it without libffi. `import MessageRuntime` keeps naming all of it.
@_exported public import DelegateProxyRuntimeCore
