/*
 * extrap.c — launchers of velocity extrapolation (see extrap.h; Rasmussen et al. 2004
 * §3, §5.2, §5.5.1). Each launcher dispatches to the reference twin or binds its
 * arguments and enqueues; the scratch (masks, band, pressure) is owned by the ops and
 * allocated once in ops_init.
 */
#include "ops/pls/extrap.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"

static const char *const lq_extrap_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", "kernels/pls/extrap_cell.h",
    "kernels/pls/extrap.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

lq_extrap_params lq_extrap_params_default(void)
{
    lq_extrap_params p;
    memset(&p, 0, sizeof p);
    p.layers = 4;
    p.iterations = 60;
    p.omega = 1.7f;
    p.friction = 0.0f;
    return p;
}

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_extrap_kernels[] = {
    LQ_KERNEL(lq_extrap_ops, init, "extrap_init"),
    LQ_KERNEL(lq_extrap_ops, bandk, "extrap_band"),
    LQ_KERNEL(lq_extrap_ops, sor, "extrap_sor"),
    LQ_KERNEL(lq_extrap_ops, correct, "extrap_correct"),
    LQ_KERNEL(lq_extrap_ops, object, "extrap_object"),
    LQ_KERNEL(lq_extrap_ops, copy, "extrap_copy"),
    LQ_KERNEL(lq_extrap_ops, listk, "extrap_list"),
    LQ_KERNEL(lq_extrap_ops, sor_list, "extrap_sor_list"),
    LQ_KERNEL(lq_extrap_ops, restore, "extrap_restore"),
    LQ_KERNEL(lq_extrap_ops, reach, "extrap_reach_list"),
    LQ_KERNEL(lq_extrap_ops, layer_lev, "extrap_layer_lev"),
    LQ_KERNEL(lq_extrap_ops, seed, "extrap_seed"),
    LQ_KERNEL(lq_extrap_ops, front, "extrap_front"),
    LQ_KERNEL(lq_extrap_ops, expand, "extrap_expand"),
};
/* The reach rounds enqueued before the first read (a dam break's band needs 2 to 4; the
 * batches then double). */
#define LQ_EXTRAP_REACH_BATCH 4

static const lq_program lq_extrap_program = LQ_PROGRAM("XYZ", lq_extrap_sources, lq_extrap_kernels);

/* The object's own buffers, bound once: the band, its right-hand side, pressure and
 * colour lists, and the list count (the launches set the rest). */
static int lq_extrap_bind(lq_extrap_ops *o)
{
    lq_arg band = LQ_MEM(&o->band), rhs = LQ_MEM(&o->rhs), p = LQ_MEM(&o->p),
           list = LQ_MEM(&o->list), cnt = LQ_MEM(&o->cnt);
    lq_binding b[] = {
        {&o->bandk, {[0] = band, [1] = rhs, [2] = p}},
        {&o->listk, {[0] = list, [1] = cnt, [2] = band}},
        {&o->reach, {[0] = band, [1] = cnt, [2] = list}},
        {&o->sor_list, {[0] = p, [1] = band, [2] = rhs, [3] = list, [5] = cnt}},
        {&o->correct, {[1] = p, [2] = band}},
        {&o->seed, {[3] = cnt}},
        {&o->front, {[5] = cnt}},
        {&o->expand, {[7] = cnt}},
    };
    return lq_kernels_bind(LQ_ARGS(b));
}

/* The lent scratch as this object's fields. */
static void lq_extrap_views(lq_extrap_ops *o, const lq_field *const bytes[4],
                            const lq_field *const floats[6])
{
    int nx = o->nx, ny = o->ny, nz = o->nz;
    for (int c = 0; c < 3; c++) {
        int fx = nx + (c == 0), fy = ny + (c == 1), fz = nz + (c == 2);
        o->valid[0][c] = lq_field_alias(bytes[c], "extrap_valid", fx, fy, fz, 1);
        o->tmp[c] = lq_field_alias(floats[c], "extrap_tmp", fx, fy, fz, 4);
    }
    o->band = lq_field_alias(bytes[3], "extrap_band", nx, ny, nz, 1);
    o->rhs = lq_field_alias(floats[3], "extrap_rhs", nx, ny, nz, 4);
    o->p = lq_field_alias(floats[4], "extrap_p", nx, ny, nz, 4);
    o->list = lq_field_alias(floats[5], "extrap_list", nx, ny, nz, 4);
}

/* bytes, floats: NULL to allocate the object's own scratch */
static int lq_extrap_init(lq_extrap_ops *o, lq_ctx *ctx, int nx, int ny, int nz,
                          const lq_field *const *bytes, const lq_field *const *floats)
{
    *o = (lq_extrap_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz, .lent = bytes != NULL};
    int rc = LQ_OK;
    if (o->lent) {
        lq_extrap_views(o, bytes, floats);
        if (!IS_REF(o)) rc = lq_field_alloc(ctx, &o->cnt, "extrap_cnt", 8, 1, 1, 4);
        if (rc || IS_REF(o)) return rc;
        rc = lq_program_build(&lq_extrap_program, o, &o->program, ctx, nx, ny, nz, "");
        return rc ? rc : lq_extrap_bind(o);
    }
    for (int c = 0; c < 3 && !rc; c++)
        rc = lq_field_alloc(ctx, &o->valid[0][c], "extrap_valid", nx + (c == 0), ny + (c == 1),
                            nz + (c == 2), 1);
    for (int c = 0; c < 3 && !rc; c++)
        rc = lq_field_alloc(ctx, &o->tmp[c], "extrap_tmp", nx + (c == 0), ny + (c == 1),
                            nz + (c == 2), 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->band, "extrap_band", nx, ny, nz, 1);
    if (!rc) rc = lq_field_alloc(ctx, &o->rhs, "extrap_rhs", nx, ny, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->p, "extrap_p", nx, ny, nz, 4);
    if (!rc && !IS_REF(o)) rc = lq_field_alloc(ctx, &o->list, "extrap_list", nx, ny, nz, 4);
    if (!rc && !IS_REF(o)) rc = lq_field_alloc(ctx, &o->cnt, "extrap_cnt", 8, 1, 1, 4);
    if (rc || IS_REF(o)) return rc;
    rc = lq_program_build(&lq_extrap_program, o, &o->program, ctx, nx, ny, nz, "");
    return rc ? rc : lq_extrap_bind(o);
}

int lq_extrap_ops_init(lq_extrap_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    return lq_extrap_init(o, ctx, nx, ny, nz, NULL, NULL);
}

int lq_extrap_ops_init_lent(lq_extrap_ops *o, lq_ctx *ctx, int nx, int ny, int nz,
                            const lq_field *const bytes[4], const lq_field *const floats[6])
{
    assert(bytes && floats);
    return lq_extrap_init(o, ctx, nx, ny, nz, bytes, floats);
}

void lq_extrap_ops_release(lq_extrap_ops *o)
{
    lq_program_release(&lq_extrap_program, o, &o->program);
    lq_field *own[] = {&o->valid[0][0], &o->valid[0][1], &o->valid[0][2], &o->valid[1][0],
                       &o->valid[1][1], &o->valid[1][2], &o->tmp[0],      &o->tmp[1],
                       &o->tmp[2],      &o->band,        &o->rhs,         &o->p,
                       &o->list};
    for (size_t i = 0; i < LQ_COUNT(own); i++) {
        if (!o->lent) lq_field_release(own[i]);
        *own[i] = (lq_field){0};
    }
    lq_field_release(&o->cnt);
}

static void lq_extrap_check(const lq_extrap_ops *o, const lq_field *u, const lq_field *v,
                            const lq_field *w, const lq_field *cellf)
{
    (void)o;
    (void)u;
    (void)v;
    (void)w;
    (void)cellf;
    assert(u->count == (size_t)(o->nx + 1) * o->ny * o->nz);
    assert(v->count == (size_t)o->nx * (o->ny + 1) * o->nz);
    assert(w->count == (size_t)o->nx * o->ny * (o->nz + 1));
    assert(!cellf || cellf->count == (size_t)o->nx * o->ny * o->nz);
}

/* A front list's room (o->cap_limit in tests). */
static int lq_extrap_cap(const lq_extrap_ops *o, const lq_field *list)
{
    int n = (int)list->count;
    return o->cap_limit > 0 && o->cap_limit < n ? o->cap_limit : n;
}

int lq_extrap_velocity(lq_extrap_ops *o, lq_field *u, lq_field *v, lq_field *w, const lq_field *phi,
                       const lq_field *sdf, const lq_extrap_params *prm)
{
    lq_extrap_check(o, u, v, w, phi);
    assert(prm->layers >= 0);
    if (IS_REF(o)) {
        lq_extrap_ref_velocity(o, u, v, w, phi, sdf, prm);
        return LQ_OK;
    }
    int use_sdf = sdf != NULL ? 1 + (prm->closed != 0) : 0;
    const lq_field *sd = sdf ? sdf : phi;
    lq_field *vel[3] = {u, v, w};
    int rc = LQ_OK;
    for (int c = 0; c < 3 && !rc; c++) {
        lq_arg a[] = {LQ_MEM(&o->valid[0][c]), LQ_MEM(phi), LQ_MEM(sd), LQ_VAL(use_sdf), LQ_VAL(c)};
        rc = lq_kernel_launch(&o->init, lq_range_faces(o->nx, o->ny, o->nz, c), LQ_ARGS(a));
    }
    o->final = 0;
    if (rc || prm->layers <= 0) return rc;
    /* the layers over their fronts (extrap_cell.h), in two sets of lists: the object_bc
     * output and §5.2's scratch (free between the passes that use them), their counts
     * on the device (o->cnt[0 …] and [4 …], by component): no host wait but one at the
     * end, for cnt[3], set when a front was longer than its list (never seen: fronts are
     * surfaces); the layers are then redone over the whole grid */
    lq_field *la[3] = {&o->tmp[0], &o->tmp[1], &o->tmp[2]}, *lb[3] = {&o->list, &o->rhs, &o->p};
    lq_field **cur = la, **next = lb;
    static const int zeros[3] = {0, 0, 0};
    int at = 0, over = 0;
    rc = lq_field_zero(&o->cnt, 0);
    for (int c = 0; c < 3 && !rc; c++) {
        int cap = lq_extrap_cap(o, cur[c]);
        lq_arg a[] = {
            LQ_MEM(&o->valid[0][c]), LQ_VAL(c), LQ_MEM(cur[c]), LQ_KEEP, LQ_VAL(cap), LQ_VAL(at)};
        rc = lq_kernel_launch(&o->seed, lq_range_faces(o->nx, o->ny, o->nz, c), LQ_ARGS(a));
    }
    for (int l = 0; l < prm->layers && !rc; l++) {
        for (int c = 0; c < 3 && !rc; c++) {
            int cap = lq_extrap_cap(o, cur[c]);
            lq_arg a[] = {LQ_MEM(vel[c]), LQ_MEM(&o->valid[0][c]),
                          LQ_VAL(c),      LQ_VAL(l),
                          LQ_MEM(cur[c]), LQ_KEEP,
                          LQ_VAL(at),     LQ_VAL(cap)};
            rc = lq_kernel_launch(&o->front, lq_range_stride(&o->front, (size_t)cap), LQ_ARGS(a));
        }
        if (rc || l + 1 == prm->layers) break;
        int nat = 4 - at;
        rc = lq_field_write_async(&o->cnt, (size_t)nat * sizeof(int), sizeof zeros, zeros);
        for (int c = 0; c < 3 && !rc; c++) {
            int cap = lq_extrap_cap(o, cur[c]), ncap = lq_extrap_cap(o, next[c]);
            lq_arg a[] = {LQ_MEM(&o->valid[0][c]),
                          LQ_VAL(c),
                          LQ_VAL(l),
                          LQ_MEM(cur[c]),
                          LQ_VAL(at),
                          LQ_VAL(cap),
                          LQ_MEM(next[c]),
                          LQ_KEEP,
                          LQ_VAL(nat),
                          LQ_VAL(ncap)};
            rc = lq_kernel_launch(&o->expand, lq_range_stride(&o->expand, (size_t)cap), LQ_ARGS(a));
        }
        lq_field **t = cur;
        cur = next;
        next = t;
        at = nat;
    }
    if (!rc) rc = lq_field_read(&o->cnt, 3 * sizeof(int), sizeof(int), &over);
    if (rc || !over) return rc;
    /* a front overflowed its list: the layers again from the start, over the whole grid
     * (the same values the lists give, bit for bit) */
    for (int c = 0; c < 3 && !rc; c++) {
        lq_arg a[] = {LQ_MEM(&o->valid[0][c]), LQ_MEM(phi), LQ_MEM(sd), LQ_VAL(use_sdf), LQ_VAL(c)};
        rc = lq_kernel_launch(&o->init, lq_range_faces(o->nx, o->ny, o->nz, c), LQ_ARGS(a));
    }
    for (int l = 0; l < prm->layers && !rc; l++)
        for (int c = 0; c < 3 && !rc; c++) {
            lq_arg a[] = {LQ_MEM(vel[c]), LQ_MEM(&o->valid[0][c]), LQ_VAL(c), LQ_VAL(l)};
            rc =
                lq_kernel_launch(&o->layer_lev, lq_range_faces(o->nx, o->ny, o->nz, c), LQ_ARGS(a));
        }
    return rc;
}

int lq_extrap_object_bc(lq_extrap_ops *o, lq_field *u, lq_field *v, lq_field *w,
                        const lq_field *phi, const lq_field *sdf, const lq_field *ob,
                        const lq_extrap_params *prm)
{
    lq_extrap_check(o, u, v, w, sdf);
    if (phi) lq_extrap_check(o, u, v, w, phi);
    if (ob) lq_extrap_check(o, &ob[0], &ob[1], &ob[2], NULL);
    if (IS_REF(o)) {
        lq_extrap_ref_object_bc(o, u, v, w, phi, sdf, ob, prm);
        return LQ_OK;
    }
    float ox = prm->obj_vel[0], oy = prm->obj_vel[1], oz = prm->obj_vel[2], al = prm->friction;
    int use_ob = ob != NULL, hold = prm->hold_normal, use_phi = phi != NULL;
    const lq_field *ph = phi ? phi : sdf;
    const lq_field *oo[3] = {ob ? &ob[0] : u, ob ? &ob[1] : v, ob ? &ob[2] : w};
    lq_field *vel[3] = {u, v, w};
    int rc = LQ_OK;
    for (int c = 0; c < 3 && !rc; c++) {
        lq_arg a[] = {LQ_MEM(&o->tmp[c]), LQ_MEM(u),      LQ_MEM(v),       LQ_MEM(w),
                      LQ_MEM(sdf),        LQ_MEM(ph),     LQ_VAL(use_phi), LQ_VAL(ox),
                      LQ_VAL(oy),         LQ_VAL(oz),     LQ_MEM(oo[0]),   LQ_MEM(oo[1]),
                      LQ_MEM(oo[2]),      LQ_VAL(use_ob), LQ_VAL(hold),    LQ_VAL(al),
                      LQ_VAL(c)};
        rc = lq_kernel_launch(&o->object, lq_range_faces(o->nx, o->ny, o->nz, c), LQ_ARGS(a));
    }
    for (int c = 0; c < 3 && !rc; c++) {
        int n = (int)vel[c]->count;
        lq_arg a[] = {LQ_MEM(vel[c]), LQ_MEM(&o->tmp[c]), LQ_VAL(n)};
        rc = lq_kernel_launch(&o->copy, lq_range_1d((size_t)n, 0), LQ_ARGS(a));
    }
    return rc;
}

int lq_extrap_object_restore(lq_extrap_ops *o, lq_field *u, lq_field *v, lq_field *w,
                             const lq_field *phi, const lq_field *sdf)
{
    lq_extrap_check(o, u, v, w, sdf);
    if (phi) lq_extrap_check(o, u, v, w, phi);
    if (IS_REF(o)) {
        lq_extrap_ref_object_restore(o, u, v, w, phi, sdf);
        return LQ_OK;
    }
    int use_phi = phi != NULL;
    const lq_field *ph = phi ? phi : sdf;
    lq_field *vel[3] = {u, v, w};
    int rc = LQ_OK;
    for (int c = 0; c < 3 && !rc; c++) {
        lq_arg a[] = {LQ_MEM(vel[c]), LQ_MEM(&o->tmp[c]), LQ_MEM(sdf),
                      LQ_MEM(ph),     LQ_VAL(use_phi),    LQ_VAL(c)};
        rc = lq_kernel_launch(&o->restore, lq_range_faces(o->nx, o->ny, o->nz, c), LQ_ARGS(a));
    }
    return rc;
}

int lq_extrap_divfree(lq_extrap_ops *o, lq_field *u, lq_field *v, lq_field *w, const lq_field *phi,
                      const lq_field *sdf, const lq_extrap_params *prm)
{
    lq_extrap_check(o, u, v, w, phi);
    if (IS_REF(o)) {
        lq_extrap_ref_divfree(o, u, v, w, phi, sdf, prm);
        return LQ_OK;
    }
    int use_sdf = sdf != NULL ? 1 + (prm->closed != 0) : 0;
    const lq_field *sd = sdf ? sdf : phi;
    lq_field *vm = o->valid[o->final];
    lq_range cells = lq_range_3d(o->nx, o->ny, o->nz);
    lq_arg ba[] = {LQ_KEEP,        LQ_KEEP,     LQ_KEEP,        LQ_MEM(u),
                   LQ_MEM(v),      LQ_MEM(w),   LQ_MEM(&vm[0]), LQ_MEM(&vm[1]),
                   LQ_MEM(&vm[2]), LQ_MEM(phi), LQ_MEM(sd),     LQ_VAL(use_sdf)};
    int rc = lq_kernel_launch(&o->bandk, cells, LQ_ARGS(ba));
    /* the sweeps visit only the band cells, by colour (lists built once; extrap_sor over
     * the whole grid computes the same, bit for bit, at several times the cost), the
     * lists' lengths on the device (cnt[0], cnt[1]) */
    static const int zero = 0, one = 1;
    size_t ncell = (size_t)o->nx * o->ny * o->nz;
    if (!rc) rc = lq_field_zero(&o->cnt, 0);
    if (!rc) rc = lq_kernel_run(&o->listk, cells); /* its arguments are bound */
    /* bit 7: the cells joined to p = 0, by rounds of both colours until one sets none
     * (each round but the last sets one cell at least): the rounds count into cnt[2] and
     * cnt[3] in turn and do nothing once the one before set none, so the host enqueues
     * them in batches and reads the last round's count once a batch */
    if (!rc) rc = lq_field_write_async(&o->cnt, 3 * sizeof(int), sizeof one, &one);
    lq_range rr = lq_range_stride(&o->reach, ncell);
    for (int round = 0, batch = LQ_EXTRAP_REACH_BATCH, set = 1; set && !rc;) {
        for (int b = 0; b < batch && !rc; b++, round++) {
            int slot = 2 + (round & 1), prev = 2 + ((round + 1) & 1);
            rc = lq_field_write_async(&o->cnt, (size_t)slot * sizeof(int), sizeof zero, &zero);
            for (int colour = 0; colour < 2 && !rc; colour++) {
                lq_arg a[] = {LQ_KEEP,        LQ_KEEP,      LQ_KEEP,
                              LQ_VAL(colour), LQ_VAL(slot), LQ_VAL(prev)};
                rc = lq_kernel_launch(&o->reach, rr, LQ_ARGS(a));
            }
        }
        int last = 2 + ((round - 1) & 1);
        if (!rc) rc = lq_field_read(&o->cnt, (size_t)last * sizeof(int), sizeof(int), &set);
        if ((size_t)round > ncell) break; /* (cannot happen: a round sets a cell) */
        batch *= 2;
    }
    float omega = prm->omega;
    lq_range sr = lq_range_stride(&o->sor_list, ncell);
    for (int it = 0; it < prm->iterations && !rc; it++)
        for (int colour = 0; colour < 2 && !rc; colour++) {
            lq_arg a[] = {LQ_KEEP,        LQ_KEEP, LQ_KEEP,      LQ_KEEP,
                          LQ_VAL(colour), LQ_KEEP, LQ_VAL(omega)};
            rc = lq_kernel_launch(&o->sor_list, sr, LQ_ARGS(a));
        }
    lq_field *vel[3] = {u, v, w};
    for (int c = 0; c < 3 && !rc; c++) {
        lq_arg a[] = {LQ_MEM(vel[c]), LQ_KEEP,         LQ_KEEP,  LQ_MEM(phi),
                      LQ_MEM(sd),     LQ_VAL(use_sdf), LQ_VAL(c)};
        rc = lq_kernel_launch(&o->correct, lq_range_faces(o->nx, o->ny, o->nz, c), LQ_ARGS(a));
    }
    return rc;
}
