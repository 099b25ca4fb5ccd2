/*
 * markers.c — launchers of the marker-particle operations (see markers.h; Foster &
 * Metaxas 1996 §4.1) and the host-side seeding of liquid regions. Each launcher
 * dispatches to the reference twin or binds its arguments and enqueues; nothing here
 * allocates in the step loop (the caller owns positions and counts).
 */
#include "ops/mac/markers.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/common.h"

static const char *const lq_markers_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", "kernels/mac/markers_cell.h",
    "kernels/mac/markers.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_markers_kernels[] = {
    LQ_KERNEL(lq_markers_ops, advect, "markers_advect"),
    LQ_KERNEL(lq_markers_ops, clear, "markers_clear"),
    LQ_KERNEL(lq_markers_ops, count, "markers_count"),
    LQ_KERNEL(lq_markers_ops, label, "markers_label"),
};
static const lq_program lq_markers_program =
    LQ_PROGRAM("XYZ", lq_markers_sources, lq_markers_kernels);

int lq_markers_ops_init(lq_markers_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    *o = (lq_markers_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz};
    return lq_program_build(&lq_markers_program, o, &o->program, ctx, nx, ny, nz, "");
}

void lq_markers_ops_release(lq_markers_ops *o)
{
    lq_program_release(&lq_markers_program, o, &o->program);
}

/* The fields must have the grid's shape (a programmer error otherwise). */
static void lq_markers_check_shapes(const lq_markers_ops *o, const lq_field *pos, int n,
                                    const lq_field *flags)
{
    (void)o;
    (void)pos;
    (void)n;
    (void)flags;
    assert(n >= 0 && pos->elem == 4 && pos->count >= (size_t)3 * n);
    assert(flags->elem == 1 && flags->count == (size_t)o->nx * o->ny * o->nz);
}

int lq_markers_advect(lq_markers_ops *o, lq_field *pos, int n, const lq_field *u, const lq_field *v,
                      const lq_field *w, const lq_field *flags, const lq_markers_params *prm)
{
    lq_markers_check_shapes(o, pos, n, flags);
    assert(u->count == (size_t)(o->nx + 1) * o->ny * o->nz);
    assert(v->count == (size_t)o->nx * (o->ny + 1) * o->nz);
    assert(w->count == (size_t)o->nx * o->ny * (o->nz + 1));
    if (IS_REF(o)) {
        lq_markers_ref_advect(pos, n, u, v, w, flags, prm);
        return LQ_OK;
    }
    lq_markers_coef c = lq_markers_coef_of(prm, o->nx, o->ny, o->nz);
    float dt = prm->dt;
    lq_arg a[] = {LQ_MEM(pos),   LQ_VAL(n),     LQ_MEM(u),     LQ_MEM(v),     LQ_MEM(w),
                  LQ_MEM(flags), LQ_VAL(c.idx), LQ_VAL(c.idy), LQ_VAL(c.idz), LQ_VAL(c.lx),
                  LQ_VAL(c.ly),  LQ_VAL(c.lz),  LQ_VAL(dt)};
    return lq_kernel_launch(&o->advect, lq_range_1d((size_t)n, 0), LQ_ARGS(a));
}

int lq_markers_classify(lq_markers_ops *o, const lq_field *pos, int n, lq_field *flags,
                        lq_field *count, const lq_markers_params *prm)
{
    lq_markers_check_shapes(o, pos, n, flags);
    assert(count->elem == 4 && count->count == flags->count);
    if (IS_REF(o)) {
        lq_markers_ref_classify(pos, n, flags, count, prm);
        return LQ_OK;
    }
    lq_markers_coef c = lq_markers_coef_of(prm, o->nx, o->ny, o->nz);
    size_t cells = flags->count;
    lq_arg ca[] = {LQ_MEM(count), LQ_MEM(flags)};
    lq_arg na[] = {LQ_MEM(count), LQ_MEM(pos),   LQ_VAL(n),    LQ_MEM(flags),
                   LQ_VAL(c.idx), LQ_VAL(c.idy), LQ_VAL(c.idz)};
    int rules = lq_markers_rules(prm);
    lq_arg la[] = {LQ_MEM(flags), LQ_MEM(count), LQ_VAL(rules)};
    int rc = lq_kernel_launch(&o->clear, lq_range_1d(cells, 0), LQ_ARGS(ca));
    if (!rc) rc = lq_kernel_launch(&o->count, lq_range_1d((size_t)n, 0), LQ_ARGS(na));
    if (!rc) rc = lq_kernel_launch(&o->label, lq_range_3d(o->nx, o->ny, o->nz), LQ_ARGS(la));
    return rc;
}

/* --- seeding ------------------------------------------------------------------------ */

bool lq_markers_shape_inside(const lq_markers_shape *s, double x, double y, double z)
{
    if (s->kind == LQ_MARKERS_BOX)
        return x >= s->a[0] && x <= s->b[0] && y >= s->a[1] && y <= s->b[1] && z >= s->a[2] &&
               z <= s->b[2];
    if (s->kind == LQ_MARKERS_WAVE) {
        double xa = s->axis == 2 ? z : x;
        bool in_box = x >= s->a[0] && x <= s->b[0] && z >= s->a[2] && z <= s->b[2];
        return in_box && y >= s->a[1] && y <= s->level + s->amp * cos(s->k * (xa - s->x0));
    }
    double ex = x - s->a[0], ey = y - s->a[1], ez = z - s->a[2];
    return ex * ex + ey * ey + ez * ez <= (double)s->r * s->r;
}

int lq_markers_seed(int nx, int ny, int nz, float dx, float dy, float dz,
                    const unsigned char *flags, int nshapes, const lq_markers_shape *shapes,
                    int per_cell, uint64_t seed, float *pos, size_t capacity, size_t *count)
{
    *count = 0;
    int dim = nz > 1 ? 3 : 2, s = 1;
    while ((dim == 3 ? s * s * s : s * s) < per_cell) s++;
    if (per_cell < 1 || (dim == 3 ? s * s * s : s * s) != per_cell)
        return lq_error(
            LQ_EINPUT, "markers: %d particles per cell is not a %s (use e.g. %s) for a %dD grid",
            per_cell, dim == 3 ? "cube" : "square", dim == 3 ? "8 or 27" : "4 or 9", dim);
    lq_rng rng;
    lq_rng_seed(&rng, seed);
    size_t m = 0;
    int sz = dim == 3 ? s : 1;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                if (flags && lq_markers_fixed(flags[LQ_MAC_CELL(i, j, k, nx, ny)])) continue;
                for (int c = 0; c < sz; c++)
                    for (int b = 0; b < s; b++)
                        for (int a = 0; a < s; a++) {
                            /* centre of the sub-cell ± ¼ of it, in cells */
                            double jx = 0.5 * (lq_rng_uniform(&rng) - 0.5);
                            double jy = 0.5 * (lq_rng_uniform(&rng) - 0.5);
                            double jz = 0.5 * (lq_rng_uniform(&rng) - 0.5);
                            double x = (i + (a + 0.5 + jx) / s) * dx;
                            double y = (j + (b + 0.5 + jy) / s) * dy;
                            double z = dim == 3 ? (k + (c + 0.5 + jz) / s) * dz : 0.5 * dz;
                            int in = 0;
                            for (int q = 0; q < nshapes && !in; q++)
                                in = lq_markers_shape_inside(&shapes[q], x, y, z);
                            if (!in) continue;
                            if (m < capacity) {
                                pos[3 * m] = (float)x;
                                pos[3 * m + 1] = (float)y;
                                pos[3 * m + 2] = (float)z;
                            }
                            m++;
                        }
            }
    *count = m;
    if (m > capacity)
        return lq_error(LQ_EINPUT,
                        "markers: the liquid regions need %zu particles but there is room for "
                        "%zu: raise the particle capacity or lower particles per cell",
                        m, capacity);
    return LQ_OK;
}
