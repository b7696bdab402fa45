#ifndef BOK_CWEBP_SHIM_H
#define BOK_CWEBP_SHIM_H
// libwebp (Debian libwebp-dev) decodes the WebP pictures of books.
#include <stddef.h>
#include <webp/decode.h>
#include <webp/encode.h>

/// RGBA pixels of a WebP picture of at most `max_pixels`, or NULL; free them with bok_webp_free.
static inline unsigned char *bok_webp_decode_rgba(const unsigned char *data, size_t size, size_t max_pixels,
                                                  int *width, int *height) {
    if (!WebPGetInfo(data, size, width, height)) return NULL;
    if (*width <= 0 || *height <= 0 || (size_t)*width * (size_t)*height > max_pixels) return NULL;
    return WebPDecodeRGBA(data, size, width, height);
}

static inline void bok_webp_free(unsigned char *pixels) { WebPFree(pixels); }
#endif
