/*
 * test_raster.c — views/raster.h's adaptive sampling against tracing every pixel, on
 * scenes whose answer is known:
 *  1. adaptive off: exactly a traced centre per pixel, then the rotated-grid samples
 *     where neighbours differ (the pictures both previews drew before);
 *  2. a smooth gradient over a far background: within a byte of the full picture,
 *     about one ray per sixteen pixels, and the background's distance stays infinite;
 *  3. a half-plane edge (any angle): byte for byte the full picture, since a block
 *     whose four corners lie on one side of a straight edge lies wholly on that side;
 *  4. a line one pixel wide between the coarse samples is lost unless the caller marks
 *     its blocks, and found when it does;
 *  5. odd sizes (the right and bottom blocks lack corners) and a 1 × 1 picture.
 */
#include "lib/check.h"
#include "core/common.h"
#include "views/raster.h"
#include "views/srgb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct scene {
    int kind; /* 0 gradient, 1 half-plane, 2 thin line */
    double a, b, c;
    long rays;
} scene;

static double trace(const void *ctx, double sx, double sy, double col[3])
{
    scene *S = (scene *)ctx;
    __atomic_fetch_add(&S->rays, 1, __ATOMIC_RELAXED);
    switch (S->kind) {
    case 0: /* a slow gradient on the lower half, sky above */
        if (sy < 100) {
            col[0] = col[1] = col[2] = 0.8;
            return INFINITY;
        }
        col[0] = 0.2 + 0.5 * sx / 640;
        col[1] = 0.3 + 0.4 * sy / 400;
        col[2] = 0.5;
        return 10 + sy / 100;
    case 1: { /* a*x + b*y < c: dark, else light */
        int in = S->a * sx + S->b * sy < S->c;
        col[0] = col[1] = col[2] = in ? 0.05 : 0.9;
        return in ? 5 : 50;
    }
    default: { /* grey, with a vertical line one pixel wide at x in [c, c + 1) */
        int on = sx >= S->c && sx < S->c + 1;
        col[0] = on ? 1 : 0.3;
        col[1] = col[2] = 0.3;
        return 20;
    }
    }
}

typedef struct pic {
    int w, h;
    uint8_t *rgb, *aa, *blocks;
    float *depth;
} pic;

static void pic_alloc(pic *p, int w, int h)
{
    p->w = w;
    p->h = h;
    p->rgb = calloc((size_t)w * h, 3);
    p->aa = calloc((size_t)w * h, 1);
    p->depth = calloc((size_t)w * h, sizeof(float));
    p->blocks = calloc(lq_raster_blocks(w, h), 1);
}

static void pic_free(pic *p)
{
    free(p->rgb);
    free(p->aa);
    free(p->depth);
    free(p->blocks);
}

static void render(pic *p, scene *S, bool adaptive)
{
    memset(p->blocks, 0, lq_raster_blocks(p->w, p->h));
    S->rays = 0;
    lq_raster_render(p->w, p->h, trace, S, adaptive, p->rgb, p->depth, p->aa, p->blocks);
}

static int worst_diff(const pic *a, const pic *b)
{
    int worst = 0;
    for (size_t q = 0; q < 3 * (size_t)a->w * a->h; q++)
        worst = LQ_MAX(worst, abs(a->rgb[q] - b->rgb[q]));
    return worst;
}

int main(void)
{
    const int W = 640, H = 400;
    pic full, fast;
    pic_alloc(&full, W, H);
    pic_alloc(&fast, W, H);

    /* 1: adaptive off is a centre per pixel, then anti-aliasing */
    scene edge = {.kind = 1, .a = 0.3, .b = 1, .c = 250};
    render(&full, &edge, false);
    long naa = 0;
    for (int q = 0; q < W * H; q++) naa += full.aa[q];
    CHECK_MSG(edge.rays == (long)W * H + 4 * naa && naa > 0, "rays %ld for %d pixels, %ld aa",
              edge.rays, W * H, naa);
    {
        int wrong = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                double col[3];
                if (full.aa[y * W + x]) continue;
                trace(&edge, x + 0.5, y + 0.5, col);
                wrong += full.rgb[3 * (y * W + x)] != lq_srgb_byte(col[0]);
            }
        CHECK_MSG(wrong == 0, "%d pixels are not their centre's colour", wrong);
    }

    /* 2: smooth gradient and sky */
    scene grad = {.kind = 0};
    render(&full, &grad, false);
    render(&fast, &grad, true);
    CHECK_MSG(worst_diff(&full, &fast) <= 1, "gradient: a byte off by %d",
              worst_diff(&full, &fast));
    CHECK_MSG(grad.rays < (long)W * H / 10, "gradient: %ld rays for %d pixels", grad.rays, W * H);
    int sky_ok = 1;
    for (int x = 0; x < W; x++)
        sky_ok &= isinf(fast.depth[50 * W + x]) && fast.depth[300 * W + x] > 10;
    CHECK(sky_ok);

    /* 3: half-planes at several angles: byte for byte, cheaper */
    const double planes[3][3] = {{0.3, 1, 250}, {1, -0.7, 100}, {-1, -0.2, -420}};
    for (int k = 0; k < 3; k++) {
        scene e = {.kind = 1, .a = planes[k][0], .b = planes[k][1], .c = planes[k][2]};
        render(&full, &e, false);
        long rays_full = e.rays;
        render(&fast, &e, true);
        CHECK_MSG(memcmp(full.rgb, fast.rgb, 3 * (size_t)W * H) == 0,
                  "half-plane %d: pictures differ (worst byte %d)", k, worst_diff(&full, &fast));
        CHECK_MSG(e.rays < rays_full / 3, "half-plane %d: %ld rays against %ld", k, e.rays,
                  rays_full);
    }

    /* 4: a one-pixel line at x = 201 (between coarse columns 200 and 204) */
    scene line = {.kind = 2, .c = 201};
    render(&full, &line, false);
    render(&fast, &line, true);
    CHECK_MSG(fast.rgb[3 * (200 * W + 201)] == fast.rgb[3 * (200 * W + 210)],
              "the unmarked line was expected to fall between the samples");
    memset(fast.blocks, 0, lq_raster_blocks(W, H));
    for (int j = 0; j < (H + 3) / 4; j++) fast.blocks[(size_t)j * ((W + 3) / 4) + 50] = 1;
    line.rays = 0;
    lq_raster_render(W, H, trace, &line, true, fast.rgb, fast.depth, fast.aa, fast.blocks);
    CHECK_MSG(memcmp(full.rgb, fast.rgb, 3 * (size_t)W * H) == 0,
              "marked line: pictures differ (worst byte %d)", worst_diff(&full, &fast));

    /* 5: odd sizes and the smallest picture */
    const int sizes[4][2] = {{37, 23}, {5, 3}, {1, 1}, {4, 9}};
    for (int k = 0; k < 4; k++) {
        pic a, b;
        pic_alloc(&a, sizes[k][0], sizes[k][1]);
        pic_alloc(&b, sizes[k][0], sizes[k][1]);
        scene e = {.kind = 1, .a = 1, .b = 1, .c = (sizes[k][0] + sizes[k][1]) / 2.0 + 0.25};
        render(&a, &e, false);
        render(&b, &e, true);
        CHECK_MSG(memcmp(a.rgb, b.rgb, 3 * (size_t)a.w * a.h) == 0, "%d x %d: pictures differ", a.w,
                  a.h);
        pic_free(&a);
        pic_free(&b);
    }
    pic_free(&full);
    pic_free(&fast);
    CHECK_DONE();
}
