/*
 * plswindow.c — launchers of the moving grid window (plswindow.h).
 */
#include "ops/pls/plswindow.h"

#include <assert.h>
#include <string.h>

#include "core/common.h"

static const char *const lq_plswindow_sources[] = {
    "kernels/common/lq_shared.h", "kernels/pls/plswindow_cell.h", "kernels/pls/plswindow.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

static const lq_kernel_slot lq_plswindow_kernels[] = {
    LQ_KERNEL(lq_plswindow_ops, shift, "plswindow_shift"),
    LQ_KERNEL(lq_plswindow_ops, particles, "plswindow_particles"),
    LQ_KERNEL(lq_plswindow_ops, boxk, "plswindow_box"),
};
static const lq_program lq_plswindow_program =
    LQ_PROGRAM("", lq_plswindow_sources, lq_plswindow_kernels);

size_t lq_plswindow_ops_bytes(void)
{
    return 10 * sizeof(int);
}

/* Bound once: the grid's size and the result buffers. */
static int lq_plswindow_bind(lq_plswindow_ops *o)
{
    lq_binding b[] = {
        {&o->particles, {[10] = LQ_MEM(&o->out)}},
        {&o->boxk,
         {[1] = LQ_VAL(o->nx), [2] = LQ_VAL(o->ny), [3] = LQ_VAL(o->nz), [4] = LQ_MEM(&o->box)}},
    };
    return lq_kernels_bind(LQ_ARGS(b));
}

int lq_plswindow_ops_init(lq_plswindow_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    *o = (lq_plswindow_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz};
    int rc = lq_field_alloc(ctx, &o->box, "pw_box", 8, 1, 1, sizeof(int));
    if (!rc) rc = lq_field_alloc(ctx, &o->out, "pw_out", 2, 1, 1, sizeof(int));
    if (!rc) rc = lq_field_zero(&o->out, 0);
    if (rc || IS_REF(o)) return rc;
    rc = lq_program_build(&lq_plswindow_program, o, &o->program, ctx, nx, ny, nz, "");
    return rc ? rc : lq_plswindow_bind(o);
}

void lq_plswindow_ops_release(lq_plswindow_ops *o)
{
    lq_program_release(&lq_plswindow_program, o, &o->program);
    lq_field_release(&o->box);
    lq_field_release(&o->out);
}

int lq_plswindow_shift(lq_plswindow_ops *o, const lq_field *src, lq_field *dst, const int d[3],
                       int mode, float fill, int wall)
{
    assert(src != dst && src->nx == dst->nx && src->ny == dst->ny && src->nz == dst->nz);
    if (IS_REF(o)) {
        lq_plswindow_ref_shift(o, src, dst, d, mode, fill, wall);
        return LQ_OK;
    }
    int fx = src->nx, fy = src->ny, fz = src->nz;
    lq_arg a[] = {LQ_MEM(src),  LQ_MEM(dst),  LQ_VAL(fx),   LQ_VAL(fy),   LQ_VAL(fz),  LQ_VAL(d[0]),
                  LQ_VAL(d[1]), LQ_VAL(d[2]), LQ_VAL(mode), LQ_VAL(fill), LQ_VAL(wall)};
    return lq_kernel_launch(&o->shift, lq_range_3d((size_t)fx, (size_t)fy, (size_t)fz), LQ_ARGS(a));
}

int lq_plswindow_particles(lq_plswindow_ops *o, lq_field *part, int n, int stride, int rslot,
                           const int d[3], float h)
{
    assert((size_t)n * stride <= part->count);
    if (IS_REF(o)) {
        lq_plswindow_ref_particles(o, part, n, stride, rslot, d, h);
        return LQ_OK;
    }
    float dxh = (float)d[0] * h, dyh = (float)d[1] * h, dzh = (float)d[2] * h;
    float ex = (float)o->nx * h, ey = (float)o->ny * h, ez = (float)o->nz * h;
    lq_arg a[] = {LQ_MEM(part), LQ_VAL(n),  LQ_VAL(stride), LQ_VAL(rslot), LQ_VAL(dxh), LQ_VAL(dyh),
                  LQ_VAL(dzh),  LQ_VAL(ex), LQ_VAL(ey),     LQ_VAL(ez),    LQ_KEEP};
    return lq_kernel_launch(&o->particles, lq_range_var(&o->particles, n), LQ_ARGS(a));
}

int lq_plswindow_take_out(lq_plswindow_ops *o, long long *n)
{
    int c[2] = {0, 0};
    int rc = lq_field_read(&o->out, 0, sizeof c, c);
    if (!rc) rc = lq_field_zero(&o->out, 0);
    *n = rc ? 0 : c[0];
    return rc;
}

int lq_plswindow_box(lq_plswindow_ops *o, const lq_field *phi, int box[LQ_PLSWINDOW_BOX])
{
    assert(phi->count == (size_t)o->nx * o->ny * o->nz);
    if (IS_REF(o)) {
        lq_plswindow_ref_box(o, phi, box);
        return LQ_OK;
    }
    int init[8] = {LQ_PLSWINDOW_NONE_MIN,
                   LQ_PLSWINDOW_NONE_MIN,
                   LQ_PLSWINDOW_NONE_MIN,
                   LQ_PLSWINDOW_NONE_MAX,
                   LQ_PLSWINDOW_NONE_MAX,
                   LQ_PLSWINDOW_NONE_MAX,
                   0,
                   0};
    int rc = lq_field_put(&o->box, 0, sizeof init, init);
    lq_arg a[] = {LQ_MEM(phi), LQ_KEEP, LQ_KEEP, LQ_KEEP, LQ_KEEP};
    if (!rc)
        rc =
            lq_kernel_launch(&o->boxk, lq_range_2d((size_t)o->ny, (size_t)o->nz, 0, 0), LQ_ARGS(a));
    int b[8];
    if (!rc) rc = lq_field_read(&o->box, 0, sizeof b, b);
    if (!rc) memcpy(box, b, LQ_PLSWINDOW_BOX * sizeof(int));
    return rc;
}
