/*
 * columns.c — launchers of the splash solver's column operations (see columns.h) and the
 * state they share. Each launcher dispatches to the reference twin or binds its arguments and
 * enqueues kernels; nothing here allocates in the step loop.
 */
#include "ops/hf/columns.h"

#include <stdio.h>
#include <string.h>

static const char *const lq_columns_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/hash.h", LQ_SCAN_SOURCES,
    "kernels/hf/columns_cell.h", "kernels/hf/columns.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

int lq_columns_state_alloc(lq_columns_state *st, lq_ctx *ctx, int nx, int nz, int capacity)
{
    memset(st, 0, sizeof *st);
    st->nx = nx;
    st->nz = nz;
    st->capacity = capacity;
    size_t n = (size_t)nx * nz, corners = (size_t)(nx + 1) * (nz + 1);
    st->cblocks = (int)((corners + LQ_COLUMNS_BLOCK - 1) / LQ_COLUMNS_BLOCK);
    st->pblocks = (capacity + LQ_COLUMNS_BLOCK - 1) / LQ_COLUMNS_BLOCK;
    int blocks = LQ_MAX(st->cblocks, st->pblocks);
    size_t pbytes = (size_t)LQ_MAX(capacity, 1) * LQ_COLUMNS_PSTRIDE * 4;
    size_t px = (size_t)(nx + 1) * nz * 4, pz = (size_t)nx * (nz + 1) * 4, pc = corners * 4;
    /* b d e hd s, the pipes twice, ret, the corner counts, the particles twice */
    size_t plan[] = {n * 4, n * 4, n * 4, n * 4, n * 4, px, pz,     pc,    pc,
                     px,    pz,    pc,    pc,    n * 8, pc, pbytes, pbytes};
    int rc = lq_ctx_reserve(ctx, "the splash grid", (int)LQ_COUNT(plan), plan);
    if (rc) return rc;
    struct {
        lq_field *f;
        const char *name;
        int a, b;
        size_t elem;
    } fs[] = {
        {&st->b, "b", nx, nz, 4},
        {&st->d, "d", nx, nz, 4},
        {&st->e, "e", nx, nz, 4},
        {&st->hd, "hdot", nx, nz, 4},
        {&st->s, "s", nx, nz, 4},
        {&st->qx, "qx", nx + 1, nz, 4},
        {&st->qz, "qz", nx, nz + 1, 4},
        {&st->qd, "qd", nx + 1, nz + 1, 4},
        {&st->qa, "qa", nx + 1, nz + 1, 4},
        {&st->qx2, "qx2", nx + 1, nz, 4},
        {&st->qz2, "qz2", nx, nz + 1, 4},
        {&st->qd2, "qd2", nx + 1, nz + 1, 4},
        {&st->qa2, "qa2", nx + 1, nz + 1, 4},
        {&st->ret, "ret", nx, nz, 8},
        {&st->acc, "acc", LQ_COLUMNS_ACC_L_COUNT, 1, 8},
        {&st->counters, "counters", LQ_COLUMNS_CNT_COUNT, 1, 4},
        {&st->ccnt, "ccnt", nx + 1, nz + 1, 4},
        {&st->bsum, "bsum", blocks, 1, 4},
        {&st->boff, "boff", blocks, 1, 4},
        {&st->part[0], "particles0", LQ_MAX(capacity, 1) * LQ_COLUMNS_PSTRIDE, 1, 4},
        {&st->part[1], "particles1", LQ_MAX(capacity, 1) * LQ_COLUMNS_PSTRIDE, 1, 4},
        {&st->obj, "objects", LQ_COLUMNS_MAX_OBJECTS * LQ_COLUMNS_OBJ_STRIDE, 1, 4},
    };
    for (size_t i = 0; i < LQ_COUNT(fs) && !rc; i++) {
        rc = lq_field_alloc(ctx, fs[i].f, fs[i].name, fs[i].a, fs[i].b, 1, fs[i].elem);
        if (!rc) rc = lq_field_zero(fs[i].f, 0);
    }
    if (rc) lq_columns_state_release(st);
    return rc;
}

void lq_columns_state_release(lq_columns_state *st)
{
    lq_field *fs[] = {&st->qx2,  &st->qz2, &st->qd2,     &st->qa2,      &st->b,    &st->d,
                      &st->e,    &st->hd,  &st->s,       &st->qx,       &st->qz,   &st->qd,
                      &st->qa,   &st->ret, &st->acc,     &st->counters, &st->ccnt, &st->bsum,
                      &st->boff, &st->obj, &st->part[0], &st->part[1]};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
}

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_columns_kernels[] = {
    LQ_KERNEL(lq_columns_ops, flow, "columns_flow"),
    LQ_KERNEL(lq_columns_ops, limit, "columns_limit"),
    LQ_KERNEL(lq_columns_ops, scale, "columns_scale"),
    LQ_KERNEL(lq_columns_ops, volume, "columns_volume"),
    LQ_KERNEL(lq_columns_ops, boundary, "columns_boundary"),
    LQ_KERNEL(lq_columns_ops, spray_count, "columns_spray_count"),
    LQ_KERNEL(lq_columns_ops, spray_emit, "columns_spray_emit"),
    LQ_KERNEL(lq_columns_ops, spray_take, "columns_spray_take"),
    LQ_KERNEL(lq_columns_ops, particles, "columns_particles"),
    LQ_KERNEL(lq_columns_ops, compact_count, "columns_compact_count"),
    LQ_KERNEL(lq_columns_ops, compact_scatter, "columns_compact_scatter"),
    LQ_KERNEL(lq_columns_ops, contact, "columns_contact"),
    LQ_SCAN_KERNELS(lq_columns_ops),
};
static const lq_program lq_columns_program =
    LQ_PROGRAM("XZ", lq_columns_sources, lq_columns_kernels);

int lq_columns_ops_init(lq_columns_ops *o, lq_ctx *ctx, int nx, int nz)
{
    *o = (lq_columns_ops){.ctx = ctx, .nx = nx, .nz = nz};
    if (IS_REF(o)) return LQ_OK;
    if (!ctx->cl.dev.int64_atomics)
        return lq_error(LQ_EINPUT,
                        "%s lacks cl_khr_int64_base_atomics, which the splash volume "
                        "bookkeeping needs; choose another device or --device ref",
                        ctx->cl.dev.name);
    return lq_program_build(&lq_columns_program, o, &o->program, ctx, nx, 0, nz, "");
}

void lq_columns_ops_release(lq_columns_ops *o)
{
    lq_program_release(&lq_columns_program, o, &o->program);
}

/* The corners ((nx + 1) × (nz + 1)) and the columns (nx × nz). */
static lq_range lq_columns_corners(const lq_columns_ops *o)
{
    return lq_range_2d((size_t)o->nx + 1, (size_t)o->nz + 1, 0, 0);
}

static lq_range lq_columns_cells(const lq_columns_ops *o)
{
    return lq_range_2d((size_t)o->nx, (size_t)o->nz, 0, 0);
}

/* Object footprints, ni × nk corners or columns that change from step to step: fixed
 * groups of 8 × 8 (lq_range_var's reason). */
static lq_range lq_columns_var2(const lq_kernel *k, int ni, int nk)
{
    size_t l0 = lq_kernel_group(k, 8), l1 = lq_kernel_group(k, 64) / l0; /* 8 × 8 */
    return lq_range_2d((size_t)LQ_MAX(ni, 0), (size_t)LQ_MAX(nk, 0), l0, l1);
}

static void lq_columns_swap(lq_field *a, lq_field *b)
{
    lq_field t = *a;
    *a = *b;
    *b = t;
}

int lq_columns_flow(lq_columns_ops *o, lq_columns_state *st, float keep, float ga, float gd,
                    float ge, float visc)
{
    int rc = LQ_OK;
    if (IS_REF(o)) {
        lq_columns_ref_flow(st, keep, ga, gd, ge, visc);
    } else {
        lq_arg a[] = {LQ_MEM(&st->qx),  LQ_MEM(&st->qz),  LQ_MEM(&st->qd),  LQ_MEM(&st->qa),
                      LQ_MEM(&st->qx2), LQ_MEM(&st->qz2), LQ_MEM(&st->qd2), LQ_MEM(&st->qa2),
                      LQ_MEM(&st->b),   LQ_MEM(&st->d),   LQ_MEM(&st->e),   LQ_VAL(keep),
                      LQ_VAL(ga),       LQ_VAL(gd),       LQ_VAL(ge),       LQ_VAL(visc)};
        rc = lq_kernel_launch(&o->flow, lq_columns_corners(o), LQ_ARGS(a));
    }
    if (rc) return rc;
    lq_columns_swap(&st->qx, &st->qx2);
    lq_columns_swap(&st->qz, &st->qz2);
    lq_columns_swap(&st->qd, &st->qd2);
    lq_columns_swap(&st->qa, &st->qa2);
    return LQ_OK;
}

int lq_columns_limit(lq_columns_ops *o, lq_columns_state *st, float r, int last)
{
    if (IS_REF(o)) {
        lq_columns_ref_limit(st, r, last);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(&st->qx),       LQ_MEM(&st->qz), LQ_MEM(&st->qd),
                  LQ_MEM(&st->qa),       LQ_MEM(&st->d),  LQ_MEM(&st->s),
                  LQ_MEM(&st->counters), LQ_VAL(r),       LQ_VAL(last)};
    lq_arg b[] = {LQ_MEM(&st->qx), LQ_MEM(&st->qz), LQ_MEM(&st->qd), LQ_MEM(&st->qa),
                  LQ_MEM(&st->s)};
    int rc = lq_kernel_launch(&o->limit, lq_columns_cells(o), LQ_ARGS(a));
    if (!rc) rc = lq_kernel_launch(&o->scale, lq_columns_corners(o), LQ_ARGS(b));
    return rc;
}

int lq_columns_volume(lq_columns_ops *o, lq_columns_state *st, float r, float inv_area, float dt)
{
    if (IS_REF(o)) {
        lq_columns_ref_volume(st, r, inv_area, dt);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(&st->d),  LQ_MEM(&st->hd),  LQ_MEM(&st->ret), LQ_MEM(&st->acc),
                  LQ_MEM(&st->qx), LQ_MEM(&st->qz),  LQ_MEM(&st->qd),  LQ_MEM(&st->qa),
                  LQ_VAL(r),       LQ_VAL(inv_area), LQ_VAL(dt)};
    return lq_kernel_launch(&o->volume, lq_columns_cells(o), LQ_ARGS(a));
}

int lq_columns_boundary(lq_columns_ops *o, lq_columns_state *st, int axis, int wall, int from,
                        int n, float q)
{
    if (IS_REF(o)) {
        lq_columns_ref_boundary(st, axis, wall, from, n, q);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(&st->qx), LQ_MEM(&st->qz), LQ_VAL(axis),
                  LQ_VAL(wall),    LQ_VAL(from),    LQ_VAL(q)};
    return lq_kernel_launch(&o->boundary, lq_range_1d((size_t)LQ_MAX(n, 0), 0), LQ_ARGS(a));
}

int lq_columns_spray(lq_columns_ops *o, lq_columns_state *st, const lq_columns_spray_params *p)
{
    if (IS_REF(o)) {
        lq_columns_ref_spray(st, p);
        return LQ_OK;
    }
    lq_field *part = &st->part[st->cur];
    int corners = (o->nx + 1) * (o->nz + 1);
    lq_arg a[] = {LQ_MEM(&st->d),           LQ_MEM(&st->hd),      LQ_MEM(&st->e),
                  LQ_MEM(&st->ccnt),        LQ_VAL(p->threshold), LQ_VAL(p->per_step),
                  LQ_VAL(p->cap_per_depth), LQ_VAL(p->seed),      LQ_VAL(p->step)};
    lq_arg e[] = {LQ_MEM(part),      LQ_MEM(&st->ccnt), LQ_MEM(&st->boff), LQ_MEM(&st->b),
                  LQ_MEM(&st->d),    LQ_MEM(&st->hd),   LQ_MEM(&st->qx),   LQ_MEM(&st->qz),
                  LQ_VAL(p->dx),     LQ_VAL(p->ox),     LQ_VAL(p->oz),     LQ_VAL(p->inv_fa),
                  LQ_VAL(p->volume), LQ_VAL(p->seed),   LQ_VAL(p->step),   LQ_VAL(st->capacity)};
    lq_arg t[] = {LQ_MEM(&st->d), LQ_MEM(&st->ccnt), LQ_VAL(p->quarter_depth)};
    lq_scan_bufs sb = lq_columns_scan_bufs(st);
    int rc = lq_kernel_launch(&o->spray_count, lq_columns_corners(o), LQ_ARGS(a));
    if (!rc) rc = lq_scan_append(&o->scan, &sb, &st->ccnt, corners);
    if (!rc) rc = lq_kernel_launch(&o->spray_emit, lq_range_1d((size_t)st->cblocks, 0), LQ_ARGS(e));
    if (!rc) rc = lq_kernel_launch(&o->spray_take, lq_columns_cells(o), LQ_ARGS(t));
    return rc;
}

int lq_columns_particles(lq_columns_ops *o, lq_columns_state *st, const lq_columns_flight_params *p)
{
    if (IS_REF(o)) {
        lq_columns_ref_particles(st, p);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(&st->part[st->cur]),
                  LQ_MEM(&st->b),
                  LQ_MEM(&st->d),
                  LQ_MEM(&st->ret),
                  LQ_MEM(&st->acc),
                  LQ_MEM(&st->obj),
                  LQ_VAL(p->nobj),
                  LQ_VAL(p->n),
                  LQ_VAL(p->dx),
                  LQ_VAL(p->ox),
                  LQ_VAL(p->oz),
                  LQ_VAL(p->dt),
                  LQ_VAL(p->g[0]),
                  LQ_VAL(p->g[1]),
                  LQ_VAL(p->g[2]),
                  LQ_VAL(p->drag_keep),
                  LQ_VAL(p->dry)};
    return lq_kernel_launch(&o->particles, lq_range_var(&o->particles, p->n), LQ_ARGS(a));
}

int lq_columns_compact(lq_columns_ops *o, lq_columns_state *st, int n)
{
    if (IS_REF(o)) {
        lq_columns_ref_compact(st, n);
        return LQ_OK;
    }
    lq_field *src = &st->part[st->cur], *dst = &st->part[1 - st->cur];
    lq_arg a[] = {LQ_MEM(src), LQ_MEM(&st->bsum), LQ_VAL(n)};
    lq_arg c[] = {LQ_MEM(src), LQ_MEM(dst), LQ_MEM(&st->boff), LQ_VAL(n)};
    lq_scan_bufs sb = lq_columns_scan_bufs(st);
    int rc = lq_scan_compact(&o->scan, &sb, n, &o->compact_count, LQ_ARGS(a), &o->compact_scatter,
                             LQ_ARGS(c));
    if (!rc) st->cur = 1 - st->cur;
    return rc;
}

int lq_columns_contact(lq_columns_ops *o, lq_columns_state *st, int nobj, float dx, float ox,
                       float oz, float inv_fa, int mode, int i0, int k0, int ni, int nk)
{
    if (IS_REF(o)) {
        lq_columns_ref_contact(st, nobj, dx, ox, oz, inv_fa, mode, i0, k0, ni, nk);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(&st->e), LQ_MEM(&st->acc), LQ_MEM(&st->obj), LQ_VAL(nobj), LQ_MEM(&st->b),
                  LQ_MEM(&st->d), LQ_MEM(&st->qx),  LQ_MEM(&st->qz),  LQ_VAL(dx),   LQ_VAL(ox),
                  LQ_VAL(oz),     LQ_VAL(inv_fa),   LQ_VAL(mode),     LQ_VAL(i0),   LQ_VAL(k0),
                  LQ_VAL(ni),     LQ_VAL(nk)};
    return lq_kernel_launch(&o->contact, lq_columns_var2(&o->contact, ni, nk), LQ_ARGS(a));
}
