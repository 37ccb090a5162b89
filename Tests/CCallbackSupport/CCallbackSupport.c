// C helpers for the callback tests. See CCallbackSupport.h.

#include "CCallbackSupport.h"

#include <string.h>

int ccb_curl_fetch(const char *url, ccb_write_fn write, void *userdata, long buffer_size,
                   char *error) {
  CURL *curl = curl_easy_init();
  if (!curl) {
    if (error) strcpy(error, "curl_easy_init failed");
    return CURLE_FAILED_INIT;
  }
  char message[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_URL, url);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, write);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, userdata);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, message);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "file");
  if (buffer_size > 0) curl_easy_setopt(curl, CURLOPT_BUFFERSIZE, buffer_size);
  CURLcode code = curl_easy_perform(curl);
  if (code != CURLE_OK && error) {
    strncpy(error, message[0] ? message : curl_easy_strerror(code), CURL_ERROR_SIZE - 1);
    error[CURL_ERROR_SIZE - 1] = 0;
  }
  curl_easy_cleanup(curl);
  return (int)code;
}
