// BenchMessages.h — the five benchmark signatures as an Objective-C protocol, the
// delegate that implements them and the NSProxy multicast forwarder under test.
//
// The encodings match the Swift/C benchmarks (Benchmarks/Sources/BenchmarkSupport):
//   value:scale:            q@:qd
//   observe:                v@:@
//   view:movedTo:out:       v@:@{CGPoint=dd}^{CGPoint=dd}
//   sum:b:c:d:e:f:g:h:i:j:  q@:qqqqqqqqqq   (ten arguments; six spill to the stack)
//   make:                   {Big40=qqqqq}@:q (a 40-byte struct returned in memory)

#import <Foundation/Foundation.h>

typedef struct CGPoint {
  double x;
  double y;
} CGPoint;

typedef struct Big40 {
  long long a, b, c, d, e;
} Big40;

@protocol BenchMessages
- (long long)value:(long long)a scale:(double)d;
- (void)observe:(id)object;
- (void)view:(id)view movedTo:(CGPoint)p out:(CGPoint *)o;
- (long long)sum:(long long)a b:(long long)b c:(long long)c d:(long long)d e:(long long)e
               f:(long long)f g:(long long)g h:(long long)h i:(long long)i j:(long long)j;
- (Big40)make:(long long)a;
@end

/// A delegate implementing every benchmark message with a cheap body that the
/// optimizer cannot delete (a volatile accumulator behind a compiler barrier), like
/// the C delegate IMPs of the Swift/C rows.
@interface BenchDelegate : NSObject <BenchMessages>
@end

/// A bystander that implements none of them.
@interface BenchBystander : NSObject
@end

/// The reference systems' mechanism: an NSProxy that forwards each message to every
/// target that responds to it (AIMultiDelegate's behaviour: the last value returned).
@interface MulticastProxy : NSProxy {
  id *_targets;
  NSUInteger _count;
}
- (id)initWithTargets:(id *)targets count:(NSUInteger)count;
@end

/// The volatile accumulator the delegates write to.
extern volatile long long bench_sink;
