#ifndef BOK_CGIF_H
#define BOK_CGIF_H
// giflib (Debian libgif-dev) decodes the GIF pictures of older books.
#include <stddef.h>

/// RGBA pixels of a GIF's first frame on its logical screen (transparent where the frame does
/// not cover it), at most `max_pixels`, or NULL for a file giflib cannot read; free() them.
unsigned char *bok_gif_decode_rgba(const unsigned char *data, size_t size, size_t max_pixels, int *width, int *height);
#endif
