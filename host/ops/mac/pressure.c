/*
 * pressure.c — launchers of the pressure operations (see pressure.h), the scratch they
 * share, and the driver that sweeps to convergence (Foster & Metaxas 1996 §3.1: "until
 * all cells in the flow field have a divergence less than some prescribed small ε").
 * Each launcher dispatches to the reference twin or binds its arguments and enqueues;
 * nothing here allocates in the step loop.
 *
 * Red-black launch. A colour pass runs one work-item per cell of the colour
 * (pressure_rb_half) unless ops.rb_launch says otherwise. Measured on PoCL 3.1, 2 cores,
 * best of 7 (a tank with walls and a free surface): 64³ 0.81–0.84 ms per sweep against
 * 0.87–0.89 ms for a work-item per cell with an early return (pressure_rb); 128³ 7.5
 * against 9.5 ms. A colour split into two vectorizable passes (δp stored, then faces)
 * was slower still (1.6–2.0 ms at 64³). Not measured on a GPU, where the half-size
 * range also launches half the work-items. Same machine, 64³: a Jacobi sweep 0.45 ms,
 * a residual check (divergence, max, read back) 0.15 ms.
 *
 * Whole sweeps. lq_pressure_rb_full_sweep (what lq_pressure_solve runs) on a CPU device
 * runs one wavefront per slab of planes (pressure_rb_slabs, vector rows) and then the
 * slabs' black edge planes (pressure_rb_edges): the fields stream once per sweep instead
 * of twice. At 256³ on PoCL (2 cores, docs/PERFORMANCE.md) it took 20–80 ms against
 * 63–263 ms for the two colour launches in the same runs. Other devices keep the two
 * colour launches (ops.slab 0).
 */
#include "ops/mac/pressure.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/interrupt.h" /* a long iteration stops for Ctrl-C (the frame is abandoned) */

static const char *const lq_pressure_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", "kernels/mac/pressure_cell.h",
    "kernels/mac/pressure.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

/* The buffer bound to a kernel's sw: the surface weights, or (unweighted, never read
 * then) the divergence scratch. */
#define LQ_PRESSURE_SW(st) ((st)->sw ? (st)->sw : &(st)->div)

lq_pressure_params lq_pressure_defaults(lq_pressure_method method, float dt, float dx, float dy,
                                        float dz)
{
    lq_pressure_params p;
    memset(&p, 0, sizeof p);
    p.method = method;
    p.dt = dt;
    p.dx = dx;
    p.dy = dy;
    p.dz = dz;
    p.beta0 = method == LQ_PRESSURE_JACOBI ? LQ_PRESSURE_BETA0_JACOBI : LQ_PRESSURE_BETA0_RB;
    p.eps = 1e-4f;
    p.max_sweeps = method == LQ_PRESSURE_JACOBI ? 10000 : 1000;
    p.check_every = 2;
    return p;
}

int lq_pressure_state_init(lq_pressure_state *st, lq_ctx *ctx, int nx, int ny, int nz, lq_field *u,
                           lq_field *v, lq_field *w, lq_field *p, lq_field *flags)
{
    memset(st, 0, sizeof *st);
    size_t n = (size_t)nx * ny * nz;
    /* the solver's fields must have the grid's shape (a programmer error otherwise) */
    assert(u->count == (size_t)(nx + 1) * ny * nz && u->elem == 4);
    assert(v->count == (size_t)nx * (ny + 1) * nz && v->elem == 4);
    assert(w->count == (size_t)nx * ny * (nz + 1) && w->elem == 4);
    assert(p->count == n && p->elem == 4 && flags->count == n && flags->elem == 1);
    st->nx = nx;
    st->ny = ny;
    st->nz = nz;
    st->u = u;
    st->v = v;
    st->w = w;
    st->p = p;
    st->flags = flags;
    size_t plan[] = {n * 4, n * 4, 4};
    int rc = lq_ctx_reserve(ctx, "the pressure iteration", (int)LQ_COUNT(plan), plan);
    if (!rc) rc = lq_field_alloc(ctx, &st->div, "div", nx, ny, nz, 4);
    if (!rc) rc = lq_field_zero(&st->div, 0);
    if (!rc) rc = lq_field_alloc(ctx, &st->dp, "dp", nx, ny, nz, 4);
    if (!rc) rc = lq_field_zero(&st->dp, 0);
    if (!rc) rc = lq_field_alloc(ctx, &st->dmax, "dmax", 1, 1, 1, 4);
    if (!rc) rc = lq_field_zero(&st->dmax, 0);
    if (rc) lq_pressure_state_release(st);
    return rc;
}

void lq_pressure_state_release(lq_pressure_state *st)
{
    lq_field_release(&st->div);
    lq_field_release(&st->dp);
    lq_field_release(&st->dmax);
}

/* The module's kernels (ops_init creates them, ops_release frees them). */
#define LQ_PRESSURE_KERNELS(o)                                                                     \
    {                                                                                              \
        {&(o)->divergence, "pressure_divergence"}, {&(o)->max, "pressure_max"},                    \
            {&(o)->rb, "pressure_rb"}, {&(o)->rb_half, "pressure_rb_half"},                        \
            {&(o)->jacobi_dp, "pressure_jacobi_dp"},                                               \
            {&(o)->jacobi_apply, "pressure_jacobi_apply"}, {&(o)->rb_slabs, "pressure_rb_slabs"},  \
            {&(o)->rb_edges, "pressure_rb_edges"},                                                 \
        {                                                                                          \
            &(o)->surface_prep, "pressure_surface_prep"                                            \
        }                                                                                          \
    }

/* Planes per slab of a whole sweep on a CPU: about 4 slabs per compute unit, so the
 * runtime can even out the cores, but at least 8 planes each, so that the black edge
 * planes left to a second launch stay a small part. */
static int lq_pressure_slab_planes(const lq_ctx *ctx, int nz)
{
    int slabs = 4 * (int)LQ_MAX(ctx->cl.dev.compute_units, 1u);
    return LQ_MAX((nz + slabs - 1) / slabs, 8);
}

int lq_pressure_ops_init(lq_pressure_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    memset(o, 0, sizeof *o);
    o->ctx = ctx;
    o->nx = nx;
    o->ny = ny;
    o->nz = nz;
    o->rb_launch = LQ_PRESSURE_RB_HALF;
    if (IS_REF(o)) return LQ_OK;
    char defines[128];
    const char *wenv = getenv("LIQUIDCL_PRESSURE_W"); /* 8 or 16: lanes of a vector row */
    int lanes = wenv && atoi(wenv) == 16 ? 16 : 8;
    snprintf(defines, sizeof defines, "-DNX=%d -DNY=%d -DNZ=%d -DLQ_PR_W=%d", nx, ny, nz, lanes);
    lq_cl_kernel_name ks[] = LQ_PRESSURE_KERNELS(o);
    int rc = lq_cl_build_kernels(&ctx->cl, (int)LQ_COUNT(lq_pressure_sources), lq_pressure_sources,
                                 defines, &o->program, (int)LQ_COUNT(ks), ks);
    if (ctx->cl.dev.type & CL_DEVICE_TYPE_CPU) o->slab = lq_pressure_slab_planes(ctx, nz);
    const char *env = getenv("LIQUIDCL_PRESSURE_SLAB");
    if (env && *env) o->slab = LQ_MAX(atoi(env), 0);
    return rc;
}

void lq_pressure_ops_release(lq_pressure_ops *o)
{
    lq_cl_kernel_name ks[] = LQ_PRESSURE_KERNELS(o);
    lq_cl_release_kernels(&o->program, (int)LQ_COUNT(ks), ks);
}

/* Binds the arguments and enqueues over a 3D range (local size left to the runtime). */
static int lq_pressure_launch3(lq_pressure_ops *o, cl_kernel k, const char *name, int nargs,
                               const lq_argv *args, size_t g0, size_t g1, size_t g2)
{
    for (int i = 0; i < nargs; i++) {
        int rc = lq_cl_arg(k, name, (cl_uint)i, args[i].size, args[i].p);
        if (rc) return rc;
    }
    size_t global[3] = {g0, g1, g2};
    return lq_cl_run(o->ctx, k, name, 3, global, NULL);
}

int lq_pressure_divergence(lq_pressure_ops *o, lq_pressure_state *st, const lq_pressure_params *prm,
                           float *maxdiv)
{
    if (IS_REF(o)) {
        lq_pressure_ref_divergence(st, prm, maxdiv);
        return LQ_OK;
    }
    lq_pressure_coef c = lq_pressure_coef_of(prm, st->nx, st->ny, st->nz);
    size_t n = (size_t)st->nx * st->ny * st->nz;
    lq_argv a[] = {MEM(st->u),    MEM(st->v), MEM(st->w), MEM(st->flags),
                   MEM(&st->div), VAL(c.idx), VAL(c.idy), VAL(c.idz)};
    lq_argv m[] = {MEM(&st->div), MEM(&st->dmax)};
    int rc = lq_field_zero(&st->dmax, 0);
    if (!rc)
        rc = lq_pressure_launch3(o, o->divergence, "pressure_divergence", 8, a, (size_t)st->nx,
                                 (size_t)st->ny, (size_t)st->nz);
    if (!rc)
        rc = lq_cl_launch(o->ctx, o->max, "pressure_max", 2, m, 1,
                          (n + LQ_PRESSURE_BLOCK - 1) / LQ_PRESSURE_BLOCK, 1, NULL);
    if (rc || !maxdiv) return rc;
    lq_uint bits = 0;
    rc = lq_field_download(&st->dmax, &bits);
    if (!rc) memcpy(maxdiv, &bits, sizeof bits);
    return rc;
}

int lq_pressure_rb_sweep(lq_pressure_ops *o, lq_pressure_state *st, const lq_pressure_params *prm,
                         int parity)
{
    if (IS_REF(o)) {
        lq_pressure_ref_rb_sweep(st, prm, parity);
        return LQ_OK;
    }
    lq_pressure_coef c = lq_pressure_coef_of(prm, st->nx, st->ny, st->nz);
    size_t g0 = (size_t)st->nx, g1 = (size_t)st->ny, g2 = (size_t)st->nz;
    parity &= 1;
    int weighted = st->sw != NULL;
    lq_argv a[] = {
        MEM(st->u),    MEM(st->v),  MEM(st->w), MEM(st->p), MEM(st->flags), MEM(LQ_PRESSURE_SW(st)),
        VAL(weighted), VAL(parity), VAL(c.idx), VAL(c.idy), VAL(c.idz),     VAL(c.beta),
        VAL(c.tx),     VAL(c.ty),   VAL(c.tz)};
    if (o->rb_launch == LQ_PRESSURE_RB_ALL)
        return lq_pressure_launch3(o, o->rb, "pressure_rb", 15, a, g0, g1, g2);
    return lq_pressure_launch3(o, o->rb_half, "pressure_rb_half", 15, a, (g0 + 1) / 2, g1, g2);
}

int lq_pressure_rb_full_sweep(lq_pressure_ops *o, lq_pressure_state *st,
                              const lq_pressure_params *prm)
{
    if (IS_REF(o) || o->slab <= 0) {
        int rc = lq_pressure_rb_sweep(o, st, prm, 0);
        return rc ? rc : lq_pressure_rb_sweep(o, st, prm, 1);
    }
    lq_pressure_coef c = lq_pressure_coef_of(prm, st->nx, st->ny, st->nz);
    int slab = o->slab, slabs = (st->nz + slab - 1) / slab, weighted = st->sw != NULL;
    lq_argv a[] = {
        MEM(st->u),    MEM(st->v), MEM(st->w), MEM(st->p), MEM(st->flags), MEM(LQ_PRESSURE_SW(st)),
        VAL(weighted), VAL(slab),  VAL(c.idx), VAL(c.idy), VAL(c.idz),     VAL(c.beta),
        VAL(c.tx),     VAL(c.ty),  VAL(c.tz)};
    size_t one = 1, g = (size_t)slabs;
    int rc = LQ_OK;
    for (int i = 0; i < 15 && !rc; i++)
        rc = lq_cl_arg(o->rb_slabs, "pressure_rb_slabs", (cl_uint)i, a[i].size, a[i].p);
    if (!rc) rc = lq_cl_run(o->ctx, o->rb_slabs, "pressure_rb_slabs", 1, &g, &one);
    if (!rc)
        rc = lq_pressure_launch3(o, o->rb_edges, "pressure_rb_edges", 15, a,
                                 (size_t)(st->nx + 1) / 2, (size_t)st->ny, (size_t)(2 * slabs));
    return rc;
}

int lq_pressure_jacobi_sweep(lq_pressure_ops *o, lq_pressure_state *st,
                             const lq_pressure_params *prm)
{
    if (IS_REF(o)) {
        lq_pressure_ref_jacobi_sweep(st, prm);
        return LQ_OK;
    }
    lq_pressure_coef c = lq_pressure_coef_of(prm, st->nx, st->ny, st->nz);
    int weighted = st->sw != NULL;
    lq_argv a[] = {
        MEM(&st->dp),  MEM(st->u), MEM(st->v), MEM(st->w), MEM(st->flags), MEM(LQ_PRESSURE_SW(st)),
        VAL(weighted), VAL(c.idx), VAL(c.idy), VAL(c.idz), VAL(c.beta)};
    lq_argv b[] = {MEM(st->u),
                   MEM(st->v),
                   MEM(st->w),
                   MEM(st->p),
                   MEM(&st->dp),
                   MEM(st->flags),
                   MEM(LQ_PRESSURE_SW(st)),
                   VAL(weighted),
                   VAL(c.tx),
                   VAL(c.ty),
                   VAL(c.tz)};
    size_t g0 = (size_t)st->nx, g1 = (size_t)st->ny, g2 = (size_t)st->nz;
    int rc = lq_pressure_launch3(o, o->jacobi_dp, "pressure_jacobi_dp", 11, a, g0, g1, g2);
    if (!rc)
        rc = lq_pressure_launch3(o, o->jacobi_apply, "pressure_jacobi_apply", 11, b, g0, g1, g2);
    return rc;
}

int lq_pressure_surface_prep(lq_pressure_ops *o, const lq_field *flags, lq_field *out, lq_field *p,
                             lq_field *sw, const lq_field *count, const lq_field *table,
                             int per_cell)
{
    size_t n = (size_t)o->nx * o->ny * o->nz;
    (void)n; /* asserts only */
    assert(flags->count == n && out->count == n && p->count == n && flags->elem == 1 &&
           out->elem == 1 && p->elem == 4 && sw->count == 2 * n && sw->elem == 4);
    assert(per_cell == 0 ||
           (count->count == n && count->elem == 4 &&
            table->count >= (size_t)LQ_PRESSURE_ST * ((size_t)per_cell + 1) && table->elem == 4));
    if (IS_REF(o)) {
        lq_pressure_ref_surface_prep(flags, out, p, sw, count, table, per_cell);
        return LQ_OK;
    }
    lq_argv a[] = {MEM(flags), MEM(out), MEM(p), MEM(sw), MEM(count), MEM(table), VAL(per_cell)};
    return lq_pressure_launch3(o, o->surface_prep, "pressure_surface_prep", 7, a, (size_t)o->nx,
                               (size_t)o->ny, (size_t)o->nz);
}

void lq_pressure_surface_table(int per_cell, float g_abs, const lq_pressure_params *prm, int nx,
                               int ny, int nz, int at_fill, float *table)
{
    double dx = prm->dx, dy = prm->dy, dz = prm->dz;
    double s = (nx > 1 ? 1.0 / (dx * dx) : 0.0) + (ny > 1 ? 1.0 / (dy * dy) : 0.0) +
               (nz > 1 ? 1.0 / (dz * dz) : 0.0);
    /* a weighted cell over-relaxed at the grid's β0 (~1.95) left the iteration ringing: a 2D
     * dam break (a = 16 cells) took 850 sweeps a step, 189 of 482 steps stopped at the cap;
     * at LQ_PRESSURE_SURFACE_OMEGA (1.0: 164, 1.2: 132, 1.5: 91, 1.7: 124) 99 and 3; unweighted
     * surface cells 136, the paper's way 251 */
    double omega = fmin(prm->beta0, LQ_PRESSURE_SURFACE_OMEGA) / prm->beta0;
    for (int m = 0; m <= per_cell; m++) { /* f held at ≥ 0.1 as lq_macsurface_fill_ratio does */
        double f = m < 0.1 * per_cell ? 0.1 : (double)m / per_cell;
        float *r = table + LQ_PRESSURE_ST * m;
        /* at_fill: relaxed when the surface lies θ = f − ½ ≥ LQ_PRESSURE_THETA_MIN above the cell's
         * centre, its +y face weighted 1/θ; else held, the full cell's +y face weighted
         * 1/(f + ½). Otherwise: relaxed, unweighted, the air's line from the full cell. */
        int relaxed = !at_fill || f - 0.5 >= LQ_PRESSURE_THETA_MIN;
        double theta = !at_fill ? 1.0 : relaxed ? f - 0.5 : f + 0.5, w = 1.0 / theta;
        r[0] = (float)w;
        r[1] = (float)(2.0 * s / (2.0 * s + (w - 1.0) / (dy * dy)) * (w != 1.0 ? omega : 1.0));
        r[2] = (float)relaxed;
        r[3] = (float)(!at_fill || !relaxed); /* the EMPTY cell's line from the full cell */
        if (r[3] != 0.0f) {
            r[4] = (float)((f - 1.5) / (f + 0.5));
            r[5] = (float)((double)g_abs * (f + 0.5) * dy);
        } else { /* from the surface cell's centre, the surface θ δy above it */
            r[4] = (float)(1.0 - w);
            r[5] = (float)((double)g_abs * theta * dy);
        }
        r[6] = (float)((f - 0.5) / (f + 0.5)); /* a held cell on the line from the full cell */
        r[7] = (float)((double)g_abs * (f + 0.5) * dy);
    }
}

static int lq_pressure_check_params(const lq_pressure_params *prm)
{
    if (!(prm->dt > 0.0f && prm->dx > 0.0f && prm->dy > 0.0f && prm->dz > 0.0f))
        return lq_error(LQ_EINPUT,
                        "pressure: dt and the cell sizes must be > 0 (got dt %g, "
                        "cell %g × %g × %g)",
                        (double)prm->dt, (double)prm->dx, (double)prm->dy, (double)prm->dz);
    if (!(prm->beta0 > 0.0f && prm->beta0 < 2.0f))
        return lq_error(LQ_EINPUT,
                        "pressure: beta0 %g is outside (0, 2): use [1, 2) for red-black "
                        "(the paper: 1.7), (0, 1] for Jacobi",
                        (double)prm->beta0);
    if (!(prm->eps > 0.0f) || prm->max_sweeps < 0 || prm->check_every < 1)
        return lq_error(LQ_EINPUT,
                        "pressure: need eps > 0, max_sweeps >= 0, check_every >= 1 (got %g, "
                        "%d, %d)",
                        (double)prm->eps, prm->max_sweeps, prm->check_every);
    return LQ_OK;
}

int lq_pressure_solve(lq_pressure_ops *o, lq_pressure_state *st, const lq_pressure_params *prm,
                      int *sweeps, float *maxdiv)
{
    int done = 0;
    float m = INFINITY;
    int rc = lq_pressure_check_params(prm);
    if (!rc) rc = lq_pressure_divergence(o, st, prm, &m);
    while (!rc && !(m < prm->eps) && isfinite(m) && done < prm->max_sweeps && !lq_interrupt_due()) {
        int todo = LQ_MIN(prm->check_every, prm->max_sweeps - done);
        for (int s = 0; s < todo && !rc; s++) {
            if (prm->method == LQ_PRESSURE_JACOBI) {
                rc = lq_pressure_jacobi_sweep(o, st, prm);
            } else {
                rc = lq_pressure_rb_full_sweep(o, st, prm);
            }
        }
        done += todo;
        if (!rc) rc = lq_pressure_divergence(o, st, prm, &m);
    }
    if (sweeps) *sweeps = done;
    if (maxdiv) *maxdiv = m;
    if (!rc && !isfinite(m))
        rc = lq_error(LQ_ESIM,
                      "pressure iteration diverged: max |D| is not finite after %d sweeps "
                      "(beta0 %g; lower it, or dt)",
                      done, (double)prm->beta0);
    return rc;
}
