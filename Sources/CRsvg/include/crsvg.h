#ifndef BOK_CRSVG_H
#define BOK_CRSVG_H
// librsvg (Debian librsvg2-2, headers in librsvg2-dev) draws a book's SVG pictures: SVG covers,
// SVG pages in the spine and drawings inline in a chapter, which bok otherwise showed as their
// titles. It draws with cairo.
//
// Both are loaded with dlopen when the first SVG picture is decoded rather than linked: librsvg
// brings GLib, cairo, Pango and libxml2 with it, which every start of `bok read` would pay for
// although few books have SVG. librsvg's header needs GLib's and cairo's headers (and pkg-config),
// so the few functions used are declared in rsvg_loader.c.
#include <stddef.h>
#include <stdint.h>

/// Loads librsvg-2.so.2 and libcairo.so.2; 1 when they are there, else 0.
int bok_svg_load(void);

/// The size an SVG document asks for, in pixels at 96 dpi (its `width` and `height`, else its
/// `viewBox`'s); 0 when the bytes are not SVG librsvg reads, or it says no size.
int bok_svg_size(const uint8_t *bytes, size_t length, double *width, double *height);

/// Draws an SVG document into `width × height` RGBA pixels (alpha not premultiplied), its
/// picture fitted inside and centred. No file or address outside the document is read: the
/// document has no base, so librsvg refuses every external reference.
///
/// Returns the pixels (malloc'ed; the caller frees them), or NULL when librsvg is missing, the
/// bytes are not SVG, or the size is out of range.
uint8_t *bok_svg_render_rgba(const uint8_t *bytes, size_t length, int width, int height);
#endif
