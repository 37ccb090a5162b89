// C callers of a Swift multicast's IMPs (DelegateMulticast.imp(for:)): each casts the IMP
// to the method's C signature and calls it with the multicast's handle as self, as a C
// library holding one callback would.
#ifndef SWIFT_DELEGATES_FROM_C_H
#define SWIFT_DELEGATES_FROM_C_H

#include <stdbool.h>
#include <stdint.h>

#include "dp_runtime.h"

/// The C form of the tests' Swift `struct Reading { var celsius: Double; var sensorID:
/// Int32 }`: 16 bytes with tail padding (Swift's is 12).
typedef struct dp_test_reading {
  double celsius;
  int32_t sensor_id;
} dp_test_reading;

/// `sensor:didRead:` (v@:^v{Reading=di}).
void dp_test_c_sensor_did_read(dp_imp imp, dp_id self, dp_sel cmd, void *sensor,
                               dp_test_reading reading);
/// `sensorShouldStart:` (B@:^v).
bool dp_test_c_sensor_should_start(dp_imp imp, dp_id self, dp_sel cmd, void *sensor);
/// `sensorDidStop:` (v@:^v).
void dp_test_c_sensor_did_stop(dp_imp imp, dp_id self, dp_sel cmd, void *sensor);
/// `sensorThreshold:` (d@:^v).
double dp_test_c_sensor_threshold(dp_imp imp, dp_id self, dp_sel cmd, void *sensor);

/// The C form of the tests' `struct Box { var x, y, z: Double }`: 24 bytes, passed and
/// returned in memory (no register entry: the adapters take libffi's closure path).
typedef struct dp_test_box {
  double x, y, z;
} dp_test_box;

/// `place:at:` ({Box=ddd}@:{Box=ddd}q).
dp_test_box dp_test_c_place(dp_imp imp, dp_id self, dp_sel cmd, dp_test_box box, int64_t at);

/// `frames:` (q@:q).
int64_t dp_test_c_frames(dp_imp imp, dp_id self, dp_sel cmd, int64_t count);

#endif
