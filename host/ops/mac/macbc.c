/*
 * macbc.c — launchers of the inflow, outflow and air-band face operations (macbc.h).
 */
#include "ops/mac/macbc.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "core/common.h"

static const char *const lq_macbc_sources[] = {"kernels/common/lq_shared.h",
                                               "kernels/common/mac_grid.h",
                                               "kernels/mac/macbc_cell.h", "kernels/mac/macbc.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_macbc_kernels[] = {
    LQ_KERNEL(lq_macbc_ops, inflow, "macbc_inflow"),
    LQ_KERNEL(lq_macbc_ops, outflow, "macbc_outflow"),
    LQ_KERNEL(lq_macbc_ops, extrapolate, "macbc_extrapolate"),
    LQ_KERNEL(lq_macbc_ops, outflow_pressure, "macbc_outflow_pressure"),
};
static const lq_program lq_macbc_program = LQ_PROGRAM("XYZ", lq_macbc_sources, lq_macbc_kernels);

int lq_macbc_ops_init(lq_macbc_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    *o = (lq_macbc_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz};
    int rc = lq_field_alloc(ctx, &o->cls, "macbc.cls", nx + 1, ny + 1, nz + 1, 1);
    if (!rc) rc = lq_field_zero(&o->cls, 0);
    if (!rc) rc = lq_program_build(&lq_macbc_program, o, &o->program, ctx, nx, ny, nz, "");
    return rc;
}

void lq_macbc_ops_release(lq_macbc_ops *o)
{
    lq_program_release(&lq_macbc_program, o, &o->program);
    lq_field_release(&o->cls);
}

static void lq_macbc_check(const lq_macbc_ops *o, const lq_field *u, const lq_field *v,
                           const lq_field *w, const lq_field *flags)
{
    (void)o, (void)u, (void)v, (void)w, (void)flags;
    assert(flags->elem == 1 && flags->count == (size_t)o->nx * o->ny * o->nz);
    assert(u->count == (size_t)(o->nx + 1) * o->ny * o->nz);
    assert(v->count == (size_t)o->nx * (o->ny + 1) * o->nz);
    assert(w->count == (size_t)o->nx * o->ny * (o->nz + 1));
}

int lq_macbc_inflow(lq_macbc_ops *o, lq_field *u, lq_field *v, lq_field *w, const lq_field *flags,
                    const lq_field *region, const lq_field *vel)
{
    lq_macbc_check(o, u, v, w, flags);
    assert(region->elem == 1 && region->count == flags->count);
    assert(vel->elem == 4 && vel->count >= 3 * LQ_MACBC_MAX_INLETS);
    if (IS_REF(o)) {
        lq_macbc_ref_inflow(u, v, w, flags, region, vel);
        return LQ_OK;
    }
    lq_field *q[3] = {u, v, w};
    int rc = LQ_OK;
    for (int a = 0; a < 3 && !rc; a++) {
        lq_arg args[] = {LQ_MEM(q[a]), LQ_MEM(flags), LQ_MEM(region), LQ_MEM(vel), LQ_VAL(a)};
        rc = lq_kernel_launch(&o->inflow, lq_range_faces(o->nx, o->ny, o->nz, a), LQ_ARGS(args));
    }
    return rc;
}

int lq_macbc_outflow(lq_macbc_ops *o, lq_field *u, lq_field *v, lq_field *w, const lq_field *flags)
{
    lq_macbc_check(o, u, v, w, flags);
    if (IS_REF(o)) {
        lq_macbc_ref_outflow(u, v, w, flags);
        return LQ_OK;
    }
    lq_field *q[3] = {u, v, w};
    int rc = LQ_OK;
    for (int a = 0; a < 3 && !rc; a++) {
        lq_arg args[] = {LQ_MEM(q[a]), LQ_MEM(flags), LQ_VAL(a)};
        rc = lq_kernel_launch(&o->outflow, lq_range_faces(o->nx, o->ny, o->nz, a), LQ_ARGS(args));
    }
    return rc;
}

int lq_macbc_outflow_pressure(lq_macbc_ops *o, lq_field *p, const lq_field *flags)
{
    assert(p->count == flags->count && flags->count == (size_t)o->nx * o->ny * o->nz);
    if (IS_REF(o)) {
        lq_macbc_ref_outflow_pressure(p, flags);
        return LQ_OK;
    }
    lq_arg args[] = {LQ_MEM(p), LQ_MEM(flags)};
    return lq_kernel_launch(&o->outflow_pressure, lq_range_3d(o->nx, o->ny, o->nz), LQ_ARGS(args));
}

/* The faces of axis a in work-groups of 64 along x (the row rounded up; the kernel returns
 * past its end). Left to PoCL, (65, 64, 64) got groups that made the air band's passes 2× as
 * slow (the 64³ dam break: 110 against 52 ms a step). */
static lq_range lq_macbc_rows(const lq_macbc_ops *o, int a)
{
    lq_range r = lq_range_faces(o->nx, o->ny, o->nz, a);
    size_t g = lq_kernel_group(&o->extrapolate, 64);
    r.global[0] = (r.global[0] + g - 1) / g * g;
    r.local[0] = g, r.local[1] = 1, r.local[2] = 1;
    return r;
}

int lq_macbc_extrapolate(lq_macbc_ops *o, lq_field *u, lq_field *v, lq_field *w,
                         const lq_field *flags)
{
    lq_macbc_check(o, u, v, w, flags);
    if (IS_REF(o)) {
        lq_macbc_ref_extrapolate(u, v, w, flags, &o->cls);
        return LQ_OK;
    }
    lq_field *q[3] = {u, v, w};
    int rc = LQ_OK;
    for (int a = 0; a < 3 && !rc; a++) {
        if (a == 2 && o->nz == 1) break;               /* 2D: w is not used */
        for (int pass = 0; pass <= 2 && !rc; pass++) { /* classes, layer 1, layer 2 */
            lq_arg args[] = {LQ_MEM(q[a]), LQ_MEM(flags), LQ_MEM(&o->cls), LQ_VAL(a), LQ_VAL(pass)};
            rc = lq_kernel_launch(&o->extrapolate, lq_macbc_rows(o, a), LQ_ARGS(args));
        }
    }
    return rc;
}
