// DriverCounters.c — see DriverCounters.h. Defines malloc and friends: link it into a
// driver executable only (they replace the C library's for the whole process).

#include "DriverCounters.h"

#include <stddef.h>
#include <time.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);

volatile int driver_counting;
long long driver_allocation_count, driver_free_count;

void *malloc(size_t size) {
  if (driver_counting) __atomic_add_fetch(&driver_allocation_count, 1, __ATOMIC_RELAXED);
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  if (driver_counting) __atomic_add_fetch(&driver_allocation_count, 1, __ATOMIC_RELAXED);
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  if (driver_counting) __atomic_add_fetch(&driver_allocation_count, 1, __ATOMIC_RELAXED);
  return __libc_realloc(pointer, size);
}

void free(void *pointer) {
  if (driver_counting && pointer) __atomic_add_fetch(&driver_free_count, 1, __ATOMIC_RELAXED);
  __libc_free(pointer);
}

uint64_t driver_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
