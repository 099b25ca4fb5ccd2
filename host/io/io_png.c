/*
 * io_png.c — PNG previews (written here, deflated on every core) and heightmaps (read
 * through libpng) (io.h).
 *
 * Reading goes through libpng, writing does not (see the writer's section). libpng
 * reports errors by longjmp. The setjmp lives in a small function (png_decode) that touches only
 * the png_io struct it is handed, never its own locals, so nothing the caller frees afterwards is
 * indeterminate after the jump. The error callback records one line naming the file ("FILE: bad
 * PNG: <libpng's reason>") and the caller releases everything in its one `fail:` path.
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
#include "core/parallel.h"

#include <errno.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

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

/* --- writer ----------------------------------------------------------------------- *
 * Previews are written every frame beside the solver, so the writer spends the host's
 * cores on them. The picture is cut into strips of rows; each strip's rows (filter byte
 * 0, "none", then the pixels) are deflated on its own thread (zlib level 3) into a raw
 * deflate stream that ends byte-aligned with a sync flush (the last: with the final
 * block), so their concatenation is one valid deflate stream, as pigz does; their
 * Adler-32 sums combine into the zlib trailer. One IDAT chunk carries it. Against
 * libpng's defaults (adaptive filters, level 6) a 960-pixel frame costs about a fifth
 * of the time on one core, for files about 30 % larger. Decoders see an ordinary PNG
 * (tests/io/test_png.c reads it back through libpng). */

#define PNG_STRIPS 8

typedef struct png_strip {
    int y0, y1;
    uint8_t *out;
    size_t len;
    unsigned long adler;
    int failed;
} png_strip;

typedef struct png_job {
    const uint8_t *rgb;
    int w, h, nstrips;
    png_strip *strip;
} png_job;

static void png_deflate_strips(void *ctx, int s0, int s1)
{
    png_job *J = ctx;
    const size_t row = (size_t)J->w * 3;
    for (int s = s0; s < s1; s++) {
        png_strip *S = &J->strip[s];
        const size_t raw = (row + 1) * (size_t)(S->y1 - S->y0);
        z_stream z;
        uint8_t none = 0;
        memset(&z, 0, sizeof z);
        S->failed = 1;
        if (deflateInit2(&z, 3, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) continue;
        const size_t cap = deflateBound(&z, (uLong)raw) + 16;
        S->out = malloc(cap);
        S->adler = adler32(0L, Z_NULL, 0);
        z.next_out = S->out;
        z.avail_out = (uInt)cap;
        int ok = S->out != NULL;
        for (int y = S->y0; ok && y < S->y1; y++) {
            const uint8_t *px = J->rgb + (size_t)y * row;
            const int last = y + 1 == S->y1;
            S->adler = adler32(S->adler, &none, 1);
            S->adler = adler32(S->adler, px, (uInt)row);
            z.next_in = &none;
            z.avail_in = 1;
            ok = deflate(&z, Z_NO_FLUSH) == Z_OK;
            z.next_in = (Bytef *)px;
            z.avail_in = (uInt)row;
            int flush = !last ? Z_NO_FLUSH : s + 1 == J->nstrips ? Z_FINISH : Z_SYNC_FLUSH;
            int rc = ok ? deflate(&z, flush) : Z_STREAM_ERROR;
            ok = flush == Z_FINISH ? rc == Z_STREAM_END : rc == Z_OK;
            ok = ok && z.avail_in == 0;
        }
        S->len = cap - z.avail_out;
        deflateEnd(&z);
        S->failed = !ok;
    }
}

/* A chunk: length, type, data, CRC of type and data. */
static int png_chunk(FILE *f, const char *type, const png_strip *parts, int nparts,
                     const uint8_t *head, size_t nhead, const uint8_t *tail, size_t ntail)
{
    size_t len = nhead + ntail;
    for (int j = 0; j < nparts; j++) len += parts[j].len;
    const uint8_t be[4] = {(uint8_t)(len >> 24), (uint8_t)(len >> 16), (uint8_t)(len >> 8),
                           (uint8_t)len};
    unsigned long crc = crc32(0L, (const Bytef *)type, 4);
    int ok = fwrite(be, 1, 4, f) == 4 && fwrite(type, 1, 4, f) == 4;
    /* (crc32 of a NULL buffer returns 0, not crc: skip empty parts) */
    ok = ok && (!nhead || fwrite(head, 1, nhead, f) == nhead);
    if (nhead) crc = crc32(crc, head, (uInt)nhead);
    for (int j = 0; ok && j < nparts; j++) {
        ok = fwrite(parts[j].out, 1, parts[j].len, f) == parts[j].len;
        crc = crc32(crc, parts[j].out, (uInt)parts[j].len);
    }
    ok = ok && (!ntail || fwrite(tail, 1, ntail, f) == ntail);
    if (ntail) crc = crc32(crc, tail, (uInt)ntail);
    const uint8_t c[4] = {(uint8_t)(crc >> 24), (uint8_t)(crc >> 16), (uint8_t)(crc >> 8),
                          (uint8_t)crc};
    return ok && fwrite(c, 1, 4, f) == 4;
}

int lq_png_write_rgb(const char *path, int w, int h, const uint8_t *rgb)
{
    lq_file file = {0};
    png_strip strip[PNG_STRIPS];
    png_job J = {rgb, w, h, 0, strip};
    int ok = 0;
    if (w < 1 || h < 1 || w > (1 << 24) || h > (1 << 24) || !rgb)
        return lq_error(LQ_ESIM, "%s: bad PNG size %dx%d", path, w, h);
    J.nstrips = h < PNG_STRIPS ? h : PNG_STRIPS;
    memset(strip, 0, sizeof strip);
    for (int s = 0; s < J.nstrips; s++) {
        strip[s].y0 = (int)((int64_t)h * s / J.nstrips);
        strip[s].y1 = (int)((int64_t)h * (s + 1) / J.nstrips);
    }
    lq_parallel_for(J.nstrips, 1, png_deflate_strips, &J);
    unsigned long adler = adler32(0L, Z_NULL, 0);
    for (int s = 0; s < J.nstrips; s++) {
        if (strip[s].failed) {
            lq_error(LQ_ESIM, "%s: cannot write PNG: deflate failed (out of memory?)", path);
            goto done;
        }
        const size_t raw = ((size_t)w * 3 + 1) * (size_t)(strip[s].y1 - strip[s].y0);
        adler = adler32_combine(adler, strip[s].adler, (z_off_t)raw);
    }
    if (lq_file_open(&file, path)) goto done;
    {
        static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
        const uint8_t ihdr[13] = {(uint8_t)(w >> 24),
                                  (uint8_t)(w >> 16),
                                  (uint8_t)(w >> 8),
                                  (uint8_t)w,
                                  (uint8_t)(h >> 24),
                                  (uint8_t)(h >> 16),
                                  (uint8_t)(h >> 8),
                                  (uint8_t)h,
                                  8,
                                  2,
                                  0,
                                  0,
                                  0};          /* 8-bit RGB, deflate, no interlace */
        const uint8_t zhead[2] = {0x78, 0x5e}; /* deflate, 32 KiB window, "fast" level */
        const uint8_t ztail[4] = {(uint8_t)(adler >> 24), (uint8_t)(adler >> 16),
                                  (uint8_t)(adler >> 8), (uint8_t)adler};
        ok = fwrite(sig, 1, 8, file.f) == 8 &&
             png_chunk(file.f, "IHDR", NULL, 0, ihdr, 13, NULL, 0) &&
             png_chunk(file.f, "IDAT", strip, J.nstrips, zhead, 2, ztail, 4) &&
             png_chunk(file.f, "IEND", NULL, 0, NULL, 0, NULL, 0);
    }
    if (!ok) {
        lq_error(LQ_ESIM, "%s: cannot write PNG: %s", path, strerror(errno));
        lq_file_abort(&file);
    } else {
        ok = lq_file_commit(&file) == LQ_OK;
    }
done:
    for (int s = 0; s < J.nstrips; s++) free(strip[s].out);
    return ok ? LQ_OK : LQ_ESIM;
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
