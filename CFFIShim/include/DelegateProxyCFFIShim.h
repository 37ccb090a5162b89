// CFFIShim/ (target DelegateProxyCFFIShim) — the package's C message runtime, the bottom layer (see ARCHITECTURE.md, Layers and Layout):
// selectors and object handles (dp_runtime.h), method tables and msgSend-style lookup,
// the libffi surface Swift needs (dp_ffi.h), read sections and grace periods
// (dp_quiesce.h), the route and callback entries that replay a caller's registers to each
// target (dp_route.h, dp_callback.h), and Swift receivers' static entries
// (dp_swift_entry.h). It holds mechanism only: which delegates a message reaches and how
// their answers reducer is decided above it, in Swift (MessageRuntime, DelegateProxy);
// the route loops run the rule they are given (dp_reducer).
//
// Umbrella header of the DelegateProxyCFFIShim target.
#include "dp_runtime.h"
#include "dp_autorelease.h"
#include "dp_ffi.h"
#include "dp_tls.h"
#include "dp_quiesce.h"
#include "dp_quiesce_inline.h"
#include "dp_route.h"
#include "dp_swift_runtime.h"
#include "dp_swift_object.h"
#include "dp_swift_entry.h"
#include "dp_callback.h"
#include "dp_block.h"
