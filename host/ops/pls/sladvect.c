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

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_sladvect_kernels[] = {
    LQ_KERNEL(lq_sladvect_ops, velocity, "sladvect_velocity"),
    LQ_KERNEL(lq_sladvect_ops, scalar, "sladvect_scalar"),
    LQ_KERNEL(lq_sladvect_ops, maccormack, "sladvect_maccormack"),
    LQ_KERNEL(lq_sladvect_ops, bfecc, "sladvect_bfecc"),
    LQ_KERNEL(lq_sladvect_ops, scalar_keep, "sladvect_scalar_keep"),
    LQ_KERNEL(lq_sladvect_ops, maccormack_dep, "sladvect_maccormack_dep"),
    LQ_KERNEL(lq_sladvect_ops, bfecc_dep, "sladvect_bfecc_dep"),
    LQ_KERNEL(lq_sladvect_ops, velocity_pass, "sladvect_velocity_pass"),
    LQ_KERNEL(lq_sladvect_ops, velocity_maccormack, "sladvect_velocity_maccormack"),
    LQ_KERNEL(lq_sladvect_ops, velocity_bfecc, "sladvect_velocity_bfecc"),
};
static const lq_program lq_sladvect_program =
    LQ_PROGRAM("XYZ", lq_sladvect_sources, lq_sladvect_kernels);

/* Bound once: the departure points the first pass keeps and the final pass reads, and
 * the scratch of the reverse pass (lq_sladvect_advect_scalar). */
static int lq_sladvect_bind(lq_sladvect_ops *o)
{
    lq_arg dep = LQ_MEM(&o->dep), scratch = LQ_MEM(&o->scratch);
    lq_binding b[] = {
        {&o->scalar_keep, {[5] = dep}},
        {&o->maccormack_dep, {[2] = scratch, [3] = dep}},
        {&o->bfecc_dep, {[2] = scratch, [3] = dep}},
    };
    return lq_kernels_bind(LQ_ARGS(b));
}

/* scratch, dep: NULL to allocate the object's own */
static int lq_sladvect_init(lq_sladvect_ops *o, lq_ctx *ctx, int nx, int ny, int nz,
                            const lq_field *scratch, const lq_field *dep)
{
    *o = (lq_sladvect_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz, .lent = scratch != NULL};
    int rc = LQ_OK;
    if (o->lent) {
        o->scratch = lq_field_alias(scratch, "sl_scratch", nx, ny, nz, 4);
        o->dep = lq_field_alias(dep, "sl_departure", nx, ny, 3 * nz, 4);
    } else {
        rc = lq_field_alloc(ctx, &o->scratch, "sl_scratch", nx, ny, nz, 4);
        /* on both backends: the velocity's schemes lend it (3 nx·ny·nz floats, as the pls
         * solver's memory plan counts it) */
        if (!rc) rc = lq_field_alloc(ctx, &o->dep, "sl_departure", nx, ny, 3 * nz, 4);
    }
    if (rc || IS_REF(o)) return rc;
    rc = lq_program_build(&lq_sladvect_program, o, &o->program, ctx, nx, ny, nz, "");
    return rc ? rc : lq_sladvect_bind(o);
}

int lq_sladvect_ops_init(lq_sladvect_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    return lq_sladvect_init(o, ctx, nx, ny, nz, NULL, NULL);
}

int lq_sladvect_ops_init_lent(lq_sladvect_ops *o, lq_ctx *ctx, int nx, int ny, int nz,
                              const lq_field *scratch, const lq_field *dep)
{
    assert(scratch && dep);
    return lq_sladvect_init(o, ctx, nx, ny, nz, scratch, dep);
}

void lq_sladvect_ops_release(lq_sladvect_ops *o)
{
    lq_program_release(&lq_sladvect_program, o, &o->program);
    if (!o->lent) {
        lq_field_release(&o->scratch);
        lq_field_release(&o->dep);
    }
    o->scratch = (lq_field){0};
    o->dep = (lq_field){0};
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

static lq_range lq_sladvect_cells(const lq_sladvect_ops *o)
{
    return lq_range_3d((size_t)o->nx, (size_t)o->ny, (size_t)o->nz);
}

/* The velocity's pass of f (component comp's lattice) into out over dt
 * (lq_sladvect_ref_velocity_pass). */
static int lq_sladvect_velocity_pass(lq_sladvect_ops *o, lq_field *out, const lq_field *f,
                                     const lq_field *u, const lq_field *v, const lq_field *w,
                                     int comp, const lq_sladvect_params *prm, float dt)
{
    if (IS_REF(o)) {
        lq_sladvect_ref_velocity_pass(out, f, u, v, w, comp, prm, dt);
        return LQ_OK;
    }
    lq_sladvect_coef c = lq_sladvect_coef_of(prm, o->nx, o->ny, o->nz);
    lq_arg a[] = {LQ_MEM(out),  LQ_MEM(f),   LQ_MEM(u),          LQ_MEM(v),    LQ_MEM(w),
                  LQ_VAL(comp), LQ_VAL(c.h), LQ_VAL(c.ih),       LQ_VAL(c.lx), LQ_VAL(c.ly),
                  LQ_VAL(c.lz), LQ_VAL(dt),  LQ_VAL(prm->noslip)};
    return lq_kernel_launch(&o->velocity_pass, lq_range_faces(o->nx, o->ny, o->nz, comp),
                            LQ_ARGS(a));
}

/* The final pass of the velocity's MacCormack or BFECC for component comp. */
static int lq_sladvect_velocity_final(lq_sladvect_ops *o, lq_sladvect_scheme sc, lq_field *qn,
                                      const lq_field *q, const lq_field *qt, const lq_field *u,
                                      const lq_field *v, const lq_field *w, int comp,
                                      const lq_sladvect_params *prm)
{
    int mc = sc == LQ_SLADVECT_MACCORMACK;
    if (IS_REF(o)) {
        if (mc)
            lq_sladvect_ref_velocity_maccormack(qn, q, qt, u, v, w, comp, prm);
        else
            lq_sladvect_ref_velocity_bfecc(qn, q, qt, u, v, w, comp, prm);
        return LQ_OK;
    }
    lq_sladvect_coef c = lq_sladvect_coef_of(prm, o->nx, o->ny, o->nz);
    lq_arg a[] = {LQ_MEM(qn),   LQ_MEM(q),    LQ_MEM(qt),   LQ_MEM(u),          LQ_MEM(v),
                  LQ_MEM(w),    LQ_VAL(comp), LQ_VAL(c.h),  LQ_VAL(c.ih),       LQ_VAL(c.lx),
                  LQ_VAL(c.ly), LQ_VAL(c.lz), LQ_VAL(c.dt), LQ_VAL(prm->noslip)};
    return lq_kernel_launch(mc ? &o->velocity_maccormack : &o->velocity_bfecc,
                            lq_range_faces(o->nx, o->ny, o->nz, comp), LQ_ARGS(a));
}

int lq_sladvect_advect_velocity(lq_sladvect_ops *o, const lq_field *u, const lq_field *v,
                                const lq_field *w, lq_field *un, lq_field *vn, lq_field *wn,
                                const lq_sladvect_params *prm)
{
    lq_sladvect_check_velocity(o, u, v, w);
    lq_sladvect_check_velocity(o, un, vn, wn);
    assert(un != u && vn != v && wn != w);
    lq_sladvect_scheme sc = lq_sladvect_velocity_scheme_of(prm);
    int compensated = sc == LQ_SLADVECT_MACCORMACK || sc == LQ_SLADVECT_BFECC;
    if (IS_REF(o) && !compensated) {
        lq_sladvect_ref_advect_velocity(u, v, w, un, vn, wn, prm);
        return LQ_OK;
    }
    lq_sladvect_coef c = lq_sladvect_coef_of(prm, o->nx, o->ny, o->nz);
    const lq_field *ins[3] = {u, v, w};
    lq_field *outs[3] = {un, vn, wn};
    int rc = LQ_OK;
    for (int comp = 0; comp < 3 && !rc; comp++) {
        /* q^ into the output; with a compensated scheme q~ into o->dep (lent: comp's
         * lattice fits, sladvect_ref.h) and the final pass into the output */
        if (IS_REF(o)) {
            lq_sladvect_ref_velocity_pass(outs[comp], ins[comp], u, v, w, comp, prm, prm->dt);
        } else {
            lq_arg a[] = {LQ_MEM(outs[comp]), LQ_MEM(u),    LQ_MEM(v),    LQ_MEM(w),
                          LQ_VAL(comp),       LQ_VAL(c.h),  LQ_VAL(c.ih), LQ_VAL(c.lx),
                          LQ_VAL(c.ly),       LQ_VAL(c.lz), LQ_VAL(c.dt), LQ_VAL(prm->noslip)};
            rc = lq_kernel_launch(&o->velocity, lq_range_faces(o->nx, o->ny, o->nz, comp),
                                  LQ_ARGS(a));
        }
        if (rc || !compensated) continue;
        assert(o->dep.count >= ins[comp]->count);
        rc = lq_sladvect_velocity_pass(o, &o->dep, outs[comp], u, v, w, comp, prm, -prm->dt);
        if (!rc)
            rc = lq_sladvect_velocity_final(o, sc, outs[comp], ins[comp], &o->dep, u, v, w, comp,
                                            prm);
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
    lq_arg a[] = {LQ_MEM(qn),   LQ_MEM(q),    LQ_MEM(u),    LQ_MEM(v),    LQ_MEM(w), LQ_VAL(c.h),
                  LQ_VAL(c.ih), LQ_VAL(c.lx), LQ_VAL(c.ly), LQ_VAL(c.lz), LQ_VAL(dt)};
    return lq_kernel_launch(&o->scalar, lq_sladvect_cells(o), LQ_ARGS(a));
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
    lq_arg a[] = {LQ_MEM(qn),   LQ_MEM(q),    LQ_MEM(qt),   LQ_MEM(u),
                  LQ_MEM(v),    LQ_MEM(w),    LQ_VAL(c.h),  LQ_VAL(c.ih),
                  LQ_VAL(c.lx), LQ_VAL(c.ly), LQ_VAL(c.lz), LQ_VAL(c.dt)};
    int mc = sc == LQ_SLADVECT_MACCORMACK;
    return lq_kernel_launch(mc ? &o->maccormack : &o->bfecc, lq_sladvect_cells(o), LQ_ARGS(a));
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
    lq_arg a[] = {LQ_MEM(qn),   LQ_MEM(q),    LQ_MEM(u),    LQ_MEM(v),
                  LQ_MEM(w),    LQ_KEEP,      LQ_VAL(c.h),  LQ_VAL(c.ih),
                  LQ_VAL(c.lx), LQ_VAL(c.ly), LQ_VAL(c.lz), LQ_VAL(c.dt)};
    int rc = lq_kernel_launch(&o->scalar_keep, lq_sladvect_cells(o), LQ_ARGS(a));
    if (!rc) rc = lq_sladvect_scalar_pass(o, qn, &o->scratch, u, v, w, prm, -prm->dt);
    int mc = sc == LQ_SLADVECT_MACCORMACK;
    lq_arg f[] = {LQ_MEM(qn), LQ_MEM(q), LQ_KEEP, LQ_KEEP, LQ_VAL(c.ih)};
    if (!rc)
        rc = lq_kernel_launch(mc ? &o->maccormack_dep : &o->bfecc_dep, lq_sladvect_cells(o),
                              LQ_ARGS(f));
    return rc;
}
