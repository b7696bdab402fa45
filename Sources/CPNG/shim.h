#ifndef BOK_CPNG_SHIM_H
#define BOK_CPNG_SHIM_H
#include <stdlib.h>
#include <string.h>
#include <png.h>

/// Decodes a PNG held in memory to 8-bit RGBA with libpng's simplified API.
/// Returns a buffer the caller frees with free(), or NULL when the data is not a PNG libpng
/// can read or the image has more than max_pixels pixels.
static inline unsigned char *bok_png_decode_rgba(const unsigned char *data, size_t size, size_t max_pixels,
                                                 int *width, int *height) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) return NULL;
    if ((size_t)image.width * (size_t)image.height > max_pixels || image.width == 0 || image.height == 0) {
        png_image_free(&image);
        return NULL;
    }
    image.format = PNG_FORMAT_RGBA;
    size_t bytes = PNG_IMAGE_SIZE(image);
    unsigned char *buffer = malloc(bytes);
    if (buffer == NULL) {
        png_image_free(&image);
        return NULL;
    }
    if (!png_image_finish_read(&image, NULL, buffer, 0, NULL)) {
        free(buffer);
        png_image_free(&image);
        return NULL;
    }
    *width = (int)image.width;
    *height = (int)image.height;
    return buffer;
}
#endif
