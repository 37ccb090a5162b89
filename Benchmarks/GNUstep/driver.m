// driver.m — times the GNUstep NSProxy multicast forwarder at fan-outs 1, 2, 4, 8 and
// 64 for the five benchmark signatures and prints one JSON row per line to stdout, in
// the schema of Benchmarks/results/latest.json (Compare merges them).
//
//   nsproxy-bench [--repetitions N] [--min-ms MS]   # measure, print the rows
//   nsproxy-bench --serve [--min-ms MS]             # driven by Compare (see main)
//
// Method (the same as Compare's): one message is one send to the proxy, whatever the
// fan-out; each repetition sends n messages, n chosen so a repetition lasts at least
// --min-ms; repetitions are taken in sweeps over all rows; the row's number is the
// median over repetitions of elapsed / n, timed with CLOCK_MONOTONIC. Forwarding
// autoreleases an NSInvocation per message, so the loops drain an autorelease pool
// every 1,024 messages, inside the timed region, as a run loop would.
//
// Allocations: this executable defines malloc, calloc, realloc and free (forwarding to
// glibc's __libc_* entry points), which interposes them for GNUstep and libobjc too;
// while driver_counting is on they count calls. allocs_per_message = allocation calls /
// messages; frees_per_message likewise.

#import "BenchMessages.h"

#include "../DriverSupport/DriverCounters.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// MARK: Timing

static void consume(long long value) {
  __asm__ __volatile__("" ::: "memory");
  bench_sink += value;
}

enum { SIG_QD, SIG_OBJECT, SIG_POINT, SIG_TEN, SIG_BIG40, SIG_COUNT };

static const char *const encodings[SIG_COUNT] = {
    "q@:qd", "v@:@", "v@:@{CGPoint=dd}^{CGPoint=dd}", "q@:qqqqqqqqqq", "{Big40=qqqqq}@:q",
};

static const char *const selector_names[SIG_COUNT] = {
    "value:scale:", "observe:", "view:movedTo:out:", "sum:b:c:d:e:f:g:h:i:j:", "make:",
};

static id argument_object;

#define POOL_EVERY 1024

/// Sends `n` messages of signature `sig` to `proxy`; returns elapsed nanoseconds.
static uint64_t run(int sig, id<BenchMessages> proxy, uint64_t n) {
  long long acc = 0;
  id arg = argument_object;
  CGPoint out = {0, 0};
  uint64_t start = driver_now_ns();
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  for (uint64_t i = 0; i < n; i++) {
    switch (sig) {
    case SIG_QD: acc += [proxy value:(long long)i scale:0.5]; break;
    case SIG_OBJECT: [proxy observe:arg]; break;
    case SIG_POINT: {
      CGPoint p = {(double)i, 2.0};
      [proxy view:arg movedTo:p out:&out];
      break;
    }
    case SIG_TEN: acc += [proxy sum:(long long)i b:1 c:2 d:3 e:4 f:5 g:6 h:7 i:8 j:9]; break;
    case SIG_BIG40: {
      Big40 r = [proxy make:(long long)i];
      acc += r.a + r.e;
      break;
    }
    }
    if ((i % POOL_EVERY) == POOL_EVERY - 1) {
      [pool drain];
      pool = [NSAutoreleasePool new];
    }
  }
  [pool drain];
  uint64_t end = driver_now_ns();
  consume(acc + (long long)out.x);
  return end - start;
}

/// Sends each message once and checks what came back: the value of the last delegate,
/// and for the point message that every delegate ran (each adds p.x to *out).
static BOOL verify(int sig, id<BenchMessages> proxy, int fanout) {
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  BOOL ok = YES;
  switch (sig) {
  case SIG_QD: ok = [proxy value:5 scale:0.5] == 6; break;
  case SIG_OBJECT: [proxy observe:argument_object]; break;
  case SIG_POINT: {
    CGPoint out = {0, 0}, p = {3.0, 2.0};
    [proxy view:argument_object movedTo:p out:&out];
    ok = out.x == 3.0 * fanout && out.y == 2.0;
    break;
  }
  case SIG_TEN: ok = [proxy sum:1 b:2 c:3 d:4 e:5 f:6 g:7 h:8 i:9 j:10] == 55; break;
  case SIG_BIG40: {
    Big40 r = [proxy make:7];
    ok = r.a == 7 && r.e == 11;
    break;
  }
  }
  [pool drain];
  if (!ok) fprintf(stderr, "nsproxy-bench: %s at fan-out %d returned a wrong value\n", encodings[sig], fanout);
  return ok;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/// Appends `type` to `out` without its frame offsets (the digits after each type; digits
/// inside a struct or union name, as in `{Big40=…}`, are kept).
static void append_without_offsets(char *out, size_t *k, size_t capacity, const char *type) {
  int in_name = 0;
  for (const char *p = type; *p && *k < capacity - 1; p++) {
    if (*p == '{' || *p == '(') in_name = 1;
    else if (*p == '=') in_name = 0;
    else if (!in_name && *p >= '0' && *p <= '9') continue;
    out[(*k)++] = *p;
  }
}

/// Checks that the runtime's encoding of the delegate's method (offsets stripped) is
/// the encoding this row is reported under.
static BOOL encoding_matches(int sig) {
  SEL selector = sel_registerName(selector_names[sig]);
  NSMethodSignature *signature = [BenchDelegate instanceMethodSignatureForSelector:selector];
  if (!signature) return NO;
  char found[256] = {0};
  size_t k = 0;
  append_without_offsets(found, &k, sizeof found, [signature methodReturnType]);
  for (NSUInteger a = 0; a < [signature numberOfArguments]; a++) {
    append_without_offsets(found, &k, sizeof found, [signature getArgumentTypeAtIndex:a]);
  }
  if (strcmp(found, encodings[sig]) != 0) {
    fprintf(stderr, "nsproxy-bench: %s encodes as %s here, reported as %s\n", selector_names[sig], found,
            encodings[sig]);
    return NO;
  }
  return YES;
}

// MARK: Rows

enum { FANOUTS = 5, MAX_REPS = 64 };
static const int fanouts[FANOUTS] = {1, 2, 4, 8, 64};
static MulticastProxy *proxies[SIG_COUNT][FANOUTS];
static uint64_t n[SIG_COUNT][FANOUTS];
static double samples[SIG_COUNT][FANOUTS][MAX_REPS];
static int sweeps_done;
static BOOL counted;

/// Builds every proxy, checks what it returns and calibrates it so one repetition
/// lasts at least `target` ns: grow n until a run takes an eighth of the target,
/// extrapolate, then confirm with full runs (a noisy moment can make the estimate short).
static BOOL set_up(uint64_t target) {
  for (int sig = 0; sig < SIG_COUNT; sig++) {
    if (!encoding_matches(sig)) return NO;
    for (int f = 0; f < FANOUTS; f++) {
      int fanout = fanouts[f];
      id targets[64];
      for (int k = 0; k < fanout; k++) targets[k] = [BenchDelegate new];
      MulticastProxy *proxy = [[MulticastProxy alloc] initWithTargets:targets count:(NSUInteger)fanout];
      for (int k = 0; k < fanout; k++) [targets[k] release];
      proxies[sig][f] = proxy;
      if (!verify(sig, (id)proxy, fanout)) return NO;

      run(sig, (id)proxy, 8);
      uint64_t m = 1;
      for (;;) {
        uint64_t t = run(sig, (id)proxy, m);
        if (t >= target / 8) {
          m = (uint64_t)((double)target * 1.15 * (double)m / (double)(t ? t : 1)) + 1;
          break;
        }
        m *= 4;
      }
      for (int tries = 0; tries < 3; tries++) {
        uint64_t t = run(sig, (id)proxy, m);
        if (t >= target) break;
        m = (uint64_t)((double)m * (double)target * 1.15 / (double)(t ? t : 1)) + 1;
      }
      n[sig][f] = m;
    }
  }
  return YES;
}

/// One repetition of every row. Repetitions are taken in sweeps over all rows, so each
/// row's repetitions are spread over the run and a noisy stretch spoils few of them.
static void sweep(void) {
  if (sweeps_done >= MAX_REPS) return;
  for (int sig = 0; sig < SIG_COUNT; sig++) {
    for (int f = 0; f < FANOUTS; f++) {
      samples[sig][f][sweeps_done] = (double)run(sig, (id)proxies[sig][f], n[sig][f]) / (double)n[sig][f];
    }
  }
  sweeps_done++;
}

/// Counts allocations per row and prints the rows, one JSON object per line.
static void finish(void) {
  int reps = sweeps_done;
  for (int sig = 0; sig < SIG_COUNT; sig++) {
    for (int f = 0; f < FANOUTS; f++) {
      double sorted[MAX_REPS];
      memcpy(sorted, samples[sig][f], sizeof(double) * (size_t)reps);
      qsort(sorted, (size_t)reps, sizeof(double), compare_doubles);
      double median = reps == 0 ? 0 : reps % 2 ? sorted[reps / 2] : (sorted[reps / 2 - 1] + sorted[reps / 2]) / 2;

      driver_allocation_count = 0;
      driver_free_count = 0;
      driver_counting = 1;
      run(sig, (id)proxies[sig][f], n[sig][f]);
      driver_counting = 0;
      double allocs = (double)driver_allocation_count / (double)n[sig][f];
      double frees = (double)driver_free_count / (double)n[sig][f];

      printf("{\"name\": \"nsproxy_gnustep\", \"signature\": \"%s\", \"fanout\": %d, \"ns_per_message\": %.4f, ",
             encodings[sig], fanouts[f], median);
      if (counted) printf("\"allocs_per_message\": %.4f, \"frees_per_message\": %.4f, ", allocs, frees);
      else printf("\"allocs_per_message\": null, ");
      printf("\"path\": \"gnustep-nsproxy-forwardInvocation\", \"median_of\": %d, "
             "\"messages_per_repetition\": %llu, \"repetitions\": [",
             reps, (unsigned long long)n[sig][f]);
      for (int r = 0; r < reps; r++) printf("%s%.4f", r ? ", " : "", samples[sig][f][r]);
      printf("]}\n");
      [proxies[sig][f] release];
      proxies[sig][f] = nil;
    }
  }
  fflush(stdout);
}

// MARK: Main

int main(int argc, char **argv) {
  int repetitions = 9;
  double min_ms = 20;
  BOOL serve = NO;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--repetitions") && i + 1 < argc) repetitions = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--min-ms") && i + 1 < argc) min_ms = atof(argv[++i]);
    else if (!strcmp(argv[i], "--serve")) serve = YES;
    else {
      fprintf(stderr, "usage: %s [--repetitions N] [--min-ms MS] [--serve]\n", argv[0]);
      return 2;
    }
  }
  if (repetitions < 7) repetitions = 7;
  if (repetitions > MAX_REPS) repetitions = MAX_REPS;
  uint64_t target = (uint64_t)(min_ms * 1e6);

  NSAutoreleasePool *outer = [NSAutoreleasePool new];
  argument_object = [BenchBystander new];

  // Counting works only if this executable's malloc is the one everybody calls.
  driver_counting = 1;
  id probe = [[NSObject alloc] init];
  driver_counting = 0;
  counted = driver_allocation_count > 0;
  [probe release];
  if (!counted) fprintf(stderr, "nsproxy-bench: malloc is not interposed; allocs_per_message will be null\n");

  if (!set_up(target)) return 1;

  if (serve) {
    // Driven by Compare over stdin/stdout, so these rows' repetitions interleave in
    // time with Compare's own: "sweep" → one repetition of every row, answered
    // "swept"; "finish" → the rows, then "end".
    printf("ready %d\n", SIG_COUNT * FANOUTS);
    fflush(stdout);
    char line[64];
    while (fgets(line, sizeof line, stdin)) {
      if (!strncmp(line, "sweep", 5)) {
        sweep();
        printf("swept %d\n", sweeps_done);
        fflush(stdout);
      } else if (!strncmp(line, "finish", 6)) {
        finish();
        printf("end\n");
        fflush(stdout);
        break;
      }
    }
  } else {
    for (int r = 0; r < repetitions; r++) {
      fprintf(stderr, "  nsproxy_gnustep: repetition %d of %d\n", r + 1, repetitions);
      sweep();
    }
    finish();
  }
  [argument_object release];
  [outer drain];
  return 0;
}
