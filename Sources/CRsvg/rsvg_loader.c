// Loads librsvg and cairo when the first SVG picture is decoded; see crsvg.h for why they are not linked.
#include "crsvg.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// librsvg's, cairo's and GLib's types, opaque here but for the two small structures passed by value.
typedef struct RsvgHandle RsvgHandle;
typedef struct cairo_surface cairo_surface_t;
typedef struct cairo cairo_t;
typedef struct GError GError;
typedef struct {
    double x, y, width, height;
} RsvgRectangle;
// rsvg.h's RsvgLength: a number and its unit (RSVG_UNIT_PERCENT is 0).
typedef struct {
    double length;
    int unit;
} RsvgLength;

// cairo.h: CAIRO_FORMAT_ARGB32, CAIRO_STATUS_SUCCESS.
enum { cairo_format_argb32 = 0, cairo_status_success = 0 };

static struct {
    RsvgHandle *(*handle_new_from_data)(const uint8_t *, size_t, GError **);
    int (*get_intrinsic_size_in_pixels)(RsvgHandle *, double *, double *);
    void (*get_intrinsic_dimensions)(RsvgHandle *, int *, RsvgLength *, int *, RsvgLength *, int *, RsvgRectangle *);
    int (*render_document)(RsvgHandle *, cairo_t *, const RsvgRectangle *, GError **);
    void (*object_unref)(void *);
    void (*error_free)(GError *);
    cairo_surface_t *(*image_surface_create)(int, int, int);
    int (*surface_status)(cairo_surface_t *);
    void (*surface_flush)(cairo_surface_t *);
    void (*surface_destroy)(cairo_surface_t *);
    unsigned char *(*image_surface_get_data)(cairo_surface_t *);
    int (*image_surface_get_stride)(cairo_surface_t *);
    cairo_t *(*create)(cairo_surface_t *);
    void (*destroy)(cairo_t *);
} api;

static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *rsvg = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL);
    void *cairo = dlopen("libcairo.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!rsvg || !cairo) return;
    // g_object_unref and g_error_free are GLib's, found through librsvg's handle among its dependencies.
#define FIND(library, field, name) if (!(*(void **)&api.field = dlsym(library, name))) return;
    FIND(rsvg, handle_new_from_data, "rsvg_handle_new_from_data")
    FIND(rsvg, get_intrinsic_size_in_pixels, "rsvg_handle_get_intrinsic_size_in_pixels")
    FIND(rsvg, get_intrinsic_dimensions, "rsvg_handle_get_intrinsic_dimensions")
    FIND(rsvg, render_document, "rsvg_handle_render_document")
    FIND(rsvg, object_unref, "g_object_unref") FIND(rsvg, error_free, "g_error_free")
    FIND(cairo, image_surface_create, "cairo_image_surface_create")
    FIND(cairo, surface_status, "cairo_surface_status") FIND(cairo, surface_flush, "cairo_surface_flush")
    FIND(cairo, surface_destroy, "cairo_surface_destroy")
    FIND(cairo, image_surface_get_data, "cairo_image_surface_get_data")
    FIND(cairo, image_surface_get_stride, "cairo_image_surface_get_stride")
    FIND(cairo, create, "cairo_create") FIND(cairo, destroy, "cairo_destroy")
#undef FIND
    loaded = 1;
}

int bok_svg_load(void) {
    pthread_once(&once, load);
    return loaded;
}

static RsvgHandle *open_document(const uint8_t *bytes, size_t length) {
    if (!bok_svg_load() || !bytes || length == 0) return NULL;
    GError *error = NULL;
    RsvgHandle *handle = api.handle_new_from_data(bytes, length, &error);
    if (error) api.error_free(error);
    return handle;
}

int bok_svg_size(const uint8_t *bytes, size_t length, double *width, double *height) {
    *width = 0;
    *height = 0;
    RsvgHandle *handle = open_document(bytes, length);
    if (!handle) return 0;
    int known = api.get_intrinsic_size_in_pixels(handle, width, height);
    if (!known) {
        // Sizes in percent (or none): the viewBox's proportions.
        int has_width = 0, has_height = 0, has_viewbox = 0;
        RsvgLength w, h;
        RsvgRectangle box;
        api.get_intrinsic_dimensions(handle, &has_width, &w, &has_height, &h, &has_viewbox, &box);
        if (has_viewbox && box.width > 0 && box.height > 0) {
            *width = box.width;
            *height = box.height;
            known = 1;
        }
    }
    api.object_unref(handle);
    return known && *width > 0 && *height > 0;
}

uint8_t *bok_svg_render_rgba(const uint8_t *bytes, size_t length, int width, int height) {
    if (width <= 0 || height <= 0 || width > 8192 || height > 8192) return NULL;
    RsvgHandle *handle = open_document(bytes, length);
    if (!handle) return NULL;
    uint8_t *rgba = NULL;
    cairo_surface_t *surface = api.image_surface_create(cairo_format_argb32, width, height);
    if (api.surface_status(surface) == cairo_status_success) {
        cairo_t *context = api.create(surface);
        RsvgRectangle viewport = {0, 0, width, height};
        GError *error = NULL;
        int drawn = api.render_document(handle, context, &viewport, &error);
        if (error) api.error_free(error);
        api.destroy(context);
        api.surface_flush(surface);
        const unsigned char *data = api.image_surface_get_data(surface);
        int stride = api.image_surface_get_stride(surface);
        if (drawn && data && (rgba = malloc((size_t)width * (size_t)height * 4))) {
            // ARGB32 is a native-endian 32-bit word with premultiplied alpha; RGBA bytes without.
            for (int y = 0; y < height; y++) {
                const uint32_t *row = (const uint32_t *)(data + (size_t)y * (size_t)stride);
                uint8_t *out = rgba + (size_t)y * (size_t)width * 4;
                for (int x = 0; x < width; x++) {
                    uint32_t pixel = row[x];
                    uint32_t alpha = pixel >> 24;
                    uint32_t red = (pixel >> 16) & 0xFF, green = (pixel >> 8) & 0xFF, blue = pixel & 0xFF;
                    if (alpha > 0 && alpha < 255) {
                        red = (red * 255 + alpha / 2) / alpha;
                        green = (green * 255 + alpha / 2) / alpha;
                        blue = (blue * 255 + alpha / 2) / alpha;
                    }
                    out[x * 4] = (uint8_t)(red > 255 ? 255 : red);
                    out[x * 4 + 1] = (uint8_t)(green > 255 ? 255 : green);
                    out[x * 4 + 2] = (uint8_t)(blue > 255 ? 255 : blue);
                    out[x * 4 + 3] = (uint8_t)alpha;
                }
            }
        }
    }
    api.surface_destroy(surface);
    api.object_unref(handle);
    return rgba;
}
