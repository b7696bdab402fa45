// Loads libavif at the first AVIF picture; see cavif.h for why it is not linked.
#include "cavif.h"
#include <avif/avif.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static struct {
    __typeof__(avifDecoderCreate) *create;
    __typeof__(avifDecoderDestroy) *destroy;
    __typeof__(avifDecoderSetIOMemory) *set_memory;
    __typeof__(avifDecoderParse) *parse;
    __typeof__(avifDecoderNextImage) *next_image;
    __typeof__(avifRGBImageSetDefaults) *rgb_defaults;
    __typeof__(avifRGBImageAllocatePixels) *rgb_allocate;
    __typeof__(avifRGBImageFreePixels) *rgb_free;
    __typeof__(avifImageYUVToRGB) *to_rgb;
} api;

static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libavif.so.15", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
#define FIND(field, name) if (!(*(void **)&api.field = dlsym(library, name))) { dlclose(library); return; }
    FIND(create, "avifDecoderCreate") FIND(destroy, "avifDecoderDestroy")
    FIND(set_memory, "avifDecoderSetIOMemory") FIND(parse, "avifDecoderParse")
    FIND(next_image, "avifDecoderNextImage") FIND(rgb_defaults, "avifRGBImageSetDefaults")
    FIND(rgb_allocate, "avifRGBImageAllocatePixels") FIND(rgb_free, "avifRGBImageFreePixels")
    FIND(to_rgb, "avifImageYUVToRGB")
#undef FIND
    loaded = 1;
}

/// A decoder over the bytes with its header read, or NULL.
static avifDecoder *open_picture(const uint8_t *bytes, size_t length, long max_pixels) {
    pthread_once(&once, load);
    if (!loaded || !bytes || length == 0) return NULL;
    avifDecoder *decoder = api.create();
    if (!decoder) return NULL;
    // libavif refuses a picture of more pixels than this before it allocates for it.
    decoder->imageSizeLimit = max_pixels > 0 && max_pixels < AVIF_DEFAULT_IMAGE_SIZE_LIMIT
        ? (uint32_t)max_pixels : AVIF_DEFAULT_IMAGE_SIZE_LIMIT;
    decoder->maxThreads = 1;
    if (api.set_memory(decoder, bytes, length) != AVIF_RESULT_OK || api.parse(decoder) != AVIF_RESULT_OK) {
        api.destroy(decoder);
        return NULL;
    }
    return decoder;
}

int bok_avif_size(const uint8_t *bytes, size_t length, int *width, int *height) {
    *width = 0;
    *height = 0;
    avifDecoder *decoder = open_picture(bytes, length, 0);
    if (!decoder) return 0;
    *width = (int)decoder->image->width;
    *height = (int)decoder->image->height;
    api.destroy(decoder);
    return *width > 0 && *height > 0;
}

uint8_t *bok_avif_decode_rgba(const uint8_t *bytes, size_t length, long max_pixels, int *width, int *height) {
    *width = 0;
    *height = 0;
    avifDecoder *decoder = open_picture(bytes, length, max_pixels);
    if (!decoder) return NULL;
    uint8_t *out = NULL;
    if (api.next_image(decoder) == AVIF_RESULT_OK && decoder->image->width > 0 && decoder->image->height > 0
        && (long)decoder->image->width * (long)decoder->image->height <= max_pixels) {
        avifRGBImage rgb;
        memset(&rgb, 0, sizeof rgb);
        api.rgb_defaults(&rgb, decoder->image);
        rgb.format = AVIF_RGB_FORMAT_RGBA;
        rgb.depth = 8;
        api.rgb_allocate(&rgb);
        if (rgb.pixels && api.to_rgb(decoder->image, &rgb) == AVIF_RESULT_OK) {
            size_t row = (size_t)rgb.width * 4;
            out = malloc(row * rgb.height);
            if (out) {
                for (uint32_t y = 0; y < rgb.height; y++) memcpy(out + y * row, rgb.pixels + y * rgb.rowBytes, row);
                *width = (int)rgb.width;
                *height = (int)rgb.height;
            }
        }
        api.rgb_free(&rgb);
    }
    api.destroy(decoder);
    return out;
}
