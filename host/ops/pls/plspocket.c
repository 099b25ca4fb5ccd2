/*
 * plspocket.c — launchers of the enslaved pockets (plspocket.h, §5.6): the block-local
 * labels, the rounds of hooks and jumps until a round makes no hook (one counter read a
 * round), the open roots and the pockets' solid field, and the enslaving passes over each
 * velocity component over the pockets' box, ping-ponged between the component and its lent
 * buffer so that the last pass lands in the component (odd pass counts), the unknown faces
 * read back from the requested count on.
 */
#include "ops/pls/plspocket.h"

#include <assert.h>
#include <limits.h>
#include <string.h>

#include "core/common.h"
#include "core/profile.h"

static const char *const lq_plspocket_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h",    "kernels/common/scan_cell.h",
    "kernels/pls/poisson_cell.h", "kernels/pls/plspocket_cell.h", "kernels/pls/plspocket.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

static const lq_kernel_slot lq_plspocket_kernels[] = {
    LQ_KERNEL(lq_plspocket_ops, local, "plspocket_local"),
    LQ_KERNEL(lq_plspocket_ops, hook, "plspocket_hook"),
    LQ_KERNEL(lq_plspocket_ops, jump, "plspocket_jump"),
    LQ_KERNEL(lq_plspocket_ops, openk, "plspocket_open"),
    LQ_KERNEL(lq_plspocket_ops, mark, "plspocket_mark"),
    LQ_KERNEL(lq_plspocket_ops, enslave, "plspocket_enslave"),
};
static const lq_program lq_plspocket_program =
    LQ_PROGRAM("XYZ", lq_plspocket_sources, lq_plspocket_kernels);

size_t lq_plspocket_ops_bytes(void)
{
    return LQ_PLSPOCKET_CNT_COUNT * 4;
}

int lq_plspocket_ops_init(lq_plspocket_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    *o = (lq_plspocket_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz};
    if ((long long)nx * ny * nz > LQ_PLSPOCKET_MASK)
        return lq_error(LQ_EINPUT, "pockets: a grid of %lld cells is more than labels hold (%d)",
                        (long long)nx * ny * nz, LQ_PLSPOCKET_MASK);
    o->bn[0] = (nx + LQ_PLSPOCKET_B - 1) / LQ_PLSPOCKET_B;
    o->bn[1] = (ny + LQ_PLSPOCKET_B - 1) / LQ_PLSPOCKET_B;
    o->bn[2] = (nz + LQ_PLSPOCKET_B - 1) / LQ_PLSPOCKET_B;
    int rc = lq_field_alloc(ctx, &o->counters, "pk_cnt", LQ_PLSPOCKET_CNT_COUNT, 1, 1, 4);
    if (!rc && !IS_REF(o))
        rc = lq_program_build(&lq_plspocket_program, o, &o->program, ctx, nx, ny, nz, "");
    if (rc) lq_plspocket_ops_release(o);
    return rc;
}

void lq_plspocket_ops_release(lq_plspocket_ops *o)
{
    lq_program_release(&lq_plspocket_program, o, &o->program);
    lq_field_release(&o->counters);
}

static int lq_plspocket_zero(lq_plspocket_ops *o, int slot)
{
    int z = 0;
    return lq_field_put(&o->counters, (size_t)slot * sizeof z, sizeof z, &z); /* no wait */
}

static int lq_plspocket_count(lq_plspocket_ops *o, int slot, int *out)
{
    return lq_field_read(&o->counters, (size_t)slot * sizeof *out, sizeof *out, out);
}

/* Pass 1: the block-local labels. */
static int lq_plspocket_local(lq_plspocket_ops *o, const lq_field *phi, const lq_field *solid,
                              int mode)
{
    if (IS_REF(o)) {
        lq_plspocket_ref_local(o, phi, solid, mode);
        return LQ_OK;
    }
    int nb = o->bn[0] * o->bn[1] * o->bn[2];
    lq_arg a[] = {LQ_MEM(phi),      LQ_MEM(solid ? solid : phi),
                  LQ_VAL(mode),     LQ_VAL(o->bn[0]),
                  LQ_VAL(o->bn[1]), LQ_VAL(o->bn[2]),
                  LQ_MEM(o->lab)};
    return lq_kernel_launch(&o->local, lq_range_var(&o->local, nb), LQ_ARGS(a));
}

/* Pass 2 on the device: rounds that stop themselves once one made no hook (the hooks of
 * round r count into slot CHANGED or CHANGED2 by r's parity, the other slot its
 * predecessor's), enqueued in batches (the last find's rounds, then doubling) with one
 * read each; *hooks gets the last round's hooks (0: settled), o->rounds the rounds that
 * ran. The same rounds as the reference's loop, so the same labels. */
static int lq_plspocket_rounds(lq_plspocket_ops *o, int most, int *hooks)
{
    static const int slots[2] = {LQ_PLSPOCKET_CNT_CHANGED, LQ_PLSPOCKET_CNT_CHANGED2};
    int one = 1, zero = 0, nc = o->nx * o->ny * o->nz, enq = 0;
    int batch = o->rounds_last > 0 ? o->rounds_last : 2, cnt[LQ_PLSPOCKET_CNT_COUNT];
    int rc = lq_field_put(&o->counters, (size_t)slots[1] * sizeof one, sizeof one, &one);
    if (!rc)
        rc = lq_field_put(&o->counters, LQ_PLSPOCKET_CNT_ROUNDS * sizeof zero, sizeof zero, &zero);
    *hooks = 1;
    while (!rc && *hooks > 0) {
        for (int b = 0; b < batch && enq < most && !rc; b++, enq++) {
            int slot = slots[enq & 1], prev = slots[(enq + 1) & 1];
            rc = lq_field_put(&o->counters, (size_t)slot * sizeof zero, sizeof zero, &zero);
            lq_arg ah[] = {LQ_MEM(o->lab), LQ_MEM(&o->counters), LQ_VAL(slot), LQ_VAL(prev)};
            if (!rc) rc = lq_kernel_launch(&o->hook, lq_range_3d(o->nx, o->ny, o->nz), LQ_ARGS(ah));
            lq_arg aj[] = {LQ_MEM(o->lab), LQ_MEM(&o->counters), LQ_VAL(prev)};
            if (!rc) rc = lq_kernel_launch(&o->jump, lq_range_var(&o->jump, nc), LQ_ARGS(aj));
        }
        if (!rc) rc = lq_field_download(&o->counters, cnt);
        if (rc) break;
        o->rounds = cnt[LQ_PLSPOCKET_CNT_ROUNDS];
        *hooks = cnt[slots[(o->rounds - 1) & 1]]; /* the last round that ran */
        if (enq >= most) break;
        batch *= 2;
    }
    o->rounds_last = o->rounds;
    return rc;
}

/* Pass 2 on the reference path: one round of hooks and the jumps after it; *hooks gets
 * the hooks made. */
static int lq_plspocket_round(lq_plspocket_ops *o, int *hooks)
{
    int rc = lq_plspocket_zero(o, LQ_PLSPOCKET_CNT_CHANGED);
    if (rc) return rc;
    lq_plspocket_ref_hook(o);
    lq_plspocket_ref_jump(o);
    return lq_plspocket_count(o, LQ_PLSPOCKET_CNT_CHANGED, hooks);
}

/* Pass 3: the open roots (o->open counted), then, when any, the pockets counted and their
 * solid field written. */
static int lq_plspocket_mark_all(lq_plspocket_ops *o, const lq_field *phi, const lq_field *solid,
                                 int mode, int wall_dirichlet, float h)
{
    /* open, cells, pockets, unknown 0; the box empty (least above greatest) */
    static const int init[10] = {0, 0, 0, 0, INT_MAX, INT_MAX, INT_MAX, -1, -1, -1};
    int rc = lq_field_write_async(&o->counters, LQ_PLSPOCKET_CNT_OPEN * sizeof(int), sizeof init,
                                  init); /* constant: no wait */
    if (rc) return rc;
    if (IS_REF(o)) {
        lq_plspocket_ref_open(o, phi, solid, mode, wall_dirichlet);
    } else {
        lq_arg a[] = {LQ_MEM(phi),    LQ_MEM(solid ? solid : phi),
                      LQ_VAL(mode),   LQ_VAL(wall_dirichlet),
                      LQ_MEM(o->lab), LQ_MEM(&o->counters)};
        rc = lq_kernel_launch(&o->openk, lq_range_3d(o->nx, o->ny, o->nz), LQ_ARGS(a));
    }
    /* the reference reads the open count before the mark; the kernel reads it itself
     * (nothing marked in one closed tank: the projection's own case) */
    if (!rc && IS_REF(o)) rc = lq_plspocket_count(o, LQ_PLSPOCKET_CNT_OPEN, &o->open);
    if (rc || (IS_REF(o) && o->open == 0)) return rc;
    if (IS_REF(o)) {
        lq_plspocket_ref_mark(o, solid, h);
    } else {
        int nc = o->nx * o->ny * o->nz, has = solid != NULL;
        lq_arg a[] = {LQ_MEM(o->lab), LQ_MEM(solid ? solid : o->out),
                      LQ_VAL(has),    LQ_VAL(h),
                      LQ_MEM(o->out), LQ_MEM(&o->counters)};
        rc = lq_kernel_launch(
            &o->mark, lq_range_var(&o->mark, (nc + LQ_PLSPOCKET_CHUNK - 1) / LQ_PLSPOCKET_CHUNK),
            LQ_ARGS(a));
    }
    int cnt[LQ_PLSPOCKET_CNT_COUNT];
    if (!rc) rc = lq_field_download(&o->counters, cnt);
    if (rc) return rc;
    o->open = cnt[LQ_PLSPOCKET_CNT_OPEN];
    if (!IS_REF(o)) o->rounds = cnt[LQ_PLSPOCKET_CNT_ROUNDS];
    if (o->open == 0) return LQ_OK;
    o->cells = cnt[LQ_PLSPOCKET_CNT_CELLS];
    o->pockets = cnt[LQ_PLSPOCKET_CNT_POCKETS];
    memcpy(o->box, cnt + LQ_PLSPOCKET_CNT_BOX, sizeof o->box);
    return LQ_OK;
}

int lq_plspocket_find(lq_plspocket_ops *o, const lq_field *phi, const lq_field *solid, int mode,
                      int wall_dirichlet, float h, lq_field *lab, lq_field *out)
{
    assert(lab->count >= (size_t)o->nx * o->ny * o->nz && lab->elem == 4);
    assert(out->count >= (size_t)o->nx * o->ny * o->nz && out->elem == 4 && out != solid);
    o->lab = lab;
    o->out = out;
    o->cells = o->pockets = o->open = o->rounds = 0;
    int rc = LQ_OK, hooks = 1;
    LQ_STAGE(rc, o->ctx, "block labels", lq_plspocket_local(o, phi, solid, mode));
    /* each round merges at least one pair of components: never more rounds than blocks */
    int most = o->bn[0] * o->bn[1] * o->bn[2] + 1;
    if (!IS_REF(o)) {
        LQ_STAGE(rc, o->ctx, "hooks and jumps", lq_plspocket_rounds(o, most, &hooks));
    } else {
        while (!rc && hooks > 0 && o->rounds < most) {
            LQ_STAGE(rc, o->ctx, "hooks and jumps", lq_plspocket_round(o, &hooks));
            o->rounds++;
        }
    }
    if (!rc && hooks > 0)
        return lq_error(LQ_ESIM, "pockets: the components did not settle in %d rounds", most);
    LQ_STAGE(rc, o->ctx, "open roots, pockets",
             lq_plspocket_mark_all(o, phi, solid, mode, wall_dirichlet, h));
    return rc;
}

/* One pass over component `axis`'s faces in the box lo, n (faces). */
static int lq_plspocket_pass(lq_plspocket_ops *o, const lq_field *src, lq_field *dst, int axis,
                             int pass0, const int lo[3], const int n[3])
{
    if (IS_REF(o)) {
        lq_plspocket_ref_enslave(o, src, dst, axis, pass0, lo, n);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(src),    LQ_MEM(dst),   LQ_VAL(axis),  LQ_VAL(pass0),
                  LQ_MEM(o->lab), LQ_VAL(lo[0]), LQ_VAL(lo[1]), LQ_VAL(lo[2]),
                  LQ_VAL(n[0]),   LQ_VAL(n[1]),  LQ_VAL(n[2]),  LQ_MEM(&o->counters)};
    return lq_kernel_launch(&o->enslave, lq_range_var(&o->enslave, n[0] * n[1] * n[2]), LQ_ARGS(a));
}

/* Component `axis`'s faces of the pockets' box widened by two faces, clipped to the grid
 * (plspocket_cell.h). */
static void lq_plspocket_face_box(const lq_plspocket_ops *o, int axis, int lo[3], int n[3])
{
    int dims[3] = {o->nx + (axis == 0), o->ny + (axis == 1), o->nz + (axis == 2)};
    for (int d = 0; d < 3; d++) {
        int a = LQ_MAX(o->box[d] - 2, 0), b = LQ_MIN(o->box[3 + d] + 1 + 2, dims[d] - 1);
        lo[d] = a;
        n[d] = b - a + 1;
    }
}

int lq_plspocket_enslave(lq_plspocket_ops *o, lq_field *u, lq_field *v, lq_field *w, lq_field *su,
                         lq_field *sv, lq_field *sw, int passes)
{
    lq_field *fs[3] = {u, v, w}, *ss[3] = {su, sv, sw};
    int rc = LQ_OK, axes = o->nz > 1 ? 3 : 2;
    /* the deepest face is reached within one pass per face along the longest path */
    int most = LQ_MAX(passes, 1) + 2 * (o->nx + o->ny + o->nz) + 3;
    o->passes = 0;
    if (o->cells == 0) return LQ_OK;
    for (int a = 0; a < axes && !rc; a++) {
        assert(ss[a]->count == fs[a]->count);
        int p = 0, unknown = 1, lo[3], n[3];
        lq_plspocket_face_box(o, a, lo, n);
        rc = lq_plspocket_pass(o, fs[a], ss[a], a, 1, lo, n); /* pass 0: the unknowns out */
        while (!rc && p < most) {
            p++;
            bool check = p >= passes && p % 2 == 1; /* odd: the result is in the component */
            if (check) rc = lq_plspocket_zero(o, LQ_PLSPOCKET_CNT_UNKNOWN);
            if (!rc)
                rc = p % 2 ? lq_plspocket_pass(o, ss[a], fs[a], a, 0, lo, n)
                           : lq_plspocket_pass(o, fs[a], ss[a], a, 0, lo, n);
            if (!rc && check) {
                rc = lq_plspocket_count(o, LQ_PLSPOCKET_CNT_UNKNOWN, &unknown);
                if (!rc && unknown == 0) break;
            }
        }
        if (!rc && unknown > 0)
            rc = lq_error(LQ_ESIM, "pockets: %d faces without a value after %d passes", unknown, p);
        o->passes = LQ_MAX(o->passes, p);
    }
    return rc;
}

const lq_field *lq_plspocket_solid(const lq_plspocket_ops *o, const lq_field *solid)
{
    return o->cells > 0 ? o->out : solid;
}
