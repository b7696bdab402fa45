#ifndef BOK_CAVIF_H
#define BOK_CAVIF_H
// libavif (Debian libavif15, headers in libavif-dev) decodes AVIF pictures. It is loaded with
// dlopen at the first AVIF picture rather than linked: it brings the AV1 decoders (dav1d, aom)
// with it, which every start of `bok read` would pay for although few books have AVIF.
#include <stddef.h>
#include <stdint.h>

/// An AVIF picture's size, read from its header without decoding it; 0 when it is not AVIF
/// libavif reads (or libavif is missing).
int bok_avif_size(const uint8_t *bytes, size_t length, int *width, int *height);

/// The first frame of an AVIF picture as 8-bit RGBA, when it has at most `max_pixels` pixels.
/// Returns the pixels (malloc'ed; the caller frees them), or NULL.
uint8_t *bok_avif_decode_rgba(const uint8_t *bytes, size_t length, long max_pixels, int *width, int *height);
#endif
