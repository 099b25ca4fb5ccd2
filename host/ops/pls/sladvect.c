/*
 * sladvect.c — launchers of semi-Lagrangian advection (see sladvect.h; Rasmussen et al.
 * 2004 §3). Each launcher dispatches to the reference twin or binds its arguments and
 * enqueues; nothing here allocates in the step loop.
 */
#include "ops/pls/sladvect.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "core/common.h"

static const char *const lq_sladvect_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", "kernels/mac/markers_cell.h",
    "kernels/pls/sladvect_cell.h", "kernels/pls/sladvect.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

#define LQ_SLADVECT_KERNELS(o)                                                                     \
    {                                                                                              \
        {&(o)->velocity, "sladvect_velocity"}, {&(o)->scalar, "sladvect_scalar"},                  \
            {&(o)->maccormack, "sladvect_maccormack"}, {&(o)->bfecc, "sladvect_bfecc"},            \
            {&(o)->scalar_keep, "sladvect_scalar_keep"},                                           \
            {&(o)->maccormack_dep, "sladvect_maccormack_dep"},                                     \
            {&(o)->bfecc_dep, "sladvect_bfecc_dep"},                                               \
    }

int lq_sladvect_ops_init(lq_sladvect_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    memset(o, 0, sizeof *o);
    o->ctx = ctx;
    o->nx = nx;
    o->ny = ny;
    o->nz = nz;
    int rc = lq_field_alloc(ctx, &o->scratch, "sl_scratch", nx, ny, nz, 4);
    if (!rc && !IS_REF(o)) rc = lq_field_alloc(ctx, &o->dep, "sl_departure", nx, ny, 3 * nz, 4);
    if (rc || IS_REF(o)) return rc;
    char defines[96];
    snprintf(defines, sizeof defines, "-DNX=%d -DNY=%d -DNZ=%d", nx, ny, nz);
    lq_cl_kernel_name ks[] = LQ_SLADVECT_KERNELS(o);
    return lq_cl_build_kernels(&ctx->cl, (int)LQ_COUNT(lq_sladvect_sources), lq_sladvect_sources,
                               defines, &o->program, (int)LQ_COUNT(ks), ks);
}

void lq_sladvect_ops_release(lq_sladvect_ops *o)
{
    if (!IS_REF(o)) {
        lq_cl_kernel_name ks[] = LQ_SLADVECT_KERNELS(o);
        lq_cl_release_kernels(&o->program, (int)LQ_COUNT(ks), ks);
    }
    lq_field_release(&o->scratch);
    lq_field_release(&o->dep);
}

static void lq_sladvect_check_velocity(const lq_sladvect_ops *o, const lq_field *u,
                                       const lq_field *v, const lq_field *w)
{
    (void)o;
    (void)u;
    (void)v;
    (void)w;
    assert(u->count == (size_t)(o->nx + 1) * o->ny * o->nz);
    assert(v->count == (size_t)o->nx * (o->ny + 1) * o->nz);
    assert(w->count == (size_t)o->nx * o->ny * (o->nz + 1));
}

/* Binds args and runs kernel k over g0 × g1 × g2. */
static int lq_sladvect_run3(lq_sladvect_ops *o, cl_kernel k, const char *name, int nargs,
                            const lq_argv *a, size_t g0, size_t g1, size_t g2)
{
    for (int i = 0; i < nargs; i++) {
        int rc = lq_cl_arg(k, name, (cl_uint)i, a[i].size, a[i].p);
        if (rc) return rc;
    }
    size_t global[3] = {g0, g1, g2};
    return lq_cl_run(o->ctx, k, name, 3, global, NULL);
}

int lq_sladvect_advect_velocity(lq_sladvect_ops *o, const lq_field *u, const lq_field *v,
                                const lq_field *w, lq_field *un, lq_field *vn, lq_field *wn,
                                const lq_sladvect_params *prm)
{
    lq_sladvect_check_velocity(o, u, v, w);
    lq_sladvect_check_velocity(o, un, vn, wn);
    assert(un != u && vn != v && wn != w);
    if (IS_REF(o)) {
        lq_sladvect_ref_advect_velocity(u, v, w, un, vn, wn, prm);
        return LQ_OK;
    }
    lq_sladvect_coef c = lq_sladvect_coef_of(prm, o->nx, o->ny, o->nz);
    lq_field *outs[3] = {un, vn, wn};
    int rc = LQ_OK;
    for (int comp = 0; comp < 3 && !rc; comp++) {
        lq_argv a[] = {MEM(outs[comp]), MEM(u),    MEM(v),    MEM(w),    VAL(comp), VAL(c.h),
                       VAL(c.ih),       VAL(c.lx), VAL(c.ly), VAL(c.lz), VAL(c.dt)};
        rc = lq_sladvect_run3(o, o->velocity, "sladvect_velocity", (int)LQ_COUNT(a), a,
                              (size_t)(o->nx + (comp == 0)), (size_t)(o->ny + (comp == 1)),
                              (size_t)(o->nz + (comp == 2)));
    }
    return rc;
}

/* The plain pass of q into qn over dt (−δt: the reverse pass). */
static int lq_sladvect_scalar_pass(lq_sladvect_ops *o, const lq_field *q, lq_field *qn,
                                   const lq_field *u, const lq_field *v, const lq_field *w,
                                   const lq_sladvect_params *prm, float dt)
{
    if (IS_REF(o)) {
        lq_sladvect_ref_scalar_pass(q, qn, u, v, w, prm, dt);
        return LQ_OK;
    }
    lq_sladvect_coef c = lq_sladvect_coef_of(prm, o->nx, o->ny, o->nz);
    lq_argv a[] = {MEM(qn),   MEM(q),    MEM(u),    MEM(v),    MEM(w), VAL(c.h),
                   VAL(c.ih), VAL(c.lx), VAL(c.ly), VAL(c.lz), VAL(dt)};
    return lq_sladvect_run3(o, o->scalar, "sladvect_scalar", (int)LQ_COUNT(a), a, (size_t)o->nx,
                            (size_t)o->ny, (size_t)o->nz);
}

/* The final pass of MacCormack or BFECC (sladvect_cell.h). */
static int lq_sladvect_final_pass(lq_sladvect_ops *o, lq_sladvect_scheme sc, lq_field *qn,
                                  const lq_field *q, const lq_field *qt, const lq_field *u,
                                  const lq_field *v, const lq_field *w,
                                  const lq_sladvect_params *prm)
{
    if (IS_REF(o)) {
        if (sc == LQ_SLADVECT_MACCORMACK)
            lq_sladvect_ref_maccormack(qn, q, qt, u, v, w, prm);
        else
            lq_sladvect_ref_bfecc(qn, q, qt, u, v, w, prm);
        return LQ_OK;
    }
    lq_sladvect_coef c = lq_sladvect_coef_of(prm, o->nx, o->ny, o->nz);
    lq_argv a[] = {MEM(qn),  MEM(q),    MEM(qt),   MEM(u),    MEM(v),    MEM(w),
                   VAL(c.h), VAL(c.ih), VAL(c.lx), VAL(c.ly), VAL(c.lz), VAL(c.dt)};
    int mc = sc == LQ_SLADVECT_MACCORMACK;
    return lq_sladvect_run3(o, mc ? o->maccormack : o->bfecc,
                            mc ? "sladvect_maccormack" : "sladvect_bfecc", (int)LQ_COUNT(a), a,
                            (size_t)o->nx, (size_t)o->ny, (size_t)o->nz);
}

int lq_sladvect_advect_scalar(lq_sladvect_ops *o, const lq_field *q, lq_field *qn,
                              const lq_field *u, const lq_field *v, const lq_field *w,
                              const lq_sladvect_params *prm)
{
    lq_sladvect_check_velocity(o, u, v, w);
    assert(q->count == (size_t)o->nx * o->ny * o->nz && qn->count == q->count && qn != q);
    lq_sladvect_scheme sc = lq_sladvect_scheme_of(prm);
    if (sc != LQ_SLADVECT_MACCORMACK && sc != LQ_SLADVECT_BFECC)
        return lq_sladvect_scalar_pass(o, q, qn, u, v, w, prm, prm->dt);
    /* q^ into qn, q~ into the scratch, then the final pass into qn */
    if (IS_REF(o)) {
        int rc = lq_sladvect_scalar_pass(o, q, qn, u, v, w, prm, prm->dt);
        if (!rc) rc = lq_sladvect_scalar_pass(o, qn, &o->scratch, u, v, w, prm, -prm->dt);
        if (!rc) rc = lq_sladvect_final_pass(o, sc, qn, q, &o->scratch, u, v, w, prm);
        return rc;
    }
    /* OpenCL: the first pass keeps its departure points for the final pass (the same
     * floats the final pass would trace again: sladvect_cell.h) */
    lq_sladvect_coef c = lq_sladvect_coef_of(prm, o->nx, o->ny, o->nz);
    size_t nx = (size_t)o->nx, ny = (size_t)o->ny, nz = (size_t)o->nz;
    lq_argv a[] = {MEM(qn),  MEM(q),    MEM(u),    MEM(v),    MEM(w),    MEM(&o->dep),
                   VAL(c.h), VAL(c.ih), VAL(c.lx), VAL(c.ly), VAL(c.lz), VAL(c.dt)};
    int rc = lq_sladvect_run3(o, o->scalar_keep, "sladvect_scalar_keep", (int)LQ_COUNT(a), a, nx,
                              ny, nz);
    if (!rc) rc = lq_sladvect_scalar_pass(o, qn, &o->scratch, u, v, w, prm, -prm->dt);
    int mc = sc == LQ_SLADVECT_MACCORMACK;
    lq_argv f[] = {MEM(qn), MEM(q), MEM(&o->scratch), MEM(&o->dep), VAL(c.ih)};
    if (!rc)
        rc = lq_sladvect_run3(o, mc ? o->maccormack_dep : o->bfecc_dep,
                              mc ? "sladvect_maccormack_dep" : "sladvect_bfecc_dep",
                              (int)LQ_COUNT(f), f, nx, ny, nz);
    return rc;
}
