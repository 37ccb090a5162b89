// Umbrella header of the CFFIShim target.
#include "dp_runtime.h"
#include "dp_ffi.h"
#include "dp_tls.h"
#include "dp_quiesce.h"
#include "dp_quiesce_inline.h"
#include "dp_route.h"
#include "dp_swift_object.h"
#include "dp_callback.h"
