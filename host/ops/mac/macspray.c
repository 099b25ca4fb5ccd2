/*
 * macspray.c — launchers of the `mac` solver's spray and foam (see macspray.h; Foster &
 * Metaxas 1996 §4.3), the state they share, the coefficients, the points view and the
 * checkpoint payload. Each launcher dispatches to the reference twin or binds its
 * arguments and enqueues; nothing here allocates in the step loop.
 */
#include "ops/mac/macspray.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/checkpoint.h"
#include "core/common.h"

static const char *const lq_macspray_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/hash.h",
    "kernels/common/mac_grid.h",  LQ_SCAN_SOURCES,
    "kernels/mac/markers_cell.h", "kernels/mac/macspray_cell.h",
    "kernels/mac/macspray.cl"};

const char *const lq_macspray_column_names[LQ_MACSPRAY_NCOLS] = {"x",  "y",  "z",      "vx",
                                                                 "vy", "vz", "radius", "kind"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

void lq_macspray_coef_of(const lq_macspray_params *prm, int nx, int ny, int nz,
                         float c[LQ_MACSPRAY_C_COUNT])
{
    memset(c, 0, sizeof(float) * LQ_MACSPRAY_C_COUNT);
    double dt = prm->dt, d[3] = {prm->dx, prm->dy, prm->dz}, n[3] = {nx, ny, nz};
    c[LQ_MACSPRAY_C_DT] = (float)dt;
    for (int a = 0; a < 3; a++) {
        c[LQ_MACSPRAY_C_IDX + a] = (float)(1.0 / d[a]);
        c[LQ_MACSPRAY_C_DX + a] = (float)d[a];
        c[LQ_MACSPRAY_C_L + a] = (float)(n[a] * d[a]);
        /* a 2D run (nz = 1) keeps everything in its plane */
        int flat = a == 2 && nz == 1;
        c[LQ_MACSPRAY_C_G + a] = flat ? 0.0f : prm->g[a];
        c[LQ_MACSPRAY_C_WIND + a] = flat ? 0.0f : prm->wind[a];
    }
    /* dv/dt = g + k (w − v) over δt exactly: κ = e^{−kδt}, A = (1 − κ)/k, B = δt − A,
     * C = (δt − A)/k; series where kδt is small (A → δt, C → δt²/2 as k → 0). */
    double k = prm->drag > 0 ? prm->drag : 0.0, x = k * dt, keep = exp(-x), A, C;
    if (x < 1e-3) {
        A = dt * (1.0 - x / 2.0 + x * x / 6.0 - x * x * x / 24.0);
        C = dt * dt * (0.5 - x / 6.0 + x * x / 24.0 - x * x * x / 120.0);
    } else {
        A = -expm1(-x) / k;
        C = (dt - A) / k;
    }
    c[LQ_MACSPRAY_C_KEEP] = (float)keep;
    c[LQ_MACSPRAY_C_ONEKEEP] = (float)-expm1(-x);
    c[LQ_MACSPRAY_C_A] = (float)A;
    c[LQ_MACSPRAY_C_B] = (float)(x < 1e-3 ? k * C : dt - A);
    c[LQ_MACSPRAY_C_C] = (float)C;
    c[LQ_MACSPRAY_C_THRESHOLD] = prm->threshold;
    c[LQ_MACSPRAY_C_PER_CELL] = (float)((double)prm->rate * prm->dx * prm->dz * dt);
    c[LQ_MACSPRAY_C_RADIUS] = prm->radius;
    c[LQ_MACSPRAY_C_IRADIUS] = prm->radius > 0 ? (float)(1.0 / prm->radius) : 0.0f;
    c[LQ_MACSPRAY_C_SPREAD] = prm->spread;
    double ps = (double)prm->separation * dt;
    c[LQ_MACSPRAY_C_PSPLIT] = (float)(ps < 1.0 ? ps : 1.0);
    c[LQ_MACSPRAY_C_FOAM_LIFE] = prm->foam_life;
    c[LQ_MACSPRAY_C_FOAM_RISE] = prm->foam_rise;
    c[LQ_MACSPRAY_C_FOAM_ON] = prm->foam ? 1.0f : 0.0f;
}

/* --- state -------------------------------------------------------------------------- */

int lq_macspray_state_init(lq_macspray_state *st, lq_ctx *ctx, int nx, int ny, int nz, int capacity)
{
    memset(st, 0, sizeof *st);
    assert(capacity >= 0);
    st->nx = nx;
    st->ny = ny;
    st->nz = nz;
    st->capacity = capacity;
    size_t cells = (size_t)nx * ny * nz;
    st->cblocks = (int)((cells + LQ_MACSPRAY_BLOCK - 1) / LQ_MACSPRAY_BLOCK);
    st->pblocks = (capacity + LQ_MACSPRAY_BLOCK - 1) / LQ_MACSPRAY_BLOCK;
    int blocks = LQ_MAX(LQ_MAX(st->cblocks, st->pblocks), 1);
    size_t pn = (size_t)LQ_MAX(capacity, 1) * LQ_MACSPRAY_STRIDE;
    size_t plan[] = {pn * 4, pn * 4, cells * 4, (size_t)blocks * 4, (size_t)blocks * 4};
    int rc = lq_ctx_reserve(ctx, "the spray particles", (int)LQ_COUNT(plan), plan);
    if (rc) return rc;
    struct {
        lq_field *f;
        const char *name;
        int a, b, c;
    } fs[] = {
        {&st->part[0], "spray0", (int)pn, 1, 1},
        {&st->part[1], "spray1", (int)pn, 1, 1},
        {&st->ccnt, "spray_cells", nx, ny, nz},
        {&st->bsum, "spray_bsum", blocks, 1, 1},
        {&st->boff, "spray_boff", blocks, 1, 1},
        {&st->counters, "spray_counters", LQ_MACSPRAY_CNT_COUNT, 1, 1},
        {&st->coef, "spray_coef", LQ_MACSPRAY_C_COUNT, 1, 1},
    };
    for (size_t i = 0; i < LQ_COUNT(fs) && !rc; i++) {
        rc = lq_field_alloc(ctx, fs[i].f, fs[i].name, fs[i].a, fs[i].b, fs[i].c, 4);
        if (!rc) rc = lq_field_zero(fs[i].f, 0);
    }
    if (rc) lq_macspray_state_release(st);
    return rc;
}

void lq_macspray_state_release(lq_macspray_state *st)
{
    lq_field *fs[] = {&st->part[0], &st->part[1],  &st->ccnt, &st->bsum,
                      &st->boff,    &st->counters, &st->coef};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
}

/* --- ops ---------------------------------------------------------------------------- */

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_macspray_kernels[] = {
    LQ_KERNEL(lq_macspray_ops, emit_count, "macspray_emit_count"),
    LQ_KERNEL(lq_macspray_ops, emit_write, "macspray_emit_write"),
    LQ_KERNEL(lq_macspray_ops, advance, "macspray_advance"),
    LQ_KERNEL(lq_macspray_ops, compact_count, "macspray_compact_count"),
    LQ_KERNEL(lq_macspray_ops, compact_scatter, "macspray_compact_scatter"),
    LQ_SCAN_KERNELS(lq_macspray_ops),
};
static const lq_program lq_macspray_program =
    LQ_PROGRAM("XYZ", lq_macspray_sources, lq_macspray_kernels);

int lq_macspray_ops_init(lq_macspray_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    *o = (lq_macspray_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz};
    return lq_program_build(&lq_macspray_program, o, &o->program, ctx, nx, ny, nz, "");
}

void lq_macspray_ops_release(lq_macspray_ops *o)
{
    lq_program_release(&lq_macspray_program, o, &o->program);
}

static void lq_macspray_check(const lq_macspray_ops *o, const lq_macspray_state *st,
                              const lq_field *u, const lq_field *v, const lq_field *w,
                              const lq_field *flags)
{
    (void)o;
    (void)st;
    (void)u;
    (void)v;
    (void)w;
    (void)flags;
    assert(st->nx == o->nx && st->ny == o->ny && st->nz == o->nz);
    assert(u->count == (size_t)(o->nx + 1) * o->ny * o->nz);
    assert(v->count == (size_t)o->nx * (o->ny + 1) * o->nz);
    assert(w->count == (size_t)o->nx * o->ny * (o->nz + 1));
    assert(flags->elem == 1 && flags->count == (size_t)o->nx * o->ny * o->nz);
}

int lq_macspray_begin(lq_macspray_ops *o, lq_macspray_state *st, const lq_macspray_params *prm)
{
    (void)o;
    float c[LQ_MACSPRAY_C_COUNT];
    lq_macspray_coef_of(prm, st->nx, st->ny, st->nz, c);
    int cnt[LQ_MACSPRAY_CNT_COUNT] = {0};
    cnt[LQ_MACSPRAY_CNT_LIVE] = st->live;
    int rc = lq_field_upload(&st->coef, c);
    if (!rc) rc = lq_field_upload(&st->counters, cnt);
    return rc;
}

int lq_macspray_advance(lq_macspray_ops *o, lq_macspray_state *st, const lq_field *u,
                        const lq_field *v, const lq_field *w, const lq_field *flags,
                        const lq_macspray_params *prm)
{
    lq_macspray_check(o, st, u, v, w, flags);
    if (IS_REF(o)) {
        lq_macspray_ref_advance(st, u, v, w, flags, prm);
        return LQ_OK;
    }
    if (st->live == 0) return LQ_OK;
    int n = st->live;
    cl_uint seed = prm->seed, step = prm->step;
    lq_arg a[] = {LQ_MEM(&st->part[st->cur]),
                  LQ_VAL(n),
                  LQ_MEM(&st->counters),
                  LQ_MEM(u),
                  LQ_MEM(v),
                  LQ_MEM(w),
                  LQ_MEM(flags),
                  LQ_MEM(&st->coef),
                  LQ_VAL(seed),
                  LQ_VAL(step)};
    return lq_kernel_launch(&o->advance, lq_range_var(&o->advance, n), LQ_ARGS(a));
}

int lq_macspray_compact(lq_macspray_ops *o, lq_macspray_state *st, const lq_macspray_params *prm)
{
    if (IS_REF(o)) {
        lq_macspray_ref_compact(st, prm);
        return LQ_OK;
    }
    int n = st->live;
    cl_uint seed = prm->seed, step = prm->step;
    lq_field *src = &st->part[st->cur], *dst = &st->part[1 - st->cur];
    lq_arg a[] = {LQ_MEM(src), LQ_MEM(&st->bsum), LQ_VAL(n)};
    lq_arg c[] = {LQ_MEM(src),           LQ_MEM(dst),       LQ_MEM(&st->boff),
                  LQ_MEM(&st->counters), LQ_MEM(&st->coef), LQ_VAL(n),
                  LQ_VAL(st->capacity),  LQ_VAL(seed),      LQ_VAL(step)};
    lq_scan_bufs sb = lq_macspray_scan_bufs(st);
    int rc = lq_scan_compact(&o->scan, &sb, n, &o->compact_count, LQ_ARGS(a), &o->compact_scatter,
                             LQ_ARGS(c));
    if (!rc) st->cur = 1 - st->cur;
    return rc;
}

int lq_macspray_emit(lq_macspray_ops *o, lq_macspray_state *st, const lq_field *u,
                     const lq_field *v, const lq_field *w, const lq_field *flags,
                     const lq_macspray_params *prm)
{
    lq_macspray_check(o, st, u, v, w, flags);
    if (IS_REF(o)) {
        lq_macspray_ref_emit(st, u, v, w, flags, prm);
        return LQ_OK;
    }
    int cells = o->nx * o->ny * o->nz;
    cl_uint seed = prm->seed, step = prm->step;
    lq_arg a[] = {LQ_MEM(&st->ccnt), LQ_MEM(v),    LQ_MEM(flags),
                  LQ_MEM(&st->coef), LQ_VAL(seed), LQ_VAL(step)};
    lq_arg e[] = {LQ_MEM(&st->part[st->cur]),
                  LQ_MEM(&st->ccnt),
                  LQ_MEM(&st->boff),
                  LQ_MEM(u),
                  LQ_MEM(v),
                  LQ_MEM(w),
                  LQ_MEM(&st->coef),
                  LQ_VAL(seed),
                  LQ_VAL(step),
                  LQ_VAL(st->capacity)};
    lq_scan_bufs sb = lq_macspray_scan_bufs(st);
    int rc = lq_kernel_launch(&o->emit_count, lq_range_3d(o->nx, o->ny, o->nz), LQ_ARGS(a));
    if (!rc) rc = lq_scan_append(&o->scan, &sb, &st->ccnt, cells);
    if (!rc) rc = lq_kernel_launch(&o->emit_write, lq_range_1d((size_t)st->cblocks, 0), LQ_ARGS(e));
    return rc;
}

int lq_macspray_end(lq_macspray_ops *o, lq_macspray_state *st, lq_macspray_counts *out)
{
    (void)o;
    int cnt[LQ_MACSPRAY_CNT_COUNT];
    int rc = lq_field_download(&st->counters, cnt);
    if (rc) return rc;
    st->live = cnt[LQ_MACSPRAY_CNT_LIVE];
    st->dropped += cnt[LQ_MACSPRAY_CNT_DROPPED];
    if (out) {
        out->spray = cnt[LQ_MACSPRAY_CNT_SPRAY];
        out->foam = cnt[LQ_MACSPRAY_CNT_FOAM];
        out->emitted = cnt[LQ_MACSPRAY_CNT_EMITTED];
        out->removed = cnt[LQ_MACSPRAY_CNT_REMOVED];
        out->foamed = cnt[LQ_MACSPRAY_CNT_FOAMED];
        out->split = cnt[LQ_MACSPRAY_CNT_SPLIT];
        out->dropped = cnt[LQ_MACSPRAY_CNT_DROPPED];
        out->dropped_total = st->dropped;
    }
    return LQ_OK;
}

int lq_macspray_step(lq_macspray_ops *o, lq_macspray_state *st, const lq_field *u,
                     const lq_field *v, const lq_field *w, const lq_field *flags,
                     const lq_macspray_params *prm, lq_macspray_counts *out)
{
    int rc = lq_macspray_begin(o, st, prm);
    if (!rc) rc = lq_macspray_advance(o, st, u, v, w, flags, prm);
    if (!rc) rc = lq_macspray_compact(o, st, prm);
    if (!rc) rc = lq_macspray_emit(o, st, u, v, w, flags, prm);
    if (!rc) rc = lq_macspray_end(o, st, out);
    return rc;
}

/* --- output and checkpoints ------------------------------------------------------------ */

static int lq_macspray_read_live(const lq_macspray_state *st, float **buf)
{
    size_t n = (size_t)LQ_MAX(st->capacity, 1) * LQ_MACSPRAY_STRIDE;
    *buf = malloc(n * sizeof(float));
    if (!*buf) return lq_error(LQ_ESIM, "out of memory reading %d spray particles", st->live);
    return lq_field_download(&st->part[st->cur], *buf);
}

int lq_macspray_download(const lq_macspray_state *st, float *const cols[LQ_MACSPRAY_NCOLS], int *n)
{
    float *buf;
    int rc = lq_macspray_read_live(st, &buf);
    if (!rc) {
        for (int p = 0; p < st->live; p++) {
            const float *a = buf + (size_t)p * LQ_MACSPRAY_STRIDE;
            for (int j = 0; j < 7; j++) cols[j][p] = a[j];
            cols[7][p] = a[LQ_MACSPRAY_KIND] == LQ_MACSPRAY_FOAM ? 1.0f : 0.0f;
        }
        *n = st->live;
    }
    free(buf);
    return rc;
}

int lq_macspray_save(const lq_macspray_state *st, FILE *f)
{
    int32_t hdr[2] = {st->capacity, st->live};
    int64_t dropped = st->dropped;
    float *buf;
    int rc = lq_macspray_read_live(st, &buf);
    if (!rc) rc = lq_checkpoint_put(f, hdr, sizeof hdr);
    if (!rc) rc = lq_checkpoint_put(f, &dropped, sizeof dropped);
    if (!rc) rc = lq_checkpoint_put(f, buf, (size_t)st->live * LQ_MACSPRAY_STRIDE * sizeof(float));
    free(buf);
    return rc;
}

int lq_macspray_load(lq_macspray_state *st, FILE *f)
{
    int32_t hdr[2];
    int64_t dropped;
    int rc = lq_checkpoint_get(f, hdr, sizeof hdr);
    if (!rc) rc = lq_checkpoint_get(f, &dropped, sizeof dropped);
    if (rc) return rc;
    if (hdr[0] != st->capacity || hdr[1] < 0 || hdr[1] > st->capacity)
        return lq_error(LQ_EINPUT,
                        "the checkpoint's spray has %d of %d particles; this run has room for %d",
                        hdr[1], hdr[0], st->capacity);
    size_t n = (size_t)LQ_MAX(st->capacity, 1) * LQ_MACSPRAY_STRIDE;
    float *buf = calloc(n, sizeof(float));
    if (!buf) return lq_error(LQ_ESIM, "out of memory reading the spray");
    rc = lq_checkpoint_get(f, buf, (size_t)hdr[1] * LQ_MACSPRAY_STRIDE * sizeof(float));
    if (!rc) rc = lq_field_upload(&st->part[st->cur], buf);
    free(buf);
    if (!rc) {
        st->live = hdr[1];
        st->dropped = dropped;
    }
    return rc;
}
