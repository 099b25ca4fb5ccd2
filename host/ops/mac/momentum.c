/*
 * momentum.c — launchers of the momentum operations (see momentum.h), the outputs they
 * share, and the time-step bound (Foster & Metaxas 1996 §3.1, eq. 3, with the explicit
 * viscous limit δt ≤ 1 / (2ν Σ 1/δ²)). Each launcher dispatches to the reference twin
 * or binds its arguments and enqueues; nothing here allocates in the step loop.
 */
#include "ops/mac/momentum.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const lq_momentum_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", "kernels/mac/momentum_cell.h",
    "kernels/mac/momentum.cl"};

#define IS_REF(o)              ((o)->ctx->backend == LQ_BACKEND_REF)
#define LQ_MOMENTUM_ROWS_LOCAL 8 /* work-items (rows) per group of momentum_step_rows */

int lq_momentum_state_init(lq_momentum_state *st, lq_ctx *ctx, int nx, int ny, int nz, lq_field *u,
                           lq_field *v, lq_field *w, lq_field *p, lq_field *flags, lq_field *bnd)
{
    memset(st, 0, sizeof *st);
    size_t n = (size_t)nx * ny * nz;
    /* the solver's fields must have the grid's shape (a programmer error otherwise) */
    assert(u->count == (size_t)(nx + 1) * ny * nz && u->elem == 4);
    assert(v->count == (size_t)nx * (ny + 1) * nz && v->elem == 4);
    assert(w->count == (size_t)nx * ny * (nz + 1) && w->elem == 4);
    assert(p->count == n && p->elem == 4 && flags->count == n && flags->elem == 1);
    assert(bnd->count == n && bnd->elem == 1);
    (void)n; /* only the asserts read it */
    st->nx = nx;
    st->ny = ny;
    st->nz = nz;
    st->u = u;
    st->v = v;
    st->w = w;
    st->p = p;
    st->flags = flags;
    st->bnd = bnd;
    size_t plan[] = {u->count * 4, v->count * 4, w->count * 4, 12};
    int rc = lq_ctx_reserve(ctx, "the momentum update", (int)LQ_COUNT(plan), plan);
    if (!rc) rc = lq_field_alloc(ctx, &st->un, "un", nx + 1, ny, nz, 4);
    if (!rc) rc = lq_field_zero(&st->un, 0);
    if (!rc) rc = lq_field_alloc(ctx, &st->vn, "vn", nx, ny + 1, nz, 4);
    if (!rc) rc = lq_field_zero(&st->vn, 0);
    if (!rc) rc = lq_field_alloc(ctx, &st->wn, "wn", nx, ny, nz + 1, 4);
    if (!rc) rc = lq_field_zero(&st->wn, 0);
    if (!rc) rc = lq_field_alloc(ctx, &st->smax, "smax", 3, 1, 1, 4);
    if (!rc) rc = lq_field_zero(&st->smax, 0);
    if (rc) lq_momentum_state_release(st);
    return rc;
}

void lq_momentum_state_release(lq_momentum_state *st)
{
    lq_field_release(&st->un);
    lq_field_release(&st->vn);
    lq_field_release(&st->wn);
    lq_field_release(&st->smax);
}

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_momentum_kernels[] = {
    LQ_KERNEL(lq_momentum_ops, step, "momentum_step"),
    LQ_KERNEL(lq_momentum_ops, boundary, "momentum_boundary"),
    LQ_KERNEL(lq_momentum_ops, max, "momentum_max"),
    LQ_KERNEL(lq_momentum_ops, step_rows, "momentum_step_rows"),
};
static const lq_program lq_momentum_program =
    LQ_PROGRAM("XYZ", lq_momentum_sources, lq_momentum_kernels);

int lq_momentum_ops_init(lq_momentum_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    *o = (lq_momentum_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz};
    if (IS_REF(o)) return LQ_OK;
    char extra[32];
    const char *wenv = getenv("LIQUIDCL_MOMENTUM_W"); /* 16 or 8: lanes of a vector row */
    snprintf(extra, sizeof extra, "-DLQ_MO_W=%d", wenv && atoi(wenv) == 8 ? 8 : 16);
    int rc = lq_program_build(&lq_momentum_program, o, &o->program, ctx, nx, ny, nz, extra);
    /* PoCL runs the per-face kernel as scalar code: vector rows there (docs/PERFORMANCE.md);
     * a GPU keeps one work-item per face point */
    o->rows = (ctx->cl.dev.type & CL_DEVICE_TYPE_CPU) != 0;
    const char *env = getenv("LIQUIDCL_MOMENTUM_ROWS"); /* 0 or 1: override, for experiments */
    if (env && *env) o->rows = atoi(env) != 0;
    return rc;
}

void lq_momentum_ops_release(lq_momentum_ops *o)
{
    lq_program_release(&lq_momentum_program, o, &o->program);
}

/* The (nx + 1) × (ny + 1) × (nz + 1) corners (local size left to the runtime). */
static lq_range lq_momentum_corners(const lq_momentum_ops *o)
{
    return lq_range_3d((size_t)o->nx + 1, (size_t)o->ny + 1, (size_t)o->nz + 1);
}

int lq_momentum_step(lq_momentum_ops *o, lq_momentum_state *st, const lq_momentum_params *prm)
{
    if (IS_REF(o)) {
        lq_momentum_ref_step(st, prm);
        return LQ_OK;
    }
    lq_momentum_coef c = lq_momentum_coef_of(prm);
    lq_arg a[] = {LQ_MEM(st->u),     LQ_MEM(st->v),   LQ_MEM(st->w),   LQ_MEM(st->p),
                  LQ_MEM(st->flags), LQ_MEM(&st->un), LQ_MEM(&st->vn), LQ_MEM(&st->wn),
                  LQ_VAL(c.idx),     LQ_VAL(c.idy),   LQ_VAL(c.idz),   LQ_VAL(c.vx),
                  LQ_VAL(c.vy),      LQ_VAL(c.vz),    LQ_VAL(c.gx),    LQ_VAL(c.gy),
                  LQ_VAL(c.gz),      LQ_VAL(c.dt),    LQ_VAL(c.gamma), LQ_VAL(c.limited)};
    /* the vector rows do donor cell only: the limited scheme runs per face everywhere */
    if (!o->rows || c.limited)
        return lq_kernel_launch(&o->step, lq_momentum_corners(o), LQ_ARGS(a));
    /* one work-item per (j, k) row of corners, a fixed local size (PoCL compiles per size);
     * momentum_step_rows takes every argument but the last */
    size_t rows = (size_t)(o->ny + 1) * (size_t)(o->nz + 1);
    return lq_kernel_launch(&o->step_rows, lq_range_1d(rows, LQ_MOMENTUM_ROWS_LOCAL),
                            (int)LQ_COUNT(a) - 1, a);
}

int lq_momentum_boundary(lq_momentum_ops *o, lq_momentum_state *st)
{
    if (IS_REF(o)) {
        lq_momentum_ref_boundary(st);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(st->u), LQ_MEM(st->v),     LQ_MEM(st->w),
                  LQ_MEM(st->p), LQ_MEM(st->flags), LQ_MEM(st->bnd)};
    return lq_kernel_launch(&o->boundary, lq_momentum_corners(o), LQ_ARGS(a));
}

int lq_momentum_max_speed(lq_momentum_ops *o, lq_momentum_state *st, float smax[3])
{
    if (IS_REF(o)) {
        lq_momentum_ref_max_speed(st, smax);
        return LQ_OK;
    }
    lq_field *fs[3] = {st->u, st->v, st->w};
    int rc = lq_field_zero(&st->smax, 0);
    for (int s = 0; s < 3 && !rc; s++) {
        int n = (int)fs[s]->count;
        lq_arg a[] = {LQ_MEM(fs[s]), LQ_VAL(n), LQ_MEM(&st->smax), LQ_VAL(s)};
        size_t items = ((size_t)n + LQ_MOMENTUM_BLOCK - 1) / LQ_MOMENTUM_BLOCK;
        rc = lq_kernel_launch(&o->max, lq_range_1d(items, 0), LQ_ARGS(a));
    }
    if (rc || !smax) return rc;
    lq_uint bits[3] = {0, 0, 0};
    rc = lq_field_download(&st->smax, bits);
    if (!rc) memcpy(smax, bits, sizeof bits);
    return rc;
}

float lq_momentum_dt_of(const lq_momentum_params *prm, int nx, int ny, int nz, const float smax[3],
                        float cfl, float dt_max)
{
    double dx = prm->dx, dy = prm->dy, dz = prm->dz;
    /* eq. 3: the largest speed per cell width, over the axes */
    double rate = fmax(fmax(smax[0] / dx, smax[1] / dy), smax[2] / dz);
    double dt = dt_max;
    if (rate > 0.0) dt = fmin(dt, cfl / rate);
    double s = (nx > 1 ? 1.0 / (dx * dx) : 0.0) + (ny > 1 ? 1.0 / (dy * dy) : 0.0) +
               (nz > 1 ? 1.0 / (dz * dz) : 0.0);
    if (prm->nu > 0.0f && s > 0.0) dt = fmin(dt, 1.0 / (2.0 * prm->nu * s));
    /* rounded down, so the float step still satisfies both bounds */
    float f = (float)dt;
    if ((double)f > dt) f = nextafterf(f, 0.0f);
    return f;
}

int lq_momentum_dt(lq_momentum_ops *o, lq_momentum_state *st, const lq_momentum_params *prm,
                   float cfl, float dt_max, float *dt)
{
    if (!(cfl > 0.0f && dt_max > 0.0f && prm->dx > 0.0f && prm->dy > 0.0f && prm->dz > 0.0f &&
          prm->nu >= 0.0f))
        return lq_error(LQ_EINPUT,
                        "momentum: need cfl > 0, dt_max > 0, cell sizes > 0 and nu >= 0 (got "
                        "cfl %g, dt_max %g, cell %g × %g × %g, nu %g)",
                        (double)cfl, (double)dt_max, (double)prm->dx, (double)prm->dy,
                        (double)prm->dz, (double)prm->nu);
    float sm[3];
    int rc = lq_momentum_max_speed(o, st, sm);
    if (rc) return rc;
    if (!(isfinite(sm[0]) && isfinite(sm[1]) && isfinite(sm[2])))
        return lq_error(LQ_ESIM,
                        "momentum: a velocity is not finite (max |u| %g, |v| %g, |w| %g): the "
                        "run blew up; lower the CFL number or the time step",
                        (double)sm[0], (double)sm[1], (double)sm[2]);
    *dt = lq_momentum_dt_of(prm, st->nx, st->ny, st->nz, sm, cfl, dt_max);
    return LQ_OK;
}
