// BenchDelegate.m — delegates for the GNUstep row, with the same cheap, undeletable
// bodies as the C delegate IMPs (Benchmarks/Sources/BenchmarkSupport/Delegates.c).

#import "BenchMessages.h"

volatile long long bench_sink;

#define BENCH_BARRIER() __asm__ __volatile__("" ::: "memory")

@implementation BenchDelegate

- (long long)value:(long long)a scale:(double)d {
  BENCH_BARRIER();
  bench_sink += a + (long long)d;
  return a + 1;
}

- (void)observe:(id)object {
  BENCH_BARRIER();
  bench_sink += (long long)(intptr_t)object;
}

- (void)view:(id)view movedTo:(CGPoint)p out:(CGPoint *)o {
  BENCH_BARRIER();
  o->x += p.x;
  o->y = p.y;
  bench_sink += (long long)(intptr_t)view + (long long)p.x;
}

- (long long)sum:(long long)a b:(long long)b c:(long long)c d:(long long)d e:(long long)e
               f:(long long)f g:(long long)g h:(long long)h i:(long long)i j:(long long)j {
  BENCH_BARRIER();
  long long s = a + b + c + d + e + f + g + h + i + j;
  bench_sink += s;
  return s;
}

- (Big40)make:(long long)a {
  BENCH_BARRIER();
  bench_sink += a;
  Big40 r = {a, a + 1, a + 2, a + 3, a + 4};
  return r;
}

@end

@implementation BenchBystander
@end
