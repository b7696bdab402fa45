#include "bok_curl.h"

#include <curl/curl.h>
#include <string.h>

static size_t header_callback(char *buffer, size_t size, size_t count, void *user) {
    const bok_curl_request *request = user;
    size_t length = size * count;
    return request->on_header(request->context, buffer, length) ? length : 0;
}

static size_t write_callback(char *buffer, size_t size, size_t count, void *user) {
    const bok_curl_request *request = user;
    size_t length = size * count;
    // Anything but `length` makes curl stop with CURLE_WRITE_ERROR: nothing more is read.
    return request->on_data(request->context, buffer, length) ? length : 0;
}

static int progress_callback(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow) {
    (void)dltotal; (void)dlnow; (void)ultotal; (void)ulnow;
    const bok_curl_request *request = user;
    return request->should_abort(request->context);
}

int bok_curl_perform(const bok_curl_request *request, char *error) {
    error[0] = 0;
    CURL *curl = curl_easy_init();
    if (!curl) {
        strcpy(error, "curl_easy_init failed");
        return CURLE_FAILED_INIT;
    }
    struct curl_slist *headers = NULL;
    for (int i = 0; i < request->header_count; i++) {
        struct curl_slist *next = curl_slist_append(headers, request->headers[i]);
        if (!next) break;
        headers = next;
    }
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(curl, CURLOPT_URL, request->url);
    // Threads, not signals, for timeouts (bok has several exchanges at once and its own handlers).
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, request->timeout_ms);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
    // No Expect: 100-continue wait on POSTs: the body is small.
    headers = curl_slist_append(headers, "Expect:");
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    if (strcmp(request->method, "GET") != 0) curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request->method);
    if (request->body) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request->body);
    }
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, header_callback);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, (void *)request);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, write_callback);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, (void *)request);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, progress_callback);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, (void *)request);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    CURLcode code = curl_easy_perform(curl);
    if (code != CURLE_OK && error[0] == 0) {
        strncpy(error, curl_easy_strerror(code), CURL_ERROR_SIZE - 1);
        error[CURL_ERROR_SIZE - 1] = 0;
    }
    curl_easy_cleanup(curl);
    curl_slist_free_all(headers);
    return (int)code;
}
