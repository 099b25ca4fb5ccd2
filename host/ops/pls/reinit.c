/*
 * reinit.c — launchers of level-set reinitialisation (see reinit.h): the start pass,
 * then the FIM sweeps (ping-pong between φ and scratch, an even count so the result
 * ends in φ) or the PDE's two RK2 stages per step. One download at the end for the
 * stats; nothing allocated per call.
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
    return p;
}

#define LQ_REINIT_KERNELS(o)                                                                       \
    {                                                                                              \
        {&(o)->init, "reinit_init"}, {&(o)->fim_seed, "reinit_fim_seed_list"},                     \
            {&(o)->pde1, "reinit_pde1"}, {&(o)->pde2, "reinit_pde2"},                              \
            {&(o)->fim_list, "reinit_fim_list"},                                                   \
    }

int lq_reinit_ops_init(lq_reinit_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    memset(o, 0, sizeof *o);
    o->ctx = ctx;
    o->nx = nx;
    o->ny = ny;
    o->nz = nz;
    int rc = lq_field_alloc(ctx, &o->phi0, "reinit.phi0", nx, ny, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->mx, "reinit.max", 1, 1, 1, 4);
    if (!rc && !IS_REF(o)) rc = lq_field_alloc(ctx, &o->mark, "reinit.mark", nx, ny, nz, 4);
    for (int q = 0; q < 2 && !rc && !IS_REF(o); q++)
        rc = lq_field_alloc(ctx, &o->list[q], "reinit.list", nx, ny, nz, 4);
    if (!rc && !IS_REF(o)) rc = lq_field_alloc(ctx, &o->cnt, "reinit.count", 1, 1, 1, 4);
    if (!rc && !IS_REF(o)) rc = lq_field_zero(&o->mark, 0);
    if (rc || IS_REF(o)) return rc;
    char defines[96];
    snprintf(defines, sizeof defines, "-DNX=%d -DNY=%d -DNZ=%d", nx, ny, nz);
    lq_cl_kernel_name ks[] = LQ_REINIT_KERNELS(o);
    return lq_cl_build_kernels(&ctx->cl, (int)LQ_COUNT(lq_reinit_sources), lq_reinit_sources,
                               defines, &o->program, (int)LQ_COUNT(ks), ks);
}

void lq_reinit_ops_release(lq_reinit_ops *o)
{
    lq_cl_kernel_name ks[] = LQ_REINIT_KERNELS(o);
    lq_cl_release_kernels(&o->program, (int)LQ_COUNT(ks), ks);
    lq_field_release(&o->phi0);
    lq_field_release(&o->mx);
    lq_field_release(&o->mark);
    lq_field_release(&o->list[0]);
    lq_field_release(&o->list[1]);
    lq_field_release(&o->cnt);
}

static int lq_reinit_run(lq_reinit_ops *o, cl_kernel k, const char *name, int nargs,
                         const lq_argv *a)
{
    for (int i = 0; i < nargs; i++) {
        int rc = lq_cl_arg(k, name, (cl_uint)i, a[i].size, a[i].p);
        if (rc) return rc;
    }
    size_t global[3] = {(size_t)o->nx, (size_t)o->ny, (size_t)o->nz};
    return lq_cl_run(o->ctx, k, name, 3, global, NULL);
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
        lq_argv ia[] = {MEM(phi), MEM(&o->phi0), MEM(&o->mx), VAL(method), VAL(c.bh)};
        rc = lq_reinit_run(o, o->init, "reinit_init", (int)LQ_COUNT(ia), ia);
        if (method == LQ_REINIT_FIM) {
            int m = n + (n & 1), len = 0;
            size_t local = 64;
            /* the start, with the first sweep's active list (the near cells and their
             * neighbours) into list[1] and φ copied into the scratch; then every sweep
             * over its active list (reinit.cl) */
            if (!rc && o->stamp >= INT32_MAX - 2) {
                o->stamp = 0;
                rc = lq_field_zero(&o->mark, 0);
            }
            int seed_stamp = ++o->stamp;
            if (!rc) rc = lq_field_zero(&o->cnt, 0);
            lq_argv sa[] = {MEM(phi),         MEM(&o->phi0), MEM(scratch),
                            VAL(c.h),         VAL(c.bh),     MEM(&o->mark),
                            MEM(&o->list[1]), MEM(&o->cnt),  VAL(seed_stamp)};
            if (!rc)
                rc = lq_reinit_run(o, o->fim_seed, "reinit_fim_seed_list", (int)LQ_COUNT(sa), sa);
            if (!rc) rc = lq_field_download(&o->cnt, &len);
            for (int it = 0; it < m && !rc && len > 0; it++) {
                lq_field *src = it & 1 ? scratch : phi, *dst = it & 1 ? phi : scratch;
                int note = it >= m - 2;
                if (o->stamp >= INT32_MAX - 1) {
                    o->stamp = 0;
                    rc = lq_field_zero(&o->mark, 0);
                }
                int stamp = ++o->stamp;
                if (!rc) rc = lq_field_zero(&o->cnt, 0);
                lq_argv fa[] = {MEM(dst),
                                MEM(src),
                                MEM(&o->phi0),
                                MEM(&o->mx),
                                VAL(note),
                                VAL(c.h),
                                VAL(c.h2),
                                VAL(c.bh),
                                MEM(&o->mark),
                                MEM(&o->list[it & 1]),
                                MEM(&o->cnt),
                                VAL(stamp),
                                MEM(&o->list[(it + 1) & 1]),
                                VAL(len)};
                if (!rc)
                    rc = lq_cl_launch(o->ctx, o->fim_list, "reinit_fim_list", (int)LQ_COUNT(fa), fa,
                                      1, ((size_t)len + local - 1) / local * local, 1, &local);
                if (!rc && it < m - 1) rc = lq_field_download(&o->cnt, &len);
                if (!rc && len == 0) break; /* both buffers equal: φ holds the result */
            }
        } else {
            for (int it = 0; it < n && !rc; it++) {
                int note = it == n - 1;
                lq_argv a1[] = {MEM(scratch), MEM(phi),   MEM(&o->phi0), VAL(c.h),
                                VAL(c.ih),    VAL(c.dth), VAL(c.bh)};
                lq_argv a2[] = {MEM(phi), MEM(scratch), MEM(&o->phi0), MEM(&o->mx), VAL(note),
                                VAL(c.h), VAL(c.ih),    VAL(c.dth),    VAL(c.bh)};
                rc = lq_reinit_run(o, o->pde1, "reinit_pde1", (int)LQ_COUNT(a1), a1);
                if (!rc) rc = lq_reinit_run(o, o->pde2, "reinit_pde2", (int)LQ_COUNT(a2), a2);
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
