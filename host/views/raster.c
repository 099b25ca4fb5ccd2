/*
 * raster.c — adaptive sampling of a preview (raster.h): a coarse pass, a fill pass that
 * interpolates smooth 2 × 2 blocks and traces the rest, and the anti-aliasing pass.
 */
#include "views/raster.h"

#include "core/parallel.h"
#include "views/srgb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct raster_job {
    int w, h;
    int bw, bh; /* 4 × 4 blocks across and down */
    lq_raster_trace trace;
    const void *ctx;
    uint8_t *rgb, *aa, *smooth4; /* smooth4: one flag per 4 × 4 block */
    float *depth;
} raster_job;

/* Rotated-grid offsets for the second look at edge pixels. */
static const double raster_sub[4][2] = {
    {0.375, 0.125}, {0.875, 0.375}, {0.625, 0.875}, {0.125, 0.625}};

static void raster_trace_px(const raster_job *J, int x, int y)
{
    double col[3];
    size_t c = (size_t)y * (size_t)J->w + (size_t)x;
    J->depth[c] = (float)J->trace(J->ctx, x + 0.5, y + 0.5, col);
    lq_srgb_encode(col, J->rgb + 3 * c);
}

/* 1 when the pixels (x0, y0) and (x0 + s, y0 + s)'s square's corners, all traced, agree
 * (raster.h); 0 when a corner lies outside the picture. */
static int raster_smooth(const raster_job *J, int x0, int y0, int s)
{
    if (x0 + s >= J->w || y0 + s >= J->h) return 0;
    const size_t w = (size_t)J->w, c0 = (size_t)y0 * w + (size_t)x0;
    const size_t c[4] = {c0, c0 + (size_t)s, c0 + (size_t)s * w, c0 + (size_t)s * w + (size_t)s};
    int far = 0;
    float lo = INFINITY, hi = 0;
    for (int k = 0; k < 3; k++) {
        int mn = 255, mx = 0;
        for (int q = 0; q < 4; q++) {
            int v = J->rgb[3 * c[q] + (size_t)k];
            mn = v < mn ? v : mn;
            mx = v > mx ? v : mx;
        }
        if (mx - mn > LQ_RASTER_SMOOTH) return 0;
    }
    for (int q = 0; q < 4; q++) {
        float d = J->depth[c[q]];
        if (!(d < INFINITY)) {
            far++;
            continue;
        }
        lo = d < lo ? d : lo;
        hi = d > hi ? d : hi;
    }
    if (far) return far == 4;
    return hi - lo <= 0.04f * lo;
}

/* Pixel (x0 + a, y0 + b) from the corners of the square of side s at (x0, y0): the
 * bilinear mean of their bytes (rounded) and distances. */
static inline void raster_lerp(const raster_job *J, int x0, int y0, int s, int a, int b)
{
    const size_t w = (size_t)J->w, c0 = (size_t)y0 * w + (size_t)x0;
    const size_t c[4] = {c0, c0 + (size_t)s, c0 + (size_t)s * w, c0 + (size_t)s * w + (size_t)s};
    const int wt[4] = {(s - a) * (s - b), a * (s - b), (s - a) * b, a * b}, n = s * s;
    const size_t o = c0 + (size_t)b * w + (size_t)a;
    float d = 0;
    for (int k = 0; k < 3; k++) {
        int sum = n / 2;
        for (int q = 0; q < 4; q++) sum += wt[q] * J->rgb[3 * c[q] + (size_t)k];
        J->rgb[3 * o + (size_t)k] = (uint8_t)(sum / n);
    }
    for (int q = 0; q < 4; q++)
        if (wt[q]) d += J->depth[c[q]] * (float)wt[q];
    J->depth[o] = d * (1.0f / (float)n); /* n is 4 or 16: exact */
}

/* block rows j: pixel row 4j, every fourth column */
static void raster_coarse(void *ctx, int j0, int j1)
{
    const raster_job *J = ctx;
    for (int j = j0; j < j1; j++)
        for (int x = 0; x < J->w; x += 4) raster_trace_px(J, x, 4 * j);
}

/* smooth4 on entry: nonzero where the caller wants the block traced pixel by pixel; on
 * return 1 where the block is smooth, 2 where the caller marked it, 0 where it is rough */
static void raster_flag(void *ctx, int j0, int j1)
{
    const raster_job *J = ctx;
    for (int j = j0; j < j1; j++)
        for (int i = 0; i < J->bw; i++) {
            uint8_t *f = &J->smooth4[(size_t)j * (size_t)J->bw + (size_t)i];
            *f = *f ? 2 : (uint8_t)raster_smooth(J, 4 * i, 4 * j, 4);
        }
}

/* rows [y0, y1), every pixel traced */
static void raster_all(void *ctx, int y0, int y1)
{
    const raster_job *J = ctx;
    for (int y = y0; y < y1; y++)
        for (int x = 0; x < J->w; x++) raster_trace_px(J, x, y);
}

/* 1 when the 4 × 4 block (i, j) exists and is smooth */
static int raster_block_smooth(const raster_job *J, int i, int j)
{
    return i >= 0 && j >= 0 && i < J->bw && j < J->bh &&
           J->smooth4[(size_t)j * (size_t)J->bw + (size_t)i] == 1;
}

/* A smooth block's pixels from its corners (raster_lerp's values, found row by row:
 * the sums of weights times bytes are the same integers), but the even pixels of its
 * top edge when `top` and of its left edge when `left`, which are traced. */
static void raster_fill4(const raster_job *J, int x0, int y0, int top, int left)
{
    const size_t w = (size_t)J->w, c0 = (size_t)y0 * w + (size_t)x0;
    const size_t c[4] = {c0, c0 + 4, c0 + 4 * w, c0 + 4 * w + 4};
    int v[4][3];
    float d[4];
    for (int q = 0; q < 4; q++) {
        for (int k = 0; k < 3; k++) v[q][k] = J->rgb[3 * c[q] + (size_t)k];
        d[q] = J->depth[c[q]];
    }
    const int far = !(d[0] < INFINITY); /* all four alike (raster_smooth) */
    for (int b = 0; b < 4; b++) {
        int L[3], R[3];
        float dl = d[0] * (float)(4 - b) + d[2] * (float)b,
              dr = d[1] * (float)(4 - b) + d[3] * (float)b;
        for (int k = 0; k < 3; k++) {
            L[k] = v[0][k] * (4 - b) + v[2][k] * b;
            R[k] = v[1][k] * (4 - b) + v[3][k] * b;
        }
        for (int a = b == 0 ? 1 : 0; a < 4; a++) {
            const int even = a % 2 == 0 && b % 2 == 0;
            if (even && ((b == 0 && top) || (a == 0 && left))) {
                raster_trace_px(J, x0 + a, y0 + b);
                continue;
            }
            const size_t o = c0 + (size_t)b * w + (size_t)a;
            for (int k = 0; k < 3; k++)
                J->rgb[3 * o + (size_t)k] = (uint8_t)((L[k] * (4 - a) + R[k] * a + 8) >> 4);
            J->depth[o] = far ? INFINITY : (dl * (float)(4 - a) + dr * (float)a) * (1.0f / 16);
        }
    }
}

/* block rows j: a smooth block takes its pixels from its corners, except the even
 * pixels of its top and left edges that a rough neighbour above or to the left needs
 * traced; a rough block traces its even pixels. */
static void raster_level4(void *ctx, int j0, int j1)
{
    const raster_job *J = ctx;
    for (int j = j0; j < j1; j++)
        for (int i = 0; i < J->bw; i++) {
            const int x0 = 4 * i, y0 = 4 * j;
            if (raster_block_smooth(J, i, j)) {
                raster_fill4(J, x0, y0, !raster_block_smooth(J, i, j - 1),
                             !raster_block_smooth(J, i - 1, j));
                continue;
            }
            for (int b = 0; b < 4 && y0 + b < J->h; b += 2)
                for (int a = 0; a < 4 && x0 + a < J->w; a += 2)
                    if (a || b) raster_trace_px(J, x0 + a, y0 + b); /* (0, 0): coarse */
        }
}

/* block rows j: the 2 × 2 squares of each rough 4 × 4 block, as the smooth blocks' are
 * done: smooth squares from their corners, rough ones traced (all of a marked block's) */
static void raster_level2(void *ctx, int j0, int j1)
{
    const raster_job *J = ctx;
    for (int j = j0; j < j1; j++)
        for (int i = 0; i < J->bw; i++) {
            if (raster_block_smooth(J, i, j)) continue;
            const int marked = J->smooth4[(size_t)j * (size_t)J->bw + (size_t)i] == 2;
            for (int y = 4 * j; y < 4 * j + 4 && y < J->h; y += 2)
                for (int x = 4 * i; x < 4 * i + 4 && x < J->w; x += 2) {
                    const int right = x + 1 < J->w, below = y + 1 < J->h;
                    if (!marked && raster_smooth(J, x, y, 2)) {
                        raster_lerp(J, x, y, 2, 1, 0);
                        raster_lerp(J, x, y, 2, 0, 1);
                        raster_lerp(J, x, y, 2, 1, 1);
                        continue;
                    }
                    if (right) raster_trace_px(J, x + 1, y);
                    if (below) raster_trace_px(J, x, y + 1);
                    if (right && below) raster_trace_px(J, x + 1, y + 1);
                }
        }
}

/* 1 when pixels c and e differ sharply */
static int raster_differ(const uint8_t *rgb, size_t c, size_t e)
{
    const uint8_t *o = rgb + 3 * c, *q = rgb + 3 * e;
    return abs(o[0] - q[0]) + abs(o[1] - q[1]) + abs(o[2] - q[2]) > 36;
}

/* rows [y0, y1): a pixel is anti-aliased when it differs sharply from any of its four
 * neighbours */
static void raster_flag_edges(void *ctx, int y0, int y1)
{
    const raster_job *J = ctx;
    const size_t w = (size_t)J->w, h = (size_t)J->h;
    for (size_t y = (size_t)y0; y < (size_t)y1; y++)
        for (size_t x = 0; x < w; x++) {
            const size_t c = y * w + x;
            J->aa[c] = (uint8_t)((x + 1 < w && raster_differ(J->rgb, c, c + 1)) ||
                                 (x > 0 && raster_differ(J->rgb, c, c - 1)) ||
                                 (y + 1 < h && raster_differ(J->rgb, c, c + w)) ||
                                 (y > 0 && raster_differ(J->rgb, c, c - w)));
        }
}

static void raster_edges(void *ctx, int y0, int y1)
{
    const raster_job *J = ctx;
    const size_t w = (size_t)J->w;
    for (size_t y = (size_t)y0; y < (size_t)y1; y++)
        for (size_t x = 0; x < w; x++) {
            double sum[3] = {0, 0, 0}, col[3];
            if (!J->aa[y * w + x]) continue;
            for (int s = 0; s < 4; s++) {
                J->trace(J->ctx, x + raster_sub[s][0], y + raster_sub[s][1], col);
                for (int c = 0; c < 3; c++) sum[c] += 0.25 * col[c];
            }
            lq_srgb_encode(sum, J->rgb + 3 * (y * w + x));
        }
}

void lq_raster_render(int w, int h, lq_raster_trace trace, const void *ctx, bool adaptive,
                      uint8_t *rgb, float *depth, uint8_t *aa, uint8_t *blocks)
{
    raster_job J = {w, h, (w + 3) / 4, (h + 3) / 4, trace, ctx, rgb, aa, blocks, depth};
    if (adaptive) {
        /* every fourth pixel, which 4 × 4 blocks are smooth, their pixels or the rough
         * blocks' even ones, then the rough blocks' 2 × 2 squares ... */
        lq_parallel_for(J.bh, 1, raster_coarse, &J);
        lq_parallel_for(J.bh, 4, raster_flag, &J);
        lq_parallel_for(J.bh, 1, raster_level4, &J);
        lq_parallel_for(J.bh, 1, raster_level2, &J);
    } else {
        lq_parallel_for(h, 4, raster_all, &J);
    }
    /* ... then four more rays where a pixel differs sharply from a neighbour
     * (silhouettes, shorelines, shadow edges), averaged in linear light */
    lq_parallel_for(h, 8, raster_flag_edges, &J);
    lq_parallel_for(h, 4, raster_edges, &J);
}
