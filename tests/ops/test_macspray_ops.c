/*
 * test_macspray_ops.c — spray and foam of the `mac` solver (Foster & Metaxas 1996 §4.3;
 * host/ops/mac/macspray.h):
 *  1. reference twin vs OpenCL (PoCL in CI), 12 × 12 × 12 (δx ≠ δy ≠ δz) and 2D: a
 *     surface whose level and upward speed change from step to step (spray thrown up,
 *     falling back, turning to foam, foam expiring), wind, drag, separation, a SOLID
 *     pillar; after every pass of 30 steps the particle buffers and counters must agree
 *     bit for bit; a second run with a small capacity overflows (dropped, counted, the
 *     live count never above it) and must agree too; no live particle is ever in a
 *     SOLID cell; the counters add up (spray + foam = live);
 *  2. analytic: ballistic flight with drag 0 is x0 + v0 t + ½ g t² and with drag > 0
 *     the exponential approach to wind + g/k (closed forms, float tolerance); no
 *     emission at or below the threshold; the number emitted averages rate · area · δt;
 *     spray falling onto liquid becomes foam with a life in [0.5, 1.5) · life · r/radius
 *     and is removed one step after its age passes it; separation halves the volume and
 *     keeps the momentum.
 */
#include "ops/mac/macspray.h"
#include "lib/twin.h"

static float frand(lq_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)lq_rng_uniform(r);
}

typedef struct side {
    lq_field u, v, w, f;
    lq_macspray_ops ops;
    lq_macspray_state st;
} side;

static int side_open(side *s, lq_ctx *ctx, int nx, int ny, int nz, int cap)
{
    memset(s, 0, sizeof *s);
    int rc = lq_field_alloc(ctx, &s->u, "u", nx + 1, ny, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->v, "v", nx, ny + 1, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->w, "w", nx, ny, nz + 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->f, "flags", nx, ny, nz, 1);
    if (!rc) rc = lq_field_zero(&s->u, 0);
    if (!rc) rc = lq_field_zero(&s->v, 0);
    if (!rc) rc = lq_field_zero(&s->w, 0);
    if (!rc) rc = lq_field_zero(&s->f, 0);
    if (!rc) rc = lq_macspray_ops_init(&s->ops, ctx, nx, ny, nz);
    if (!rc) rc = lq_macspray_state_init(&s->st, ctx, nx, ny, nz, cap);
    CHECK_OK(rc);
    return rc;
}

static void side_close(side *s)
{
    lq_macspray_state_release(&s->st);
    lq_macspray_ops_release(&s->ops);
    lq_field *fs[] = {&s->u, &s->v, &s->w, &s->f};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
}

static twin_pair pair_of(const lq_field *a, const lq_field *b)
{
    twin_pair p;
    p.ref = *a;
    p.cl = *b;
    return p;
}

static lq_macspray_params base_params(void)
{
    lq_macspray_params p;
    memset(&p, 0, sizeof p);
    p.dt = 0.01f;
    p.dx = p.dy = p.dz = 0.05f;
    p.g[1] = -9.81f;
    p.threshold = 2.0f;
    p.rate = 200000.0f;
    p.radius = 0.003f;
    p.foam = 1;
    p.foam_life = 1.0f;
    p.foam_rise = 0.1f;
    p.seed = 1;
    return p;
}

/* A pool: walls SOLID, liquid FULL below row `level`, SURFACE on it, EMPTY above; a
 * SOLID pillar at (2..3, *, 2..3); the surface rows move up at `up` m/s (v faces of the
 * liquid), the rest with random u, w. */
static void pool(int nx, int ny, int nz, int level, float up, lq_rng *r, float *u, float *v,
                 float *w, unsigned char *f)
{
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                int wall = i == 0 || i == nx - 1 || j == 0 || j == ny - 1 ||
                           (nz > 1 && (k == 0 || k == nz - 1));
                int pillar = i >= 2 && i <= 3 && (nz == 1 || (k >= 2 && k <= 3));
                unsigned char kind = wall || pillar ? LQ_MAC_SOLID
                                     : j < level    ? LQ_MAC_FULL
                                     : j == level   ? LQ_MAC_SURFACE
                                                    : LQ_MAC_EMPTY;
                f[LQ_MAC_CELL(i, j, k, nx, ny)] = kind;
            }
    for (int k = 0; k < nz; k++)
        for (int j = 0; j <= ny; j++)
            for (int i = 0; i < nx; i++)
                v[LQ_MAC_V(i, j, k, nx, ny)] =
                    j <= level + 1 && j > 0 ? up + frand(r, -0.5f, 1.0f) : frand(r, -1, 1);
    for (size_t q = 0; q < (size_t)(nx + 1) * ny * nz; q++) u[q] = frand(r, -1, 1);
    for (size_t q = 0; q < (size_t)nx * ny * (nz + 1); q++) w[q] = nz > 1 ? frand(r, -1, 1) : 0;
}

/* Checks the reference side's live particles: none in SOLID, kinds add up. */
static void check_live(side *s, const lq_macspray_params *p, const lq_macspray_counts *c)
{
    int n = s->st.live, nx = s->st.nx, ny = s->st.ny, nz = s->st.nz;
    const float *part = (const float *)s->st.part[s->st.cur].host;
    const unsigned char *f = (const unsigned char *)s->f.host;
    float c_[LQ_MACSPRAY_C_COUNT];
    lq_macspray_coef_of(p, nx, ny, nz, c_);
    int in_solid = 0, spray = 0, foam = 0, other = 0;
    for (int q = 0; q < n; q++) {
        const float *a = part + (size_t)q * LQ_MACSPRAY_STRIDE;
        lq_markers_vec3 x = {a[0], a[1], a[2]};
        in_solid +=
            f[lq_markers_cell_of(x, nx, ny, nz, c_[LQ_MACSPRAY_C_IDX], c_[LQ_MACSPRAY_C_IDX + 1],
                                 c_[LQ_MACSPRAY_C_IDX + 2])] == LQ_MAC_SOLID;
        spray += a[LQ_MACSPRAY_KIND] == LQ_MACSPRAY_SPRAY;
        foam += a[LQ_MACSPRAY_KIND] == LQ_MACSPRAY_FOAM;
        other +=
            a[LQ_MACSPRAY_KIND] != LQ_MACSPRAY_SPRAY && a[LQ_MACSPRAY_KIND] != LQ_MACSPRAY_FOAM;
    }
    CHECK_MSG(in_solid == 0 && other == 0, "%d in SOLID, %d of no kind", in_solid, other);
    CHECK_MSG(spray == c->spray && foam == c->foam && n <= s->st.capacity,
              "spray %d/%d foam %d/%d live %d cap %d", spray, c->spray, foam, c->foam, n,
              s->st.capacity);
}

/* --- 1. twins ----------------------------------------------------------------------- */

static void test_twins(int nx, int ny, int nz, int cap)
{
    lq_ctx ref, cl;
    fprintf(stderr, "twin diff, %d×%d×%d, capacity %d:\n", nx, ny, nz, cap);
    if (twin_open(&ref, &cl)) {
        CHECK(!"an OpenCL device is needed for the diff tests (install pocl-opencl-icd)");
        return;
    }
    size_t nu = (size_t)(nx + 1) * ny * nz, nv = (size_t)nx * (ny + 1) * nz,
           nw = (size_t)nx * ny * (nz + 1), nc = (size_t)nx * ny * nz;
    float *u = malloc(nu * 4), *v = malloc(nv * 4), *w = malloc(nw * 4);
    unsigned char *f = malloc(nc);
    lq_rng r;
    lq_rng_seed(&r, 99);
    side A, B;
    int opened = !side_open(&A, &ref, nx, ny, nz, cap) && !side_open(&B, &cl, nx, ny, nz, cap);
    side *ss[] = {&A, &B};
    lq_macspray_params p = base_params();
    p.dx = 0.05f, p.dy = 0.06f, p.dz = 0.04f;
    p.dt = 0.02f;
    p.threshold = 1.0f;
    p.wind[0] = 1.5f, p.wind[2] = -0.5f;
    p.drag = 2.0f;
    p.spread = 0.4f;
    p.separation = 8.0f;
    p.foam_life = 0.1f;
    p.rate = 40000.0f;
    p.seed = 1234;
    long emitted = 0, foamed = 0, removed = 0, split = 0, dropped = 0, bad = 0;
    int max_foam = 0, max_live = 0;
    for (int step = 0; step < 30 && opened; step++) {
        /* the surface jumps up fast for 5 steps, then falls back for 5 */
        int phase = (step / 5) % 2;
        pool(nx, ny, nz, phase ? 3 : 4 + step % 4, phase ? -1.0f : 1.5f, &r, u, v, w, f);
        p.step = (uint32_t)step;
        lq_macspray_counts cnt[2];
        for (int s = 0; s < 2; s++) {
            CHECK_OK(lq_field_upload(&ss[s]->u, u));
            CHECK_OK(lq_field_upload(&ss[s]->v, v));
            CHECK_OK(lq_field_upload(&ss[s]->w, w));
            CHECK_OK(lq_field_upload(&ss[s]->f, f));
        }
        static const char *const ops[] = {"advance", "compact", "emit"};
        for (int s = 0; s < 2; s++) CHECK_OK(lq_macspray_begin(&ss[s]->ops, &ss[s]->st, &p));
        for (int op = 0; op < 3; op++) {
            for (int s = 0; s < 2; s++) {
                side *x = ss[s];
                if (op == 0)
                    CHECK_OK(lq_macspray_advance(&x->ops, &x->st, &x->u, &x->v, &x->w, &x->f, &p));
                if (op == 1) CHECK_OK(lq_macspray_compact(&x->ops, &x->st, &p));
                if (op == 2)
                    CHECK_OK(lq_macspray_emit(&x->ops, &x->st, &x->u, &x->v, &x->w, &x->f, &p));
            }
            CHECK_OK(lq_ctx_finish(&cl));
            CHECK(A.st.cur == B.st.cur);
            twin_pair pp = pair_of(&A.st.part[A.st.cur], &B.st.part[B.st.cur]);
            twin_pair pc = pair_of(&A.st.counters, &B.st.counters);
            int before = lq_check_failures;
            if (step % 10 == 9 || step < 1) {
                twin_check_exact(ops[op], &pp);
                twin_check_exact(ops[op], &pc);
            } else { /* quietly */
                size_t bytes = lq_field_bytes(&pp.ref);
                unsigned char *a = malloc(bytes), *b = malloc(bytes);
                CHECK_OK(lq_field_download(&pp.ref, a));
                CHECK_OK(lq_field_download(&pp.cl, b));
                CHECK_MSG(memcmp(a, b, bytes) == 0, "step %d %s: particles differ", step, ops[op]);
                int ca[LQ_MACSPRAY_CNT_COUNT], cb[LQ_MACSPRAY_CNT_COUNT];
                CHECK_OK(lq_field_download(&pc.ref, ca));
                CHECK_OK(lq_field_download(&pc.cl, cb));
                CHECK_MSG(memcmp(ca, cb, sizeof ca) == 0, "step %d %s: counters differ", step,
                          ops[op]);
                free(a), free(b);
            }
            bad += lq_check_failures != before;
        }
        memset(cnt, 0, sizeof cnt); /* the struct's padding takes part in the memcmp */
        for (int s = 0; s < 2; s++) CHECK_OK(lq_macspray_end(&ss[s]->ops, &ss[s]->st, &cnt[s]));
        CHECK(memcmp(&cnt[0], &cnt[1], sizeof cnt[0]) == 0);
        check_live(&A, &p, &cnt[0]);
        CHECK(cnt[0].spray + cnt[0].foam == A.st.live);
        emitted += cnt[0].emitted, foamed += cnt[0].foamed, removed += cnt[0].removed;
        split += cnt[0].split, dropped += cnt[0].dropped;
        max_foam = LQ_MAX(max_foam, cnt[0].foam);
        max_live = LQ_MAX(max_live, A.st.live);
    }
    fprintf(stderr,
            "  30 steps: emitted %ld, foamed %ld, removed %ld, split %ld, dropped %ld, "
            "max live %d, max foam %d, %ld step passes differed\n",
            emitted, foamed, removed, split, dropped, max_live, max_foam, bad);
    /* every path was taken */
    CHECK(emitted > 0 && foamed > 0 && removed > 0 && split > 0 && max_foam > 0);
    if (cap < 200)
        CHECK(dropped > 0 && max_live == cap);
    else
        CHECK(dropped == 0);
    if (opened) {
        side_close(&A);
        side_close(&B);
    }
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
    free(u), free(v), free(w), free(f);
}

/* --- 2. analytic -------------------------------------------------------------------- */

/* One particle in an empty 12 m box (1 m cells), flown n steps on the reference. */
static void fly(lq_macspray_params *p, const float x0[3], const float v0[3], int n, float *out)
{
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    side s;
    if (side_open(&s, &ref, 12, 12, 12, 4)) return;
    float part[4 * LQ_MACSPRAY_STRIDE] = {0};
    for (int a = 0; a < 3; a++) part[LQ_MACSPRAY_X + a] = x0[a], part[LQ_MACSPRAY_V + a] = v0[a];
    part[LQ_MACSPRAY_R] = p->radius;
    part[LQ_MACSPRAY_KIND] = LQ_MACSPRAY_SPRAY;
    CHECK_OK(lq_field_upload(&s.st.part[0], part));
    s.st.live = 1;
    for (int t = 0; t < n; t++) {
        p->step = (uint32_t)t;
        lq_macspray_counts c;
        CHECK_OK(lq_macspray_step(&s.ops, &s.st, &s.u, &s.v, &s.w, &s.f, p, &c));
    }
    CHECK(s.st.live == 1);
    memcpy(out, (float *)s.st.part[s.st.cur].host, LQ_MACSPRAY_STRIDE * sizeof(float));
    side_close(&s);
    lq_ctx_close(&ref);
}

static void test_ballistic(void)
{
    lq_macspray_params p = base_params();
    p.dx = p.dy = p.dz = 1.0f;
    p.rate = 0;
    p.g[0] = 0.3f, p.g[1] = -9.81f, p.g[2] = 0.1f;
    float x0[3] = {6.0f, 10.0f, 6.0f}, v0[3] = {1.0f, 2.0f, -0.5f}, out[LQ_MACSPRAY_STRIDE];
    int n = 100;
    double t = n * (double)p.dt;
    fly(&p, x0, v0, n, out);
    double ex = 0, ev = 0;
    for (int a = 0; a < 3; a++) {
        double x = x0[a] + v0[a] * t + 0.5 * p.g[a] * t * t, v = v0[a] + p.g[a] * t;
        ex = fmax(ex, fabs(out[LQ_MACSPRAY_X + a] - x));
        ev = fmax(ev, fabs(out[LQ_MACSPRAY_V + a] - v));
    }
    fprintf(stderr, "ballistic, drag 0, 1 s: |x - closed form| %.3g m, |v - ...| %.3g m/s\n", ex,
            ev);
    /* 100 rounded steps of a position near 10 m (float spacing 1e-6 m) */
    CHECK(ex < 5e-5 && ev < 2e-5);
    /* drag toward the wind: v → w + g/k exponentially */
    p.drag = 1.7f;
    p.wind[0] = 2.0f, p.wind[1] = 0.5f, p.wind[2] = -1.0f;
    fly(&p, x0, v0, n, out);
    double k = p.drag, e = exp(-k * t);
    ex = ev = 0;
    for (int a = 0; a < 3; a++) {
        double vinf = p.wind[a] + p.g[a] / k;
        double v = vinf + (v0[a] - vinf) * e, x = x0[a] + vinf * t + (v0[a] - vinf) * (1 - e) / k;
        ex = fmax(ex, fabs(out[LQ_MACSPRAY_X + a] - x));
        ev = fmax(ev, fabs(out[LQ_MACSPRAY_V + a] - v));
    }
    fprintf(stderr, "ballistic, drag %.1f/s, wind: |x - closed form| %.3g m, |v - ...| %.3g m/s\n",
            k, ex, ev);
    CHECK(ex < 5e-5 && ev < 2e-5);
    /* a tiny drag (the series) agrees with drag 0 to first order */
    p.drag = 1e-6f;
    fly(&p, x0, v0, n, out);
    ex = 0;
    for (int a = 0; a < 3; a++) {
        double x = x0[a] + v0[a] * t + 0.5 * p.g[a] * t * t;
        ex = fmax(ex, fabs(out[LQ_MACSPRAY_X + a] - x));
    }
    CHECK(ex < 1e-4);
}

/* Emission from a flat 10 × 10 surface (row 5 of a 12³ pool) rising at `up`. */
static long emit_flat(float up, int steps, float rate, lq_macspray_params *p)
{
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    int nx = 12, ny = 12, nz = 12;
    side s;
    if (side_open(&s, &ref, nx, ny, nz, 200000)) return -1;
    lq_rng r;
    lq_rng_seed(&r, 5);
    unsigned char *f = (unsigned char *)s.f.host;
    float *v = (float *)s.v.host;
    pool(nx, ny, nz, 5, 0, &r, (float *)s.u.host, v, (float *)s.w.host, f);
    for (int k = 0; k < nz; k++) /* no pillar here */
        for (int i = 2; i <= 3; i++)
            if (k > 0 && k < nz - 1)
                for (int j = 1; j < ny - 1; j++)
                    f[LQ_MAC_CELL(i, j, k, nx, ny)] = j < 5    ? LQ_MAC_FULL
                                                      : j == 5 ? LQ_MAC_SURFACE
                                                               : LQ_MAC_EMPTY;
    for (size_t q = 0; q < (size_t)nx * (ny + 1) * nz; q++) v[q] = up;
    p->rate = rate;
    long total = 0;
    for (int t = 0; t < steps; t++) {
        p->step = (uint32_t)t;
        lq_macspray_counts c;
        CHECK_OK(lq_macspray_begin(&s.ops, &s.st, p));
        CHECK_OK(lq_macspray_emit(&s.ops, &s.st, &s.u, &s.v, &s.w, &s.f, p));
        CHECK_OK(lq_macspray_end(&s.ops, &s.st, &c));
        total += c.emitted;
        /* every new particle: in the lower half of a surface cell, moving with the liquid */
        const float *part = (const float *)s.st.part[s.st.cur].host;
        int bad = 0;
        for (int q = s.st.live - c.emitted; q < s.st.live; q++) {
            const float *a = part + (size_t)q * LQ_MACSPRAY_STRIDE;
            float gy = a[1] / p->dy;
            bad += !(gy >= 4.9999f && gy <= 5.5001f) ||
                   fabsf(a[LQ_MACSPRAY_V + 1] - up) > p->spread + 1e-5f;
            bad += !(a[LQ_MACSPRAY_R] >= 0.75f * p->radius && a[LQ_MACSPRAY_R] < 1.25f * p->radius);
        }
        CHECK(bad == 0);
        s.st.live = 0; /* count afresh */
    }
    side_close(&s);
    lq_ctx_close(&ref);
    return total;
}

static void test_emission(void)
{
    lq_macspray_params p = base_params();
    p.spread = 0.3f;
    long none = emit_flat(p.threshold, 5, 200000, &p);
    long below = emit_flat(p.threshold - 0.01f, 5, 200000, &p);
    int steps = 20;
    long got = emit_flat(p.threshold + 0.5f, steps, 95000, &p);
    double expect = 95000.0 * p.dx * p.dz * p.dt * 100 * steps;
    fprintf(stderr, "emission: at threshold %ld, below %ld; above: %ld vs rate·area·δt %.1f\n",
            none, below, got, expect);
    CHECK(none == 0 && below == 0);
    CHECK(fabs(got - expect) < 0.03 * expect);
}

/* Spray dropped onto a still pool: lands, turns to foam, lives its life, goes. */
static void test_foam(void)
{
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    int nx = 12, ny = 12, nz = 12;
    side s;
    if (side_open(&s, &ref, nx, ny, nz, 64)) return;
    lq_rng r;
    lq_rng_seed(&r, 3);
    unsigned char *f = (unsigned char *)s.f.host;
    pool(nx, ny, nz, 4, 0, &r, (float *)s.u.host, (float *)s.v.host, (float *)s.w.host, f);
    lq_field_zero(&s.u, 0), lq_field_zero(&s.v, 0), lq_field_zero(&s.w, 0);
    lq_macspray_params p = base_params();
    p.rate = 0;
    p.foam_life = 0.3f;
    float part[64 * LQ_MACSPRAY_STRIDE] = {0};
    int n = 20;
    for (int q = 0; q < n; q++) {
        float *a = part + q * LQ_MACSPRAY_STRIDE;
        a[0] = (5.0f + 0.1f * q) * p.dx, a[1] = 7.5f * p.dy, a[2] = (6.0f + 0.05f * q) * p.dz;
        a[LQ_MACSPRAY_R] = p.radius * (0.5f + 0.05f * q);
        a[LQ_MACSPRAY_KIND] = LQ_MACSPRAY_SPRAY;
    }
    CHECK_OK(lq_field_upload(&s.st.part[0], part));
    s.st.live = n;
    int landed_ok = 0, alive_past = 0, removed_early = 0, foamed = 0, removed = 0;
    float life[64] = {0}, age[64] = {0};
    for (int t = 0; t < 200 && s.st.live > 0; t++) {
        p.step = (uint32_t)t;
        lq_macspray_counts c;
        CHECK_OK(lq_macspray_step(&s.ops, &s.st, &s.u, &s.v, &s.w, &s.f, &p, &c));
        foamed += c.foamed, removed += c.removed;
        const float *a0 = (const float *)s.st.part[s.st.cur].host;
        /* particles keep their order; track them by radius (distinct) */
        int seen[64] = {0};
        for (int q = 0; q < s.st.live; q++) {
            const float *a = a0 + (size_t)q * LQ_MACSPRAY_STRIDE;
            int id = (int)lroundf((a[LQ_MACSPRAY_R] / p.radius - 0.5f) / 0.05f);
            if (id < 0 || id >= n) continue;
            seen[id] = 1;
            if (a[LQ_MACSPRAY_KIND] != LQ_MACSPRAY_FOAM) continue;
            float lim = p.foam_life * a[LQ_MACSPRAY_R] / p.radius;
            if (life[id] == 0) {
                life[id] = a[LQ_MACSPRAY_LIFE];
                landed_ok += a[LQ_MACSPRAY_LIFE] >= 0.5f * lim &&
                             a[LQ_MACSPRAY_LIFE] < 1.5f * lim && a[1] < 5.0f * p.dy &&
                             a[LQ_MACSPRAY_AGE] == 0.0f;
            }
            age[id] = a[LQ_MACSPRAY_AGE];
            alive_past += a[LQ_MACSPRAY_AGE] > a[LQ_MACSPRAY_LIFE];
        }
        for (int id = 0; id < n; id++)
            if (!seen[id] && life[id] > 0 && age[id] >= 0) {
                /* gone this step: its age had reached its life to within a step */
                removed_early += age[id] + p.dt <= life[id] * (1 - 1e-6f);
                age[id] = -1;
            }
    }
    fprintf(stderr,
            "foam: %d of %d landed as foam with life in bounds; %d removed; %d early, %d "
            "past life\n",
            landed_ok, n, removed, removed_early, alive_past);
    CHECK(foamed == n && landed_ok == n && removed == n && s.st.live == 0);
    CHECK(removed_early == 0 && alive_past == 0);
    side_close(&s);
    lq_ctx_close(&ref);
}

/* Foam under the surface floats up at foam.rise and stops rising at the surface; with
 * foam off, spray hitting the liquid is removed. */
static void test_foam_rise_off(void)
{
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    int nx = 12, ny = 12, nz = 12;
    side s;
    if (side_open(&s, &ref, nx, ny, nz, 8)) return;
    lq_rng r;
    lq_rng_seed(&r, 3);
    pool(nx, ny, nz, 4, 0, &r, (float *)s.u.host, (float *)s.v.host, (float *)s.w.host,
         (unsigned char *)s.f.host);
    lq_field_zero(&s.u, 0), lq_field_zero(&s.v, 0), lq_field_zero(&s.w, 0);
    lq_macspray_params p = base_params();
    p.rate = 0;
    p.foam_life = 100.0f;
    p.foam_rise = 0.1f;
    float part[8 * LQ_MACSPRAY_STRIDE] = {0};
    float *a = part;
    a[0] = 6.5f * p.dx, a[1] = 2.5f * p.dy, a[2] = 6.5f * p.dz; /* a FULL cell */
    a[LQ_MACSPRAY_R] = p.radius, a[LQ_MACSPRAY_KIND] = LQ_MACSPRAY_FOAM,
    a[LQ_MACSPRAY_LIFE] = 100.0f;
    float *b = part + LQ_MACSPRAY_STRIDE; /* spray falling onto the surface */
    b[0] = 8.5f * p.dx, b[1] = 4.9f * p.dy, b[2] = 6.5f * p.dz, b[LQ_MACSPRAY_V + 1] = -1.0f;
    b[LQ_MACSPRAY_R] = p.radius, b[LQ_MACSPRAY_KIND] = LQ_MACSPRAY_SPRAY;
    CHECK_OK(lq_field_upload(&s.st.part[0], part));
    s.st.live = 2;
    p.foam = 0;
    lq_macspray_counts c;
    CHECK_OK(lq_macspray_step(&s.ops, &s.st, &s.u, &s.v, &s.w, &s.f, &p, &c));
    const float *q = (const float *)s.st.part[s.st.cur].host;
    CHECK(c.removed == 1 && c.foamed == 0 && s.st.live == 1 && c.foam == 1);
    CHECK(q[1] == 2.5f * p.dy + p.dt * p.foam_rise);
    for (int t = 1; t < 200; t++) {
        p.step = (uint32_t)t;
        CHECK_OK(lq_macspray_step(&s.ops, &s.st, &s.u, &s.v, &s.w, &s.f, &p, &c));
    }
    q = (const float *)s.st.part[s.st.cur].host;
    fprintf(stderr, "foam rise: from row 2.5 to row %.3f (the surface row is 4)\n", q[1] / p.dy);
    CHECK(s.st.live == 1 && q[1] >= 4.0f * p.dy && q[1] < 4.0f * p.dy + 2 * p.dt * p.foam_rise);
    side_close(&s);
    lq_ctx_close(&ref);
}

/* A separation: two halves of the same volume, the same momentum. */
static void test_split(void)
{
    lq_macspray_params p = base_params();
    p.dx = p.dy = p.dz = 1.0f;
    p.rate = 0;
    p.separation = 1000.0f; /* p = 1 per step */
    p.spread = 0.7f;
    p.g[1] = 0;
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    side s;
    if (side_open(&s, &ref, 12, 12, 12, 8)) return;
    float part[8 * LQ_MACSPRAY_STRIDE] = {0};
    part[0] = part[1] = part[2] = 6.0f;
    part[LQ_MACSPRAY_V] = 1.0f;
    part[LQ_MACSPRAY_R] = 0.01f;
    part[LQ_MACSPRAY_KIND] = LQ_MACSPRAY_SPRAY;
    CHECK_OK(lq_field_upload(&s.st.part[0], part));
    s.st.live = 1;
    lq_macspray_counts c;
    CHECK_OK(lq_macspray_step(&s.ops, &s.st, &s.u, &s.v, &s.w, &s.f, &p, &c));
    const float *a = (const float *)s.st.part[s.st.cur].host, *b = a + LQ_MACSPRAY_STRIDE;
    CHECK(s.st.live == 2 && c.split == 1 && c.spray == 2);
    double vol = pow(a[LQ_MACSPRAY_R], 3) + pow(b[LQ_MACSPRAY_R], 3);
    CHECK_NEAR(vol, 1e-6, 1e-12);
    for (int ax = 0; ax < 3; ax++)
        CHECK_NEAR(0.5 * (a[LQ_MACSPRAY_V + ax] + b[LQ_MACSPRAY_V + ax]), ax == 0 ? 1.0 : 0.0,
                   1e-6);
    CHECK(a[LQ_MACSPRAY_V + 1] != b[LQ_MACSPRAY_V + 1]);
    /* 1 → 2 → 4 → 8 → 8 (full: 8 dropped) */
    for (int t = 1; t < 4; t++) {
        p.step = (uint32_t)t;
        CHECK_OK(lq_macspray_step(&s.ops, &s.st, &s.u, &s.v, &s.w, &s.f, &p, &c));
    }
    CHECK(s.st.live == 8 && c.dropped == 8 && s.st.dropped == 8);
    side_close(&s);
    lq_ctx_close(&ref);
}

int main(void)
{
    (void)twin_alloc;
    (void)twin_release;
    (void)twin_check_float;
    test_ballistic();
    test_emission();
    test_foam();
    test_foam_rise_off();
    test_split();
    test_twins(12, 12, 12, 100000);
    test_twins(12, 12, 12, 120);
    test_twins(16, 12, 1, 100000);
    CHECK_DONE();
}
