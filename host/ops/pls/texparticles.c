/*
 * texparticles.c — launchers of the texture particles (texparticles.h; Rasmussen et al.
 * 2004 §6), their state and host copies. The seeding's positions are drawn on the host
 * by the per-particle function the kernels share (one call per run: a hash of the cell
 * and the index, the same on both backends), uploaded, and settled on the device;
 * nothing here allocates in the step loop.
 */
#include "ops/pls/texparticles.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"

static const char *const lq_texparticles_sources[] = {
    "kernels/common/lq_shared.h",      "kernels/common/hash.h",
    "kernels/common/mac_grid.h",       "kernels/common/scan_cell.h",
    "kernels/mac/markers_cell.h",      "kernels/pls/plsparticles_cell.h",
    "kernels/pls/texparticles_cell.h", "kernels/pls/texparticles.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

static const lq_kernel_slot lq_texparticles_kernels[] = {
    LQ_KERNEL(lq_texparticles_ops, settle, "texparticles_settle"),
    LQ_KERNEL(lq_texparticles_ops, project, "texparticles_project"),
    LQ_KERNEL(lq_texparticles_ops, advect, "texparticles_advect"),
};
static const lq_program lq_texparticles_program =
    LQ_PROGRAM("XYZ", lq_texparticles_sources, lq_texparticles_kernels);

size_t lq_texparticles_state_bytes(int capacity)
{
    return (size_t)LQ_MAX(capacity, 1) * LQ_TEXPARTICLES_STRIDE * sizeof(float);
}

int lq_texparticles_state_init(lq_texparticles_state *st, lq_ctx *ctx, int nx, int ny, int nz,
                               int capacity)
{
    *st = (lq_texparticles_state){.nx = nx, .ny = ny, .nz = nz, .capacity = capacity};
    int rc = lq_field_alloc(ctx, &st->part, "texparticles",
                            LQ_MAX(capacity, 1) * LQ_TEXPARTICLES_STRIDE, 1, 1, 4);
    if (!rc) rc = lq_field_zero(&st->part, 0);
    if (rc) lq_texparticles_state_release(st);
    return rc;
}

void lq_texparticles_state_release(lq_texparticles_state *st)
{
    lq_field_release(&st->part);
}

int lq_texparticles_ops_init(lq_texparticles_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    *o = (lq_texparticles_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz};
    return lq_program_build(&lq_texparticles_program, o, &o->program, ctx, nx, ny, nz, "");
}

void lq_texparticles_ops_release(lq_texparticles_ops *o)
{
    lq_program_release(&lq_texparticles_program, o, &o->program);
}

int lq_texparticles_band_cells(const float *phi, int nx, int ny, int nz, float band, int *cells)
{
    int n = 0, total = nx * ny * nz;
    for (int q = 0; q < total; q++)
        if (fabsf(phi[q]) < band) {
            if (cells) cells[n] = q;
            n++;
        }
    return n;
}

static void lq_texparticles_check(const lq_texparticles_ops *o, const lq_texparticles_state *st)
{
    (void)o;
    (void)st;
    assert(st->nx == o->nx && st->ny == o->ny && st->nz == o->nz);
}

/* The settling and the projection: c.iters Newton steps (the kernel `k`, or its twin). */
static int lq_texparticles_newton(lq_texparticles_ops *o, lq_texparticles_state *st,
                                  const lq_field *phi, lq_texparticles_coef c, lq_kernel *k)
{
    lq_texparticles_check(o, st);
    assert(phi->count == (size_t)o->nx * o->ny * o->nz);
    if (IS_REF(o)) {
        if (k == &o->settle)
            lq_texparticles_ref_settle(st, phi, c);
        else
            lq_texparticles_ref_project(st, phi, c);
        return LQ_OK;
    }
    int n = st->n;
    lq_arg a[] = {LQ_MEM(&st->part), LQ_VAL(n),    LQ_MEM(phi),  LQ_VAL(c.ih),    LQ_VAL(c.h),
                  LQ_VAL(c.lx),      LQ_VAL(c.ly), LQ_VAL(c.lz), LQ_VAL(c.reach), LQ_VAL(c.iters)};
    return lq_kernel_launch(k, lq_range_var(k, n), LQ_ARGS(a));
}

int lq_texparticles_seed(lq_texparticles_ops *o, lq_texparticles_state *st, const lq_field *phi,
                         const int *cells, int ncells, const lq_texparticles_params *prm)
{
    long long want = (long long)ncells * prm->per_cell;
    int n = (int)LQ_MIN(want, (long long)st->capacity);
    lq_texparticles_coef c =
        lq_texparticles_coef_of(prm, o->nx, o->ny, o->nz, LQ_TEXPARTICLES_SETTLE_ITERS);
    float *buf = lq_alloc((size_t)LQ_MAX(n, 1) * LQ_TEXPARTICLES_STRIDE * sizeof(float));
    if (!buf) return LQ_ESIM;
    for (int p = 0; p < n; p++)
        lq_texparticles_emit_one(buf + (size_t)p * LQ_TEXPARTICLES_STRIDE, cells[p / prm->per_cell],
                                 p % prm->per_cell, o->nx, o->ny, o->nz, c, prm->seed);
    int rc = lq_texparticles_upload(st, buf, n);
    free(buf);
    if (!rc) rc = lq_texparticles_newton(o, st, phi, c, &o->settle);
    return rc;
}

int lq_texparticles_project(lq_texparticles_ops *o, lq_texparticles_state *st, const lq_field *phi,
                            const lq_texparticles_params *prm)
{
    lq_texparticles_coef c =
        lq_texparticles_coef_of(prm, o->nx, o->ny, o->nz, LQ_TEXPARTICLES_PROJECT_ITERS);
    return lq_texparticles_newton(o, st, phi, c, &o->project);
}

int lq_texparticles_advect(lq_texparticles_ops *o, lq_texparticles_state *st, const lq_field *u,
                           const lq_field *v, const lq_field *w, const lq_texparticles_params *prm)
{
    lq_texparticles_check(o, st);
    assert(u->count == (size_t)(o->nx + 1) * o->ny * o->nz);
    assert(v->count == (size_t)o->nx * (o->ny + 1) * o->nz);
    assert(w->count == (size_t)o->nx * o->ny * (o->nz + 1));
    lq_texparticles_coef c = lq_texparticles_coef_of(prm, o->nx, o->ny, o->nz, 0);
    if (IS_REF(o)) {
        lq_texparticles_ref_advect(st, u, v, w, c);
        return LQ_OK;
    }
    int n = st->n;
    lq_arg a[] = {LQ_MEM(&st->part), LQ_VAL(n),    LQ_MEM(u),    LQ_MEM(v),    LQ_MEM(w),
                  LQ_VAL(c.ih),      LQ_VAL(c.lx), LQ_VAL(c.ly), LQ_VAL(c.lz), LQ_VAL(c.dt)};
    return lq_kernel_launch(&o->advect, lq_range_var(&o->advect, n), LQ_ARGS(a));
}

int lq_texparticles_download(const lq_texparticles_state *st, float *out)
{
    if (st->n <= 0) return LQ_OK;
    return lq_field_read(&st->part, 0, (size_t)st->n * LQ_TEXPARTICLES_STRIDE * sizeof(float), out);
}

int lq_texparticles_upload(lq_texparticles_state *st, const float *in, int n)
{
    if (n < 0 || n > st->capacity)
        return lq_error(LQ_EINPUT, "pls: %d texture particles do not fit the room for %d", n,
                        st->capacity);
    st->n = n;
    if (n == 0) return LQ_OK;
    return lq_field_write(&st->part, 0, (size_t)n * LQ_TEXPARTICLES_STRIDE * sizeof(float), in);
}
