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

#define LQ_PLSFORCE_KERNELS(o)                                                                     \
    {                                                                                              \
        {&(o)->body, "plsforce_body"}, {&(o)->max, "plsforce_max"},                                \
        {                                                                                          \
            &(o)->volume, "plsforce_volume"                                                        \
        }                                                                                          \
    }

size_t lq_plsforce_ops_bytes(void)
{
    return 3 * sizeof(lq_uint) + 2 * sizeof(lq_long);
}

int lq_plsforce_ops_init(lq_plsforce_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    memset(o, 0, sizeof *o);
    o->ctx = ctx;
    o->nx = nx;
    o->ny = ny;
    o->nz = nz;
    int rc = lq_field_alloc(ctx, &o->smax, "pf_smax", 3, 1, 1, sizeof(lq_uint));
    if (!rc) rc = lq_field_alloc(ctx, &o->red, "pf_red", 2, 1, 1, sizeof(lq_long));
    if (rc || IS_REF(o)) return rc;
    lq_cl_kernel_name ks[] = LQ_PLSFORCE_KERNELS(o);
    return lq_cl_build_kernels(&ctx->cl, (int)LQ_COUNT(lq_plsforce_sources), lq_plsforce_sources,
                               "", &o->program, (int)LQ_COUNT(ks), ks);
}

void lq_plsforce_ops_release(lq_plsforce_ops *o)
{
    lq_cl_kernel_name ks[] = LQ_PLSFORCE_KERNELS(o);
    lq_cl_release_kernels(&o->program, (int)LQ_COUNT(ks), ks);
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

int lq_plsforce_body_force(lq_plsforce_ops *o, lq_field *u, lq_field *v, lq_field *w,
                           const lq_field *phi, const lq_field *sdf, const double g[3], double dt)
{
    lq_plsforce_check(o, u, v, w);
    if (IS_REF(o)) {
        lq_plsforce_ref_body_force(o, u, v, w, phi, sdf, g, dt);
        return LQ_OK;
    }
    float gx = (float)(g[0] * dt), gy = (float)(g[1] * dt), gz = (float)(g[2] * dt);
    int has = sdf != NULL, nx = o->nx, ny = o->ny, nz = o->nz;
    const lq_field *sd = sdf ? sdf : u; /* any buffer: read only with an sdf */
    lq_argv a[] = {MEM(u),  MEM(v),  MEM(w),  MEM(phi), MEM(sd), VAL(has),
                   VAL(nx), VAL(ny), VAL(nz), VAL(gx),  VAL(gy), VAL(gz)};
    for (int i = 0; i < (int)LQ_COUNT(a); i++) {
        int rc = lq_cl_arg(o->body, "plsforce_body", (cl_uint)i, a[i].size, a[i].p);
        if (rc) return rc;
    }
    size_t global[3] = {(size_t)nx + 1, (size_t)ny + 1, (size_t)nz + (nz > 1)};
    return lq_cl_run(o->ctx, o->body, "plsforce_body", 3, global, NULL);
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
        lq_argv a[] = {MEM(fs[s]), VAL(n), MEM(&o->smax), VAL(s)};
        rc = lq_cl_launch(o->ctx, o->max, "plsforce_max", 4, a, 1,
                          ((size_t)n + LQ_PLSFORCE_BLOCK - 1) / LQ_PLSFORCE_BLOCK, 1, NULL);
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
    lq_argv a[] = {MEM(phi), MEM(sd), VAL(has), VAL(n), VAL(ih), MEM(&o->red)};
    int rc = lq_field_zero(&o->red, 0);
    if (!rc)
        rc = lq_cl_launch(o->ctx, o->volume, "plsforce_volume", (int)LQ_COUNT(a), a, 1,
                          ((size_t)n + LQ_PLSFORCE_BLOCK - 1) / LQ_PLSFORCE_BLOCK, 1, NULL);
    lq_long r[2] = {0, 0};
    if (!rc) rc = lq_field_download(&o->red, r);
    *cells = (double)r[LQ_PLSFORCE_RED_VOL] / LQ_PLSFORCE_FIXED;
    *bad = (int)r[LQ_PLSFORCE_RED_BAD];
    return rc;
}
