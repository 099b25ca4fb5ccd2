/*
 * plsforce.c — launchers of the pls solver's small per-step operations (plsforce.h).
 */
#include "ops/pls/plsforce.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "core/common.h"

static const char *const lq_plsforce_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", "kernels/pls/plsforce_cell.h",
    "kernels/pls/plsforce.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_plsforce_kernels[] = {
    LQ_KERNEL(lq_plsforce_ops, body, "plsforce_body"),
    LQ_KERNEL(lq_plsforce_ops, max, "plsforce_max"),
    LQ_KERNEL(lq_plsforce_ops, volume, "plsforce_volume"),
    LQ_KERNEL(lq_plsforce_ops, volume_pl, "plsforce_volume_pl"),
    LQ_KERNEL(lq_plsforce_ops, shift, "plsforce_shift"),
};
static const lq_program lq_plsforce_program =
    LQ_PROGRAM("", lq_plsforce_sources, lq_plsforce_kernels);

size_t lq_plsforce_ops_bytes(void)
{
    return 3 * sizeof(lq_uint) + 2 * sizeof(lq_long);
}

/* Bound once: the grid's size and the object's two result buffers. */
static int lq_plsforce_bind(lq_plsforce_ops *o)
{
    lq_binding b[] = {
        {&o->body, {[6] = LQ_VAL(o->nx), [7] = LQ_VAL(o->ny), [8] = LQ_VAL(o->nz)}},
        {&o->max, {[2] = LQ_MEM(&o->smax)}},
        {&o->volume, {[5] = LQ_MEM(&o->red)}},
        {&o->volume_pl,
         {[3] = LQ_VAL(o->nx), [4] = LQ_VAL(o->ny), [5] = LQ_VAL(o->nz), [7] = LQ_MEM(&o->red)}},
    };
    return lq_kernels_bind(LQ_ARGS(b));
}

int lq_plsforce_ops_init(lq_plsforce_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    *o = (lq_plsforce_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz};
    int rc = lq_field_alloc(ctx, &o->smax, "pf_smax", 3, 1, 1, sizeof(lq_uint));
    if (!rc) rc = lq_field_alloc(ctx, &o->red, "pf_red", 2, 1, 1, sizeof(lq_long));
    if (rc || IS_REF(o)) return rc;
    rc = lq_program_build(&lq_plsforce_program, o, &o->program, ctx, nx, ny, nz, "");
    return rc ? rc : lq_plsforce_bind(o);
}

void lq_plsforce_ops_release(lq_plsforce_ops *o)
{
    lq_program_release(&lq_plsforce_program, o, &o->program);
    lq_field_release(&o->smax);
    lq_field_release(&o->red);
}

static void lq_plsforce_check(const lq_plsforce_ops *o, const lq_field *u, const lq_field *v,
                              const lq_field *w)
{
    (void)o;
    (void)u;
    (void)v;
    (void)w;
    assert(u->count == (size_t)(o->nx + 1) * o->ny * o->nz);
    assert(v->count == (size_t)o->nx * (o->ny + 1) * o->nz);
    assert(w->count == (size_t)o->nx * o->ny * (o->nz + 1));
}

/* One work-item per LQ_PLSFORCE_BLOCK of n elements (plsforce.cl). */
static lq_range lq_plsforce_blocks(int n)
{
    return lq_range_1d(((size_t)n + LQ_PLSFORCE_BLOCK - 1) / LQ_PLSFORCE_BLOCK, 0);
}

int lq_plsforce_body_force(lq_plsforce_ops *o, lq_field *u, lq_field *v, lq_field *w,
                           const lq_field *phi, const lq_field *sdf, const double g[3], double dt)
{
    lq_plsforce_check(o, u, v, w);
    if (IS_REF(o)) {
        lq_plsforce_ref_body_force(o, u, v, w, phi, sdf, g, dt);
        return LQ_OK;
    }
    float gx = (float)(g[0] * dt), gy = (float)(g[1] * dt), gz = (float)(g[2] * dt);
    int has = sdf != NULL, nz = o->nz;
    const lq_field *sd = sdf ? sdf : u; /* any buffer: read only with an sdf */
    lq_arg a[] = {LQ_MEM(u), LQ_MEM(v), LQ_MEM(w), LQ_MEM(phi), LQ_MEM(sd), LQ_VAL(has),
                  LQ_KEEP,   LQ_KEEP,   LQ_KEEP,   LQ_VAL(gx),  LQ_VAL(gy), LQ_VAL(gz)};
    lq_range faces = lq_range_3d((size_t)o->nx + 1, (size_t)o->ny + 1, (size_t)nz + (nz > 1));
    return lq_kernel_launch(&o->body, faces, LQ_ARGS(a));
}

int lq_plsforce_max_speed(lq_plsforce_ops *o, const lq_field *u, const lq_field *v,
                          const lq_field *w, float smax[3])
{
    lq_plsforce_check(o, u, v, w);
    if (IS_REF(o)) {
        lq_plsforce_ref_max_speed(o, u, v, w, smax);
        return LQ_OK;
    }
    const lq_field *fs[3] = {u, v, w};
    int rc = lq_field_zero(&o->smax, 0);
    for (int s = 0; s < (o->nz > 1 ? 3 : 2) && !rc; s++) {
        int n = (int)fs[s]->count;
        lq_arg a[] = {LQ_MEM(fs[s]), LQ_VAL(n), LQ_KEEP, LQ_VAL(s)};
        rc = lq_kernel_launch(&o->max, lq_plsforce_blocks(n), LQ_ARGS(a));
    }
    lq_uint bits[3] = {0, 0, 0};
    if (!rc) rc = lq_field_download(&o->smax, bits);
    if (!rc) memcpy(smax, bits, sizeof bits);
    return rc;
}

int lq_plsforce_volume(lq_plsforce_ops *o, const lq_field *phi, const lq_field *sdf, float h,
                       double *cells, int *bad)
{
    assert(phi->count == (size_t)o->nx * o->ny * o->nz);
    if (IS_REF(o)) {
        lq_plsforce_ref_volume(o, phi, sdf, h, cells, bad);
        return LQ_OK;
    }
    int has = sdf != NULL, n = (int)phi->count;
    float ih = (float)(1.0 / h);
    const lq_field *sd = sdf ? sdf : phi;
    lq_arg a[] = {LQ_MEM(phi), LQ_MEM(sd), LQ_VAL(has), LQ_VAL(n), LQ_VAL(ih), LQ_KEEP};
    int rc = lq_field_zero(&o->red, 0);
    if (!rc) rc = lq_kernel_launch(&o->volume, lq_plsforce_blocks(n), LQ_ARGS(a));
    lq_long r[2] = {0, 0};
    if (!rc) rc = lq_field_download(&o->red, r);
    *cells = (double)r[LQ_PLSFORCE_RED_VOL] / LQ_PLSFORCE_FIXED;
    *bad = (int)r[LQ_PLSFORCE_RED_BAD];
    return rc;
}

int lq_plsforce_volume_pl(lq_plsforce_ops *o, const lq_field *phi, const lq_field *sdf, float h,
                          double *cells, int *bad)
{
    assert(phi->count == (size_t)o->nx * o->ny * o->nz);
    if (IS_REF(o)) {
        lq_plsforce_ref_volume_pl(o, phi, sdf, h, cells, bad);
        return LQ_OK;
    }
    int has = sdf != NULL;
    const lq_field *sd = sdf ? sdf : phi;
    float ih = (float)(1.0 / h);
    lq_arg a[] = {LQ_MEM(phi), LQ_MEM(sd), LQ_VAL(has), LQ_KEEP,
                  LQ_KEEP,     LQ_KEEP,    LQ_VAL(ih),  LQ_KEEP};
    int rc = lq_field_zero(&o->red, 0);
    if (!rc)
        rc = lq_kernel_launch(&o->volume_pl,
                              lq_range_2d((size_t)o->ny + 1, (size_t)o->nz + 1, 0, 0), LQ_ARGS(a));
    lq_long r[2] = {0, 0};
    if (!rc) rc = lq_field_download(&o->red, r);
    *cells = (double)r[LQ_PLSFORCE_RED_VOL] / LQ_PLSFORCE_FIXED;
    *bad = (int)r[LQ_PLSFORCE_RED_BAD];
    return rc;
}

int lq_plsforce_shift(lq_plsforce_ops *o, lq_field *phi, const lq_field *sdf, float delta)
{
    assert(phi->count == (size_t)o->nx * o->ny * o->nz);
    if (IS_REF(o)) {
        lq_plsforce_ref_shift(o, phi, sdf, delta);
        return LQ_OK;
    }
    int has = sdf != NULL, n = (int)phi->count;
    const lq_field *sd = sdf ? sdf : phi;
    lq_arg a[] = {LQ_MEM(phi), LQ_MEM(sd), LQ_VAL(has), LQ_VAL(n), LQ_VAL(delta)};
    return lq_kernel_launch(&o->shift, lq_range_1d((size_t)n, 64), LQ_ARGS(a));
}
