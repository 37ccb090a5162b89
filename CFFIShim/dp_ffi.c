// Thin wrappers over libffi, so Swift never touches libffi's global type objects or
// its macros directly.

#include "dp_ffi.h"

#include <stdlib.h>
#include <string.h>

ffi_type *dp_ffi_scalar_type(char code) {
  switch (code) {
    case 'v': return &ffi_type_void;
    case 'c': return &ffi_type_sint8;
    case 'C': return &ffi_type_uint8;
    case 'B': return &ffi_type_uint8;
    case 's': return &ffi_type_sint16;
    case 'S': return &ffi_type_uint16;
    case 'i': case 'l': return &ffi_type_sint32;
    case 'I': case 'L': return &ffi_type_uint32;
    case 'q': return &ffi_type_sint64;
    case 'Q': return &ffi_type_uint64;
    case 'f': return &ffi_type_float;
    case 'd': return &ffi_type_double;
#if FFI_TYPE_LONGDOUBLE != FFI_TYPE_DOUBLE
    case 'D': return &ffi_type_longdouble;
#endif
    case 'p': return &ffi_type_pointer;
    default: return NULL;
  }
}

ffi_type *dp_ffi_struct_create(ffi_type *const *elements, size_t count) {
  // One block: the type, then the NULL-terminated element list libffi wants.
  ffi_type *t = calloc(1, sizeof(ffi_type) + (count + 1) * sizeof(ffi_type *));
  if (!t) dp_fatal("dp_ffi_struct_create: out of memory");
  ffi_type **list = (ffi_type **)(t + 1);
  memcpy(list, elements, count * sizeof(ffi_type *));
  list[count] = NULL;
  t->type = FFI_TYPE_STRUCT;
  t->elements = list;
  return t;
}

void dp_ffi_struct_free(ffi_type *t) { free(t); }

ffi_cif *dp_ffi_cif_create(ffi_type *rtype, ffi_type *const *atypes, unsigned nargs,
                           int *status) {
  ffi_cif *cif = calloc(1, sizeof(ffi_cif) + (nargs ? nargs : 1) * sizeof(ffi_type *));
  if (!cif) dp_fatal("dp_ffi_cif_create: out of memory");
  ffi_type **args = (ffi_type **)(cif + 1);
  memcpy(args, atypes, nargs * sizeof(ffi_type *));
  ffi_status s = ffi_prep_cif(cif, FFI_DEFAULT_ABI, nargs, rtype, args);
  *status = (int)s;
  if (s != FFI_OK) {
    free(cif);
    return NULL;
  }
  return cif;
}

void dp_ffi_cif_free(ffi_cif *cif) { free(cif); }

size_t dp_ffi_type_size(const ffi_type *t) { return t->size; }
unsigned short dp_ffi_type_alignment(const ffi_type *t) { return t->alignment; }

void dp_ffi_call(ffi_cif *cif, dp_imp fn, void *rvalue, void **avalue) {
  // libffi 3.4 (x86-64) copies each struct argument larger than 16 bytes to its own
  // stack and stores the copy's address into avalue[i], a pointer that dangles once
  // ffi_call returns. Callers keep their avalue (an Invocation's frame, a closure's
  // arguments forwarded to several targets), so libffi gets a scratch copy of the array.
  void **scratch = cif->nargs ? __builtin_alloca(cif->nargs * sizeof(void *)) : NULL;
  if (cif->nargs) memcpy(scratch, avalue, cif->nargs * sizeof(void *));
  ffi_call(cif, fn, rvalue, scratch);
}

void *dp_ffi_closure_create(ffi_cif *cif, dp_ffi_handler handler, void *user_data,
                            dp_imp *code) {
  void *exec = NULL;
  ffi_closure *c = ffi_closure_alloc(sizeof(ffi_closure), &exec);
  if (!c) return NULL;
  if (ffi_prep_closure_loc(c, cif, handler, user_data, exec) != FFI_OK) {
    ffi_closure_free(c);
    return NULL;
  }
  *code = (dp_imp)exec;
  return c;
}

void dp_ffi_closure_free(void *closure) { ffi_closure_free(closure); }
