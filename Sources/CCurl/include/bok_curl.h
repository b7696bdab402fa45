#ifndef BOK_CURL_H
#define BOK_CURL_H

#include <stddef.h>
#include <stdint.h>

/// One HTTP exchange through libcurl's easy interface, for bok's lending, catalogue and download
/// clients. A C function because curl_easy_setopt is variadic, which Swift cannot call.
///
/// Redirects are not followed here (the caller decides, origin by origin). The whole exchange
/// (connect, headers, body) ends within `timeout_ms`. The callbacks run on the calling thread,
/// one at a time: `on_header` gets each header line as it arrives (status lines included), `on_data` each
/// piece of the body; either returns 0 to stop the exchange at once (curl then reads no more),
/// which is how a size cap holds while the body streams in. `should_abort` is asked now and then
/// (at least once a second) and stops the exchange when it returns non-zero.
typedef struct bok_curl_request {
    const char *url;
    const char *method;            ///< "GET", "POST", "DELETE", …
    const char *const *headers;    ///< "Name: value" lines
    int header_count;
    const void *body;              ///< the request body, or NULL
    size_t body_length;
    long timeout_ms;
    long connect_timeout_ms;
    void *context;
    int (*on_header)(void *context, const char *line, size_t length);
    int (*on_data)(void *context, const char *data, size_t length);
    int (*should_abort)(void *context);
} bok_curl_request;

/// Performs the exchange; returns the CURLcode (0 when the answer arrived whole), and in
/// `error` (at least 256 bytes) curl's own words, for logs only. libcurl is loaded at the first
/// call (BOK_CURLE_FAILED_INIT when it cannot be).
int bok_curl_perform(const bok_curl_request *request, char *error);

/// Starts loading libcurl on a thread of its own and returns at once, for a process that will
/// soon make an exchange: the load (a few milliseconds of dlopen) overlaps bok's own start.
void bok_curl_preload(void);

/// Waits for a load bok_curl_preload started (nothing when none was): called before the process
/// exits, since exit's handlers (OpenSSL's among them) must not run while curl_global_init does.
void bok_curl_finish_preload(void);

/// CURLcode values the Swift side tells apart.
enum {
    BOK_CURLE_OK = 0,
    BOK_CURLE_UNSUPPORTED_PROTOCOL = 1,
    BOK_CURLE_FAILED_INIT = 2,
    BOK_CURLE_COULDNT_RESOLVE_HOST = 6,
    BOK_CURLE_COULDNT_CONNECT = 7,
    BOK_CURLE_PARTIAL_FILE = 18,
    BOK_CURLE_WRITE_ERROR = 23,
    BOK_CURLE_OPERATION_TIMEDOUT = 28,
    BOK_CURLE_ABORTED_BY_CALLBACK = 42,
    BOK_CURLE_GOT_NOTHING = 52,
    BOK_CURLE_SEND_ERROR = 55,
    BOK_CURLE_RECV_ERROR = 56,
};

#endif
