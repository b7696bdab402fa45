#ifndef BOK_CJPEG_SHIM_H
#define BOK_CJPEG_SHIM_H
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <jpeglib.h>

/// libjpeg reports errors by calling error_exit, which must not return: jump back to the
/// decoder instead of letting the default handler end the process. (Swift cannot longjmp, so
/// the whole decode lives here in C.)
struct bok_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
};

static void bok_jpeg_error_exit(j_common_ptr info) {
    struct bok_jpeg_error *error = (struct bok_jpeg_error *)info->err;
    longjmp(error->jump, 1);
}

static void bok_jpeg_quiet(j_common_ptr info) { (void)info; }

/// Decodes a JPEG held in memory to 8-bit RGB, letting libjpeg scale it down by 1/2, 1/4 or
/// 1/8 while it is at least min_width pixels wide (a terminal shows few pixels).
/// Returns a buffer the caller frees with free(), or NULL on any error or over max_pixels.
static inline unsigned char *bok_jpeg_decode_rgb(const unsigned char *data, unsigned long size, int min_width,
                                                 size_t max_pixels, int *width, int *height) {
    struct jpeg_decompress_struct info;
    struct bok_jpeg_error error;
    unsigned char *volatile pixels = NULL;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = bok_jpeg_error_exit;
    error.manager.output_message = bok_jpeg_quiet;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&info);
        free(pixels);
        return NULL;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, size);
    if (jpeg_read_header(&info, TRUE) != JPEG_HEADER_OK) {
        jpeg_destroy_decompress(&info);
        return NULL;
    }
    info.out_color_space = JCS_RGB;
    info.scale_num = 1;
    info.scale_denom = 1;
    while (info.scale_denom < 8 && (int)(info.image_width / (info.scale_denom * 2)) >= min_width) info.scale_denom *= 2;
    jpeg_start_decompress(&info);
    size_t w = info.output_width, h = info.output_height;
    if (w == 0 || h == 0 || w * h > max_pixels || info.output_components != 3) {
        jpeg_destroy_decompress(&info);
        return NULL;
    }
    pixels = malloc(w * h * 3);
    if (pixels == NULL) {
        jpeg_destroy_decompress(&info);
        return NULL;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + (size_t)info.output_scanline * w * 3;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    *width = (int)w;
    *height = (int)h;
    return pixels;
}
#endif
