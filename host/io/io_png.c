/*
 * io_png.c — PNG previews and heightmaps through libpng (io.h).
 *
 * libpng reports errors by longjmp. Each setjmp lives in a small function (png_encode,
 * png_decode) that touches only the png_io struct it is handed, never its own locals,
 * so nothing the caller frees afterwards is indeterminate after the jump. The error
 * callback records one line naming the file ("FILE: bad PNG: <libpng's reason>") and
 * the caller releases everything in its one `fail:` path.
 *
 * Reading: palette images are expanded to RGB(A) and 1/2/4-bit gray to 8 bits (libpng
 * scales them to the full range); 16-bit samples are kept for lq_png_read_gray and
 * reduced to 8 bits for lq_png_read_rgb. Alpha is ignored. Gray = Rec. 709 luma of
 * RGB, so a gray image written as RGB reads back as the same gray. Images are limited
 * to 65536 pixels on a side and LQ_PNG_MAX_PIXELS in all (io.h), checked on the header
 * before decoding. Input files must be regular files (core/input.h).
 */
#include "io/io.h"

#include "core/common.h"
#include "core/input.h"

#include <errno.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

typedef struct png_io {
    const char *path;
    int code; /* LQ_EINPUT reading, LQ_ESIM writing */
    FILE *f;
    png_structp png;
    png_infop info;
    int want8; /* reduce 16-bit samples to 8 */
    int w, h, channels, depth;
    uint8_t *pixels;
    png_bytep *rows;
} png_io;

static void png_on_error(png_structp png, png_const_charp msg)
{
    png_io *io = png_get_error_ptr(png);
    lq_error(io->code, "%s: %s: %s", io->path,
             io->code == LQ_EINPUT ? "bad PNG" : "cannot write PNG", msg);
    png_longjmp(png, 1);
}

static void png_on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

static void png_on_read(png_structp png, png_bytep data, size_t n)
{
    png_io *io = png_get_io_ptr(png);
    if (fread(data, 1, n, io->f) != n) png_error(png, "file is truncated");
}

static void png_on_write(png_structp png, png_bytep data, size_t n)
{
    png_io *io = png_get_io_ptr(png);
    if (fwrite(data, 1, n, io->f) != n) png_error(png, strerror(errno));
}

static void png_on_flush(png_structp png)
{
    (void)png;
}

/* --- writer ----------------------------------------------------------------------- */

static int png_encode(png_io *io, const uint8_t *rgb)
{
    if (setjmp(png_jmpbuf(io->png))) return LQ_ESIM;
    png_set_write_fn(io->png, io, png_on_write, png_on_flush);
    png_set_IHDR(io->png, io->info, (png_uint_32)io->w, (png_uint_32)io->h, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(io->png, io->info);
    for (int y = 0; y < io->h; y++) png_write_row(io->png, rgb + (size_t)y * (size_t)io->w * 3);
    png_write_end(io->png, NULL);
    return LQ_OK;
}

int lq_png_write_rgb(const char *path, int w, int h, const uint8_t *rgb)
{
    lq_file file = {0};
    png_io io = {.path = path, .code = LQ_ESIM, .w = w, .h = h};
    if (w < 1 || h < 1 || w > (1 << 24) || h > (1 << 24) || !rgb)
        return lq_error(LQ_ESIM, "%s: bad PNG size %dx%d", path, w, h);
    if (lq_file_open(&file, path)) return LQ_ESIM;
    io.f = file.f;
    io.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &io, png_on_error, png_on_warning);
    if (io.png) io.info = png_create_info_struct(io.png);
    if (!io.png || !io.info) {
        lq_error(LQ_ESIM, "%s: out of memory starting libpng", path);
        goto fail;
    }
    if (png_encode(&io, rgb)) goto fail;
    png_destroy_write_struct(&io.png, &io.info);
    return lq_file_commit(&file);
fail:
    if (io.png) png_destroy_write_struct(&io.png, io.info ? &io.info : NULL);
    lq_file_abort(&file);
    return LQ_ESIM;
}

/* --- readers ---------------------------------------------------------------------- */

static int png_decode(png_io *io)
{
    size_t rowbytes;
    if (setjmp(png_jmpbuf(io->png))) return LQ_EINPUT;
    png_set_read_fn(io->png, io, png_on_read);
    png_set_sig_bytes(io->png, 8);
    png_set_user_limits(io->png, 65536, 65536);
    png_read_info(io->png, io->info);
    /* the header's size, checked before anything is decoded: a small file may declare
     * (and deflate may hold) billions of pixels */
    uint64_t pixels =
        (uint64_t)png_get_image_width(io->png, io->info) * png_get_image_height(io->png, io->info);
    if (pixels > LQ_PNG_MAX_PIXELS) {
        lq_error(LQ_EINPUT, "%s: the image is %u x %u pixels, more than liquidcl reads (%llu)",
                 io->path, (unsigned)png_get_image_width(io->png, io->info),
                 (unsigned)png_get_image_height(io->png, io->info),
                 (unsigned long long)LQ_PNG_MAX_PIXELS);
        png_longjmp(io->png, 1);
    }
    int type = png_get_color_type(io->png, io->info);
    int depth = png_get_bit_depth(io->png, io->info);
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(io->png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(io->png);
    if (io->want8 && depth == 16) png_set_strip_16(io->png);
    png_set_interlace_handling(io->png);
    png_read_update_info(io->png, io->info);
    io->w = (int)png_get_image_width(io->png, io->info);
    io->h = (int)png_get_image_height(io->png, io->info);
    io->channels = png_get_channels(io->png, io->info);
    io->depth = png_get_bit_depth(io->png, io->info);
    rowbytes = png_get_rowbytes(io->png, io->info);
    if (io->channels < 1 || io->channels > 4 || (io->depth != 8 && io->depth != 16) ||
        rowbytes < (size_t)io->w * (size_t)io->channels * (size_t)(io->depth / 8))
        png_error(io->png, "unsupported pixel layout");
    io->pixels = malloc(rowbytes * (size_t)io->h);
    io->rows = malloc(sizeof *io->rows * (size_t)io->h);
    if (!io->pixels || !io->rows) png_error(io->png, "image too large for host memory");
    for (int y = 0; y < io->h; y++) io->rows[y] = io->pixels + rowbytes * (size_t)y;
    png_read_image(io->png, io->rows);
    png_read_end(io->png, NULL);
    return LQ_OK;
}

/* Opens and decodes path into io (released by png_release in every case). */
static int png_load(png_io *io)
{
    uint8_t sig[8];
    int rc = lq_input_open_asset(io->path, &io->f);
    if (rc) return rc;
    if (fread(sig, 1, 8, io->f) != 8 || png_sig_cmp(sig, 0, 8) != 0)
        return lq_error(LQ_EINPUT, "%s: not a PNG file", io->path);
    io->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, io, png_on_error, png_on_warning);
    if (io->png) io->info = png_create_info_struct(io->png);
    if (!io->png || !io->info)
        return lq_error(LQ_ESIM, "%s: out of memory starting libpng", io->path);
    return png_decode(io);
}

static void png_release(png_io *io)
{
    if (io->png) png_destroy_read_struct(&io->png, io->info ? &io->info : NULL, NULL);
    if (io->f) fclose(io->f);
    free(io->pixels);
    free(io->rows);
}

/* Sample c of pixel x in row y, scaled to [0, 1]. */
static float png_sample(const png_io *io, int x, int y, int c)
{
    const uint8_t *p =
        io->rows[y] + ((size_t)x * (size_t)io->channels + (size_t)c) * (size_t)(io->depth / 8);
    if (io->depth == 16) return (float)((p[0] << 8 | p[1]) / 65535.0);
    return (float)(p[0] / 255.0);
}

int lq_png_read_gray(const char *path, int *w, int *h, float **gray)
{
    png_io io = {.path = path, .code = LQ_EINPUT};
    float *out = NULL;
    int rc;
    *gray = NULL;
    *w = *h = 0;
    rc = png_load(&io);
    if (rc) goto fail;
    out = lq_alloc((size_t)io.w * (size_t)io.h * sizeof *out);
    if (!out) {
        rc = LQ_ESIM;
        goto fail;
    }
    for (int y = 0; y < io.h; y++) {
        for (int x = 0; x < io.w; x++) {
            float *o = &out[(size_t)y * (size_t)io.w + (size_t)x];
            if (io.channels >= 3) {
                double r = png_sample(&io, x, y, 0), g = png_sample(&io, x, y, 1),
                       b = png_sample(&io, x, y, 2);
                *o = r == g && g == b ? (float)r : (float)(0.2126 * r + 0.7152 * g + 0.0722 * b);
            } else {
                *o = png_sample(&io, x, y, 0);
            }
        }
    }
    *w = io.w;
    *h = io.h;
    *gray = out;
    png_release(&io);
    return LQ_OK;
fail:
    free(out);
    png_release(&io);
    return rc;
}

int lq_png_read_rgb(const char *path, int *w, int *h, uint8_t **rgb)
{
    png_io io = {.path = path, .code = LQ_EINPUT, .want8 = 1};
    uint8_t *out = NULL;
    int rc;
    *rgb = NULL;
    *w = *h = 0;
    rc = png_load(&io);
    if (rc) goto fail;
    out = lq_alloc((size_t)io.w * (size_t)io.h * 3);
    if (!out) {
        rc = LQ_ESIM;
        goto fail;
    }
    for (int y = 0; y < io.h; y++) {
        const uint8_t *p = io.rows[y];
        uint8_t *o = out + (size_t)y * (size_t)io.w * 3;
        for (int x = 0; x < io.w; x++, p += io.channels, o += 3) {
            int gray = io.channels < 3;
            o[0] = p[0];
            o[1] = p[gray ? 0 : 1];
            o[2] = p[gray ? 0 : 2];
        }
    }
    *w = io.w;
    *h = io.h;
    *rgb = out;
    png_release(&io);
    return LQ_OK;
fail:
    free(out);
    png_release(&io);
    return rc;
}
