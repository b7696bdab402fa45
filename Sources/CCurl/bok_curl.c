#include "bok_curl.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

// libcurl is loaded at the first exchange, not linked: linked, it and the 28 libraries it needs
// (GnuTLS, OpenSSL's libcrypto, Kerberos, LDAP, …) were loaded and initialised at every start of
// bok, 5.5 MB of memory and a few milliseconds before the reader's first page, for `bok read FILE`
// that never touches the network (docs/performance.md). The same is done for eSpeak NG.
static struct {
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} api;

static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    CURLcode (*global_init)(long) = (CURLcode (*)(long))dlsym(library, "curl_global_init");
#define FIND(field, name) if (!(*(void **)&api.field = dlsym(library, name))) { dlclose(library); return; }
    FIND(easy_init, "curl_easy_init") FIND(easy_setopt, "curl_easy_setopt") FIND(easy_perform, "curl_easy_perform")
    FIND(easy_cleanup, "curl_easy_cleanup") FIND(easy_strerror, "curl_easy_strerror")
    FIND(slist_append, "curl_slist_append") FIND(slist_free_all, "curl_slist_free_all")
#undef FIND
    // Once, before any exchange: curl_global_init is not thread-safe in every libcurl.
    if (!global_init || global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return;
    loaded = 1;
}

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

static void *preload(void *unused) {
    (void)unused;
    pthread_once(&once, load);
    return NULL;
}

static int preloading;

void bok_curl_finish_preload(void) {
    if (preloading) pthread_once(&once, load);
}

void bok_curl_preload(void) {
    pthread_t thread;
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    preloading = 1;
    // The first exchange waits on the same pthread_once: a load under way is not done twice.
    pthread_create(&thread, &attributes, preload, NULL);
    pthread_attr_destroy(&attributes);
}

int bok_curl_perform(const bok_curl_request *request, char *error) {
    error[0] = 0;
    pthread_once(&once, load);
    if (!loaded) {
        strcpy(error, "libcurl.so.4 could not be loaded");
        return BOK_CURLE_FAILED_INIT;
    }
    CURL *curl = api.easy_init();
    if (!curl) {
        strcpy(error, "curl_easy_init failed");
        return CURLE_FAILED_INIT;
    }
    struct curl_slist *headers = NULL;
    for (int i = 0; i < request->header_count; i++) {
        struct curl_slist *next = api.slist_append(headers, request->headers[i]);
        if (!next) break;
        headers = next;
    }
    api.easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    api.easy_setopt(curl, CURLOPT_URL, request->url);
    // Threads, not signals, for timeouts (bok has several exchanges at once and its own handlers).
    api.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    api.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    api.easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    api.easy_setopt(curl, CURLOPT_TIMEOUT_MS, request->timeout_ms);
    api.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
    // No Expect: 100-continue wait on POSTs: the body is small.
    headers = api.slist_append(headers, "Expect:");
    api.easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    if (strcmp(request->method, "GET") != 0) api.easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request->method);
    if (request->body) {
        api.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
        api.easy_setopt(curl, CURLOPT_POSTFIELDS, request->body);
    }
    api.easy_setopt(curl, CURLOPT_HEADERFUNCTION, header_callback);
    api.easy_setopt(curl, CURLOPT_HEADERDATA, (void *)request);
    api.easy_setopt(curl, CURLOPT_WRITEFUNCTION, write_callback);
    api.easy_setopt(curl, CURLOPT_WRITEDATA, (void *)request);
    api.easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, progress_callback);
    api.easy_setopt(curl, CURLOPT_XFERINFODATA, (void *)request);
    api.easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    CURLcode code = api.easy_perform(curl);
    if (code != CURLE_OK && error[0] == 0) {
        strncpy(error, api.easy_strerror(code), CURL_ERROR_SIZE - 1);
        error[CURL_ERROR_SIZE - 1] = 0;
    }
    api.easy_cleanup(curl);
    api.slist_free_all(headers);
    return (int)code;
}
