// CFFIShim/Core/ (target DelegateProxyCCore) — the libffi-free half of the package's C
// message runtime, the bottom layer (see ARCHITECTURE.md, Layers and Layout): selectors
// and object handles (dp_runtime.h), method tables and msgSend-style lookup, read sections
// and grace periods (dp_quiesce.h), per-thread state (dp_tls.h), autorelease pools
// (dp_autorelease.h), blocks (dp_block.h), route targets' removed flags (dp_route_node.h) and the Swift runtime's reference counts
// (dp_swift_object.h, dp_swift_runtime.h). Nothing here includes ffi.h or links libffi:
// the @Delegate product builds on this alone. The parts that replay registers or call
// through libffi are in CFFIShim/ (DelegateProxyCFFIShim), which depends on this.
//
// Umbrella header of the DelegateProxyCCore target.
#include "dp_runtime.h"
#include "dp_autorelease.h"
#include "dp_tls.h"
#include "dp_quiesce.h"
#include "dp_quiesce_inline.h"
#include "dp_swift_runtime.h"
#include "dp_swift_object.h"
#include "dp_block.h"
#include "dp_route_node.h"
