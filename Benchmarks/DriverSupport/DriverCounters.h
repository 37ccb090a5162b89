// DriverCounters.h — what every co-process driver of Compare (GNUstep/, Peers/) measures
// with: a malloc counter (the drivers count their own allocations, as Compare counts its
// own with malloc-interposer) and the monotonic clock the timing loops read.

#ifndef DRIVER_COUNTERS_H
#define DRIVER_COUNTERS_H

#include <stdint.h>

/// Whether malloc, calloc, realloc and free are being counted (set around a counted run).
extern volatile int driver_counting;
/// Allocations and frees counted while `driver_counting` was set.
extern long long driver_allocation_count, driver_free_count;

/// CLOCK_MONOTONIC in nanoseconds.
uint64_t driver_now_ns(void);

#endif  // DRIVER_COUNTERS_H
