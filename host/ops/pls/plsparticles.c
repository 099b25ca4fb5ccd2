/*
 * plsparticles.c — launchers of the particle level set's particles (see plsparticles.h;
 * Enright et al. 2002, Rasmussen et al. 2004 §3), their state, the coefficients and the
 * host copies. Each launcher dispatches to the reference twin or binds its arguments and
 * enqueues; nothing here allocates in the step loop.
 */
#include "ops/pls/plsparticles.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"

static const char *const lq_plsparticles_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", "kernels/mac/markers_cell.h",
    "kernels/pls/plsparticles_cell.h", "kernels/pls/plsparticles.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

void lq_plsparticles_coef_of(const lq_plsparticles_params *prm, int nx, int ny, int nz, int has_sdf,
                             float c[LQ_PLSPARTICLES_C_COUNT])
{
    memset(c, 0, sizeof(float) * LQ_PLSPARTICLES_C_COUNT);
    double h = prm->h, n[3] = {nx, ny, nz};
    double band = prm->band > 0 ? prm->band : 3.0 * h;
    double rmin = prm->r_min > 0 ? prm->r_min : 0.1 * h;
    double rmax = prm->r_max > 0 ? prm->r_max : 0.5 * h;
    c[LQ_PLSPARTICLES_C_IH] = (float)(1.0 / h);
    c[LQ_PLSPARTICLES_C_H] = (float)h;
    for (int a = 0; a < 3; a++) c[LQ_PLSPARTICLES_C_L + a] = (float)(n[a] * h);
    c[LQ_PLSPARTICLES_C_DT] = prm->dt;
    c[LQ_PLSPARTICLES_C_BAND] = (float)band;
    c[LQ_PLSPARTICLES_C_RMIN] = (float)rmin;
    c[LQ_PLSPARTICLES_C_RMAX] = (float)rmax;
    c[LQ_PLSPARTICLES_C_FAR] = (float)(prm->far > 0 ? prm->far : band + rmax);
    c[LQ_PLSPARTICLES_C_DEEP] = (float)(prm->deep > 0 ? prm->deep : 1.5 * rmax);
    c[LQ_PLSPARTICLES_C_ITERS] = (float)(prm->attract_iters > 0   ? prm->attract_iters
                                         : prm->attract_iters < 0 ? 0
                                                                  : 15);
    int per = prm->per_cell > 0 ? prm->per_cell : (nz > 1 ? 64 : 16);
    c[LQ_PLSPARTICLES_C_PER_CELL] = (float)LQ_MIN(per, LQ_PLSPARTICLES_MAX_PER_CELL);
    c[LQ_PLSPARTICLES_C_HAS_SDF] = has_sdf ? 1.0f : 0.0f;
    c[LQ_PLSPARTICLES_C_ESC_AIR] = prm->esc_air > 0 ? prm->esc_air : 0.0f;
    c[LQ_PLSPARTICLES_C_ESC_LIQ] = prm->esc_liq > 0 ? prm->esc_liq : 0.0f;
}

/* --- state -------------------------------------------------------------------------- */

static int lq_plsparticles_blocks(int nx, int ny, int nz, int capacity)
{
    size_t cells = (size_t)nx * ny * nz;
    int cblocks = (int)((cells + LQ_PLSPARTICLES_BLOCK - 1) / LQ_PLSPARTICLES_BLOCK);
    int pblocks = (capacity + LQ_PLSPARTICLES_BLOCK - 1) / LQ_PLSPARTICLES_BLOCK;
    return LQ_MAX(LQ_MAX(cblocks, pblocks), 1);
}

size_t lq_plsparticles_state_bytes(int nx, int ny, int nz, int capacity)
{
    size_t cells = (size_t)nx * ny * nz, pn = (size_t)LQ_MAX(capacity, 1) * LQ_PLSPARTICLES_STRIDE;
    size_t blocks = (size_t)lq_plsparticles_blocks(nx, ny, nz, capacity);
    return 2 * pn * 4 + 2 * cells * 4 + 2 * blocks * 4 +
           (LQ_PLSPARTICLES_CNT_COUNT + LQ_PLSPARTICLES_C_COUNT) * 4;
}

int lq_plsparticles_state_init(lq_plsparticles_state *st, lq_ctx *ctx, int nx, int ny, int nz,
                               int capacity)
{
    memset(st, 0, sizeof *st);
    assert(capacity >= 0);
    st->nx = nx;
    st->ny = ny;
    st->nz = nz;
    st->capacity = capacity;
    int blocks = lq_plsparticles_blocks(nx, ny, nz, capacity), rc = LQ_OK;
    size_t pn = (size_t)LQ_MAX(capacity, 1) * LQ_PLSPARTICLES_STRIDE;
    struct {
        lq_field *f;
        const char *name;
        int a, b, c;
    } fs[] = {
        {&st->part[0], "pls0", (int)pn, 1, 1},
        {&st->part[1], "pls1", (int)pn, 1, 1},
        {&st->kp, "pls_kp", nx, ny, nz},
        {&st->km, "pls_km", nx, ny, nz},
        {&st->bsum, "pls_bsum", blocks, 1, 1},
        {&st->boff, "pls_boff", blocks, 1, 1},
        {&st->counters, "pls_counters", LQ_PLSPARTICLES_CNT_COUNT, 1, 1},
        {&st->coef, "pls_coef", LQ_PLSPARTICLES_C_COUNT, 1, 1},
    };
    for (size_t i = 0; i < LQ_COUNT(fs) && !rc; i++) {
        rc = lq_field_alloc(ctx, fs[i].f, fs[i].name, fs[i].a, fs[i].b, fs[i].c, 4);
        if (!rc) rc = lq_field_zero(fs[i].f, 0);
    }
    /* the seeding's per-cell counts live in kp's storage: a correction's keys and a
     * seeding's counts are never needed at the same time (each call starts afresh) */
    st->ccnt = st->kp;
    if (rc) lq_plsparticles_state_release(st);
    return rc;
}

int lq_plsparticles_state_grow(lq_plsparticles_state *st, int capacity)
{
    if (capacity <= st->capacity) return LQ_OK;
    if (capacity > LQ_PLSPARTICLES_MAX_CAPACITY)
        return lq_error(LQ_EINPUT, "pls: room for %d particles is more than one array holds (%d)",
                        capacity, LQ_PLSPARTICLES_MAX_CAPACITY);
    lq_ctx *ctx = st->kp.ctx;
    int nx = st->nx, ny = st->ny, nz = st->nz, n = st->live;
    lq_field *fs[] = {&st->part[0], &st->part[1], &st->bsum, &st->boff};
    const char *names[] = {"pls0", "pls1", "pls_bsum", "pls_boff"};
    size_t pn = (size_t)capacity * LQ_PLSPARTICLES_STRIDE, old = 0;
    int blocks = lq_plsparticles_blocks(nx, ny, nz, capacity);
    int len[] = {(int)pn, (int)pn, blocks, blocks};
    size_t bytes[4];
    for (int i = 0; i < 4; i++) {
        old += lq_field_bytes(fs[i]);
        bytes[i] = (size_t)len[i] * 4;
    }
    /* the new buffers replace the old ones: the device needs the difference */
    lq_ctx_unreserve(ctx, old);
    int rc = lq_ctx_reserve(ctx, "more room for the level-set particles", 4, bytes);
    if (rc) { /* the old buffers stay: reserved again (their message is not recorded) */
        (void)lq_ctx_reserve(ctx, "the level-set particles", 1, &old);
        return rc;
    }
    float *keep = lq_alloc((size_t)LQ_MAX(n, 1) * LQ_PLSPARTICLES_STRIDE * sizeof(float));
    if (!keep) return LQ_ESIM;
    int got = 0;
    rc = lq_plsparticles_download(st, keep, n, &got);
    /* the old buffers go first: the peak is the new room, not both */
    for (int i = 0; i < 4 && !rc; i++) {
        lq_field_release(fs[i]);
        rc = lq_field_alloc(ctx, fs[i], names[i], len[i], 1, 1, 4);
        if (!rc) rc = lq_field_zero(fs[i], 0);
    }
    if (!rc) {
        st->capacity = capacity;
        rc = lq_plsparticles_upload(st, keep, n);
    }
    free(keep);
    return rc;
}

/* prm->grow: room for `need` particles, when the device has it (a refusal is no error:
 * the seeding then drops what does not fit). *grew tells whether the room changed. */
static int lq_plsparticles_grow_for(lq_plsparticles_state *st, long long need, bool *grew)
{
    *grew = false;
    long long cap = LQ_MAX(need + need / 2, (long long)st->capacity + st->capacity / 2);
    cap = LQ_MIN(cap, (long long)LQ_PLSPARTICLES_MAX_CAPACITY);
    if (cap <= st->capacity) return LQ_OK;
    int rc = lq_plsparticles_state_grow(st, (int)cap);
    if (rc == LQ_EINPUT) { /* no room on the device: keep the buffers, drop the rest */
        lq_error_clear();
        return LQ_OK;
    }
    *grew = rc == LQ_OK;
    return rc;
}

void lq_plsparticles_state_release(lq_plsparticles_state *st)
{
    lq_field *fs[] = {&st->part[0], &st->part[1], &st->kp,       &st->km,
                      &st->bsum,    &st->boff,    &st->counters, &st->coef};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
    memset(&st->ccnt, 0, sizeof st->ccnt); /* kp's storage, released with it */
}

/* Uploads the coefficients when they changed (both backends read st->coef). */
static int lq_plsparticles_set_coef(lq_plsparticles_state *st, const lq_plsparticles_params *prm,
                                    int has_sdf)
{
    float c[LQ_PLSPARTICLES_C_COUNT];
    lq_plsparticles_coef_of(prm, st->nx, st->ny, st->nz, has_sdf, c);
    if (st->coef_valid && memcmp(c, st->coef_host, sizeof c) == 0) return LQ_OK;
    memcpy(st->coef_host, c, sizeof c);
    st->coef_valid = 1;
    return lq_field_upload(&st->coef, c);
}

/* Counters to (live, 0, ...). */
static int lq_plsparticles_reset_counters(lq_plsparticles_state *st)
{
    int cnt[LQ_PLSPARTICLES_CNT_COUNT] = {0};
    cnt[LQ_PLSPARTICLES_CNT_LIVE] = st->live;
    return lq_field_upload(&st->counters, cnt);
}

static int lq_plsparticles_read_counters(lq_plsparticles_state *st,
                                         int cnt[LQ_PLSPARTICLES_CNT_COUNT])
{
    int rc = lq_field_download(&st->counters, cnt);
    if (rc) return rc;
    st->live = cnt[LQ_PLSPARTICLES_CNT_LIVE];
    st->dropped += cnt[LQ_PLSPARTICLES_CNT_DROPPED];
    return LQ_OK;
}

/* --- ops ---------------------------------------------------------------------------- */

#define LQ_PLSPARTICLES_KERNELS(o)                                                                 \
    {                                                                                              \
        {&(o)->advect, "plsparticles_advect"}, {&(o)->correct_init, "plsparticles_correct_init"},  \
            {&(o)->correct_splat, "plsparticles_correct_splat"},                                   \
            {&(o)->correct_apply, "plsparticles_correct_apply"},                                   \
            {&(o)->radius, "plsparticles_radius"}, {&(o)->keep_count, "plsparticles_keep_count"},  \
            {&(o)->block_scan, "plsparticles_block_scan"},                                         \
            {&(o)->keep_scatter, "plsparticles_keep_scatter"},                                     \
            {&(o)->cell_clear, "plsparticles_cell_clear"},                                         \
            {&(o)->cell_count, "plsparticles_cell_count"},                                         \
            {&(o)->cell_need, "plsparticles_cell_need"},                                           \
            {&(o)->block_sum, "plsparticles_block_sum"}, {&(o)->emit, "plsparticles_emit"},        \
        {                                                                                          \
            &(o)->attract, "plsparticles_attract"                                                  \
        }                                                                                          \
    }

int lq_plsparticles_ops_init(lq_plsparticles_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    memset(o, 0, sizeof *o);
    o->ctx = ctx;
    o->nx = nx;
    o->ny = ny;
    o->nz = nz;
    if (IS_REF(o)) return LQ_OK;
    char defines[96];
    snprintf(defines, sizeof defines, "-DNX=%d -DNY=%d -DNZ=%d", nx, ny, nz);
    lq_cl_kernel_name ks[] = LQ_PLSPARTICLES_KERNELS(o);
    return lq_cl_build_kernels(&ctx->cl, (int)LQ_COUNT(lq_plsparticles_sources),
                               lq_plsparticles_sources, defines, &o->program, (int)LQ_COUNT(ks),
                               ks);
}

void lq_plsparticles_ops_release(lq_plsparticles_ops *o)
{
    lq_cl_kernel_name ks[] = LQ_PLSPARTICLES_KERNELS(o);
    lq_cl_release_kernels(&o->program, (int)LQ_COUNT(ks), ks);
}

/* Ranges that change from call to call (particles, their blocks): a fixed work-group
 * size and the range rounded up to it, so PoCL compiles one variant. */
static int lq_plsparticles_launch_var(lq_plsparticles_ops *o, cl_kernel k, const char *name,
                                      int nargs, const lq_argv *args, size_t g0)
{
    if (g0 == 0) return LQ_OK;
    size_t local = LQ_MIN((size_t)64, LQ_MAX(o->ctx->cl.dev.max_work_group, (size_t)1));
    size_t r0 = (g0 + local - 1) / local * local;
    return lq_cl_launch(o->ctx, k, name, nargs, args, 1, r0, 1, &local);
}

/* plsparticles_block_scan as one work-group (up to 256 work-items) with its local scratch. */
static int lq_plsparticles_block_scan(lq_plsparticles_ops *o, lq_plsparticles_state *st,
                                      int nblocks, int mode)
{
    size_t wg = LQ_MIN((size_t)256, LQ_MAX(o->ctx->cl.dev.max_work_group, (size_t)1));
    lq_argv s[] = {MEM(&st->boff), MEM(&st->bsum),    MEM(&st->counters),
                   VAL(nblocks),   VAL(st->capacity), VAL(mode)};
    int rc = LQ_OK;
    for (int i = 0; i < (int)LQ_COUNT(s) && !rc; i++)
        rc = lq_cl_arg(o->block_scan, "plsparticles_block_scan", (cl_uint)i, s[i].size, s[i].p);
    if (!rc)
        rc = lq_cl_arg(o->block_scan, "plsparticles_block_scan", 6, (wg + 1) * sizeof(int), NULL);
    if (!rc) rc = lq_cl_run(o->ctx, o->block_scan, "plsparticles_block_scan", 1, &wg, &wg);
    return rc;
}

static void lq_plsparticles_check_cells(const lq_plsparticles_ops *o,
                                        const lq_plsparticles_state *st, const lq_field *q)
{
    (void)o;
    (void)st;
    (void)q;
    assert(st->nx == o->nx && st->ny == o->ny && st->nz == o->nz);
    assert(q == NULL || (q->elem == 4 && q->count == (size_t)o->nx * o->ny * o->nz));
}

int lq_plsparticles_advect(lq_plsparticles_ops *o, lq_plsparticles_state *st, const lq_field *u,
                           const lq_field *v, const lq_field *w, const lq_plsparticles_params *prm)
{
    lq_plsparticles_check_cells(o, st, NULL);
    assert(u->count == (size_t)(o->nx + 1) * o->ny * o->nz);
    assert(v->count == (size_t)o->nx * (o->ny + 1) * o->nz);
    assert(w->count == (size_t)o->nx * o->ny * (o->nz + 1));
    int rc = lq_plsparticles_set_coef(st, prm, 0);
    if (rc) return rc;
    if (IS_REF(o)) {
        lq_plsparticles_ref_advect(st, u, v, w, prm);
        return LQ_OK;
    }
    int n = st->live;
    lq_argv a[] = {MEM(&st->part[st->cur]), VAL(n), MEM(u), MEM(v), MEM(w), MEM(&st->coef)};
    return lq_plsparticles_launch_var(o, o->advect, "plsparticles_advect", (int)LQ_COUNT(a), a,
                                      (size_t)n);
}

int lq_plsparticles_correct(lq_plsparticles_ops *o, lq_plsparticles_state *st, lq_field *phi,
                            const lq_plsparticles_params *prm, int *escaped)
{
    lq_plsparticles_check_cells(o, st, phi);
    int rc = lq_plsparticles_set_coef(st, prm, 0);
    if (!rc && escaped) rc = lq_plsparticles_reset_counters(st);
    if (rc) return rc;
    if (IS_REF(o)) {
        lq_plsparticles_ref_correct(st, phi, prm, escaped);
        if (escaped) st->escaped = *escaped;
        return LQ_OK;
    }
    int n = st->live;
    size_t cells = phi->count;
    lq_argv i[] = {MEM(phi), MEM(&st->kp), MEM(&st->km)};
    lq_argv s[] = {MEM(&st->part[st->cur]), VAL(n),        MEM(phi), MEM(&st->kp), MEM(&st->km),
                   MEM(&st->counters),      MEM(&st->coef)};
    rc =
        lq_cl_launch(o->ctx, o->correct_init, "plsparticles_correct_init", 3, i, 1, cells, 1, NULL);
    if (!rc)
        rc = lq_plsparticles_launch_var(o, o->correct_splat, "plsparticles_correct_splat",
                                        (int)LQ_COUNT(s), s, (size_t)n);
    if (!rc)
        rc = lq_cl_launch(o->ctx, o->correct_apply, "plsparticles_correct_apply", 3, i, 1, cells, 1,
                          NULL);
    if (!rc && escaped) {
        int cnt[LQ_PLSPARTICLES_CNT_COUNT];
        rc = lq_field_download(&st->counters, cnt);
        if (!rc) *escaped = st->escaped = cnt[LQ_PLSPARTICLES_CNT_ESCAPED];
    }
    return rc;
}

int lq_plsparticles_adjust_radii(lq_plsparticles_ops *o, lq_plsparticles_state *st,
                                 const lq_field *phi, const lq_plsparticles_params *prm)
{
    lq_plsparticles_check_cells(o, st, phi);
    int rc = lq_plsparticles_set_coef(st, prm, 0);
    if (rc) return rc;
    if (IS_REF(o)) {
        lq_plsparticles_ref_adjust_radii(st, phi, prm);
        return LQ_OK;
    }
    int n = st->live;
    lq_argv a[] = {MEM(&st->part[st->cur]), VAL(n), MEM(phi), MEM(&st->coef)};
    return lq_plsparticles_launch_var(o, o->radius, "plsparticles_radius", (int)LQ_COUNT(a), a,
                                      (size_t)n);
}

int lq_plsparticles_delete(lq_plsparticles_ops *o, lq_plsparticles_state *st, const lq_field *phi,
                           const lq_field *sdf, const lq_plsparticles_params *prm)
{
    lq_plsparticles_check_cells(o, st, phi);
    lq_plsparticles_check_cells(o, st, sdf);
    int rc = lq_plsparticles_set_coef(st, prm, sdf != NULL);
    if (!rc) rc = lq_plsparticles_reset_counters(st);
    if (rc) return rc;
    if (IS_REF(o)) {
        lq_plsparticles_ref_delete(st, phi, sdf, prm);
        return LQ_OK;
    }
    int n = st->live, nblocks = (n + LQ_PLSPARTICLES_BLOCK - 1) / LQ_PLSPARTICLES_BLOCK;
    const lq_field *sd = sdf ? sdf : phi; /* not read without an sdf */
    lq_field *src = &st->part[st->cur], *dst = &st->part[1 - st->cur];
    lq_argv a[] = {MEM(src), MEM(&st->bsum), VAL(n), MEM(phi), MEM(sd), MEM(&st->coef)};
    lq_argv c[] = {MEM(src),          MEM(dst), MEM(&st->boff), VAL(n),
                   VAL(st->capacity), MEM(phi), MEM(sd),        MEM(&st->coef)};
    rc = lq_plsparticles_launch_var(o, o->keep_count, "plsparticles_keep_count", (int)LQ_COUNT(a),
                                    a, (size_t)nblocks);
    if (!rc) rc = lq_plsparticles_block_scan(o, st, nblocks, 1);
    if (!rc)
        rc = lq_plsparticles_launch_var(o, o->keep_scatter, "plsparticles_keep_scatter",
                                        (int)LQ_COUNT(c), c, (size_t)nblocks);
    if (rc) return rc;
    st->cur = 1 - st->cur;
    int cnt[LQ_PLSPARTICLES_CNT_COUNT];
    return lq_plsparticles_read_counters(st, cnt);
}

/* New particles in the band cells under the target, attracted; st->live updated. */
static int lq_plsparticles_add(lq_plsparticles_ops *o, lq_plsparticles_state *st,
                               const lq_field *phi, const lq_field *sdf,
                               const lq_plsparticles_params *prm)
{
    int rc = lq_plsparticles_set_coef(st, prm, sdf != NULL);
    if (!rc) rc = lq_plsparticles_reset_counters(st);
    if (rc) return rc;
    bool grew = false;
    if (IS_REF(o)) {
        int total = lq_plsparticles_ref_need(st, phi, sdf, prm);
        if (prm->grow && (long long)st->live + total > st->capacity)
            rc = lq_plsparticles_grow_for(st, (long long)st->live + total, &grew);
        if (!rc) lq_plsparticles_ref_emit(st, phi, total, prm);
        return rc;
    }
    int n0 = st->live;
    size_t cells = phi->count;
    int cblocks = (int)((cells + LQ_PLSPARTICLES_BLOCK - 1) / LQ_PLSPARTICLES_BLOCK);
    const lq_field *sd = sdf ? sdf : phi;
    lq_field *part = &st->part[st->cur];
    cl_uint seed = prm->seed, step = prm->step;
    lq_argv z[] = {MEM(&st->ccnt)};
    lq_argv cc[] = {MEM(&st->ccnt), MEM(part), VAL(n0), MEM(&st->coef)};
    lq_argv nd[] = {MEM(&st->ccnt), MEM(phi), MEM(sd), MEM(&st->coef)};
    lq_argv bs[] = {MEM(&st->ccnt), MEM(&st->bsum)};
    lq_argv em[] = {MEM(part),      MEM(&st->ccnt), MEM(&st->boff), MEM(phi),
                    MEM(&st->coef), VAL(seed),      VAL(step),      VAL(st->capacity)};
    rc = lq_cl_launch(o->ctx, o->cell_clear, "plsparticles_cell_clear", 1, z, 1, cells, 1, NULL);
    if (!rc)
        rc = lq_plsparticles_launch_var(o, o->cell_count, "plsparticles_cell_count",
                                        (int)LQ_COUNT(cc), cc, (size_t)n0);
    if (!rc)
        rc = lq_cl_launch(o->ctx, o->cell_need, "plsparticles_cell_need", (int)LQ_COUNT(nd), nd, 1,
                          cells, 1, NULL);
    if (!rc)
        rc = lq_cl_launch(o->ctx, o->block_sum, "plsparticles_block_sum", (int)LQ_COUNT(bs), bs, 1,
                          (size_t)cblocks, 1, NULL);
    if (!rc) rc = lq_plsparticles_block_scan(o, st, cblocks, 0);
    if (!rc && prm->grow) { /* short of room: grow, then the sums and the scan again */
        int cnt[LQ_PLSPARTICLES_CNT_COUNT];
        rc = lq_field_download(&st->counters, cnt);
        if (!rc && cnt[LQ_PLSPARTICLES_CNT_DROPPED] > 0)
            rc = lq_plsparticles_grow_for(
                st, (long long)cnt[LQ_PLSPARTICLES_CNT_LIVE] + cnt[LQ_PLSPARTICLES_CNT_DROPPED],
                &grew);
        if (!rc && grew) rc = lq_plsparticles_reset_counters(st);
        if (!rc && grew)
            rc = lq_cl_launch(o->ctx, o->block_sum, "plsparticles_block_sum", (int)LQ_COUNT(bs), bs,
                              1, (size_t)cblocks, 1, NULL);
        if (!rc && grew) rc = lq_plsparticles_block_scan(o, st, cblocks, 0);
    }
    if (!rc)
        rc = lq_cl_launch(o->ctx, o->emit, "plsparticles_emit", (int)LQ_COUNT(em), em, 1,
                          (size_t)cblocks, 1, NULL);
    int cnt[LQ_PLSPARTICLES_CNT_COUNT];
    if (!rc) rc = lq_plsparticles_read_counters(st, cnt);
    if (rc) return rc;
    st->added = cnt[LQ_PLSPARTICLES_CNT_ADDED];
    int n1 = st->live;
    lq_argv at[] = {MEM(part), VAL(n0), VAL(n1), MEM(phi), MEM(&st->coef)};
    return lq_plsparticles_launch_var(o, o->attract, "plsparticles_attract", (int)LQ_COUNT(at), at,
                                      (size_t)(n1 - n0));
}

int lq_plsparticles_reseed(lq_plsparticles_ops *o, lq_plsparticles_state *st, const lq_field *phi,
                           const lq_field *sdf, const lq_plsparticles_params *prm)
{
    int rc = lq_plsparticles_delete(o, st, phi, sdf, prm);
    if (!rc) rc = lq_plsparticles_add(o, st, phi, sdf, prm);
    return rc;
}

int lq_plsparticles_seed(lq_plsparticles_ops *o, lq_plsparticles_state *st, const lq_field *phi,
                         const lq_field *sdf, const lq_plsparticles_params *prm)
{
    lq_plsparticles_check_cells(o, st, phi);
    lq_plsparticles_check_cells(o, st, sdf);
    st->live = 0;
    return lq_plsparticles_add(o, st, phi, sdf, prm);
}

/* --- host copies ------------------------------------------------------------------------ */

int lq_plsparticles_download(const lq_plsparticles_state *st, float *out, int max, int *n)
{
    *n = st->live;
    int m = LQ_MIN(st->live, max);
    if (m <= 0) return LQ_OK;
    return lq_field_read(&st->part[st->cur], 0, (size_t)m * LQ_PLSPARTICLES_STRIDE * sizeof(float),
                         out);
}

int lq_plsparticles_upload(lq_plsparticles_state *st, const float *in, int n)
{
    if (n < 0 || n > st->capacity)
        return lq_error(LQ_EINPUT, "pls: %d particles do not fit the room for %d", n, st->capacity);
    st->live = n;
    if (n == 0) return LQ_OK;
    return lq_field_write(&st->part[st->cur], 0, (size_t)n * LQ_PLSPARTICLES_STRIDE * sizeof(float),
                          in);
}
