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

#define LQ_EXTRAP_KERNELS(o)                                                                       \
    {                                                                                              \
        {&(o)->init, "extrap_init"}, {&(o)->bandk, "extrap_band"}, {&(o)->sor, "extrap_sor"},      \
            {&(o)->correct, "extrap_correct"}, {&(o)->object, "extrap_object"},                    \
            {&(o)->copy, "extrap_copy"}, {&(o)->listk, "extrap_list"},                             \
            {&(o)->sor_list, "extrap_sor_list"}, {&(o)->restore, "extrap_restore"},                \
            {&(o)->reach, "extrap_reach_list"}, {&(o)->layer_lev, "extrap_layer_lev"},             \
            {&(o)->seed, "extrap_seed"}, {&(o)->front, "extrap_front"},                            \
            {&(o)->expand, "extrap_expand"},                                                       \
    }

int lq_extrap_ops_init(lq_extrap_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    memset(o, 0, sizeof *o);
    o->ctx = ctx;
    o->nx = nx;
    o->ny = ny;
    o->nz = nz;
    int rc = LQ_OK;
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
    if (!rc && !IS_REF(o)) rc = lq_field_alloc(ctx, &o->cnt, "extrap_cnt", 4, 1, 1, 4);
    if (rc || IS_REF(o)) return rc;
    char defines[96];
    snprintf(defines, sizeof defines, "-DNX=%d -DNY=%d -DNZ=%d", nx, ny, nz);
    lq_cl_kernel_name ks[] = LQ_EXTRAP_KERNELS(o);
    return lq_cl_build_kernels(&ctx->cl, (int)LQ_COUNT(lq_extrap_sources), lq_extrap_sources,
                               defines, &o->program, (int)LQ_COUNT(ks), ks);
}

void lq_extrap_ops_release(lq_extrap_ops *o)
{
    if (!IS_REF(o)) {
        lq_cl_kernel_name ks[] = LQ_EXTRAP_KERNELS(o);
        lq_cl_release_kernels(&o->program, (int)LQ_COUNT(ks), ks);
    }
    for (int s = 0; s < 2; s++)
        for (int c = 0; c < 3; c++) lq_field_release(&o->valid[s][c]);
    for (int c = 0; c < 3; c++) lq_field_release(&o->tmp[c]);
    lq_field_release(&o->band);
    lq_field_release(&o->rhs);
    lq_field_release(&o->p);
    lq_field_release(&o->list);
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

/* Binds n arguments and runs over g (3D). */
static int lq_extrap_run(lq_extrap_ops *o, cl_kernel k, const char *name, int n, const lq_argv *a,
                         const size_t *g)
{
    for (int i = 0; i < n; i++) {
        int rc = lq_cl_arg(k, name, (cl_uint)i, a[i].size, a[i].p);
        if (rc) return rc;
    }
    return lq_cl_run(o->ctx, k, name, 3, g, NULL);
}

static void lq_extrap_face_range(const lq_extrap_ops *o, int c, size_t *g)
{
    g[0] = (size_t)(o->nx + (c == 0));
    g[1] = (size_t)(o->ny + (c == 1));
    g[2] = (size_t)(o->nz + (c == 2));
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
    size_t g[3];
    for (int c = 0; c < 3 && !rc; c++) {
        lq_argv a[] = {MEM(&o->valid[0][c]), MEM(phi), MEM(sd), VAL(use_sdf), VAL(c)};
        lq_extrap_face_range(o, c, g);
        rc = lq_extrap_run(o, o->init, "extrap_init", (int)LQ_COUNT(a), a, g);
    }
    o->final = 0;
    if (rc || prm->layers <= 0) return rc;
    /* the layers over their fronts (extrap_cell.h), in two sets of lists: the object_bc
     * output and §5.2's scratch (free between the passes that use them); a front longer
     * than its list (never seen: fronts are surfaces) turns to whole-grid layers */
    lq_field *la[3] = {&o->tmp[0], &o->tmp[1], &o->tmp[2]}, *lb[3] = {&o->list, &o->rhs, &o->p};
    lq_field **cur = la, **next = lb;
    int cnt[4] = {0, 0, 0, 0}, whole = 0;
    size_t local = 64;
    rc = lq_field_zero(&o->cnt, 0);
    for (int c = 0; c < 3 && !rc; c++) {
        int cap = (int)cur[c]->count;
        lq_argv a[] = {MEM(&o->valid[0][c]), VAL(c), MEM(cur[c]), MEM(&o->cnt), VAL(cap)};
        lq_extrap_face_range(o, c, g);
        rc = lq_extrap_run(o, o->seed, "extrap_seed", (int)LQ_COUNT(a), a, g);
    }
    if (!rc) rc = lq_field_download(&o->cnt, cnt);
    for (int l = 0; l < prm->layers && !rc; l++) {
        for (int c = 0; c < 3; c++) whole = whole || cnt[c] > (int)cur[c]->count;
        if (whole) {
            for (int c = 0; c < 3 && !rc; c++) {
                lq_argv a[] = {MEM(vel[c]), MEM(&o->valid[0][c]), VAL(c), VAL(l)};
                lq_extrap_face_range(o, c, g);
                rc = lq_extrap_run(o, o->layer_lev, "extrap_layer_lev", (int)LQ_COUNT(a), a, g);
            }
            continue;
        }
        for (int c = 0; c < 3 && !rc; c++) {
            int n = cnt[c];
            lq_argv a[] = {MEM(vel[c]), MEM(&o->valid[0][c]), VAL(c), VAL(l), MEM(cur[c]), VAL(n)};
            if (n > 0)
                rc = lq_cl_launch(o->ctx, o->front, "extrap_front", (int)LQ_COUNT(a), a, 1,
                                  ((size_t)n + local - 1) / local * local, 1, &local);
        }
        if (rc || l + 1 == prm->layers) break;
        int ncnt[4] = {0, 0, 0, 0};
        rc = lq_field_zero(&o->cnt, 0);
        for (int c = 0; c < 3 && !rc; c++) {
            int n = cnt[c], cap = (int)next[c]->count;
            lq_argv a[] = {MEM(&o->valid[0][c]), VAL(c),       VAL(l),  MEM(cur[c]), VAL(n),
                           MEM(next[c]),         MEM(&o->cnt), VAL(cap)};
            if (n > 0)
                rc = lq_cl_launch(o->ctx, o->expand, "extrap_expand", (int)LQ_COUNT(a), a, 1,
                                  ((size_t)n + local - 1) / local * local, 1, &local);
        }
        if (!rc) rc = lq_field_download(&o->cnt, ncnt);
        memcpy(cnt, ncnt, sizeof cnt);
        lq_field **t = cur;
        cur = next;
        next = t;
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
    size_t g[3];
    for (int c = 0; c < 3 && !rc; c++) {
        lq_argv a[] = {MEM(&o->tmp[c]), MEM(u),      MEM(v),    MEM(w),  MEM(sdf),   MEM(ph),
                       VAL(use_phi),    VAL(ox),     VAL(oy),   VAL(oz), MEM(oo[0]), MEM(oo[1]),
                       MEM(oo[2]),      VAL(use_ob), VAL(hold), VAL(al), VAL(c)};
        lq_extrap_face_range(o, c, g);
        rc = lq_extrap_run(o, o->object, "extrap_object", (int)LQ_COUNT(a), a, g);
    }
    for (int c = 0; c < 3 && !rc; c++) {
        int n = (int)vel[c]->count;
        lq_argv a[] = {MEM(vel[c]), MEM(&o->tmp[c]), VAL(n)};
        rc = lq_cl_launch(o->ctx, o->copy, "extrap_copy", (int)LQ_COUNT(a), a, 1, (size_t)n, 1,
                          NULL);
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
    size_t g[3];
    for (int c = 0; c < 3 && !rc; c++) {
        lq_argv a[] = {MEM(vel[c]), MEM(&o->tmp[c]), MEM(sdf), MEM(ph), VAL(use_phi), VAL(c)};
        lq_extrap_face_range(o, c, g);
        rc = lq_extrap_run(o, o->restore, "extrap_restore", (int)LQ_COUNT(a), a, g);
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
    size_t gc[3] = {(size_t)o->nx, (size_t)o->ny, (size_t)o->nz}, g[3];
    lq_argv ba[] = {MEM(&o->band), MEM(&o->rhs), MEM(&o->p),  MEM(u),   MEM(v),  MEM(w),
                    MEM(&vm[0]),   MEM(&vm[1]),  MEM(&vm[2]), MEM(phi), MEM(sd), VAL(use_sdf)};
    int rc = lq_extrap_run(o, o->bandk, "extrap_band", (int)LQ_COUNT(ba), ba, gc);
    /* the sweeps visit only the band cells, by colour (lists built once; extrap_sor over
     * the whole grid computes the same, bit for bit, at several times the cost) */
    int cnt[2] = {0, 0};
    if (!rc) rc = lq_field_zero(&o->cnt, 0);
    lq_argv la[] = {MEM(&o->list), MEM(&o->cnt), MEM(&o->band)};
    if (!rc) rc = lq_extrap_run(o, o->listk, "extrap_list", (int)LQ_COUNT(la), la, gc);
    if (!rc) rc = lq_field_read(&o->cnt, 0, sizeof cnt, cnt); /* o->cnt holds 4 */
    size_t local = 64;
    /* bit 7: the cells joined to p = 0, by rounds of both colours until one sets none
     * (cnt[0] counts them; each round but the last sets one cell at least) */
    for (int round = 0, set = 1; set && round <= cnt[0] + cnt[1] && !rc; round++) {
        set = 0;
        rc = lq_field_zero(&o->cnt, sizeof(int));
        for (int colour = 0; colour < 2 && !rc; colour++) {
            int n = cnt[colour];
            if (n <= 0) continue;
            lq_argv a[] = {MEM(&o->band), MEM(&o->cnt), MEM(&o->list), VAL(colour), VAL(n)};
            rc = lq_cl_launch(o->ctx, o->reach, "extrap_reach_list", (int)LQ_COUNT(a), a, 1,
                              ((size_t)n + local - 1) / local * local, 1, &local);
        }
        if (!rc) rc = lq_field_read(&o->cnt, 0, sizeof(int), &set);
    }
    float omega = prm->omega;
    for (int it = 0; it < prm->iterations && !rc; it++)
        for (int colour = 0; colour < 2 && !rc; colour++) {
            int n = cnt[colour];
            if (n <= 0) continue;
            lq_argv a[] = {MEM(&o->p),  MEM(&o->band), MEM(&o->rhs), MEM(&o->list),
                           VAL(colour), VAL(n),        VAL(omega)};
            rc = lq_cl_launch(o->ctx, o->sor_list, "extrap_sor_list", (int)LQ_COUNT(a), a, 1,
                              ((size_t)n + local - 1) / local * local, 1, &local);
        }
    lq_field *vel[3] = {u, v, w};
    for (int c = 0; c < 3 && !rc; c++) {
        lq_argv a[] = {MEM(vel[c]), MEM(&o->p),   MEM(&o->band), MEM(phi),
                       MEM(sd),     VAL(use_sdf), VAL(c)};
        lq_extrap_face_range(o, c, g);
        rc = lq_extrap_run(o, o->correct, "extrap_correct", (int)LQ_COUNT(a), a, g);
    }
    return rc;
}
