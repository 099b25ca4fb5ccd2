/*
 * splash.c — launchers of the splash operations (see splash.h) and the state they
 * share. Each launcher dispatches to the reference twin or binds its arguments and
 * enqueues kernels; nothing here allocates in the step loop.
 */
#include "ops/hf/columns.h"

#include <stdio.h>
#include <string.h>

static const char *const lq_columns_sources[] = {
    "kernels/common/lq_shared.h", "kernels/hf/columns_cell.h", "kernels/hf/columns.cl"};

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

/* The module's kernels (ops_init creates them, ops_release frees them). */
#define LQ_COLUMNS_KERNELS(o)                                                                      \
    {                                                                                              \
        {&(o)->flow, "columns_flow"}, {&(o)->limit, "columns_limit"},                              \
            {&(o)->scale, "columns_scale"}, {&(o)->volume, "columns_volume"},                      \
            {&(o)->boundary, "columns_boundary"}, {&(o)->spray_count, "columns_spray_count"},      \
            {&(o)->block_sum, "columns_block_sum"}, {&(o)->block_scan, "columns_block_scan"},      \
            {&(o)->spray_emit, "columns_spray_emit"}, {&(o)->spray_take, "columns_spray_take"},    \
            {&(o)->particles, "columns_particles"},                                                \
            {&(o)->compact_count, "columns_compact_count"},                                        \
            {&(o)->compact_scatter, "columns_compact_scatter"},                                    \
        {                                                                                          \
            &(o)->contact, "columns_contact"                                                       \
        }                                                                                          \
    }

int lq_columns_ops_init(lq_columns_ops *o, lq_ctx *ctx, int nx, int nz)
{
    memset(o, 0, sizeof *o);
    o->ctx = ctx;
    o->nx = nx;
    o->nz = nz;
    if (IS_REF(o)) return LQ_OK;
    if (!ctx->cl.dev.int64_atomics)
        return lq_error(LQ_EINPUT,
                        "%s lacks cl_khr_int64_base_atomics, which the splash volume "
                        "bookkeeping needs; choose another device or --device ref",
                        ctx->cl.dev.name);
    char defines[96];
    snprintf(defines, sizeof defines, "-DNX=%d -DNZ=%d", nx, nz);
    lq_cl_kernel_name ks[] = LQ_COLUMNS_KERNELS(o);
    int rc = lq_cl_build_kernels(&ctx->cl, (int)LQ_COUNT(lq_columns_sources), lq_columns_sources,
                                 defines, &o->program, (int)LQ_COUNT(ks), ks);
    return rc;
}

void lq_columns_ops_release(lq_columns_ops *o)
{
    lq_cl_kernel_name ks[] = LQ_COLUMNS_KERNELS(o);
    lq_cl_release_kernels(&o->program, (int)LQ_COUNT(ks), ks);
}

static int lq_columns_launch(lq_columns_ops *o, cl_kernel k, const char *name, int nargs,
                             const lq_argv *args, int dims, size_t g0, size_t g1)
{
    return lq_cl_launch(o->ctx, k, name, nargs, args, dims, g0, g1, NULL);
}

/* For ranges that change from step to step (particles, object footprints): a fixed
 * work-group size and the range rounded up to it (the kernels return past their end).
 * Left to the runtime, each new range may get a new group size, and PoCL compiles a
 * kernel variant per group size: a ball splash took seconds per frame that way. */
static int lq_columns_launch_var(lq_columns_ops *o, cl_kernel k, const char *name, int nargs,
                                 const lq_argv *args, int dims, size_t g0, size_t g1)
{
    size_t maxwg = LQ_MAX(o->ctx->cl.dev.max_work_group, (size_t)1);
    size_t local[2] = {dims == 1 ? LQ_MIN((size_t)64, maxwg) : LQ_MIN((size_t)8, maxwg),
                       dims == 1 ? 1 : LQ_MIN((size_t)8, maxwg / LQ_MIN((size_t)8, maxwg))};
    size_t r0 = (g0 + local[0] - 1) / local[0] * local[0];
    size_t r1 = (g1 + local[1] - 1) / local[1] * local[1];
    return lq_cl_launch(o->ctx, k, name, nargs, args, dims, r0, r1, local);
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
        lq_argv a[] = {MEM(&st->qx),  MEM(&st->qz),  MEM(&st->qd),  MEM(&st->qa),
                       MEM(&st->qx2), MEM(&st->qz2), MEM(&st->qd2), MEM(&st->qa2),
                       MEM(&st->b),   MEM(&st->d),   MEM(&st->e),   VAL(keep),
                       VAL(ga),       VAL(gd),       VAL(ge),       VAL(visc)};
        rc = lq_columns_launch(o, o->flow, "columns_flow", 16, a, 2, (size_t)o->nx + 1,
                               (size_t)o->nz + 1);
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
    lq_argv a[] = {MEM(&st->qx), MEM(&st->qz),       MEM(&st->qd), MEM(&st->qa), MEM(&st->d),
                   MEM(&st->s),  MEM(&st->counters), VAL(r),       VAL(last)};
    lq_argv b[] = {MEM(&st->qx), MEM(&st->qz), MEM(&st->qd), MEM(&st->qa), MEM(&st->s)};
    int rc = lq_columns_launch(o, o->limit, "columns_limit", 9, a, 2, (size_t)o->nx, (size_t)o->nz);
    if (!rc)
        rc = lq_columns_launch(o, o->scale, "columns_scale", 5, b, 2, (size_t)o->nx + 1,
                               (size_t)o->nz + 1);
    return rc;
}

int lq_columns_volume(lq_columns_ops *o, lq_columns_state *st, float r, float inv_area, float dt)
{
    if (IS_REF(o)) {
        lq_columns_ref_volume(st, r, inv_area, dt);
        return LQ_OK;
    }
    lq_argv a[] = {MEM(&st->d),  MEM(&st->hd),  MEM(&st->ret), MEM(&st->acc),
                   MEM(&st->qx), MEM(&st->qz),  MEM(&st->qd),  MEM(&st->qa),
                   VAL(r),       VAL(inv_area), VAL(dt)};
    return lq_columns_launch(o, o->volume, "columns_volume", 11, a, 2, (size_t)o->nx,
                             (size_t)o->nz);
}

int lq_columns_boundary(lq_columns_ops *o, lq_columns_state *st, int axis, int wall, int from,
                        int n, float q)
{
    if (IS_REF(o)) {
        lq_columns_ref_boundary(st, axis, wall, from, n, q);
        return LQ_OK;
    }
    lq_argv a[] = {MEM(&st->qx), MEM(&st->qz), VAL(axis), VAL(wall), VAL(from), VAL(q)};
    return lq_columns_launch(o, o->boundary, "columns_boundary", 6, a, 1, (size_t)LQ_MAX(n, 0), 1);
}

/* columns_block_scan as one work-group (up to 256 work-items) with its local scratch. */
static int lq_columns_block_scan(lq_columns_ops *o, lq_columns_state *st, int nblocks, int mode)
{
    size_t wg = LQ_MIN((size_t)256, LQ_MAX(o->ctx->cl.dev.max_work_group, (size_t)1));
    lq_argv s[] = {MEM(&st->boff), MEM(&st->bsum),    MEM(&st->counters),
                   VAL(nblocks),   VAL(st->capacity), VAL(mode)};
    int rc = LQ_OK;
    for (int i = 0; i < 6 && !rc; i++)
        rc = lq_cl_arg(o->block_scan, "columns_block_scan", (cl_uint)i, s[i].size, s[i].p);
    if (!rc) rc = lq_cl_arg(o->block_scan, "columns_block_scan", 6, (wg + 1) * sizeof(int), NULL);
    if (!rc) rc = lq_cl_run(o->ctx, o->block_scan, "columns_block_scan", 1, &wg, &wg);
    return rc;
}

int lq_columns_spray(lq_columns_ops *o, lq_columns_state *st, const lq_columns_spray_params *p)
{
    if (IS_REF(o)) {
        lq_columns_ref_spray(st, p);
        return LQ_OK;
    }
    lq_field *part = &st->part[st->cur];
    int corners = (o->nx + 1) * (o->nz + 1);
    lq_argv a[] = {MEM(&st->d),           MEM(&st->hd),      MEM(&st->e),
                   MEM(&st->ccnt),        VAL(p->threshold), VAL(p->per_step),
                   VAL(p->cap_per_depth), VAL(p->seed),      VAL(p->step)};
    lq_argv b[] = {MEM(&st->ccnt), MEM(&st->bsum), VAL(corners)};
    lq_argv e[] = {MEM(part),      MEM(&st->ccnt), MEM(&st->boff), MEM(&st->b),
                   MEM(&st->d),    MEM(&st->hd),   MEM(&st->qx),   MEM(&st->qz),
                   VAL(p->dx),     VAL(p->ox),     VAL(p->oz),     VAL(p->inv_fa),
                   VAL(p->volume), VAL(p->seed),   VAL(p->step),   VAL(st->capacity)};
    lq_argv t[] = {MEM(&st->d), MEM(&st->ccnt), VAL(p->quarter_depth)};
    int rc = lq_columns_launch(o, o->spray_count, "columns_spray_count", 9, a, 2, (size_t)o->nx + 1,
                               (size_t)o->nz + 1);
    if (!rc)
        rc = lq_columns_launch(o, o->block_sum, "columns_block_sum", 3, b, 1, (size_t)st->cblocks,
                               1);
    if (!rc) rc = lq_columns_block_scan(o, st, st->cblocks, 0);
    if (!rc)
        rc = lq_columns_launch(o, o->spray_emit, "columns_spray_emit", 16, e, 1,
                               (size_t)st->cblocks, 1);
    if (!rc)
        rc = lq_columns_launch(o, o->spray_take, "columns_spray_take", 3, t, 2, (size_t)o->nx,
                               (size_t)o->nz);
    return rc;
}

int lq_columns_particles(lq_columns_ops *o, lq_columns_state *st, const lq_columns_flight_params *p)
{
    if (IS_REF(o)) {
        lq_columns_ref_particles(st, p);
        return LQ_OK;
    }
    lq_argv a[] = {MEM(&st->part[st->cur]),
                   MEM(&st->b),
                   MEM(&st->d),
                   MEM(&st->ret),
                   MEM(&st->acc),
                   MEM(&st->obj),
                   VAL(p->nobj),
                   VAL(p->n),
                   VAL(p->dx),
                   VAL(p->ox),
                   VAL(p->oz),
                   VAL(p->dt),
                   VAL(p->g[0]),
                   VAL(p->g[1]),
                   VAL(p->g[2]),
                   VAL(p->drag_keep),
                   VAL(p->dry)};
    return lq_columns_launch_var(o, o->particles, "columns_particles", 17, a, 1, (size_t)p->n, 1);
}

int lq_columns_compact(lq_columns_ops *o, lq_columns_state *st, int n)
{
    if (IS_REF(o)) {
        lq_columns_ref_compact(st, n);
        return LQ_OK;
    }
    int nblocks = (n + LQ_COLUMNS_BLOCK - 1) / LQ_COLUMNS_BLOCK;
    lq_field *src = &st->part[st->cur], *dst = &st->part[1 - st->cur];
    lq_argv a[] = {MEM(src), MEM(&st->bsum), VAL(n)};
    lq_argv c[] = {MEM(src), MEM(dst), MEM(&st->boff), VAL(n)};
    int rc = lq_columns_launch_var(o, o->compact_count, "columns_compact_count", 3, a, 1,
                                   (size_t)nblocks, 1);
    if (!rc) rc = lq_columns_block_scan(o, st, nblocks, 1);
    if (!rc)
        rc = lq_columns_launch_var(o, o->compact_scatter, "columns_compact_scatter", 4, c, 1,
                                   (size_t)nblocks, 1);
    if (!rc) st->cur = 1 - st->cur;
    return rc;
}

int lq_columns_contact(lq_columns_ops *o, lq_columns_state *st, int nobj, float dx, float ox,
                       float oz, int mode, int i0, int k0, int ni, int nk)
{
    if (IS_REF(o)) {
        lq_columns_ref_contact(st, nobj, dx, ox, oz, mode, i0, k0, ni, nk);
        return LQ_OK;
    }
    lq_argv a[] = {MEM(&st->e), MEM(&st->acc), MEM(&st->obj), VAL(nobj), MEM(&st->b),
                   MEM(&st->d), VAL(dx),       VAL(ox),       VAL(oz),   VAL(mode),
                   VAL(i0),     VAL(k0),       VAL(ni),       VAL(nk)};
    return lq_columns_launch_var(o, o->contact, "columns_contact", 14, a, 2, (size_t)LQ_MAX(ni, 0),
                                 (size_t)LQ_MAX(nk, 0));
}
