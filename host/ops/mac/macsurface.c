/*
 * mac_surface.c — launchers of the free-surface operations (see mac_surface.h): each
 * checks its input, dispatches to the reference twin or binds its arguments and
 * enqueues one kernel over (nx, ny·nz); the scalar arguments of both backends come
 * from the same prepare functions, so the twins see identical floats.
 */
#include "ops/mac/macsurface.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const lq_macsurface_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", "kernels/mac/macsurface_cell.h",
    "kernels/mac/macsurface.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_macsurface_kernels[] = {
    LQ_KERNEL(lq_macsurface_ops, classify, "macsurface_classify"),
    LQ_KERNEL(lq_macsurface_ops, apply, "macsurface_apply"),
    LQ_KERNEL(lq_macsurface_ops, pressure, "macsurface_pressure"),
    LQ_KERNEL(lq_macsurface_ops, fill_pressure, "macsurface_fill_pressure"),
};
static const lq_program lq_macsurface_program =
    LQ_PROGRAM("XYZ", lq_macsurface_sources, lq_macsurface_kernels);

int lq_macsurface_ops_init(lq_macsurface_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    *o = (lq_macsurface_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz};
    if (nx < 1 || ny < 1 || nz < 1)
        return lq_error(LQ_EINPUT, "mac_surface: grid %d x %d x %d has no cells", nx, ny, nz);
    return lq_program_build(&lq_macsurface_program, o, &o->program, ctx, nx, ny, nz, "");
}

void lq_macsurface_ops_release(lq_macsurface_ops *o)
{
    lq_program_release(&lq_macsurface_program, o, &o->program);
}

/* One work-item per (i, j·k): the kernels take rows of cells. */
static lq_range lq_macsurface_range(const lq_macsurface_ops *o)
{
    return lq_range_2d((size_t)o->nx, (size_t)o->ny * o->nz, 0, 0);
}

static void lq_macsurface_check_fields(const lq_macsurface_ops *o, const lq_field *flags,
                                       const lq_field *cells)
{
    size_t n = (size_t)o->nx * o->ny * o->nz;
    (void)n;
    (void)flags;
    (void)cells;
    assert(flags->count == n && flags->elem == 1);
    assert(cells->count == n);
}

int lq_macsurface_classify(lq_macsurface_ops *o, const lq_field *flags, lq_field *mask)
{
    lq_macsurface_check_fields(o, flags, mask);
    assert(mask->elem == 1);
    if (IS_REF(o)) return lq_macsurface_ref_classify(o, flags, mask);
    lq_arg a[] = {LQ_MEM(flags), LQ_MEM(mask)};
    return lq_kernel_launch(&o->classify, lq_macsurface_range(o), LQ_ARGS(a));
}

int lq_macsurface_apply(lq_macsurface_ops *o, const lq_field *flags, const lq_field *mask,
                        lq_field *u, lq_field *v, lq_field *w, const float h[3], float dt,
                        const float g[3])
{
    lq_macsurface_check_fields(o, flags, mask);
    assert(u->count == (size_t)(o->nx + 1) * o->ny * o->nz);
    assert(v->count == (size_t)o->nx * (o->ny + 1) * o->nz);
    assert(w->count == (size_t)o->nx * o->ny * (o->nz + 1));
    if (IS_REF(o)) return lq_macsurface_ref_apply(o, flags, mask, u, v, w, h, dt, g);
    lq_macsurface_apply_k k;
    int rc = lq_macsurface_apply_prepare(h, dt, g, &k);
    if (rc) return rc;
    lq_arg a[] = {LQ_MEM(flags),    LQ_MEM(mask),     LQ_MEM(u),        LQ_MEM(v),
                  LQ_MEM(w),        LQ_VAL(k.h[0]),   LQ_VAL(k.h[1]),   LQ_VAL(k.h[2]),
                  LQ_VAL(k.inv[0]), LQ_VAL(k.inv[1]), LQ_VAL(k.inv[2]), LQ_VAL(k.gdt[0]),
                  LQ_VAL(k.gdt[1]), LQ_VAL(k.gdt[2])};
    return lq_kernel_launch(&o->apply, lq_macsurface_range(o), LQ_ARGS(a));
}

void lq_macsurface_fill_ratio(int per_cell, float g_abs, float dy, float *ratio)
{
    /* fills below a tenth count as a tenth: the line through a surface barely above the
     * cell's bottom would put −p_below in the cell (with the head uncapped, the lagged
     * p_below then drove a growing oscillation); a quarter overstated the restoring
     * pressure of crests lower than a quarter cell (a k = 0.03 waves ran 14 % fast) */
    for (int m = 0; m <= per_cell; m++) {
        double f = m < 0.1 * per_cell ? 0.1 : (double)m / per_cell;
        ratio[m] = (float)((f - 0.5) / (f + 0.5));
        ratio[per_cell + 1 + m] = (float)((double)g_abs * (f + 0.5) * dy);
    }
}

int lq_macsurface_fill_pressure(lq_macsurface_ops *o, const lq_field *flags, const lq_field *mask,
                                lq_field *p, const lq_field *count, const lq_field *ratio,
                                int per_cell)
{
    lq_macsurface_check_fields(o, flags, p);
    assert(count->elem == 4 && count->count == flags->count && per_cell > 0);
    assert(ratio->elem == 4 && ratio->count >= 2 * ((size_t)per_cell + 1));
    if (IS_REF(o))
        return lq_macsurface_ref_fill_pressure(o, flags, mask, p, count, ratio, per_cell);
    lq_arg a[] = {LQ_MEM(flags), LQ_MEM(mask),  LQ_MEM(p),
                  LQ_MEM(count), LQ_MEM(ratio), LQ_VAL(per_cell)};
    return lq_kernel_launch(&o->fill_pressure, lq_range_1d(flags->count, 0), LQ_ARGS(a));
}

int lq_macsurface_pressure(lq_macsurface_ops *o, const lq_field *flags, lq_field *p,
                           const float h[3], const float origin[3], const lq_macsurface_forcing *f)
{
    lq_macsurface_check_fields(o, flags, p);
    if (IS_REF(o)) return lq_macsurface_ref_pressure(o, flags, p, h, origin, f);
    lq_macsurface_pressure_k k;
    int rc = lq_macsurface_pressure_prepare(h, origin, f, &k);
    if (rc) return rc;
    lq_arg a[] = {LQ_MEM(flags), LQ_MEM(p),       LQ_VAL(k.axis),  LQ_VAL(k.s0),
                  LQ_VAL(k.ds),  LQ_VAL(k.p_atm), LQ_VAL(k.A),     LQ_VAL(k.B),
                  LQ_VAL(k.C),   LQ_VAL(k.phase), LQ_VAL(k.inv_dt)};
    return lq_kernel_launch(&o->pressure, lq_macsurface_range(o), LQ_ARGS(a));
}
