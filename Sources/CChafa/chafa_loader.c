// Loads chafa when the first picture is drawn; see cchafa.h for why it is not linked.
#include "cchafa.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// chafa's types, opaque here, and the one GLib structure read: a GString's text and length.
typedef struct ChafaCanvasConfig ChafaCanvasConfig;
typedef struct ChafaCanvas ChafaCanvas;
typedef struct ChafaTermDb ChafaTermDb;
typedef struct ChafaTermInfo ChafaTermInfo;
typedef struct {
    char *str;
    size_t len;
    size_t allocated_len;
} GString;

// chafa-common.h: CHAFA_PIXEL_RGBA8_UNASSOCIATED. chafa-canvas-config.h: CHAFA_CANVAS_MODE_TRUECOLOR.
enum { pixel_rgba8_unassociated = 4, canvas_mode_truecolor = 0 };

static struct {
    ChafaCanvasConfig *(*config_new)(void);
    void (*config_unref)(ChafaCanvasConfig *);
    void (*config_set_geometry)(ChafaCanvasConfig *, int, int);
    void (*config_set_cell_geometry)(ChafaCanvasConfig *, int, int);
    void (*config_set_pixel_mode)(ChafaCanvasConfig *, int);
    void (*config_set_canvas_mode)(ChafaCanvasConfig *, int);
    ChafaCanvas *(*canvas_new)(const ChafaCanvasConfig *);
    void (*canvas_unref)(ChafaCanvas *);
    void (*draw_all_pixels)(ChafaCanvas *, int, const uint8_t *, int, int, int);
    GString *(*print)(ChafaCanvas *, ChafaTermInfo *);
    ChafaTermDb *(*term_db_get_default)(void);
    ChafaTermInfo *(*term_db_get_fallback_info)(ChafaTermDb *);
    char *(*g_string_free)(GString *, int);
} api;

/// The sequences chafa writes pictures with: its fallback terminal has those of every protocol;
/// which one is written is the canvas's pixel mode.
static ChafaTermInfo *sequences;
static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libchafa.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    // g_string_free is GLib's, found through the handle among chafa's own dependencies.
#define FIND(field, name) if (!(*(void **)&api.field = dlsym(library, name))) { dlclose(library); return; }
    FIND(config_new, "chafa_canvas_config_new") FIND(config_unref, "chafa_canvas_config_unref")
    FIND(config_set_geometry, "chafa_canvas_config_set_geometry")
    FIND(config_set_cell_geometry, "chafa_canvas_config_set_cell_geometry")
    FIND(config_set_pixel_mode, "chafa_canvas_config_set_pixel_mode")
    FIND(config_set_canvas_mode, "chafa_canvas_config_set_canvas_mode")
    FIND(canvas_new, "chafa_canvas_new") FIND(canvas_unref, "chafa_canvas_unref")
    FIND(draw_all_pixels, "chafa_canvas_draw_all_pixels") FIND(print, "chafa_canvas_print")
    FIND(term_db_get_default, "chafa_term_db_get_default")
    FIND(term_db_get_fallback_info, "chafa_term_db_get_fallback_info") FIND(g_string_free, "g_string_free")
#undef FIND
    sequences = api.term_db_get_fallback_info(api.term_db_get_default());
    if (!sequences) {
        dlclose(library);
        return;
    }
    loaded = 1;
}

int bok_chafa_load(void) {
    pthread_once(&once, load);
    return loaded;
}

char *bok_chafa_encode(const uint8_t *rgba, int width, int height, int stride, int columns, int rows,
                       int cell_width, int cell_height, bok_chafa_mode mode, size_t *length) {
    *length = 0;
    if (!bok_chafa_load() || !rgba || width <= 0 || height <= 0 || stride < width * 4 || columns <= 0 || rows <= 0
        || cell_width <= 0 || cell_height <= 0 || mode < BOK_CHAFA_SYMBOLS || mode > BOK_CHAFA_ITERM2)
        return NULL;
    ChafaCanvasConfig *config = api.config_new();
    if (!config) return NULL;
    api.config_set_geometry(config, columns, rows);
    api.config_set_cell_geometry(config, cell_width, cell_height);
    api.config_set_pixel_mode(config, (int)mode);
    api.config_set_canvas_mode(config, canvas_mode_truecolor);
    ChafaCanvas *canvas = api.canvas_new(config);
    api.config_unref(config);
    if (!canvas) return NULL;
    api.draw_all_pixels(canvas, pixel_rgba8_unassociated, rgba, width, height, stride);
    GString *printed = api.print(canvas, sequences);
    api.canvas_unref(canvas);
    if (!printed) return NULL;
    char *bytes = malloc(printed->len + 1);
    if (bytes) {
        memcpy(bytes, printed->str, printed->len);
        bytes[printed->len] = 0;
        *length = printed->len;
    }
    api.g_string_free(printed, 1);
    return bytes;
}
