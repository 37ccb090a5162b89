// MulticastProxy.m — an NSProxy multicast forwarder, as AIMultiDelegate and
// LBDelegateMatrioska write it: methodSignatureForSelector: from the first target that
// responds, forwardInvocation: invoking every target that responds (the last one's
// return value stays in the invocation and reaches the caller).

#import "BenchMessages.h"

#include <stdlib.h>

@implementation MulticastProxy

- (id)initWithTargets:(id *)targets count:(NSUInteger)count {
  _targets = malloc(sizeof(id) * (count ? count : 1));
  _count = count;
  for (NSUInteger i = 0; i < count; i++) _targets[i] = [targets[i] retain];
  return self;
}

- (void)dealloc {
  for (NSUInteger i = 0; i < _count; i++) [_targets[i] release];
  free(_targets);
  [super dealloc];
}

- (BOOL)respondsToSelector:(SEL)selector {
  for (NSUInteger i = 0; i < _count; i++) {
    if ([_targets[i] respondsToSelector:selector]) return YES;
  }
  return NO;
}

- (NSMethodSignature *)methodSignatureForSelector:(SEL)selector {
  for (NSUInteger i = 0; i < _count; i++) {
    if ([_targets[i] respondsToSelector:selector]) return [_targets[i] methodSignatureForSelector:selector];
  }
  return [super methodSignatureForSelector:selector];
}

- (void)forwardInvocation:(NSInvocation *)invocation {
  SEL selector = [invocation selector];
  for (NSUInteger i = 0; i < _count; i++) {
    if ([_targets[i] respondsToSelector:selector]) [invocation invokeWithTarget:_targets[i]];
  }
}

@end
