// The Swift runtime's reference-count entry points (declared in dp_swift_runtime.h: RT1–RT3).

#include "dp_swift_object.h"

#include <stddef.h>

void dp_swift_unowned_retain(void *object) { swift_unownedRetain(object); }
void dp_swift_unowned_release(void *object) { swift_unownedRelease(object); }
void dp_swift_release(void *object) { swift_release(object); }
