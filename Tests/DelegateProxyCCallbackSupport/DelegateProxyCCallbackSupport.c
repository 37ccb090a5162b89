// C helpers for the callback tests. See DelegateProxyCCallbackSupport.h.
//
// libcurl without its headers: the few prototypes below are curl's public easy interface
// (curl/easy.h), and the option and error numbers are curl's public ones, which curl keeps
// stable across the whole libcurl.so.4 ABI (an option's number is its type base — 0 long,
// 10000 pointer, 20000 function pointer — plus a fixed index; curl never renumbers them).

#include "DelegateProxyCCallbackSupport.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// The option numbers used (curl/curl.h: CURLOPTTYPE_* + index).
enum {
  CCB_CURLOPT_WRITEDATA = 10000 + 1,       // void *, handed to the write callback
  CCB_CURLOPT_URL = 10000 + 2,             // char *
  CCB_CURLOPT_ERRORBUFFER = 10000 + 10,    // char[CURL_ERROR_SIZE]
  CCB_CURLOPT_WRITEFUNCTION = 20000 + 11,  // the write callback
  CCB_CURLOPT_BUFFERSIZE = 0 + 98,         // long
  CCB_CURLOPT_NOSIGNAL = 0 + 99,           // long
  CCB_CURLOPT_PROTOCOLS_STR = 10000 + 318, // char * (curl 7.85 and later)
};
enum { CCB_CURLE_FAILED_INIT = 2 };

// curl/easy.h's prototypes; CURL is an opaque handle, CURLcode and CURLoption are enums
// (int-sized). curl_easy_setopt is variadic: it must be called through a variadic type.
typedef void *(*easy_init_fn)(void);
typedef int (*easy_setopt_fn)(void *curl, int option, ...);
typedef int (*easy_perform_fn)(void *curl);
typedef void (*easy_cleanup_fn)(void *curl);
typedef const char *(*easy_strerror_fn)(int code);

static struct {
  easy_init_fn init;
  easy_setopt_fn setopt;
  easy_perform_fn perform;
  easy_cleanup_fn cleanup;
  easy_strerror_fn strerror;
  char error[512];
  int failed;
} curl_api;
static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void *curl_symbol(void *library, const char *name) {
  void *symbol = dlsym(library, name);
  if (!symbol && !curl_api.failed) {
    const char *why = dlerror();
    snprintf(curl_api.error, sizeof curl_api.error, "libcurl.so.4 has no %s: %s", name,
             why ? why : "symbol not found");
    curl_api.failed = 1;
  }
  return symbol;
}

static void curl_load(void) {
  void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    snprintf(curl_api.error, sizeof curl_api.error,
             "cannot load libcurl.so.4 (Debian: libcurl4): %s", why ? why : "dlopen failed");
    curl_api.failed = 1;
    return;
  }
  // The library stays loaded for the life of the process: nothing dlcloses it.
  curl_api.init = (easy_init_fn)curl_symbol(library, "curl_easy_init");
  curl_api.setopt = (easy_setopt_fn)curl_symbol(library, "curl_easy_setopt");
  curl_api.perform = (easy_perform_fn)curl_symbol(library, "curl_easy_perform");
  curl_api.cleanup = (easy_cleanup_fn)curl_symbol(library, "curl_easy_cleanup");
  curl_api.strerror = (easy_strerror_fn)curl_symbol(library, "curl_easy_strerror");
}

const char *ccb_curl_load_error(void) {
  pthread_once(&curl_once, curl_load);
  return curl_api.failed ? curl_api.error : NULL;
}

static void copy_message(char *error, const char *message) {
  if (!error) return;
  strncpy(error, message, CCB_CURL_ERROR_SIZE - 1);
  error[CCB_CURL_ERROR_SIZE - 1] = 0;
}

int ccb_curl_fetch(const char *url, ccb_write_fn write, void *userdata, long buffer_size,
                   char *error) {
  const char *load_error = ccb_curl_load_error();
  if (load_error) {
    copy_message(error, load_error);
    return CCB_CURL_NOT_LOADED;
  }
  void *curl = curl_api.init();
  if (!curl) {
    copy_message(error, "curl_easy_init failed");
    return CCB_CURLE_FAILED_INIT;
  }
  char message[CCB_CURL_ERROR_SIZE] = {0};
  // Each argument has the type curl reads for that option (va_arg): long for the numeric
  // options (hence 1L), a data pointer, or the function pointer.
  int code = curl_api.setopt(curl, CCB_CURLOPT_ERRORBUFFER, message);
  if (!code) code = curl_api.setopt(curl, CCB_CURLOPT_URL, url);
  if (!code) code = curl_api.setopt(curl, CCB_CURLOPT_WRITEFUNCTION, write);
  if (!code) code = curl_api.setopt(curl, CCB_CURLOPT_WRITEDATA, userdata);
  if (!code) code = curl_api.setopt(curl, CCB_CURLOPT_NOSIGNAL, 1L);
  if (!code) code = curl_api.setopt(curl, CCB_CURLOPT_PROTOCOLS_STR, "file");
  if (!code && buffer_size > 0) code = curl_api.setopt(curl, CCB_CURLOPT_BUFFERSIZE, buffer_size);
  if (!code) code = curl_api.perform(curl);
  if (code != CCB_CURLE_OK) copy_message(error, message[0] ? message : curl_api.strerror(code));
  curl_api.cleanup(curl);
  return code;
}
