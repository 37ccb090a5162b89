// DelegateProxyCCallbackSupport.h — the real C libraries the callback tests drive: expat
// and SQLite (Debian: libexpat1-dev, libsqlite3-dev; linked at build time) and libcurl,
// reached at run time through dlopen("libcurl.so.4") so that no curl header is needed to
// build: a fresh machine has curl's runtime library (libcurl4) but not its headers
// (libcurl4-openssl-dev).

#ifndef CCALLBACK_SUPPORT_H
#define CCALLBACK_SUPPORT_H

#include <expat.h>
#include <sqlite3.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// curl's `CURL_ERROR_SIZE`: the size of the buffer `ccb_curl_fetch` copies a message into.
#define CCB_CURL_ERROR_SIZE 256
/// curl's `CURLE_OK` (a `CURLcode`; the numbers are part of curl's stable ABI).
#define CCB_CURLE_OK 0
/// curl's `CURLE_WRITE_ERROR`: the write callback took fewer bytes than it was given.
#define CCB_CURLE_WRITE_ERROR 23
/// Not a CURLcode: libcurl.so.4 (or one of the functions used) could not be loaded.
#define CCB_CURL_NOT_LOADED (-1)

/// libcurl's write callback type (`CURLOPT_WRITEFUNCTION`): context last.
typedef size_t (*ccb_write_fn)(char *ptr, size_t size, size_t nmemb, void *userdata);

/// Loads libcurl.so.4 once (thread-safe). NULL when it is loaded; otherwise why it is not
/// (dlopen's or dlsym's message), which stays valid for the life of the process.
const char *ccb_curl_load_error(void);

/// Fetches `url` with libcurl's easy interface, handing every chunk to `write` with
/// `userdata` (`CURLOPT_WRITEFUNCTION`, `CURLOPT_WRITEDATA`), at most `buffer_size` bytes
/// per call when nonzero (`CURLOPT_BUFFERSIZE`). Returns the CURLcode, or
/// `CCB_CURL_NOT_LOADED` when libcurl could not be loaded; on failure copies a message
/// into `error` (`CCB_CURL_ERROR_SIZE` bytes).
///
/// `curl_easy_setopt` is variadic, which Swift cannot call: this C shim passes each option
/// its argument with the type curl reads it as (`long`, a pointer, a function pointer).
int ccb_curl_fetch(const char *url, ccb_write_fn write, void *userdata, long buffer_size,
                   char *error);

#ifdef __cplusplus
}
#endif

#endif  // CCALLBACK_SUPPORT_H
