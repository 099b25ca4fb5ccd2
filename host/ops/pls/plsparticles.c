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
    "kernels/common/lq_shared.h", "kernels/common/hash.h",
    "kernels/common/mac_grid.h",  LQ_SCAN_SOURCES,
    "kernels/mac/markers_cell.h", "kernels/pls/plsparticles_cell.h",
    "kernels/pls/plsparticles.cl"};

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
    st->known = 1; /* none, on both sides */
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
    /* dt is among them, so they change every step: a fill of the whole vector (its
     * bytes are taken at once) instead of a blocking write */
    _Static_assert(sizeof c <= 128 && (sizeof c & (sizeof c - 1)) == 0, "lq_field_put's sizes");
    return lq_field_put(&st->coef, 0, sizeof c, c);
}

#define IS_REF_ST(st) ((st)->counters.ctx->backend == LQ_BACKEND_REF)

/* The reference path: counters to (live, 0, 0, 0), the tally kept. On OpenCL the device
 * holds the live count and the dropped ones until a read takes them (read_counters), and
 * ADDED is set by each seeding: nothing to reset. */
static int lq_plsparticles_reset_counters(lq_plsparticles_state *st)
{
    if (!IS_REF_ST(st)) return LQ_OK;
    int cnt[4] = {st->live, 0, 0, 0};
    return lq_field_put(&st->counters, 0, sizeof cnt, cnt); /* no wait */
}

/* The host's count to the device's (an upload, a seeding from nothing), no wait. */
static int lq_plsparticles_put_live(lq_plsparticles_state *st)
{
    int live = st->live;
    st->known = 1;
    return lq_field_put(&st->counters, LQ_PLSPARTICLES_CNT_LIVE * sizeof(int), sizeof live, &live);
}

/* One blocking read of the counters: the live count known, the dropped ones taken (the
 * device's set to 0 again, no wait). */
static int lq_plsparticles_read_counters(lq_plsparticles_state *st,
                                         int cnt[LQ_PLSPARTICLES_CNT_COUNT])
{
    int rc = lq_field_download(&st->counters, cnt);
    if (rc) return rc;
    st->live = cnt[LQ_PLSPARTICLES_CNT_LIVE];
    st->known = 1;
    if (IS_REF_ST(st) || cnt[LQ_PLSPARTICLES_CNT_DROPPED] == 0) return LQ_OK;
    st->dropped += cnt[LQ_PLSPARTICLES_CNT_DROPPED];
    int zero = 0;
    return lq_field_put(&st->counters, LQ_PLSPARTICLES_CNT_DROPPED * sizeof(int), sizeof zero,
                        &zero);
}

/* After a compaction or a seeding on OpenCL: the count read back, or left on the device
 * (st->deferred). */
static int lq_plsparticles_settle(lq_plsparticles_state *st)
{
    if (st->deferred) {
        st->known = 0;
        return LQ_OK;
    }
    int cnt[LQ_PLSPARTICLES_CNT_COUNT];
    return lq_plsparticles_read_counters(st, cnt);
}

int lq_plsparticles_sync(lq_plsparticles_state *st)
{
    if (IS_REF_ST(st) || st->known) return LQ_OK;
    int cnt[LQ_PLSPARTICLES_CNT_COUNT];
    return lq_plsparticles_read_counters(st, cnt);
}

int lq_plsparticles_bound(const lq_plsparticles_state *st)
{
    return IS_REF_ST(st) || st->known ? st->live : st->capacity;
}

int lq_plsparticles_take_tally(lq_plsparticles_state *st, long long *escaped)
{
    *escaped = 0;
    if (IS_REF_ST(st)) {
        *escaped = st->tally;
        st->tally = 0;
        return LQ_OK;
    }
    int cnt[LQ_PLSPARTICLES_CNT_COUNT];
    int rc = lq_field_download(&st->counters, cnt);
    if (rc) return rc;
    *escaped = cnt[LQ_PLSPARTICLES_CNT_ESC_TALLY];
    /* the read is a sync: the live count and the dropped ones with it */
    st->live = cnt[LQ_PLSPARTICLES_CNT_LIVE];
    st->known = 1;
    st->dropped += cnt[LQ_PLSPARTICLES_CNT_DROPPED];
    int zero[2] = {0, 0}; /* DROPPED (1) alone, ESC_TALLY (4) alone: two fills */
    rc = lq_field_put(&st->counters, LQ_PLSPARTICLES_CNT_DROPPED * sizeof(int), sizeof(int), zero);
    if (!rc)
        rc = lq_field_put(&st->counters, LQ_PLSPARTICLES_CNT_ESC_TALLY * sizeof(int), sizeof(int),
                          zero);
    return rc;
}

/* --- ops ---------------------------------------------------------------------------- */

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_plsparticles_kernels[] = {
    LQ_KERNEL(lq_plsparticles_ops, advect, "plsparticles_advect"),
    LQ_KERNEL(lq_plsparticles_ops, correct_init, "plsparticles_correct_init"),
    LQ_KERNEL(lq_plsparticles_ops, correct_splat, "plsparticles_correct_splat"),
    LQ_KERNEL(lq_plsparticles_ops, correct_apply, "plsparticles_correct_apply"),
    LQ_KERNEL(lq_plsparticles_ops, radius, "plsparticles_radius"),
    LQ_KERNEL(lq_plsparticles_ops, keep_count, "plsparticles_keep_count"),
    LQ_KERNEL(lq_plsparticles_ops, keep_scatter, "plsparticles_keep_scatter"),
    LQ_KERNEL(lq_plsparticles_ops, cell_clear, "plsparticles_cell_clear"),
    LQ_KERNEL(lq_plsparticles_ops, cell_count, "plsparticles_cell_count"),
    LQ_KERNEL(lq_plsparticles_ops, cell_need, "plsparticles_cell_need"),
    LQ_KERNEL(lq_plsparticles_ops, emit, "plsparticles_emit"),
    LQ_KERNEL(lq_plsparticles_ops, attract, "plsparticles_attract"),
    LQ_SCAN_KERNELS(lq_plsparticles_ops),
};
static const lq_program lq_plsparticles_program =
    LQ_PROGRAM("XYZ", lq_plsparticles_sources, lq_plsparticles_kernels);

int lq_plsparticles_ops_init(lq_plsparticles_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    *o = (lq_plsparticles_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz};
    return lq_program_build(&lq_plsparticles_program, o, &o->program, ctx, nx, ny, nz, "");
}

void lq_plsparticles_ops_release(lq_plsparticles_ops *o)
{
    lq_program_release(&lq_plsparticles_program, o, &o->program);
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

/* A launch over the live particles, which the kernels stride over from the device's count:
 * one work-item each when the host knows the count, a fixed grid otherwise. */
static lq_range lq_plsparticles_range(const lq_kernel *k, const lq_plsparticles_state *st)
{
    if (st->known) return lq_range_var(k, st->live);
    return lq_range_stride(k, (size_t)LQ_MAX(st->capacity, 1));
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
    lq_arg a[] = {
        LQ_MEM(&st->part[st->cur]), LQ_MEM(&st->counters), LQ_MEM(u), LQ_MEM(v), LQ_MEM(w),
        LQ_MEM(&st->coef)};
    return lq_kernel_launch(&o->advect, lq_plsparticles_range(&o->advect, st), LQ_ARGS(a));
}

/* The correction; escaped particles counted into cnt[tally] (< 0: not counted). */
static int lq_plsparticles_correct_into(lq_plsparticles_ops *o, lq_plsparticles_state *st,
                                        lq_field *phi, int tally)
{
    size_t cells = phi->count;
    lq_arg i[] = {LQ_MEM(phi), LQ_MEM(&st->kp), LQ_MEM(&st->km)};
    lq_arg s[] = {LQ_MEM(&st->part[st->cur]), LQ_MEM(phi),       LQ_MEM(&st->kp), LQ_MEM(&st->km),
                  LQ_MEM(&st->counters),      LQ_MEM(&st->coef), LQ_VAL(tally)};
    int rc = lq_kernel_launch(&o->correct_init, lq_range_1d(cells, 0), LQ_ARGS(i));
    if (!rc)
        rc = lq_kernel_launch(&o->correct_splat, lq_plsparticles_range(&o->correct_splat, st),
                              LQ_ARGS(s));
    if (!rc) rc = lq_kernel_launch(&o->correct_apply, lq_range_1d(cells, 0), LQ_ARGS(i));
    return rc;
}

int lq_plsparticles_correct_tally(lq_plsparticles_ops *o, lq_plsparticles_state *st, lq_field *phi,
                                  const lq_plsparticles_params *prm)
{
    lq_plsparticles_check_cells(o, st, phi);
    int rc = lq_plsparticles_set_coef(st, prm, 0);
    if (rc) return rc;
    if (IS_REF(o)) {
        int e = 0;
        lq_plsparticles_ref_correct(st, phi, prm, &e);
        st->escaped = e;
        st->tally += e;
        return LQ_OK;
    }
    return lq_plsparticles_correct_into(o, st, phi, LQ_PLSPARTICLES_CNT_ESC_TALLY);
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
    if (escaped) {
        int zero = 0;
        rc = lq_field_put(&st->counters, LQ_PLSPARTICLES_CNT_ESCAPED * sizeof(int), sizeof zero,
                          &zero);
    }
    if (!rc)
        rc = lq_plsparticles_correct_into(o, st, phi, escaped ? LQ_PLSPARTICLES_CNT_ESCAPED : -1);
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
    lq_arg a[] = {LQ_MEM(&st->part[st->cur]), LQ_MEM(&st->counters), LQ_MEM(phi),
                  LQ_MEM(&st->coef)};
    return lq_kernel_launch(&o->radius, lq_plsparticles_range(&o->radius, st), LQ_ARGS(a));
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
    /* the blocks of the live count when the host knows it, of the room otherwise (those
     * past the device's count hold no survivors) */
    int n = lq_plsparticles_bound(st), nb = lq_scan_blocks_of(n);
    const lq_field *sd = sdf ? sdf : phi; /* not read without an sdf */
    lq_field *src = &st->part[st->cur], *dst = &st->part[1 - st->cur];
    lq_arg a[] = {LQ_MEM(src), LQ_MEM(&st->bsum), LQ_MEM(&st->counters), LQ_VAL(nb),
                  LQ_MEM(phi), LQ_MEM(sd),        LQ_MEM(&st->coef)};
    lq_arg c[] = {LQ_MEM(src),       LQ_MEM(dst), LQ_MEM(&st->boff),
                  LQ_MEM(&st->bsum), LQ_VAL(nb),  LQ_VAL(st->capacity),
                  LQ_MEM(phi),       LQ_MEM(sd),  LQ_MEM(&st->coef)};
    lq_scan_bufs sb = lq_plsparticles_scan_bufs(st);
    rc =
        lq_scan_compact(&o->scan, &sb, n, &o->keep_count, LQ_ARGS(a), &o->keep_scatter, LQ_ARGS(c));
    if (rc) return rc;
    st->cur = 1 - st->cur;
    return lq_plsparticles_settle(st);
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
    int cells = (int)phi->count, cblocks = lq_scan_blocks_of(cells);
    const lq_field *sd = sdf ? sdf : phi;
    lq_field *part = &st->part[st->cur];
    cl_uint seed = prm->seed, step = prm->step;
    lq_arg z[] = {LQ_MEM(&st->ccnt)};
    lq_arg cc[] = {LQ_MEM(&st->ccnt), LQ_MEM(part), LQ_MEM(&st->counters), LQ_MEM(&st->coef)};
    lq_arg nd[] = {LQ_MEM(&st->ccnt), LQ_MEM(phi), LQ_MEM(sd), LQ_MEM(&st->coef)};
    rc = lq_kernel_launch(&o->cell_clear, lq_range_1d((size_t)cells, 0), LQ_ARGS(z));
    if (!rc)
        rc = lq_kernel_launch(&o->cell_count, lq_plsparticles_range(&o->cell_count, st),
                              LQ_ARGS(cc));
    if (!rc) rc = lq_kernel_launch(&o->cell_need, lq_range_1d((size_t)cells, 0), LQ_ARGS(nd));
    lq_scan_bufs sb = lq_plsparticles_scan_bufs(st);
    if (!rc) rc = lq_scan_append(&o->scan, &sb, &st->ccnt, cells);
    if (!rc && prm->grow) {
        /* short of room: grow, then the sums and the scan again. The one host wait of a
         * seeding (growing is the host's decision): the counters as the scan left them,
         * the dropped ones being this seeding's (each read takes them) */
        int cnt[LQ_PLSPARTICLES_CNT_COUNT];
        rc = lq_field_download(&st->counters, cnt);
        int drop = cnt[LQ_PLSPARTICLES_CNT_DROPPED];
        if (!rc && drop > 0) {
            st->live = cnt[LQ_PLSPARTICLES_CNT_LIVE] - cnt[LQ_PLSPARTICLES_CNT_ADDED]; /* n0 */
            st->known = 1;
            rc = lq_plsparticles_grow_for(st, (long long)cnt[LQ_PLSPARTICLES_CNT_LIVE] + drop,
                                          &grew);
            if (!rc && !grew) { /* dropped for good: taken now, so the next seeding's read
                                   sees its own */
                int zero = 0;
                st->dropped += drop;
                rc = lq_field_put(&st->counters, LQ_PLSPARTICLES_CNT_DROPPED * sizeof(int),
                                  sizeof zero, &zero);
            }
        }
        if (!rc && grew) { /* counters to (n0, 0, 0, ...): the scan again from n0 */
            int fresh[LQ_PLSPARTICLES_CNT_COUNT] = {0};
            memcpy(fresh, cnt, sizeof fresh);
            fresh[LQ_PLSPARTICLES_CNT_LIVE] = st->live;
            fresh[LQ_PLSPARTICLES_CNT_DROPPED] = fresh[LQ_PLSPARTICLES_CNT_ADDED] = 0;
            rc = lq_field_put(&st->counters, 0, sizeof fresh, fresh);
        }
        sb = lq_plsparticles_scan_bufs(st); /* the room grew */
        if (!rc && grew) rc = lq_scan_append(&o->scan, &sb, &st->ccnt, cells);
    }
    lq_arg em[] = {LQ_MEM(part),      LQ_MEM(&st->ccnt), LQ_MEM(&st->boff), LQ_MEM(phi),
                   LQ_MEM(&st->coef), LQ_VAL(seed),      LQ_VAL(step),      LQ_VAL(st->capacity)};
    if (!rc) rc = lq_kernel_launch(&o->emit, lq_range_1d((size_t)cblocks, 0), LQ_ARGS(em));
    if (!rc && !st->deferred) {
        int cnt[LQ_PLSPARTICLES_CNT_COUNT];
        rc = lq_plsparticles_read_counters(st, cnt);
        st->added = cnt[LQ_PLSPARTICLES_CNT_ADDED];
    } else
        st->known = 0;
    if (rc) return rc;
    lq_arg at[] = {LQ_MEM(part), LQ_MEM(&st->counters), LQ_MEM(phi), LQ_MEM(&st->coef)};
    lq_range ar = st->known ? lq_range_var(&o->attract, st->added)
                            : lq_range_stride(&o->attract, (size_t)LQ_MAX(st->capacity, 1));
    return lq_kernel_launch(&o->attract, ar, LQ_ARGS(at));
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
    int rc = IS_REF(o) ? LQ_OK : lq_plsparticles_put_live(st);
    return rc ? rc : lq_plsparticles_add(o, st, phi, sdf, prm);
}

/* --- host copies ------------------------------------------------------------------------ */

int lq_plsparticles_download(const lq_plsparticles_state *st, float *out, int max, int *n)
{
    assert(IS_REF_ST(st) || st->known); /* lq_plsparticles_sync first */
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
    int rc = IS_REF_ST(st) ? LQ_OK : lq_plsparticles_put_live(st);
    if (rc || n == 0) return rc;
    return lq_field_write(&st->part[st->cur], 0, (size_t)n * LQ_PLSPARTICLES_STRIDE * sizeof(float),
                          in);
}
