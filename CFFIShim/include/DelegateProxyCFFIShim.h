// CFFIShim/ (target DelegateProxyCFFIShim) — the libffi half of the package's C message
// runtime, over CFFIShim/Core/ (DelegateProxyCCore: selectors, object handles, method
// tables, read sections; see ARCHITECTURE.md, Layers and Layout): the libffi surface Swift
// needs (dp_ffi.h), the route and callback entries that replay a caller's registers to each
// target (dp_route.h, dp_callback.h), and Swift receivers' static entries
// (dp_swift_entry.h). It holds mechanism only: which delegates a message reaches and how
// their answers reducer is decided above it, in Swift (MessageRuntime, DelegateProxy);
// the route loops run the rule they are given (dp_reducer). Links libffi.
//
// Umbrella header of the DelegateProxyCFFIShim target: Core's headers, then its own.
#include "DelegateProxyCCore.h"
#include "dp_ffi.h"
#include "dp_route.h"
#include "dp_swift_entry.h"
#include "dp_callback.h"
