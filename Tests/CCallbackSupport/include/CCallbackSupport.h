// CCallbackSupport.h — the real C libraries the callback tests drive: expat, SQLite and
// libcurl (Debian: libexpat1-dev, libsqlite3-dev, libcurl4-openssl-dev), and the few C
// helpers Swift needs to reach them (curl_easy_setopt is variadic: Swift cannot call it).

#ifndef CCALLBACK_SUPPORT_H
#define CCALLBACK_SUPPORT_H

#include <curl/curl.h>
#include <expat.h>
#include <sqlite3.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// libcurl's write callback type (`CURLOPT_WRITEFUNCTION`): context last.
typedef size_t (*ccb_write_fn)(char *ptr, size_t size, size_t nmemb, void *userdata);

/// Fetches `url` with libcurl's easy interface, handing every chunk to `write` with
/// `userdata` (`CURLOPT_WRITEFUNCTION`, `CURLOPT_WRITEDATA`), at most `buffer_size` bytes
/// per call when nonzero (`CURLOPT_BUFFERSIZE`). Returns the CURLcode; on failure copies
/// curl's message into `error` (CURL_ERROR_SIZE bytes).
int ccb_curl_fetch(const char *url, ccb_write_fn write, void *userdata, long buffer_size,
                   char *error);

#ifdef __cplusplus
}
#endif

#endif  // CCALLBACK_SUPPORT_H
