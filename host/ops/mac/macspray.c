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
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", "kernels/mac/markers_cell.h",
    "kernels/mac/macspray_cell.h", "kernels/mac/macspray.cl"};

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

#define LQ_MACSPRAY_KERNELS(o)                                                                     \
    {                                                                                              \
        {&(o)->emit_count, "macspray_emit_count"}, {&(o)->block_sum, "macspray_block_sum"},        \
            {&(o)->block_scan, "macspray_block_scan"}, {&(o)->emit_write, "macspray_emit_write"},  \
            {&(o)->advance, "macspray_advance"}, {&(o)->compact_count, "macspray_compact_count"},  \
        {                                                                                          \
            &(o)->compact_scatter, "macspray_compact_scatter"                                      \
        }                                                                                          \
    }

int lq_macspray_ops_init(lq_macspray_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    memset(o, 0, sizeof *o);
    o->ctx = ctx;
    o->nx = nx;
    o->ny = ny;
    o->nz = nz;
    if (IS_REF(o)) return LQ_OK;
    char defines[96];
    snprintf(defines, sizeof defines, "-DNX=%d -DNY=%d -DNZ=%d", nx, ny, nz);
    lq_cl_kernel_name ks[] = LQ_MACSPRAY_KERNELS(o);
    return lq_cl_build_kernels(&ctx->cl, (int)LQ_COUNT(lq_macspray_sources), lq_macspray_sources,
                               defines, &o->program, (int)LQ_COUNT(ks), ks);
}

void lq_macspray_ops_release(lq_macspray_ops *o)
{
    lq_cl_kernel_name ks[] = LQ_MACSPRAY_KERNELS(o);
    lq_cl_release_kernels(&o->program, (int)LQ_COUNT(ks), ks);
}

/* Ranges that change from step to step (particles, their blocks): a fixed work-group
 * size and the range rounded up to it, so PoCL compiles one variant (see splash.c). */
static int lq_macspray_launch_var(lq_macspray_ops *o, cl_kernel k, const char *name, int nargs,
                                  const lq_argv *args, size_t g0)
{
    size_t local = LQ_MIN((size_t)64, LQ_MAX(o->ctx->cl.dev.max_work_group, (size_t)1));
    size_t r0 = (g0 + local - 1) / local * local;
    return lq_cl_launch(o->ctx, k, name, nargs, args, 1, r0, 1, &local);
}

/* macspray_block_scan as one work-group (up to 256 work-items) with its local scratch. */
static int lq_macspray_block_scan(lq_macspray_ops *o, lq_macspray_state *st, int nblocks, int mode)
{
    size_t wg = LQ_MIN((size_t)256, LQ_MAX(o->ctx->cl.dev.max_work_group, (size_t)1));
    lq_argv s[] = {MEM(&st->boff), MEM(&st->bsum),    MEM(&st->counters),
                   VAL(nblocks),   VAL(st->capacity), VAL(mode)};
    int rc = LQ_OK;
    for (int i = 0; i < (int)LQ_COUNT(s) && !rc; i++)
        rc = lq_cl_arg(o->block_scan, "macspray_block_scan", (cl_uint)i, s[i].size, s[i].p);
    if (!rc) rc = lq_cl_arg(o->block_scan, "macspray_block_scan", 6, (wg + 1) * sizeof(int), NULL);
    if (!rc) rc = lq_cl_run(o->ctx, o->block_scan, "macspray_block_scan", 1, &wg, &wg);
    return rc;
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
    lq_argv a[] = {
        MEM(&st->part[st->cur]), VAL(n),    MEM(&st->counters), MEM(u), MEM(v), MEM(w), MEM(flags),
        MEM(&st->coef),          VAL(seed), VAL(step)};
    return lq_macspray_launch_var(o, o->advance, "macspray_advance", (int)LQ_COUNT(a), a,
                                  (size_t)n);
}

int lq_macspray_compact(lq_macspray_ops *o, lq_macspray_state *st, const lq_macspray_params *prm)
{
    if (IS_REF(o)) {
        lq_macspray_ref_compact(st, prm);
        return LQ_OK;
    }
    int n = st->live, nblocks = (n + LQ_MACSPRAY_BLOCK - 1) / LQ_MACSPRAY_BLOCK;
    cl_uint seed = prm->seed, step = prm->step;
    lq_field *src = &st->part[st->cur], *dst = &st->part[1 - st->cur];
    lq_argv a[] = {MEM(src), MEM(&st->bsum), VAL(n)};
    lq_argv c[] = {MEM(src), MEM(dst),          MEM(&st->boff), MEM(&st->counters), MEM(&st->coef),
                   VAL(n),   VAL(st->capacity), VAL(seed),      VAL(step)};
    int rc = LQ_OK;
    if (nblocks > 0)
        rc = lq_macspray_launch_var(o, o->compact_count, "macspray_compact_count", (int)LQ_COUNT(a),
                                    a, (size_t)nblocks);
    if (!rc) rc = lq_macspray_block_scan(o, st, nblocks, 1);
    if (!rc && nblocks > 0)
        rc = lq_macspray_launch_var(o, o->compact_scatter, "macspray_compact_scatter",
                                    (int)LQ_COUNT(c), c, (size_t)nblocks);
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
    lq_argv a[] = {MEM(&st->ccnt), MEM(v), MEM(flags), MEM(&st->coef), VAL(seed), VAL(step)};
    lq_argv b[] = {MEM(&st->ccnt), MEM(&st->bsum), VAL(cells)};
    lq_argv e[] = {
        MEM(&st->part[st->cur]), MEM(&st->ccnt), MEM(&st->boff), MEM(u),           MEM(v), MEM(w),
        MEM(&st->coef),          VAL(seed),      VAL(step),      VAL(st->capacity)};
    int rc = LQ_OK;
    for (int i = 0; i < (int)LQ_COUNT(a) && !rc; i++)
        rc = lq_cl_arg(o->emit_count, "macspray_emit_count", (cl_uint)i, a[i].size, a[i].p);
    size_t global[3] = {(size_t)o->nx, (size_t)o->ny, (size_t)o->nz};
    if (!rc) rc = lq_cl_run(o->ctx, o->emit_count, "macspray_emit_count", 3, global, NULL);
    if (!rc)
        rc = lq_cl_launch(o->ctx, o->block_sum, "macspray_block_sum", (int)LQ_COUNT(b), b, 1,
                          (size_t)st->cblocks, 1, NULL);
    if (!rc) rc = lq_macspray_block_scan(o, st, st->cblocks, 0);
    if (!rc)
        rc = lq_cl_launch(o->ctx, o->emit_write, "macspray_emit_write", (int)LQ_COUNT(e), e, 1,
                          (size_t)st->cblocks, 1, NULL);
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
