// The first frame only, read record by record: DGifSlurp would decode every frame of an
// animation into memory, which a hostile file could make as large as it likes.
#include "cgif.h"
#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t position;
} source_t;

static int read_bytes(GifFileType *gif, GifByteType *out, int length) {
    source_t *source = gif->UserData;
    size_t left = source->size - source->position;
    size_t count = (size_t)length < left ? (size_t)length : left;
    memcpy(out, source->data + source->position, count);
    source->position += count;
    return (int)count;
}

unsigned char *bok_gif_decode_rgba(const unsigned char *data, size_t size, size_t max_pixels, int *width, int *height) {
    source_t source = { data, size, 0 };
    int error = 0;
    GifFileType *gif = DGifOpen(&source, read_bytes, &error);
    if (!gif) return NULL;
    int screen_width = gif->SWidth, screen_height = gif->SHeight;
    unsigned char *rgba = NULL;
    int transparent = -1;
    if (screen_width <= 0 || screen_height <= 0 || (size_t)screen_width * (size_t)screen_height > max_pixels) goto done;
    GifRecordType type;
    do {
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) goto failed;
        if (type == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType *extension = NULL;
            if (DGifGetExtension(gif, &code, &extension) == GIF_ERROR) goto failed;
            if (code == GRAPHICS_EXT_FUNC_CODE && extension && extension[0] >= 4 && (extension[1] & 1)) transparent = extension[4];
            while (extension) {
                if (DGifGetExtensionNext(gif, &extension) == GIF_ERROR) goto failed;
            }
        } else if (type == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageDesc(gif) == GIF_ERROR) goto failed;
            int frame_width = gif->Image.Width, frame_height = gif->Image.Height;
            int left = gif->Image.Left, top = gif->Image.Top;
            ColorMapObject *map = gif->Image.ColorMap ? gif->Image.ColorMap : gif->SColorMap;
            if (!map || frame_width <= 0 || frame_height <= 0 || (size_t)frame_width * (size_t)frame_height > max_pixels) goto failed;
            rgba = calloc((size_t)screen_width * (size_t)screen_height, 4);
            GifPixelType *line = malloc((size_t)frame_width);
            if (!rgba || !line) { free(line); goto failed; }
            // Interlaced images come in four passes of rows.
            static const int offsets[] = { 0, 4, 2, 1 }, steps[] = { 8, 8, 4, 2 };
            int passes = gif->Image.Interlace ? 4 : 1;
            for (int pass = 0; pass < passes; pass++) {
                int start = gif->Image.Interlace ? offsets[pass] : 0, step = gif->Image.Interlace ? steps[pass] : 1;
                for (int row = start; row < frame_height; row += step) {
                    if (DGifGetLine(gif, line, frame_width) == GIF_ERROR) { free(line); goto failed; }
                    int y = top + row;
                    if (y < 0 || y >= screen_height) continue;
                    for (int column = 0; column < frame_width; column++) {
                        int x = left + column, index = line[column];
                        if (x < 0 || x >= screen_width || index == transparent || index >= map->ColorCount) continue;
                        unsigned char *pixel = rgba + ((size_t)y * (size_t)screen_width + (size_t)x) * 4;
                        pixel[0] = map->Colors[index].Red;
                        pixel[1] = map->Colors[index].Green;
                        pixel[2] = map->Colors[index].Blue;
                        pixel[3] = 255;
                    }
                }
            }
            free(line);
            *width = screen_width;
            *height = screen_height;
            goto done;
        }
    } while (type != TERMINATE_RECORD_TYPE);
failed:
    free(rgba);
    rgba = NULL;
done:
    DGifCloseFile(gif, &error);
    return rgba;
}
