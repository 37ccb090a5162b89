// The Swift runtime's reference-count entry points. See dp_swift_object.h.

#include "dp_swift_object.h"

#include <stddef.h>

// Exported by the Swift runtime (libswiftCore), which every program linking this
// target loads.
extern void swift_unownedRetain(void *object);
extern void swift_unownedRelease(void *object);
extern void swift_release(void *object);

void dp_swift_unowned_retain(void *object) { swift_unownedRetain(object); }
void dp_swift_unowned_release(void *object) { swift_unownedRelease(object); }
void dp_swift_release(void *object) { swift_release(object); }
