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

/* The levels: blocks of 8, 4 and 2 pixels on a side. */
_Static_assert(3 * LQ_RASTER_SMOOTH <= 36,
               "a smooth block's inner pixels must not need anti-aliasing");
#define RASTER_LEVELS 3

typedef struct raster_job {
    int w, h;
    lq_raster_trace trace;
    const void *ctx;
    uint8_t *rgb, *aa;
    float *depth;
    const uint8_t *marks;          /* the caller's, one per 4 × 4 block */
    uint8_t *state[RASTER_LEVELS]; /* per block of each level: RASTER_* */
    int s;                         /* the level being done: its block side */
} raster_job;

enum { RASTER_ROUGH = 0, RASTER_SMOOTH = 1, RASTER_INSIDE = 2 /* in a smooth larger block */ };

/* Rotated-grid offsets for the second look at edge pixels. */
static const double raster_sub[4][2] = {
    {0.375, 0.125}, {0.875, 0.375}, {0.625, 0.875}, {0.125, 0.625}};

static int raster_nb(int n, int s)
{
    return (n + s - 1) / s;
}

static int raster_level_of(int s)
{
    return s == 8 ? 0 : s == 4 ? 1 : 2;
}

static void raster_trace_px(const raster_job *J, int x, int y)
{
    double col[3];
    size_t c = (size_t)y * (size_t)J->w + (size_t)x;
    J->depth[c] = (float)J->trace(J->ctx, x + 0.5, y + 0.5, col);
    lq_srgb_encode(col, J->rgb + 3 * c);
}

/* 1 when the square of side s at pixel (x0, y0) has its four corners in the picture and
 * they agree (raster.h). */
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

/* A smooth block's pixels (all but its own corner) from its four corners: their
 * bilinear mean, bytes rounded, row by row (the sums of weights times bytes are exact
 * integers). */
static void raster_fill(const raster_job *J, int x0, int y0, int s)
{
    const size_t w = (size_t)J->w, c0 = (size_t)y0 * w + (size_t)x0;
    const size_t c[4] = {c0, c0 + (size_t)s, c0 + (size_t)s * w, c0 + (size_t)s * w + (size_t)s};
    const int n = s * s;
    const float inv = 1.0f / (float)n; /* exact: n is a power of two */
    int v[4][3];
    float d[4];
    for (int q = 0; q < 4; q++) {
        for (int k = 0; k < 3; k++) v[q][k] = J->rgb[3 * c[q] + (size_t)k];
        d[q] = J->depth[c[q]];
    }
    const int far = !(d[0] < INFINITY); /* then all four are (raster_smooth) */
    for (int b = 0; b < s; b++) {
        int L[3], R[3];
        const float dl = d[0] * (float)(s - b) + d[2] * (float)b;
        const float dr = d[1] * (float)(s - b) + d[3] * (float)b;
        for (int k = 0; k < 3; k++) {
            L[k] = v[0][k] * (s - b) + v[2][k] * b;
            R[k] = v[1][k] * (s - b) + v[3][k] * b;
        }
        for (int a = b == 0 ? 1 : 0; a < s; a++) {
            const size_t o = c0 + (size_t)b * w + (size_t)a;
            for (int k = 0; k < 3; k++)
                J->rgb[3 * o + (size_t)k] = (uint8_t)((L[k] * (s - a) + R[k] * a + n / 2) / n);
            J->depth[o] = far ? INFINITY : (dl * (float)(s - a) + dr * (float)a) * inv;
        }
    }
}

/* 1 when the caller marked a 4 × 4 block that the block of side s at (i, j) overlaps */
static int raster_marked(const raster_job *J, int i, int j, int s)
{
    const int mw = raster_nb(J->w, 4), mh = raster_nb(J->h, 4);
    const int k = s == 8 ? 2 : 1; /* 4 × 4 blocks across this one */
    const int mi = s == 2 ? i / 2 : i * k, mj = s == 2 ? j / 2 : j * k;
    for (int b = mj; b < mj + k && b < mh; b++)
        for (int a = mi; a < mi + k && a < mw; a++)
            if (J->marks[(size_t)b * (size_t)mw + (size_t)a]) return 1;
    return 0;
}

/* coarse rows j: pixel row 8j, every eighth column */
static void raster_coarse(void *ctx, int j0, int j1)
{
    const raster_job *J = ctx;
    for (int j = j0; j < j1; j++)
        for (int x = 0; x < J->w; x += 8) raster_trace_px(J, x, 8 * j);
}

/* Block rows [j0, j1) of the level J->s: a block inside a smooth larger one is done; a
 * smooth one takes its pixels from its corners; a rough (or marked) one traces the
 * points halfway along its sides and its centre, the next level's corners (at the last
 * level: its other three pixels). Every corner this reads is a pixel at a multiple of s,
 * which the levels before wrote. */
static void raster_level(void *ctx, int j0, int j1)
{
    const raster_job *J = ctx;
    const int s = J->s, half = s / 2, l = raster_level_of(s);
    const int nbx = raster_nb(J->w, s), pbx = raster_nb(J->w, 2 * s);
    for (int j = j0; j < j1; j++)
        for (int i = 0; i < nbx; i++) {
            uint8_t *st = &J->state[l][(size_t)j * (size_t)nbx + (size_t)i];
            const int x0 = s * i, y0 = s * j;
            if (l > 0 &&
                J->state[l - 1][(size_t)(j / 2) * (size_t)pbx + (size_t)(i / 2)] != RASTER_ROUGH) {
                *st = RASTER_INSIDE;
                continue;
            }
            if (!raster_marked(J, i, j, s) && raster_smooth(J, x0, y0, s)) {
                *st = RASTER_SMOOTH;
                raster_fill(J, x0, y0, s);
                continue;
            }
            *st = RASTER_ROUGH;
            const int right = x0 + half < J->w, below = y0 + half < J->h;
            if (right) raster_trace_px(J, x0 + half, y0);
            if (below) raster_trace_px(J, x0, y0 + half);
            if (right && below) raster_trace_px(J, x0 + half, y0 + half);
        }
}

/* rows [y0, y1), every pixel traced */
static void raster_all(void *ctx, int y0, int y1)
{
    const raster_job *J = ctx;
    for (int y = y0; y < y1; y++)
        for (int x = 0; x < J->w; x++) raster_trace_px(J, x, y);
}

/* 1 when pixels c and e differ sharply */
static int raster_differ(const uint8_t *rgb, size_t c, size_t e)
{
    const uint8_t *o = rgb + 3 * c, *q = rgb + 3 * e;
    return abs(o[0] - q[0]) + abs(o[1] - q[1]) + abs(o[2] - q[2]) > 36;
}

/* rows [y0, y1): a pixel is anti-aliased when it differs sharply from any of its four
 * neighbours. Inside a smooth 8 × 8 block every channel lies within LQ_RASTER_SMOOTH of
 * the block's others, so only its border pixels need looking at. */
static void raster_flag_edges(void *ctx, int y0, int y1)
{
    const raster_job *J = ctx;
    const size_t w = (size_t)J->w, h = (size_t)J->h, nbx = (size_t)raster_nb(J->w, 8);
    for (size_t y = (size_t)y0; y < (size_t)y1; y++) {
        const int inner_row = y % 8 != 0 && y % 8 != 7;
        const uint8_t *st = J->state[0] ? J->state[0] + (y / 8) * nbx : NULL;
        for (size_t x = 0; x < w; x++) {
            const size_t c = y * w + x;
            if (st && inner_row && x % 8 == 1 && st[x / 8] == RASTER_SMOOTH) {
                memset(J->aa + c, 0, 6); /* x .. x + 5: the block's inner columns */
                x += 5;
                continue;
            }
            J->aa[c] = (uint8_t)((x + 1 < w && raster_differ(J->rgb, c, c + 1)) ||
                                 (x > 0 && raster_differ(J->rgb, c, c - 1)) ||
                                 (y + 1 < h && raster_differ(J->rgb, c, c + w)) ||
                                 (y > 0 && raster_differ(J->rgb, c, c - w)));
        }
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

size_t lq_raster_blocks(int w, int h)
{
    size_t n = (size_t)raster_nb(w, 4) * (size_t)raster_nb(h, 4);
    for (int s = 8; s >= 2; s /= 2) n += (size_t)raster_nb(w, s) * (size_t)raster_nb(h, s);
    return n;
}

void lq_raster_render(int w, int h, lq_raster_trace trace, const void *ctx, bool adaptive,
                      uint8_t *rgb, float *depth, uint8_t *aa, uint8_t *blocks)
{
    raster_job J = {w, h, trace, ctx, rgb, aa, depth, blocks, {NULL}, 0};
    if (adaptive) {
        uint8_t *next = blocks + (size_t)raster_nb(w, 4) * (size_t)raster_nb(h, 4);
        for (int s = 8, l = 0; s >= 2; s /= 2, l++) {
            J.state[l] = next;
            next += (size_t)raster_nb(w, s) * (size_t)raster_nb(h, s);
        }
        /* every eighth pixel, then blocks of 8, 4 and 2: smooth ones filled, rough ones
         * split ... */
        lq_parallel_for(raster_nb(h, 8), 1, raster_coarse, &J);
        for (J.s = 8; J.s >= 2; J.s /= 2)
            lq_parallel_for(raster_nb(h, J.s), J.s == 2 ? 4 : 1, raster_level, &J);
    } else {
        lq_parallel_for(h, 4, raster_all, &J);
    }
    lq_parallel_for(h, 8, raster_flag_edges, &J);
    lq_parallel_for(h, 4, raster_edges, &J);
}
