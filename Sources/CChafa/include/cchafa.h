#ifndef BOK_CCHAFA_H
#define BOK_CCHAFA_H
// Chafa (Debian libchafa-dev) encodes the reader's pictures for terminals that draw pixels:
// Sixel, the kitty graphics protocol and iTerm2's inline images, and symbols as a fallback.
//
// The library is loaded with dlopen when the first picture is drawn rather than linked:
// libchafa.so.0 brings GLib with it, which every start of `bok read` would pay for in time and
// memory although most pages have no picture. Chafa's header needs GLib's headers (and
// pkg-config) to compile, so the few functions used are declared in chafa_loader.c with
// chafa's own enum values, which are part of the ABI of libchafa.so.0.
#include <stddef.h>
#include <stdint.h>

/// How a picture is written, as chafa's ChafaPixelMode numbers them.
typedef enum bok_chafa_mode {
    BOK_CHAFA_SYMBOLS = 0,
    BOK_CHAFA_SIXEL = 1,
    BOK_CHAFA_KITTY = 2,
    BOK_CHAFA_ITERM2 = 3,
} bok_chafa_mode;

/// Loads libchafa.so.0; 1 when it is there (and bok_chafa_encode may be called), else 0.
int bok_chafa_load(void);

/// Encodes `width × height` RGBA pixels (`stride` bytes a row, alpha not premultiplied) to fill
/// `columns × rows` cells of `cell_width × cell_height` pixels, in `mode`.
///
/// Returns the bytes to write to the terminal (malloc'ed; the caller frees them) and their count
/// in `length`, or NULL when chafa is not loaded or the arguments are out of range.
char *bok_chafa_encode(const uint8_t *rgba, int width, int height, int stride, int columns, int rows,
                       int cell_width, int cell_height, bok_chafa_mode mode, size_t *length);
#endif
