// Loads libjxl at the first JPEG XL picture; see cjxl.h for why it is not linked.
#include "cjxl.h"
#include <dlfcn.h>
#include <jxl/decode.h>
#include <pthread.h>
#include <stdlib.h>

static struct {
    __typeof__(JxlDecoderCreate) *create;
    __typeof__(JxlDecoderDestroy) *destroy;
    __typeof__(JxlDecoderSubscribeEvents) *subscribe;
    __typeof__(JxlDecoderSetInput) *set_input;
    __typeof__(JxlDecoderCloseInput) *close_input;
    __typeof__(JxlDecoderProcessInput) *process;
    __typeof__(JxlDecoderGetBasicInfo) *basic_info;
    __typeof__(JxlDecoderImageOutBufferSize) *buffer_size;
    __typeof__(JxlDecoderSetImageOutBuffer) *set_buffer;
} api;

static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libjxl.so.0.7", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
#define FIND(field, name) if (!(*(void **)&api.field = dlsym(library, name))) { dlclose(library); return; }
    FIND(create, "JxlDecoderCreate") FIND(destroy, "JxlDecoderDestroy")
    FIND(subscribe, "JxlDecoderSubscribeEvents") FIND(set_input, "JxlDecoderSetInput")
    FIND(close_input, "JxlDecoderCloseInput") FIND(process, "JxlDecoderProcessInput")
    FIND(basic_info, "JxlDecoderGetBasicInfo") FIND(buffer_size, "JxlDecoderImageOutBufferSize")
    FIND(set_buffer, "JxlDecoderSetImageOutBuffer")
#undef FIND
    loaded = 1;
}

/// Runs the decoder over the bytes: the size always, the pixels when `pixels` is given.
static int decode(const uint8_t *bytes, size_t length, long max_pixels, int *width, int *height, uint8_t **pixels) {
    *width = 0;
    *height = 0;
    pthread_once(&once, load);
    if (!loaded || !bytes || length == 0) return 0;
    JxlDecoder *decoder = api.create(NULL);
    if (!decoder) return 0;
    int events = JXL_DEC_BASIC_INFO | (pixels ? JXL_DEC_FULL_IMAGE : 0);
    JxlPixelFormat format = {4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    uint8_t *buffer = NULL;
    int done = 0;
    if (api.subscribe(decoder, events) == JXL_DEC_SUCCESS && api.set_input(decoder, bytes, length) == JXL_DEC_SUCCESS) {
        api.close_input(decoder);
        for (;;) {
            JxlDecoderStatus status = api.process(decoder);
            if (status == JXL_DEC_BASIC_INFO) {
                JxlBasicInfo info;
                if (api.basic_info(decoder, &info) != JXL_DEC_SUCCESS || info.xsize == 0 || info.ysize == 0) break;
                *width = (int)info.xsize;
                *height = (int)info.ysize;
                if (!pixels) {
                    done = 1;
                    break;
                }
                // Refused before a byte is allocated for it.
                if ((long)info.xsize * (long)info.ysize > max_pixels) break;
            } else if (status == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
                size_t size = 0;
                if (api.buffer_size(decoder, &format, &size) != JXL_DEC_SUCCESS
                    || size != (size_t)*width * (size_t)*height * 4 || !(buffer = malloc(size))
                    || api.set_buffer(decoder, &format, buffer, size) != JXL_DEC_SUCCESS)
                    break;
            } else if (status == JXL_DEC_FULL_IMAGE) {
                // The first frame is the picture.
                done = buffer != NULL;
                break;
            } else {
                // JXL_DEC_SUCCESS before a frame, an error, or input that ends too soon.
                break;
            }
        }
    }
    api.destroy(decoder);
    if (pixels && done) {
        *pixels = buffer;
    } else {
        free(buffer);
        if (pixels) {
            *width = 0;
            *height = 0;
        }
    }
    return done;
}

int bok_jxl_size(const uint8_t *bytes, size_t length, int *width, int *height) {
    return decode(bytes, length, 0, width, height, NULL);
}

uint8_t *bok_jxl_decode_rgba(const uint8_t *bytes, size_t length, long max_pixels, int *width, int *height) {
    uint8_t *pixels = NULL;
    return decode(bytes, length, max_pixels, width, height, &pixels) ? pixels : NULL;
}
