#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call.
   These typed wrappers cover the argument kinds the project passes. */
static inline CURLcode latch_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode latch_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode latch_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*latch_curl_data_callback)(char *buffer, size_t size, size_t count, void *userdata);
static inline CURLcode latch_curl_setopt_callback(CURL *handle, CURLoption option, latch_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode latch_curl_setopt_opensocket(CURL *handle, curl_opensocket_callback value) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, value);
}
static inline CURLcode latch_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
