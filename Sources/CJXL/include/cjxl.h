#ifndef BOK_CJXL_H
#define BOK_CJXL_H
// libjxl (Debian libjxl0.7, headers in libjxl-dev) decodes JPEG XL pictures. It is loaded with
// dlopen at the first JPEG XL picture rather than linked: few books have one, and every start
// of `bok read` would pay for loading it and its C++ runtime.
#include <stddef.h>
#include <stdint.h>

/// A JPEG XL picture's size, read from its header without decoding it; 0 when it is not JPEG XL
/// libjxl reads (or libjxl is missing).
int bok_jxl_size(const uint8_t *bytes, size_t length, int *width, int *height);

/// The first frame of a JPEG XL picture as 8-bit RGBA, when it has at most `max_pixels` pixels.
/// Returns the pixels (malloc'ed; the caller frees them), or NULL.
uint8_t *bok_jxl_decode_rgba(const uint8_t *bytes, size_t length, long max_pixels, int *width, int *height);
#endif
