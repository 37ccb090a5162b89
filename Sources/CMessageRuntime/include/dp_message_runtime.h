// dp_message_runtime.h — the part of the runtime's C API that MessageRuntime (Swift)
// implements.
//
// These functions are defined in Swift with `@_cdecl` (Sources/MessageRuntime/Runtime.swift)
// because they need the runtime's policy: class registry, method resolution, protocols.
// They are declared here, not in CFFIShim's dp_runtime.h, so that a C target calling them
// depends on what provides them: this target (product `CMessageRuntime`), which depends
// on MessageRuntime and so links it.
//
// A C target in another package uses the whole C API with
//
//     .target(name: "MyCCode", dependencies: [
//       .product(name: "CMessageRuntime", package: "DelegateProxy")])
//
// and `#include "dp_message_runtime.h"` (which includes dp_runtime.h: selectors, object
// handles, `dp_msg_lookup`, `DP_MSG_SEND`).

#ifndef DP_MESSAGE_RUNTIME_H
#define DP_MESSAGE_RUNTIME_H

#include "dp_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Adds a C method to a class; false if the class already defines `sel` or `types` is not
/// a valid method encoding (`class_addMethod`).
bool dp_class_add_method(dp_class *cls, dp_sel sel, dp_imp imp, const char *types);
/// The registered class named `name`, or NULL (`objc_getClass`).
dp_class *dp_class_lookup(const char *name);
/// Whether `obj` responds to `sel` (`respondsToSelector:`).
bool dp_responds_to(dp_id obj, dp_sel sel);
/// Whether `obj` conforms to the registered protocol named `protocol_name`.
bool dp_conforms_to(dp_id obj, const char *protocol_name);

#ifdef __cplusplus
}
#endif

#endif  // DP_MESSAGE_RUNTIME_H
