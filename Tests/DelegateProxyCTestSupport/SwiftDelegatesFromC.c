// C callers of a Swift multicast's IMPs. See SwiftDelegatesFromC.h.

#include "SwiftDelegatesFromC.h"

void dp_test_c_sensor_did_read(dp_imp imp, dp_id self, dp_sel cmd, void *sensor,
                               dp_test_reading reading) {
  ((void (*)(dp_id, dp_sel, void *, dp_test_reading))imp)(self, cmd, sensor, reading);
}

bool dp_test_c_sensor_should_start(dp_imp imp, dp_id self, dp_sel cmd, void *sensor) {
  return ((bool (*)(dp_id, dp_sel, void *))imp)(self, cmd, sensor);
}

void dp_test_c_sensor_did_stop(dp_imp imp, dp_id self, dp_sel cmd, void *sensor) {
  ((void (*)(dp_id, dp_sel, void *))imp)(self, cmd, sensor);
}

double dp_test_c_sensor_threshold(dp_imp imp, dp_id self, dp_sel cmd, void *sensor) {
  return ((double (*)(dp_id, dp_sel, void *))imp)(self, cmd, sensor);
}

dp_test_box dp_test_c_place(dp_imp imp, dp_id self, dp_sel cmd, dp_test_box box, int64_t at) {
  return ((dp_test_box (*)(dp_id, dp_sel, dp_test_box, int64_t))imp)(self, cmd, box, at);
}

int64_t dp_test_c_frames(dp_imp imp, dp_id self, dp_sel cmd, int64_t count) {
  return ((int64_t (*)(dp_id, dp_sel, int64_t))imp)(self, cmd, count);
}
