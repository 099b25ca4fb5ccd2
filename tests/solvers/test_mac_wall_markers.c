/*
 * test_mac_wall_markers.c — a marker whose step ends in a SOLID cell slides along it
 * (kernels/mac/markers_cell.h): the move along the first axis (x, y, z in turn) whose drop
 * leaves it outside the SOLID cells is dropped, the others are kept.
 *
 * Before, the whole step was undone: a marker pressed on a rock by a tiny normal velocity
 * (an air-band face's, 0.008 m/s) froze there for good, its cell stayed SURFACE and
 * Gates' open pair above it gained g δt every step (Moonlight Cove: max speed growing at
 * 9.8 m/s² from frame 45 to 14-17 m/s at frame 75). Cases, reference twin and OpenCL
 * (PoCL), which must agree bit for bit:
 *   - u = 1, v = 0.5 everywhere, a SOLID cell ahead along x: the marker keeps its x and
 *     moves by v δt along y (before the fix it stayed where it was: this check fails);
 *   - a marker beside the SOLID cell, and one in the open, move freely;
 *   - headed into a SOLID corner (x alone, y alone and both blocked): it stays put.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/check.h"
#include "core/common.h"
#include "core/field.h"
#include "ops/mac/markers.h"

typedef struct side {
    lq_field u, v, w, f, pos;
    lq_markers_ops ops;
} side;

static int side_open(side *s, lq_ctx *ctx, int nx, int ny, int nz, int cap)
{
    memset(s, 0, sizeof *s);
    int rc = lq_field_alloc(ctx, &s->u, "u", nx + 1, ny, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->v, "v", nx, ny + 1, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->w, "w", nx, ny, nz + 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->f, "flags", nx, ny, nz, 1);
    if (!rc) rc = lq_field_alloc(ctx, &s->pos, "pos", 3, cap, 1, 4);
    if (!rc) rc = lq_markers_ops_init(&s->ops, ctx, nx, ny, nz);
    CHECK_OK(rc);
    return rc;
}

static void side_close(side *s)
{
    lq_markers_ops_release(&s->ops);
    lq_field *fs[] = {&s->u, &s->v, &s->w, &s->f, &s->pos};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
}

static void fill(lq_field *f, float x)
{
    size_t n = f->count;
    float *h = malloc(n * sizeof *h);
    for (size_t q = 0; q < n; q++) h[q] = x;
    CHECK_OK(lq_field_upload(f, h));
    free(h);
}

/* Runs one advection step of the 4 markers p0 on ctx; the result in out. */
static void run(lq_ctx *ctx, const float *p0, float *out)
{
    const int nx = 8, ny = 6, nz = 6;
    side A;
    if (side_open(&A, ctx, nx, ny, nz, 4)) return;
    fill(&A.u, 1.0f);
    fill(&A.v, 0.5f);
    fill(&A.w, 0.0f);
    unsigned char fl[8 * 6 * 6] = {0};
    fl[LQ_MAC_CELL(5, 1, 1, nx, ny)] = LQ_MAC_SOLID; /* ahead of markers 0 and 1 */
    fl[LQ_MAC_CELL(5, 4, 4, nx, ny)] = LQ_MAC_SOLID; /* a corner for marker 2 */
    fl[LQ_MAC_CELL(4, 5, 4, nx, ny)] = LQ_MAC_SOLID;
    fl[LQ_MAC_CELL(5, 5, 4, nx, ny)] = LQ_MAC_SOLID;
    CHECK_OK(lq_field_upload(&A.f, fl));
    CHECK_OK(lq_field_upload(&A.pos, p0));
    lq_markers_params prm = {0.3f, 1, 1, 1, 0};
    CHECK_OK(lq_markers_advect(&A.ops, &A.pos, 4, &A.u, &A.v, &A.w, &A.f, &prm));
    CHECK_OK(lq_field_download(&A.pos, out));
    side_close(&A);
}

int main(void)
{
    lq_ctx ref, cl;
    if (lq_ctx_open(&ref, "ref", false) || lq_ctx_open(&cl, "opencl", false)) {
        fprintf(stderr, "%s\n", lq_error_message());
        CHECK(!"an OpenCL device is needed");
        return 1;
    }
    /* 0: heads into (5, 1, 1); 1: beside it (j = 2); 2: into the corner (5, 4, 4),
     * (4, 5, 4), (5, 5, 4); 3: in the open */
    float p0[12] = {4.9f, 1.5f, 1.5f, 4.9f, 2.5f, 1.5f, 4.9f, 4.9f, 4.5f, 1.5f, 1.5f, 1.5f};
    float a[12], b[12];
    run(&ref, p0, a);
    run(&cl, p0, b);
    CHECK(memcmp(a, b, sizeof a) == 0); /* twins bit for bit */
    for (int q = 0; q < 4; q++)
        fprintf(stderr,
                "marker %d: (%.4f %.4f %.4f) -> ref (%.4f %.4f %.4f), OpenCL (%.4f %.4f %.4f)\n", q,
                p0[3 * q], p0[3 * q + 1], p0[3 * q + 2], a[3 * q], a[3 * q + 1], a[3 * q + 2],
                b[3 * q], b[3 * q + 1], b[3 * q + 2]);
    /* 0 slides: x kept (the SOLID cell ahead), y moved by v δt = 0.15 */
    CHECK(a[0] == 4.9f && a[2] == 1.5f);
    CHECK_NEAR(a[1], 1.65f, 1e-6);
    /* 1 beside the SOLID cell: moves by (0.3, 0.15) */
    CHECK_NEAR(a[3], 5.2f, 1e-6);
    CHECK_NEAR(a[4], 2.65f, 1e-6);
    /* 2 into the corner: x alone dropped lands in (4, 5, 4), SOLID; y alone dropped lands
     * in (5, 4, 4), SOLID; z alone dropped: still (5, 5, 4); so it stays put */
    CHECK(a[6] == 4.9f && a[7] == 4.9f && a[8] == 4.5f);
    /* 3 free */
    CHECK_NEAR(a[9], 1.8f, 1e-6);
    CHECK_NEAR(a[10], 1.65f, 1e-6);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
    CHECK_DONE();
}
