// Per-thread slots: a fast _Thread_local read, and a pthread key per slot whose only job
// is to run the slot's destructor when a thread exits.

#include "dp_tls.h"

#include <pthread.h>

static _Thread_local void *slots[DP_TLS_SLOT_COUNT];
static pthread_key_t keys[DP_TLS_SLOT_COUNT];
static void (*destructors[DP_TLS_SLOT_COUNT])(void *);
static pthread_mutex_t key_lock = PTHREAD_MUTEX_INITIALIZER;
static int key_made[DP_TLS_SLOT_COUNT];

void dp_tls_set_destructor(int slot, void (*destructor)(void *)) {
  pthread_mutex_lock(&key_lock);
  if (!key_made[slot]) {
    destructors[slot] = destructor;
    pthread_key_create(&keys[slot], destructor);
    __atomic_store_n(&key_made[slot], 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&key_lock);
}

void *dp_tls_get(int slot) { return slots[slot]; }

void dp_tls_set(int slot, void *value) {
  slots[slot] = value;
  // The key mirrors the value only so that pthread runs the destructor at exit.
  if (__atomic_load_n(&key_made[slot], __ATOMIC_ACQUIRE)) pthread_setspecific(keys[slot], value);
}
