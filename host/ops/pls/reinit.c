/*
 * reinit.c — launchers of level-set reinitialisation (see reinit.h): the start pass,
 * then the FIM sweeps (ping-pong between φ and scratch, an even count so the result
 * ends in φ) or the PDE's two RK2 stages per step. One download at the end for the
 * stats (none between the sweeps); nothing allocated per call.
 */
#include "ops/pls/reinit.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/common.h"

static const char *const lq_reinit_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", "kernels/pls/reinit_cell.h",
    "kernels/pls/reinit.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

lq_reinit_params lq_reinit_params_default(float h)
{
    lq_reinit_params p;
    p.h = h;
    p.band = 5.0f;
    p.iterations = 0;
    p.method = LQ_REINIT_FIM;
    p.keep = 0.0f;
    return p;
}

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_reinit_kernels[] = {
    LQ_KERNEL(lq_reinit_ops, init, "reinit_init"),
    LQ_KERNEL(lq_reinit_ops, fim_seed, "reinit_fim_seed_list"),
    LQ_KERNEL(lq_reinit_ops, pde1, "reinit_pde1"),
    LQ_KERNEL(lq_reinit_ops, pde2, "reinit_pde2"),
    LQ_KERNEL(lq_reinit_ops, fim_list, "reinit_fim_list"),
    LQ_KERNEL(lq_reinit_ops, departure, "reinit_departure"),
};
static const lq_program lq_reinit_program = LQ_PROGRAM("XYZ", lq_reinit_sources, lq_reinit_kernels);

/* The object's own buffers, bound once: φ0, the max change, and the FIM's stamps, seed
 * list and count (the launches set the rest). */
static int lq_reinit_bind(lq_reinit_ops *o)
{
    lq_arg phi0 = LQ_MEM(&o->phi0), mx = LQ_MEM(&o->mx), mark = LQ_MEM(&o->mark);
    lq_binding b[] = {
        {&o->init, {[1] = phi0, [2] = mx}},
        {&o->fim_seed,
         {[1] = phi0, [5] = mark, [6] = LQ_MEM(&o->list[1]), [7] = LQ_MEM(&o->cnt[1])}},
        {&o->fim_list, {[2] = phi0, [3] = mx, [8] = mark}},
        {&o->pde1, {[2] = phi0}},
        {&o->pde2, {[2] = phi0, [3] = mx}},
        {&o->departure, {[3] = LQ_MEM(&o->dep)}},
    };
    return lq_kernels_bind(LQ_ARGS(b));
}

/* lent: NULL to allocate the object's own scratch */
static int lq_reinit_init(lq_reinit_ops *o, lq_ctx *ctx, int nx, int ny, int nz,
                          const lq_field *const *lent)
{
    *o = (lq_reinit_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz, .lent = lent != NULL};
    int rc = LQ_OK;
    if (lent) {
        o->phi0 = lq_field_alias(lent[0], "reinit.phi0", nx, ny, nz, 4);
        o->mark = lq_field_alias(lent[1], "reinit.mark", nx, ny, nz, 4);
        for (int q = 0; q < 2; q++)
            o->list[q] = lq_field_alias(lent[2 + q], "reinit.list", nx, ny, nz, 4);
    } else {
        rc = lq_field_alloc(ctx, &o->phi0, "reinit.phi0", nx, ny, nz, 4);
    }
    if (!rc) rc = lq_field_alloc(ctx, &o->mx, "reinit.max", 1, 1, 1, 4);
    if (!rc && !IS_REF(o) && !lent)
        rc = lq_field_alloc(ctx, &o->mark, "reinit.mark", nx, ny, nz, 4);
    for (int q = 0; q < 2 && !rc && !IS_REF(o) && !lent; q++)
        rc = lq_field_alloc(ctx, &o->list[q], "reinit.list", nx, ny, nz, 4);
    for (int q = 0; q < 2 && !rc && !IS_REF(o); q++)
        rc = lq_field_alloc(ctx, &o->cnt[q], "reinit.count", 1, 1, 1, 4);
    if (!rc && !IS_REF(o)) rc = lq_field_alloc(ctx, &o->dep, "reinit.departure", 2, 1, 1, 8);
    if (!rc && !IS_REF(o)) rc = lq_field_zero(&o->mark, 0);
    if (rc || IS_REF(o)) return rc;
    rc = lq_program_build(&lq_reinit_program, o, &o->program, ctx, nx, ny, nz, "");
    return rc ? rc : lq_reinit_bind(o);
}

int lq_reinit_ops_init(lq_reinit_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    return lq_reinit_init(o, ctx, nx, ny, nz, NULL);
}

int lq_reinit_ops_init_lent(lq_reinit_ops *o, lq_ctx *ctx, int nx, int ny, int nz,
                            const lq_field *const lent[4])
{
    return lq_reinit_init(o, ctx, nx, ny, nz, lent);
}

void lq_reinit_ops_release(lq_reinit_ops *o)
{
    lq_program_release(&lq_reinit_program, o, &o->program);
    lq_field *own[] = {&o->phi0, &o->mark, &o->list[0], &o->list[1]};
    for (size_t i = 0; i < LQ_COUNT(own); i++) {
        if (!o->lent) lq_field_release(own[i]);
        *own[i] = (lq_field){0};
    }
    lq_field_release(&o->mx);
    lq_field_release(&o->cnt[0]);
    lq_field_release(&o->cnt[1]);
    lq_field_release(&o->dep);
}

int lq_reinit_departure(lq_reinit_ops *o, const lq_field *phi, float h, float width, double *mean,
                        long long *cells)
{
    assert(phi->count == (size_t)o->nx * o->ny * o->nz);
    if (IS_REF(o)) {
        lq_reinit_ref_departure(o, phi, h, width, mean, cells);
        return LQ_OK;
    }
    float ih = (float)(1.0 / h), w = width * h;
    size_t n = (size_t)o->nx * o->ny * o->nz;
    lq_arg a[] = {LQ_MEM(phi), LQ_VAL(ih), LQ_VAL(w), LQ_KEEP};
    int rc = lq_field_zero(&o->dep, 0);
    if (!rc)
        rc = lq_kernel_launch(&o->departure,
                              lq_range_1d((n + LQ_REINIT_DEP_BLOCK - 1) / LQ_REINIT_DEP_BLOCK, 0),
                              LQ_ARGS(a));
    lq_long r[2] = {0, 0};
    if (!rc) rc = lq_field_download(&o->dep, r);
    *cells = r[1];
    *mean = r[1] > 0 ? (double)r[0] / LQ_REINIT_DEP_FIXED / (double)r[1] : 0.0;
    return rc;
}

int lq_reinit(lq_reinit_ops *o, lq_field *phi, lq_field *scratch, const lq_reinit_params *prm,
              lq_reinit_stats *out)
{
    size_t cells = (size_t)o->nx * o->ny * o->nz;
    assert(phi->count == cells && scratch->count == cells && phi != scratch);
    (void)cells;
    if (!(prm->h > 0.0f) || !(prm->band > 0.0f) ||
        (prm->method != LQ_REINIT_PDE && prm->method != LQ_REINIT_FIM))
        return lq_error(LQ_EINPUT, "reinit: h %g and band %g must be positive, method %d 0 or 1",
                        (double)prm->h, (double)prm->band, prm->method);
    int n = lq_reinit_iterations(o, prm), rc = LQ_OK;
    if (IS_REF(o)) {
        lq_reinit_ref(o, phi, scratch, prm);
    } else {
        lq_reinit_coef c = lq_reinit_coef_of(prm, o->nz);
        int method = prm->method;
        lq_range grid = lq_range_3d(o->nx, o->ny, o->nz);
        lq_arg ia[] = {LQ_MEM(phi), LQ_KEEP, LQ_KEEP, LQ_VAL(method), LQ_VAL(c.bh)};
        rc = lq_kernel_launch(&o->init, grid, LQ_ARGS(ia));
        if (method == LQ_REINIT_FIM) {
            int m = n + (n & 1);
            /* the start, with the first sweep's active list (the near cells and their
             * neighbours) into list[1] and φ copied into the scratch; then every sweep
             * over its active list (reinit.cl), each list's length on the device (cnt[q]
             * of list[q]), the sweeps a fixed grid looping over it: no host wait. Sweeps
             * after the lists ran dry do nothing (both buffers then hold the result). */
            /* a lent mark holds another stage's bytes: zeroed, the stamps from 1 again (the
             * same sweeps: a cell is listed while its mark is below the sweep's stamp, and
             * every mark is below this call's stamps either way) */
            if (!rc && (o->lent || o->stamp >= INT32_MAX - m - 2)) {
                o->stamp = 0;
                rc = lq_field_zero(&o->mark, 0);
            }
            int seed_stamp = ++o->stamp;
            if (!rc) rc = lq_field_zero(&o->cnt[1], 0);
            lq_arg sa[] = {LQ_MEM(phi),        LQ_KEEP,       LQ_MEM(scratch), LQ_VAL(c.h),
                           LQ_VAL(c.bh),       LQ_KEEP,       LQ_KEEP,         LQ_KEEP,
                           LQ_VAL(seed_stamp), LQ_VAL(c.keep)};
            if (!rc) rc = lq_kernel_launch(&o->fim_seed, grid, LQ_ARGS(sa));
            lq_range sweep = lq_range_stride(&o->fim_list, (size_t)o->nx * o->ny * o->nz);
            for (int it = 0; it < m && !rc; it++) {
                lq_field *src = it & 1 ? scratch : phi, *dst = it & 1 ? phi : scratch;
                int note = it >= m - 2, stamp = ++o->stamp;
                rc = lq_field_zero(&o->cnt[it & 1], 0);
                lq_arg fa[] = {LQ_MEM(dst),
                               LQ_MEM(src),
                               LQ_KEEP,
                               LQ_KEEP,
                               LQ_VAL(note),
                               LQ_VAL(c.h),
                               LQ_VAL(c.h2),
                               LQ_VAL(c.bh),
                               LQ_KEEP,
                               LQ_MEM(&o->list[it & 1]),
                               LQ_MEM(&o->cnt[it & 1]),
                               LQ_VAL(stamp),
                               LQ_MEM(&o->list[(it + 1) & 1]),
                               LQ_MEM(&o->cnt[(it + 1) & 1])};
                if (!rc) rc = lq_kernel_launch(&o->fim_list, sweep, LQ_ARGS(fa));
            }
        } else {
            for (int it = 0; it < n && !rc; it++) {
                int note = it == n - 1;
                lq_arg a1[] = {LQ_MEM(scratch), LQ_MEM(phi),   LQ_KEEP,      LQ_VAL(c.h),
                               LQ_VAL(c.ih),    LQ_VAL(c.dth), LQ_VAL(c.bh), LQ_VAL(c.keep)};
                lq_arg a2[] = {LQ_MEM(phi),  LQ_MEM(scratch), LQ_KEEP,      LQ_KEEP,
                               LQ_VAL(note), LQ_VAL(c.h),     LQ_VAL(c.ih), LQ_VAL(c.dth),
                               LQ_VAL(c.bh), LQ_VAL(c.keep)};
                rc = lq_kernel_launch(&o->pde1, grid, LQ_ARGS(a1));
                if (!rc) rc = lq_kernel_launch(&o->pde2, grid, LQ_ARGS(a2));
            }
        }
    }
    if (!rc && out) {
        uint32_t bits = 0;
        rc = lq_field_download(&o->mx, &bits);
        memcpy(&out->max_change, &bits, 4);
        out->iterations = prm->method == LQ_REINIT_FIM ? n + (n & 1) : n;
    }
    return rc;
}
