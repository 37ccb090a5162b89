// naive_ffi: the textbook libffi forwarder, written against libffi directly.
//
// One libffi closure per forwarder; its handler copies the argument-pointer array,
// points argument 0 at each target in turn and re-issues the call with ffi_call,
// leaving the last target's value in the closure's return buffer. No caching, no
// register replay: the baseline a generic forwarder starts from.

#include "BenchmarkSupport.h"

#include <stdlib.h>
#include <string.h>

#if __has_include(<ffi.h>)
#include <ffi.h>
#elif __has_include(<ffi/ffi.h>)
#include <ffi/ffi.h>
#else
#error "libffi not found: apt-get install libffi-dev"
#endif

enum { MAX_ARGS = 12 };

struct bs_naive_forwarder {
  ffi_cif cif;
  ffi_type *arg_types[MAX_ARGS];
  ffi_type point_type, big40_type;
  ffi_type *point_fields[3], *big40_fields[6];
  ffi_closure *closure;
  void *code;
  int n;
  const void **imps;
  bs_id *targets;
};

static void naive_handler(ffi_cif *cif, void *ret, void **args, void *user_data) {
  bs_naive_forwarder *f = user_data;
  void *argv[MAX_ARGS];
  memcpy(argv, args, cif->nargs * sizeof(void *));
  for (int k = 0; k < f->n; k++) {
    argv[0] = &f->targets[k];
    ffi_call(cif, FFI_FN(f->imps[k]), ret, argv);
  }
}

bs_naive_forwarder *bs_naive_create(bs_signature sig, const void *const *imps,
                                    const bs_id *targets, int n) {
  bs_naive_forwarder *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->n = n;
  f->imps = malloc(sizeof(void *) * (size_t)(n > 0 ? n : 1));
  f->targets = malloc(sizeof(bs_id) * (size_t)(n > 0 ? n : 1));
  for (int k = 0; k < n; k++) {
    f->imps[k] = imps[k];
    f->targets[k] = targets[k];
  }

  f->point_fields[0] = &ffi_type_double;
  f->point_fields[1] = &ffi_type_double;
  f->point_fields[2] = NULL;
  f->point_type.type = FFI_TYPE_STRUCT;
  f->point_type.elements = f->point_fields;
  for (int k = 0; k < 5; k++) f->big40_fields[k] = &ffi_type_sint64;
  f->big40_fields[5] = NULL;
  f->big40_type.type = FFI_TYPE_STRUCT;
  f->big40_type.elements = f->big40_fields;

  ffi_type **a = f->arg_types;
  a[0] = &ffi_type_pointer;  // self
  a[1] = &ffi_type_pointer;  // _cmd
  unsigned nargs = 2;
  ffi_type *rtype = &ffi_type_void;
  switch (sig) {
  case BS_SIG_QD:
    a[nargs++] = &ffi_type_sint64;
    a[nargs++] = &ffi_type_double;
    rtype = &ffi_type_sint64;
    break;
  case BS_SIG_OBJECT:
    a[nargs++] = &ffi_type_pointer;
    break;
  case BS_SIG_POINT:
    a[nargs++] = &ffi_type_pointer;
    a[nargs++] = &f->point_type;
    a[nargs++] = &ffi_type_pointer;
    break;
  case BS_SIG_TEN:
    for (int k = 0; k < 10; k++) a[nargs++] = &ffi_type_sint64;
    rtype = &ffi_type_sint64;
    break;
  case BS_SIG_BIG40:
    a[nargs++] = &ffi_type_sint64;
    rtype = &f->big40_type;
    break;
  default:
    bs_naive_destroy(f);
    return NULL;
  }
  if (ffi_prep_cif(&f->cif, FFI_DEFAULT_ABI, nargs, rtype, a) != FFI_OK) {
    bs_naive_destroy(f);
    return NULL;
  }
  f->closure = ffi_closure_alloc(sizeof(ffi_closure), &f->code);
  if (!f->closure ||
      ffi_prep_closure_loc(f->closure, &f->cif, naive_handler, f, f->code) != FFI_OK) {
    bs_naive_destroy(f);
    return NULL;
  }
  return f;
}

const void *bs_naive_imp(const bs_naive_forwarder *forwarder) { return forwarder->code; }

void bs_naive_destroy(bs_naive_forwarder *f) {
  if (!f) return;
  if (f->closure) ffi_closure_free(f->closure);
  free(f->imps);
  free(f->targets);
  free(f);
}
