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

#define LQ_MACBC_KERNELS(o)                                                                        \
    {                                                                                              \
        {&(o)->inflow, "macbc_inflow"}, {&(o)->outflow, "macbc_outflow"},                          \
            {&(o)->extrapolate, "macbc_extrapolate"},                                              \
        {                                                                                          \
            &(o)->outflow_pressure, "macbc_outflow_pressure"                                       \
        }                                                                                          \
    }

int lq_macbc_ops_init(lq_macbc_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    memset(o, 0, sizeof *o);
    o->ctx = ctx;
    o->nx = nx;
    o->ny = ny;
    o->nz = nz;
    if (IS_REF(o)) return LQ_OK;
    char defines[96];
    snprintf(defines, sizeof defines, "-DNX=%d -DNY=%d -DNZ=%d", nx, ny, nz);
    lq_cl_kernel_name ks[] = LQ_MACBC_KERNELS(o);
    return lq_cl_build_kernels(&ctx->cl, (int)LQ_COUNT(lq_macbc_sources), lq_macbc_sources, defines,
                               &o->program, (int)LQ_COUNT(ks), ks);
}

void lq_macbc_ops_release(lq_macbc_ops *o)
{
    lq_cl_kernel_name ks[] = LQ_MACBC_KERNELS(o);
    lq_cl_release_kernels(&o->program, (int)LQ_COUNT(ks), ks);
}

/* Runs kernel k over the faces of q (axis a): args first, then q's 3D range. */
static int lq_macbc_run(lq_macbc_ops *o, cl_kernel k, const char *name, int nargs,
                        const lq_argv *args, int a)
{
    for (int i = 0; i < nargs; i++) {
        int rc = lq_cl_arg(k, name, (cl_uint)i, args[i].size, args[i].p);
        if (rc) return rc;
    }
    size_t g[3] = {(size_t)(o->nx + (a == 0)), (size_t)(o->ny + (a == 1)),
                   (size_t)(o->nz + (a == 2))};
    return lq_cl_run(o->ctx, k, name, 3, g, NULL);
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
        lq_argv args[] = {MEM(q[a]), MEM(flags), MEM(region), MEM(vel), VAL(a)};
        rc = lq_macbc_run(o, o->inflow, "macbc_inflow", (int)LQ_COUNT(args), args, a);
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
        lq_argv args[] = {MEM(q[a]), MEM(flags), VAL(a)};
        rc = lq_macbc_run(o, o->outflow, "macbc_outflow", (int)LQ_COUNT(args), args, a);
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
    lq_argv args[] = {MEM(p), MEM(flags)};
    for (int i = 0; i < 2; i++) {
        int rc = lq_cl_arg(o->outflow_pressure, "macbc_outflow_pressure", (cl_uint)i, args[i].size,
                           args[i].p);
        if (rc) return rc;
    }
    size_t g[3] = {(size_t)o->nx, (size_t)o->ny, (size_t)o->nz};
    return lq_cl_run(o->ctx, o->outflow_pressure, "macbc_outflow_pressure", 3, g, NULL);
}

int lq_macbc_extrapolate(lq_macbc_ops *o, lq_field *u, lq_field *v, lq_field *w,
                         const lq_field *flags)
{
    lq_macbc_check(o, u, v, w, flags);
    if (IS_REF(o)) {
        lq_macbc_ref_extrapolate(u, v, w, flags);
        return LQ_OK;
    }
    lq_field *q[3] = {u, v, w};
    int rc = LQ_OK;
    for (int a = 0; a < 3 && !rc; a++) {
        if (a == 2 && o->nz == 1) break;                  /* 2D: w is not used */
        for (int layer = 1; layer <= 2 && !rc; layer++) { /* layer 2 reads layer 1 */
            lq_argv args[] = {MEM(q[a]), MEM(flags), VAL(a), VAL(layer)};
            rc = lq_macbc_run(o, o->extrapolate, "macbc_extrapolate", (int)LQ_COUNT(args), args, a);
        }
    }
    return rc;
}
