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

#include "core/interrupt.h"  /* a long iteration stops for Ctrl-C (the frame is abandoned) */
#include "ops/pls/poisson.h" /* LQ_PRESSURE_MGPCG */

static const char *const lq_pressure_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", "kernels/mac/pressure_cell.h",
    "kernels/mac/pressure.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

/* The buffer bound to a kernel's sw: the surface weights, or (unweighted, never read
 * then) the divergence scratch. */
#define LQ_PRESSURE_SW(st) ((st)->sw ? (st)->sw : &(st)->div)

lq_pressure_params lq_pressure_params_of(lq_pressure_method method, float dt, float dx, float dy,
                                         float dz, float eps, int max_sweeps)
{
    lq_pressure_params p;
    memset(&p, 0, sizeof p);
    p.method = method;
    p.dt = dt;
    p.dx = dx;
    p.dy = dy;
    p.dz = dz;
    p.beta0 = method == LQ_PRESSURE_JACOBI ? LQ_PRESSURE_BETA0_JACOBI : LQ_PRESSURE_BETA0_RB;
    p.eps = eps;
    p.max_sweeps = max_sweeps;
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

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_pressure_kernels[] = {
    LQ_KERNEL(lq_pressure_ops, divergence, "pressure_divergence"),
    LQ_KERNEL(lq_pressure_ops, max, "pressure_max"),
    LQ_KERNEL(lq_pressure_ops, rb, "pressure_rb"),
    LQ_KERNEL(lq_pressure_ops, rb_half, "pressure_rb_half"),
    LQ_KERNEL(lq_pressure_ops, jacobi_dp, "pressure_jacobi_dp"),
    LQ_KERNEL(lq_pressure_ops, jacobi_apply, "pressure_jacobi_apply"),
    LQ_KERNEL(lq_pressure_ops, rb_slabs, "pressure_rb_slabs"),
    LQ_KERNEL(lq_pressure_ops, rb_edges, "pressure_rb_edges"),
    LQ_KERNEL(lq_pressure_ops, surface_prep, "pressure_surface_prep"),
    LQ_KERNEL(lq_pressure_ops, check, "pressure_check"),
};
static const lq_program lq_pressure_program =
    LQ_PROGRAM("XYZ", lq_pressure_sources, lq_pressure_kernels);

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
    *o = (lq_pressure_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz};
    o->rb_launch = LQ_PRESSURE_RB_HALF;
    if (IS_REF(o)) return LQ_OK;
    char extra[32];
    const char *wenv = getenv("LIQUIDCL_PRESSURE_W"); /* 8 or 16: lanes of a vector row */
    snprintf(extra, sizeof extra, "-DLQ_PR_W=%d", wenv && atoi(wenv) == 16 ? 16 : 8);
    int rc = lq_field_alloc(ctx, &o->ctl, "pressure.ctl", LQ_PRESSURE_CTL_COUNT, 1, 1, 4);
    if (!rc) rc = lq_field_zero(&o->ctl, 0);
    if (!rc) rc = lq_program_build(&lq_pressure_program, o, &o->program, ctx, nx, ny, nz, extra);
    /* the sweeps' last argument: the stop (bound once) */
    lq_arg ctl = LQ_MEM(&o->ctl);
    lq_binding b[] = {
        {&o->rb, {[15] = ctl}},
        {&o->rb_half, {[15] = ctl}},
        {&o->rb_slabs, {[15] = ctl}},
        {&o->rb_edges, {[15] = ctl}},
        {&o->jacobi_dp, {[11] = ctl}},
        {&o->jacobi_apply, {[11] = ctl}},
        {&o->check, {[0] = LQ_KEEP, [1] = ctl}},
    };
    if (!rc) rc = lq_kernels_bind(LQ_ARGS(b));
    if (ctx->cl.dev.type & CL_DEVICE_TYPE_CPU) o->slab = lq_pressure_slab_planes(ctx, nz);
    const char *env = getenv("LIQUIDCL_PRESSURE_SLAB");
    if (env && *env) o->slab = LQ_MAX(atoi(env), 0);
    return rc;
}

void lq_pressure_ops_release(lq_pressure_ops *o)
{
    if (o->mg) {
        lq_poisson_ops_release(o->mg);
        free(o->mg);
        o->mg = NULL;
    }
    lq_field_release(&o->mg_b);
    lq_field_release(&o->mg_x);
    lq_program_release(&lq_pressure_program, o, &o->program);
    lq_field_release(&o->ctl);
}

int lq_pressure_mg_init(lq_pressure_ops *o)
{
    if (o->mg) return LQ_OK;
    o->mg = calloc(1, sizeof *o->mg);
    if (!o->mg) return lq_error(LQ_ESIM, "pressure: out of host memory");
    int rc = lq_poisson_ops_init(o->mg, o->ctx, o->nx, o->ny, o->nz);
    if (rc) {
        free(o->mg);
        o->mg = NULL;
        return rc;
    }
    rc = lq_field_alloc(o->ctx, &o->mg_b, "pressure.mg_b", o->nx, o->ny, o->nz, 4);
    if (!rc) rc = lq_field_alloc(o->ctx, &o->mg_x, "pressure.mg_x", o->nx, o->ny, o->nz, 4);
    if (!rc) rc = lq_field_zero(&o->mg_b, 0);
    if (!rc) rc = lq_field_zero(&o->mg_x, 0);
    return rc;
}

/* The cells (local size left to the runtime). */
static lq_range lq_pressure_cells(const lq_pressure_state *st)
{
    return lq_range_3d((size_t)st->nx, (size_t)st->ny, (size_t)st->nz);
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
    lq_arg a[] = {LQ_MEM(st->u),    LQ_MEM(st->v), LQ_MEM(st->w), LQ_MEM(st->flags),
                  LQ_MEM(&st->div), LQ_VAL(c.idx), LQ_VAL(c.idy), LQ_VAL(c.idz)};
    lq_arg m[] = {LQ_MEM(&st->div), LQ_MEM(&st->dmax)};
    int rc = lq_field_zero(&st->dmax, 0);
    if (!rc) rc = lq_kernel_launch(&o->divergence, lq_pressure_cells(st), LQ_ARGS(a));
    if (!rc)
        rc = lq_kernel_launch(
            &o->max, lq_range_1d((n + LQ_PRESSURE_BLOCK - 1) / LQ_PRESSURE_BLOCK, 0), LQ_ARGS(m));
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
    parity &= 1;
    int weighted = st->sw != NULL;
    lq_arg a[] = {LQ_MEM(st->u),    LQ_MEM(st->v),     LQ_MEM(st->w),
                  LQ_MEM(st->p),    LQ_MEM(st->flags), LQ_MEM(LQ_PRESSURE_SW(st)),
                  LQ_VAL(weighted), LQ_VAL(parity),    LQ_VAL(c.idx),
                  LQ_VAL(c.idy),    LQ_VAL(c.idz),     LQ_VAL(c.beta),
                  LQ_VAL(c.tx),     LQ_VAL(c.ty),      LQ_VAL(c.tz)};
    if (o->rb_launch == LQ_PRESSURE_RB_ALL)
        return lq_kernel_launch(&o->rb, lq_pressure_cells(st), LQ_ARGS(a));
    lq_range half = lq_range_3d((size_t)(st->nx + 1) / 2, (size_t)st->ny, (size_t)st->nz);
    return lq_kernel_launch(&o->rb_half, half, LQ_ARGS(a));
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
    lq_arg a[] = {LQ_MEM(st->u),    LQ_MEM(st->v),     LQ_MEM(st->w),
                  LQ_MEM(st->p),    LQ_MEM(st->flags), LQ_MEM(LQ_PRESSURE_SW(st)),
                  LQ_VAL(weighted), LQ_VAL(slab),      LQ_VAL(c.idx),
                  LQ_VAL(c.idy),    LQ_VAL(c.idz),     LQ_VAL(c.beta),
                  LQ_VAL(c.tx),     LQ_VAL(c.ty),      LQ_VAL(c.tz)};
    /* one work-group of one work-item per slab; then the slabs' black edge planes */
    lq_range edges = lq_range_3d((size_t)(st->nx + 1) / 2, (size_t)st->ny, (size_t)(2 * slabs));
    int rc = lq_kernel_launch(&o->rb_slabs, lq_range_1d((size_t)slabs, 1), LQ_ARGS(a));
    if (!rc) rc = lq_kernel_launch(&o->rb_edges, edges, LQ_ARGS(a));
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
    lq_arg a[] = {LQ_MEM(&st->dp),  LQ_MEM(st->u),     LQ_MEM(st->v),
                  LQ_MEM(st->w),    LQ_MEM(st->flags), LQ_MEM(LQ_PRESSURE_SW(st)),
                  LQ_VAL(weighted), LQ_VAL(c.idx),     LQ_VAL(c.idy),
                  LQ_VAL(c.idz),    LQ_VAL(c.beta)};
    int rc = lq_kernel_launch(&o->jacobi_dp, lq_pressure_cells(st), LQ_ARGS(a));
    return rc ? rc : lq_pressure_apply(o, st, prm, &st->dp);
}

int lq_pressure_apply(lq_pressure_ops *o, lq_pressure_state *st, const lq_pressure_params *prm,
                      const lq_field *dp)
{
    assert(dp->count == (size_t)st->nx * st->ny * st->nz && dp->elem == 4);
    if (IS_REF(o)) {
        lq_pressure_ref_apply(st, prm, dp);
        return LQ_OK;
    }
    lq_pressure_coef c = lq_pressure_coef_of(prm, st->nx, st->ny, st->nz);
    int weighted = st->sw != NULL;
    lq_arg b[] = {LQ_MEM(st->u),
                  LQ_MEM(st->v),
                  LQ_MEM(st->w),
                  LQ_MEM(st->p),
                  LQ_MEM(dp),
                  LQ_MEM(st->flags),
                  LQ_MEM(LQ_PRESSURE_SW(st)),
                  LQ_VAL(weighted),
                  LQ_VAL(c.tx),
                  LQ_VAL(c.ty),
                  LQ_VAL(c.tz)};
    return lq_kernel_launch(&o->jacobi_apply, lq_pressure_cells(st), LQ_ARGS(b));
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
    lq_arg a[] = {LQ_MEM(flags), LQ_MEM(out),   LQ_MEM(p),       LQ_MEM(sw),
                  LQ_MEM(count), LQ_MEM(table), LQ_VAL(per_cell)};
    return lq_kernel_launch(&o->surface_prep, lq_range_3d(o->nx, o->ny, o->nz), LQ_ARGS(a));
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

/* One check of the device-side stop: max |D| into st->dmax, then pressure_check. */
static int lq_pressure_check_dev(lq_pressure_ops *o, lq_pressure_state *st,
                                 const lq_pressure_params *prm, int nsweeps)
{
    int rc = lq_pressure_divergence(o, st, prm, NULL);
    float eps = prm->eps;
    lq_arg a[] = {LQ_MEM(&st->dmax), LQ_KEEP, LQ_VAL(eps), LQ_VAL(nsweeps)};
    return rc ? rc : lq_kernel_launch(&o->check, lq_range_1d(1, 1), LQ_ARGS(a));
}

/* The sweeps with the stopping test on the device (pressure_check): the host enqueues
 * checks (check_every sweeps and a max |D| each) in batches and reads the state once a
 * batch; sweeps enqueued past the stop do nothing and the max |D| after them is the same,
 * so p, the sweep count and max |D| are the host loop's, bit for bit. The first batch is
 * the last solve's checks less one, then what the decay of max |D| so far predicts (at
 * most as many checks as have run). */
static int lq_pressure_solve_dev(lq_pressure_ops *o, lq_pressure_state *st,
                                 const lq_pressure_params *prm, int *sweeps, float *maxdiv)
{
    static const int run[LQ_PRESSURE_CTL_COUNT] = {LQ_PRESSURE_RUN};
    int ctl[LQ_PRESSURE_CTL_COUNT] = {0}, enq = 0, batch = LQ_MAX(o->last_checks - 1, 1);
    int prev_checks = 0; /* the decay from the start's max |D| (ctl's MAX0) */
    float prev_m = -1;
    lq_uint bits = 0;
    int rc = lq_field_put(&o->ctl, 0, sizeof run, run);
    if (!rc) rc = lq_pressure_check_dev(o, st, prm, 0); /* the start's max |D| */
    while (!rc) {
        for (int b = 0; b < batch && enq < prm->max_sweeps && !rc; b++) {
            int nsweeps = LQ_MIN(prm->check_every, prm->max_sweeps - enq);
            for (int s = 0; s < nsweeps && !rc; s++)
                rc = prm->method == LQ_PRESSURE_JACOBI ? lq_pressure_jacobi_sweep(o, st, prm)
                                                       : lq_pressure_rb_full_sweep(o, st, prm);
            enq += nsweeps;
            if (!rc) rc = lq_pressure_check_dev(o, st, prm, nsweeps);
        }
        if (!rc) rc = lq_field_read(&o->ctl, 0, sizeof ctl, ctl);
        if (rc) break;
        bits = (lq_uint)ctl[LQ_PRESSURE_CTL_MAX];
        enq = ctl[LQ_PRESSURE_CTL_SWEEPS]; /* what ran */
        if (ctl[LQ_PRESSURE_CTL_STATE] != LQ_PRESSURE_RUN || enq >= prm->max_sweeps ||
            lq_interrupt_due())
            break;
        /* the next batch: the checks to eps at the decay since the last read, at most as
         * many as have run (doubling while nothing better is known) */
        float m = 0;
        memcpy(&m, &bits, sizeof m);
        if (prev_m < 0) memcpy(&prev_m, &ctl[LQ_PRESSURE_CTL_MAX0], sizeof prev_m);
        int checks = ctl[LQ_PRESSURE_CTL_CHECKS] - 1;
        double k = LQ_MAX(checks, 1);
        if (checks > prev_checks && prev_m > m && m > 0) {
            double rate = log((double)m / prev_m) / (checks - prev_checks);
            double need = ceil(log((double)prm->eps / m) / rate);
            k = need < 1 ? 1 : need < checks ? need : checks;
        }
        prev_checks = checks;
        prev_m = m;
        batch = (int)k;
    }
    o->last_checks = ctl[LQ_PRESSURE_CTL_CHECKS] - 1;
    if (!rc) rc = lq_field_put(&o->ctl, 0, sizeof run, run); /* direct sweeps run again */
    float m = 0;
    memcpy(&m, &bits, sizeof m);
    if (sweeps) *sweeps = ctl[LQ_PRESSURE_CTL_SWEEPS];
    if (maxdiv) *maxdiv = m;
    if (!rc && !isfinite(m))
        rc = lq_error(LQ_ESIM,
                      "pressure iteration diverged: max |D| is not finite after %d sweeps "
                      "(beta0 %g; lower it, or dt)",
                      ctl[LQ_PRESSURE_CTL_SWEEPS], (double)prm->beta0);
    return rc;
}

/* LQ_PRESSURE_MGPCG: the iteration's fixed point (kernels/pls/poisson_cell.h,
 * lq_poisson_setup_kind_cell: A P = (h²/δt) D over the FULL cells) by the `pls` module's
 * multigrid-preconditioned CG, to ‖r‖ ≤ ε h²/δt (then max |D| ≤ ε but for the round-off of
 * the face updates) or the relative LQ_PRESSURE_MG_TOL, whichever is larger; the faces and p
 * then move by P as one Jacobi pass 2 would (eq. 8–9), and red-black sweeps (β0 of prm) run
 * until max |D| < ε as the paper's iteration stops, usually none: the first check passes. */
static int lq_pressure_solve_mg(lq_pressure_ops *o, lq_pressure_state *st,
                                const lq_pressure_params *prm, int *sweeps, float *maxdiv)
{
    if (!o->mg) return lq_error(LQ_EINPUT, "pressure: mgpcg asked for without lq_pressure_mg_init");
    if (!(prm->dx == prm->dy && (prm->dx == prm->dz || st->nz == 1)))
        return lq_error(LQ_EINPUT, "pressure: mgpcg needs cubic cells (got %g × %g × %g)",
                        (double)prm->dx, (double)prm->dy, (double)prm->dz);
    double h = prm->dx, dt = prm->dt;
    lq_poisson_params pp = {.dt = prm->dt,
                            .h = prm->dx,
                            .solver = LQ_POISSON_PCG,
                            .precond = LQ_POISSON_PRECOND_MG,
                            .tol = LQ_PRESSURE_MG_TOL,
                            .goal_abs = (float)((double)prm->eps * h * h / dt),
                            .max_iter = LQ_PRESSURE_MG_MAX_ITER,
                            .trust = 1}; /* the red-black check below is the test */
    lq_poisson_stats ps;
    int rc = lq_poisson_build_kinds(o->mg, st->flags, st->sw, &pp);
    if (!rc) rc = lq_poisson_rhs(o->mg, st->u, st->v, st->w, &o->mg_b, &pp);
    if (!rc) rc = lq_field_zero(&o->mg_x, 0);
    if (!rc) rc = lq_poisson_solve(o->mg, &o->mg_b, &o->mg_x, &pp, &ps);
    if (!rc) rc = lq_pressure_apply(o, st, prm, &o->mg_x);
    lq_pressure_params rb = *prm;
    rb.method = LQ_PRESSURE_RED_BLACK;
    int polish = 0;
    if (!rc) rc = lq_pressure_solve(o, st, &rb, &polish, maxdiv);
    o->mg_iterations = rc ? 0 : ps.iterations;
    o->mg_sweeps = polish;
    if (sweeps) *sweeps = o->mg_iterations + polish;
    return rc;
}

int lq_pressure_solve(lq_pressure_ops *o, lq_pressure_state *st, const lq_pressure_params *prm,
                      int *sweeps, float *maxdiv)
{
    int done = 0;
    if (prm->method == LQ_PRESSURE_MGPCG) return lq_pressure_solve_mg(o, st, prm, sweeps, maxdiv);
    if (!IS_REF(o) && !o->host_stop) {
        int rc = lq_pressure_check_params(prm);
        return rc ? rc : lq_pressure_solve_dev(o, st, prm, sweeps, maxdiv);
    }
    float m = INFINITY;
    int rc = lq_pressure_check_params(prm);
    if (!rc) rc = lq_pressure_divergence(o, st, prm, &m);
    while (!rc && !(m < prm->eps) && isfinite(m) && done < prm->max_sweeps && !lq_interrupt_due()) {
        int nsweeps = LQ_MIN(prm->check_every, prm->max_sweeps - done);
        for (int s = 0; s < nsweeps && !rc; s++) {
            if (prm->method == LQ_PRESSURE_JACOBI) {
                rc = lq_pressure_jacobi_sweep(o, st, prm);
            } else {
                rc = lq_pressure_rb_full_sweep(o, st, prm);
            }
        }
        done += nsweeps;
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
