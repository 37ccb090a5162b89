// PeerDriver.c — the driver loop every peer shares (see PeerDriver.h).
//
// Method, the same as Compare's and the GNUstep driver's: one message is one call of
// the library's callback, whatever the fan-out; each repetition makes n calls, n chosen
// so a repetition lasts at least --min-ms; repetitions are taken in sweeps over all
// rows (driven by Compare: one sweep after each of Compare's); the row's number is the
// median over repetitions of elapsed / n, timed with CLOCK_MONOTONIC around the loop.
//
// Allocations: this file defines malloc, calloc, realloc and free (forwarding to glibc's
// __libc_* entry points), which interposes them for the peer's library and the C++
// runtime too; while driver_counting is on they count calls, as in GNUstep/driver.m.

#include "../DriverSupport/DriverCounters.h"
#include "PeerDriver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

volatile int64_t peer_sink;
volatile int64_t peer_start_calls;

// MARK: The library's side

static void consume(int64_t value) {
  __asm__ __volatile__("" ::: "memory");
  peer_sink += value;
}

// The arguments the library passes, as in BenchmarkSupport/Callbacks.c.
static const char *const attributes[] = {"id", "1", NULL, NULL};
static char chunk[64] = "0123456789ab";

static const char *const encodings[2] = {"v^v*^*", "Q*QQ^v"};

/// `iterations` calls of the callback, as `bs_callback_caller_loop`; elapsed ns.
static uint64_t run(peer_shape shape, peer_callback cb, uint64_t iterations) {
  int64_t acc = 0;
  uint64_t start = driver_now_ns();
  if (shape == PEER_START_ELEMENT) {
    peer_start_element_fn f = (peer_start_element_fn)cb.function;
    for (uint64_t it = 0; it < iterations; it++) f(cb.context, "entry", (const char **)attributes);
  } else {
    peer_write_fn f = (peer_write_fn)cb.function;
    for (uint64_t it = 0; it < iterations; it++) acc += (int64_t)f(chunk, 1, 12, cb.context);
  }
  uint64_t end = driver_now_ns();
  consume(acc);
  return end - start;
}

/// One call, checked as `bs_callback_probe`'s answer is: start element → every handler
/// ran once; write → the handlers' result for a 3 × 4 byte chunk (12) came back.
static int check(const peer *p, peer_shape shape, int fanout, peer_callback cb) {
  if (shape == PEER_START_ELEMENT) {
    int64_t before = peer_start_calls;
    ((peer_start_element_fn)cb.function)(cb.context, "entry", (const char **)attributes);
    int64_t ran = peer_start_calls - before;
    if (ran == fanout) return 1;
    fprintf(stderr, "%s: %s at fan-out %d ran %lld handlers\n", p->name, encodings[shape], fanout,
            (long long)ran);
    return 0;
  }
  size_t got = ((peer_write_fn)cb.function)(chunk, 3, 4, cb.context);
  if (got == 12) return 1;
  fprintf(stderr, "%s: %s at fan-out %d returned %zu, expected 12\n", p->name, encodings[shape],
          fanout, got);
  return 0;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

// MARK: Rows

enum { SHAPES = 2, FANOUTS = 3, ROWS = SHAPES * FANOUTS, MAX_REPS = 64 };
static const int fanouts[FANOUTS] = {1, 8, 64};

typedef struct row {
  peer_shape shape;
  int fanout;
  peer_callback callback;
  uint64_t n;
  double samples[MAX_REPS];
} row;

static row rows[ROWS];
static int sweeps_done;
static int counted;

/// Builds and checks every row, then calibrates it so one repetition lasts at least
/// `target` ns: grow n until a run takes an eighth of the target, extrapolate, then
/// confirm with full runs (a noisy moment can make the estimate short).
static int set_up(const peer *p, uint64_t target) {
  char error[256];
  for (int s = 0; s < SHAPES; s++) {
    for (int f = 0; f < FANOUTS; f++) {
      row *r = &rows[s * FANOUTS + f];
      r->shape = (peer_shape)s;
      r->fanout = fanouts[f];
      error[0] = 0;
      if (p->make(r->shape, r->fanout, &r->callback, error, sizeof error) != 0) {
        fprintf(stderr, "%s: could not build %s at fan-out %d: %s\n", p->name, encodings[s],
                r->fanout, error);
        return 0;
      }
      if (!check(p, r->shape, r->fanout, r->callback)) return 0;

      run(r->shape, r->callback, 8);  // warm up
      uint64_t m = 1;
      for (;;) {
        uint64_t t = run(r->shape, r->callback, m);
        if (t >= target / 8 || m >= (1ull << 40)) {
          m = (uint64_t)((double)target * 1.15 * (double)m / (double)(t ? t : 1)) + 1;
          break;
        }
        m *= 4;
      }
      for (int tries = 0; tries < 3; tries++) {
        uint64_t t = run(r->shape, r->callback, m);
        if (t >= target) break;
        m = (uint64_t)((double)m * (double)target * 1.15 / (double)(t ? t : 1)) + 1;
      }
      r->n = m;
    }
  }
  return 1;
}

/// One repetition of every row.
static void sweep(void) {
  if (sweeps_done >= MAX_REPS) return;
  for (int i = 0; i < ROWS; i++) {
    row *r = &rows[i];
    r->samples[sweeps_done] = (double)run(r->shape, r->callback, r->n) / (double)r->n;
  }
  sweeps_done++;
}

/// Counts allocations per row and prints the rows, one JSON object per line, in the
/// schema of results/latest.json.
static void finish(const peer *p) {
  int reps = sweeps_done;
  for (int i = 0; i < ROWS; i++) {
    row *r = &rows[i];
    double sorted[MAX_REPS];
    memcpy(sorted, r->samples, sizeof(double) * (size_t)reps);
    qsort(sorted, (size_t)reps, sizeof(double), compare_doubles);
    double median = reps == 0     ? 0
                    : reps % 2    ? sorted[reps / 2]
                                  : (sorted[reps / 2 - 1] + sorted[reps / 2]) / 2;

    driver_allocation_count = 0;
    driver_free_count = 0;
    driver_counting = 1;
    run(r->shape, r->callback, r->n);
    driver_counting = 0;
    double allocs = (double)driver_allocation_count / (double)r->n;
    double frees = (double)driver_free_count / (double)r->n;

    printf("{\"name\": \"%s\", \"signature\": \"%s\", \"fanout\": %d, \"ns_per_message\": %.4f, ",
           p->name, encodings[r->shape], r->fanout, median);
    if (counted)
      printf("\"allocs_per_message\": %.4f, \"frees_per_message\": %.4f, ", allocs, frees);
    else printf("\"allocs_per_message\": null, ");
    printf("\"path\": \"%s\", \"median_of\": %d, \"messages_per_repetition\": %llu, "
           "\"repetitions\": [",
           p->path, reps, (unsigned long long)r->n);
    for (int k = 0; k < reps; k++) printf("%s%.4f", k ? ", " : "", r->samples[k]);
    printf("]}\n");
  }
  fflush(stdout);
}

// MARK: Main

int peer_main(int argc, char **argv, const peer *p) {
  int repetitions = 9;
  double min_ms = 20;
  int serve = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--repetitions") && i + 1 < argc) repetitions = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--min-ms") && i + 1 < argc) min_ms = atof(argv[++i]);
    else if (!strcmp(argv[i], "--serve")) serve = 1;
    else {
      fprintf(stderr, "usage: %s [--repetitions N] [--min-ms MS] [--serve]\n", argv[0]);
      return 2;
    }
  }
  if (repetitions < 7) repetitions = 7;
  if (repetitions > MAX_REPS) repetitions = MAX_REPS;
  if (!(min_ms > 0)) {
    fprintf(stderr, "%s: --min-ms must be a positive number of milliseconds\n", p->name);
    return 2;
  }
  uint64_t target = (uint64_t)(min_ms * 1e6);

  // Counting works only if this executable's malloc is the one everybody calls.
  driver_counting = 1;
  void *volatile probe = malloc(16);
  driver_counting = 0;
  counted = driver_allocation_count > 0;
  free(probe);
  if (!counted) {
    fprintf(stderr, "%s: malloc is not interposed; allocs_per_message will be null\n", p->name);
  }

  if (!set_up(p, target)) return 1;

  if (serve) {
    // Driven by Compare over stdin/stdout, so these rows' repetitions interleave in time
    // with Compare's own: "sweep" → one repetition of every row, answered "swept K";
    // "finish" → the rows, then "end".
    printf("ready %d\n", ROWS);
    fflush(stdout);
    char line[64];
    while (fgets(line, sizeof line, stdin)) {
      if (!strncmp(line, "sweep", 5)) {
        sweep();
        printf("swept %d\n", sweeps_done);
        fflush(stdout);
      } else if (!strncmp(line, "finish", 6)) {
        finish(p);
        printf("end\n");
        fflush(stdout);
        break;
      }
    }
  } else {
    for (int k = 0; k < repetitions; k++) {
      fprintf(stderr, "  %s: repetition %d of %d\n", p->name, k + 1, repetitions);
      sweep();
    }
    finish(p);
  }
  return 0;
}
