/*
 * macpocket.c — launchers of the sealed air pockets (macpocket.h): the block-local labels,
 * the rounds of hooks and jumps until a round makes no hook (batches with one counter read
 * each, as host/ops/pls/plspocket.c), the open roots, the tallies, and the pressure pass.
 */
#include "ops/mac/macpocket.h"

#include <assert.h>

#include "core/common.h"
#include "core/profile.h"

static const char *const lq_macpocket_sources[] = {
    "kernels/common/lq_shared.h",   "kernels/common/mac_grid.h",    "kernels/common/scan_cell.h",
    "kernels/pls/poisson_cell.h",   "kernels/pls/plspocket_cell.h", "kernels/mac/pressure_cell.h",
    "kernels/mac/macpocket_cell.h", "kernels/mac/macpocket.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

static const lq_kernel_slot lq_macpocket_kernels[] = {
    LQ_KERNEL(lq_macpocket_ops, local, "macpocket_local"),
    LQ_KERNEL(lq_macpocket_ops, hook, "macpocket_hook"),
    LQ_KERNEL(lq_macpocket_ops, jump, "macpocket_jump"),
    LQ_KERNEL(lq_macpocket_ops, openk, "macpocket_open"),
    LQ_KERNEL(lq_macpocket_ops, tally, "macpocket_tally"),
    LQ_KERNEL(lq_macpocket_ops, apply, "macpocket_apply"),
};
static const lq_program lq_macpocket_program =
    LQ_PROGRAM("XYZ", lq_macpocket_sources, lq_macpocket_kernels);

size_t lq_macpocket_ops_bytes(int nx, int ny, int nz)
{
    return (size_t)nx * ny * nz * 12 + LQ_MACPOCKET_CNT_COUNT * 4;
}

int lq_macpocket_ops_init(lq_macpocket_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    *o = (lq_macpocket_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz};
    if ((long long)nx * ny * nz > LQ_PLSPOCKET_MASK)
        return lq_error(LQ_EINPUT,
                        "air pockets: a grid of %lld cells is more than labels hold (%d)",
                        (long long)nx * ny * nz, LQ_PLSPOCKET_MASK);
    o->bn[0] = (nx + LQ_PLSPOCKET_B - 1) / LQ_PLSPOCKET_B;
    o->bn[1] = (ny + LQ_PLSPOCKET_B - 1) / LQ_PLSPOCKET_B;
    o->bn[2] = (nz + LQ_PLSPOCKET_B - 1) / LQ_PLSPOCKET_B;
    int rc = lq_field_alloc(ctx, &o->counters, "mp_cnt", LQ_MACPOCKET_CNT_COUNT, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->lab, "mp_lab", nx, ny, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->vol, "mp_vol", nx, ny, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->gauge, "mp_gauge", nx, ny, nz, 4);
    if (!rc) rc = lq_field_zero(&o->gauge, 0);
    if (!rc && !IS_REF(o))
        rc = lq_program_build(&lq_macpocket_program, o, &o->program, ctx, nx, ny, nz, "");
    if (rc) lq_macpocket_ops_release(o);
    return rc;
}

void lq_macpocket_ops_release(lq_macpocket_ops *o)
{
    lq_program_release(&lq_macpocket_program, o, &o->program);
    lq_field_release(&o->counters);
    lq_field_release(&o->lab);
    lq_field_release(&o->vol);
    lq_field_release(&o->gauge);
}

/* Rounds of hooks and jumps on the device that stop themselves once one made no hook
 * (host/ops/pls/plspocket.c's lq_plspocket_rounds); *hooks gets the last round's. */
static int lq_macpocket_rounds(lq_macpocket_ops *o, int most, int *hooks)
{
    static const int slots[2] = {LQ_MACPOCKET_CNT_CHANGED, LQ_MACPOCKET_CNT_CHANGED2};
    int one = 1, zero = 0, nc = o->nx * o->ny * o->nz, enq = 0;
    int batch = o->rounds_last > 0 ? o->rounds_last : 2, cnt[LQ_MACPOCKET_CNT_COUNT];
    int rc = lq_field_put(&o->counters, (size_t)slots[1] * sizeof one, sizeof one, &one);
    if (!rc)
        rc = lq_field_put(&o->counters, LQ_MACPOCKET_CNT_ROUNDS * sizeof zero, sizeof zero, &zero);
    *hooks = 1;
    while (!rc && *hooks > 0) {
        for (int b = 0; b < batch && enq < most && !rc; b++, enq++) {
            int slot = slots[enq & 1], prev = slots[(enq + 1) & 1];
            rc = lq_field_put(&o->counters, (size_t)slot * sizeof zero, sizeof zero, &zero);
            lq_arg ah[] = {LQ_MEM(&o->lab), LQ_MEM(&o->counters), LQ_VAL(slot), LQ_VAL(prev)};
            if (!rc) rc = lq_kernel_launch(&o->hook, lq_range_3d(o->nx, o->ny, o->nz), LQ_ARGS(ah));
            lq_arg aj[] = {LQ_MEM(&o->lab), LQ_MEM(&o->counters), LQ_VAL(prev)};
            if (!rc) rc = lq_kernel_launch(&o->jump, lq_range_var(&o->jump, nc), LQ_ARGS(aj));
        }
        if (!rc) rc = lq_field_download(&o->counters, cnt);
        if (rc) break;
        o->rounds = cnt[LQ_MACPOCKET_CNT_ROUNDS];
        *hooks = cnt[slots[(o->rounds - 1) & 1]];
        if (enq >= most) break;
        batch *= 2;
    }
    o->rounds_last = o->rounds;
    return rc;
}

static int lq_macpocket_labels(lq_macpocket_ops *o, const lq_field *flags)
{
    int rc = LQ_OK, hooks = 1;
    if (IS_REF(o)) {
        lq_macpocket_ref_local(o, flags);
    } else {
        int nb = o->bn[0] * o->bn[1] * o->bn[2];
        lq_arg a[] = {LQ_MEM(flags), LQ_VAL(o->bn[0]), LQ_VAL(o->bn[1]), LQ_VAL(o->bn[2]),
                      LQ_MEM(&o->lab)};
        rc = lq_kernel_launch(&o->local, lq_range_var(&o->local, nb), LQ_ARGS(a));
    }
    /* each round merges at least one pair of components: never more rounds than blocks */
    int most = o->bn[0] * o->bn[1] * o->bn[2] + 1;
    if (!rc && !IS_REF(o)) {
        rc = lq_macpocket_rounds(o, most, &hooks);
    } else {
        while (!rc && hooks > 0 && o->rounds < most) {
            int zero = 0;
            rc = lq_field_put(&o->counters, LQ_MACPOCKET_CNT_CHANGED * sizeof zero, sizeof zero,
                              &zero);
            if (rc) break;
            lq_macpocket_ref_hook(o);
            lq_macpocket_ref_jump(o);
            rc = lq_field_read(&o->counters, LQ_MACPOCKET_CNT_CHANGED * sizeof hooks, sizeof hooks,
                               &hooks);
            o->rounds++;
        }
    }
    if (!rc && hooks > 0)
        return lq_error(LQ_ESIM, "air pockets: the components did not settle in %d rounds", most);
    return rc;
}

int lq_macpocket_find(lq_macpocket_ops *o, const lq_field *flags, const lq_field *count,
                      int per_cell, int up)
{
    o->open = o->sealed = o->pockets = o->rounds = 0;
    int rc = LQ_OK;
    LQ_STAGE(rc, o->ctx, "air labels", lq_macpocket_labels(o, flags));
    static const int zeros[3] = {0, 0, 0}; /* open, sealed, roots */
    if (!rc)
        rc = lq_field_write_async(&o->counters, LQ_MACPOCKET_CNT_OPEN * sizeof(int), sizeof zeros,
                                  zeros);
    if (!rc) rc = lq_field_zero(&o->vol, 0);
    if (rc) return rc;
    if (IS_REF(o)) {
        lq_macpocket_ref_open(o, flags, up);
        lq_macpocket_ref_tally(o, flags, count, per_cell);
    } else {
        lq_arg a[] = {LQ_MEM(flags), LQ_VAL(up), LQ_MEM(&o->lab), LQ_MEM(&o->counters)};
        rc = lq_kernel_launch(&o->openk, lq_range_3d(o->nx, o->ny, o->nz), LQ_ARGS(a));
        lq_arg b[] = {LQ_MEM(flags),    LQ_MEM(&o->lab), LQ_MEM(count),
                      LQ_VAL(per_cell), LQ_MEM(&o->vol), LQ_MEM(&o->counters)};
        if (!rc) rc = lq_kernel_launch(&o->tally, lq_range_3d(o->nx, o->ny, o->nz), LQ_ARGS(b));
    }
    int cnt[LQ_MACPOCKET_CNT_COUNT];
    if (!rc) rc = lq_field_download(&o->counters, cnt);
    if (rc) return rc;
    if (!IS_REF(o)) o->rounds = cnt[LQ_MACPOCKET_CNT_ROUNDS];
    o->open = cnt[LQ_MACPOCKET_CNT_OPEN];
    o->sealed = cnt[LQ_MACPOCKET_CNT_SEALED];
    o->pockets = cnt[LQ_MACPOCKET_CNT_ROOTS];
    return LQ_OK;
}

int lq_macpocket_apply(lq_macpocket_ops *o, const lq_field *flags, const lq_field *pflags,
                       const lq_field *count, const lq_field *table, int per_cell, lq_field *p)
{
    if (o->sealed == 0) return LQ_OK;
    if (IS_REF(o)) {
        lq_macpocket_ref_apply(o, flags, pflags, count, table, per_cell, p);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(flags), LQ_MEM(pflags), LQ_MEM(&o->lab),  LQ_MEM(&o->gauge),
                  LQ_MEM(count), LQ_MEM(table),  LQ_VAL(per_cell), LQ_MEM(p)};
    return lq_kernel_launch(&o->apply, lq_range_3d(o->nx, o->ny, o->nz), LQ_ARGS(a));
}
