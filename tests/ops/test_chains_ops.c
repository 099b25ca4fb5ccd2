/*
 * test_chains_ops.c — the 2D free-surface particle chains of `mac` (Foster & Metaxas
 * 1996 §4.2, Fig. 5; host/ops/mac/chains.h):
 *  1. reference twin vs OpenCL (PoCL in CI): chains from shapes (discs, a box, a wave),
 *     an open chain and a clockwise bubble, jittered, moved by a random field with
 *     insertion and deletion, then classified: points, labels, states and flags agree
 *     bit for bit ("chains.classify" in host/core/tolerance.c; the advection is the
 *     markers' and is diffed in test_markers_ops);
 *  2. analytic: a circle chain in solid-body rotation keeps its area within 1% over a
 *     revolution with its point count near the initial; region growing labels the
 *     cells of a disc and of two separate discs as a direct point-in-polygon test of
 *     the cell centres does, except cells the chain crosses (liquid, SURFACE at the
 *     edge); a bubble (clockwise chain) inside a box stays EMPTY; a level box's flags
 *     equal the marker path's for the same box; a shear flow stretches a chain and
 *     insertion keeps every segment within the limit; merging; clipped area; 3D is
 *     refused.
 */
#include "ops/mac/chains.h"
#include "ops/mac/markers.h"
#include "lib/twin.h"

static float frand(lq_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)lq_rng_uniform(r);
}

typedef struct side {
    lq_field u, v, w, f;
    lq_chains_state st;
    lq_chains_ops ops;
    lq_markers_ops ko;
} side;

static int side_open(side *s, lq_ctx *ctx, int nx, int ny, float dz)
{
    memset(s, 0, sizeof *s);
    int rc = lq_field_alloc(ctx, &s->u, "u", nx + 1, ny, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->v, "v", nx, ny + 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->w, "w", nx, ny, 2, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->f, "flags", nx, ny, 1, 1);
    if (!rc) rc = lq_field_zero(&s->w, 0);
    if (!rc) rc = lq_chains_state_init(&s->st, ctx, nx, ny, 1, dz);
    if (!rc) rc = lq_chains_ops_init(&s->ops, ctx, nx, ny, 1);
    if (!rc) rc = lq_markers_ops_init(&s->ko, ctx, nx, ny, 1);
    CHECK_OK(rc);
    return rc;
}

static void side_close(side *s)
{
    lq_markers_ops_release(&s->ko);
    lq_chains_ops_release(&s->ops);
    lq_chains_state_release(&s->st);
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

static void walls(unsigned char *f, int nx, int ny)
{
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            f[i + nx * j] =
                (i == 0 || i == nx - 1 || j == 0 || j == ny - 1) ? LQ_MAC_SOLID : LQ_MAC_EMPTY;
}

/* Largest segment of the host chains (m). */
static double max_segment(const lq_chains_state *st)
{
    double m = 0;
    for (int p = 0; p < st->n; p++) {
        int q = st->hn[p];
        if (q < 0) continue;
        m = fmax(m, hypot(st->hp[3 * q] - st->hp[3 * p], st->hp[3 * q + 1] - st->hp[3 * p + 1]));
    }
    return m;
}

/* --- 1. twins ----------------------------------------------------------------------- */

static void test_twins(void)
{
    lq_ctx ref, cl;
    fprintf(stderr, "twin diff:\n");
    if (twin_open(&ref, &cl)) {
        CHECK(!"an OpenCL device is needed for the diff tests (install pocl-opencl-icd)");
        return;
    }
    const int nx = 41, ny = 33;
    const float dx = 0.025f, dy = 0.03f, dz = 0.05f;
    lq_chains_params prm = {.dt = 0.004f, .dx = dx, .dy = dy, .dz = dz};
    size_t nu = (size_t)(nx + 1) * ny, nv = (size_t)nx * (ny + 1), nc = (size_t)nx * ny;
    float *u = malloc(nu * 4), *v = malloc(nv * 4);
    unsigned char *f = malloc(nc);
    lq_rng r;
    lq_rng_seed(&r, 99);
    for (size_t q = 0; q < nu; q++) u[q] = frand(&r, -1, 1);
    for (size_t q = 0; q < nv; q++) v[q] = frand(&r, -1, 1);
    walls(f, nx, ny);
    for (size_t q = 0; q < nc; q++) {
        float x = frand(&r, 0, 1);
        if (f[q] == LQ_MAC_EMPTY && x < 0.04f) f[q] = x < 0.02f ? LQ_MAC_SOLID : LQ_MAC_INFLOW;
    }
    lq_markers_shape sh[4] = {
        {.kind = LQ_MARKERS_SPHERE, .a = {0.3f, 0.6f, 0}, .r = 0.15f},
        {.kind = LQ_MARKERS_SPHERE, .a = {0.75f, 0.7f, 0}, .r = 0.1f},
        {.kind = LQ_MARKERS_BOX, .a = {0, 0, 0}, .b = {0.5f, 0.2f, 1}},
        {.kind = LQ_MARKERS_WAVE,
         .a = {0.6f, 0.0f, 0},
         .b = {1.1f, 0.4f, 1},
         .level = 0.25f,
         .amp = 0.05f,
         .k = 20.0f,
         .x0 = 0.7f},
    };
    /* an open chain from the left wall into the right wall, and a clockwise bubble */
    float open[2 * 30], bub[2 * 16];
    for (int p = 0; p < 30; p++) {
        open[2 * p] = (float)(p * nx * dx / 29.0);
        open[2 * p + 1] = 0.45f + 0.05f * sinf((float)p);
    }
    for (int p = 0; p < 16; p++) {
        double th = -2 * LQ_PI * p / 16;
        bub[2 * p] = (float)(0.3 + 0.06 * cos(th));
        bub[2 * p + 1] = (float)(0.6 + 0.06 * sin(th));
    }
    side A, B;
    if (side_open(&A, &ref, nx, ny, dz) || side_open(&B, &cl, nx, ny, dz)) goto done;
    side *ss[] = {&A, &B};
    for (int s = 0; s < 2; s++) {
        lq_chains_state *st = &ss[s]->st;
        CHECK_OK(lq_chains_from_shapes(st, dx, dy, 4, sh));
        CHECK_OK(lq_chains_add(st, 30, open, 0));
        CHECK_OK(lq_chains_add(st, 16, bub, 1));
        lq_rng_seed(&r, 5); /* the same jitter on both sides */
        for (int p = 0; p < st->n; p++) {
            st->hp[3 * p] += frand(&r, -0.3f, 0.3f) * dx;
            st->hp[3 * p + 1] += frand(&r, -0.3f, 0.3f) * dy;
        }
        CHECK_OK(lq_chains_sync(st));
        CHECK_OK(lq_field_upload(&ss[s]->u, u));
        CHECK_OK(lq_field_upload(&ss[s]->v, v));
        CHECK_OK(lq_field_upload(&ss[s]->f, f));
    }
    fprintf(stderr, "  %d chains, %d points\n", A.st.nchains, A.st.n);
    int n0 = A.st.n;
    for (int step = 0; step < 5; step++)
        for (int s = 0; s < 2; s++)
            CHECK_OK(lq_chains_advance(&ss[s]->st, &ss[s]->ko, &ss[s]->u, &ss[s]->v, &ss[s]->w,
                                       &ss[s]->f, &prm));
    fprintf(stderr, "  after 5 steps: %d points (last step: %d inserted, %d merges)\n", A.st.n,
            A.st.inserted, A.st.merged);
    CHECK(A.st.n == B.st.n && A.st.nchains == B.st.nchains);
    CHECK(A.st.n != n0 || A.st.inserted + A.st.merged > 0);
    CHECK(memcmp(A.st.hp, B.st.hp, (size_t)A.st.n * 12) == 0);
    CHECK(memcmp(A.st.hn, B.st.hn, (size_t)A.st.n * 4) == 0);
    for (int s = 0; s < 2; s++)
        CHECK_OK(lq_chains_classify(&ss[s]->ops, &ss[s]->st, &ss[s]->f, &prm));
    CHECK_OK(lq_ctx_finish(&cl));
    fprintf(stderr, "  grow sweeps: ref %d, OpenCL %d\n", A.st.grow_sweeps, B.st.grow_sweeps);
    twin_pair pl = pair_of(&A.st.label, &B.st.label), ps = pair_of(&A.st.state, &B.st.state),
              pf = pair_of(&A.f, &B.f);
    twin_check_exact("chains.classify", &pl);
    twin_check_exact("chains.classify", &ps);
    twin_check_exact("chains.classify", &pf);
    unsigned char *fa = malloc(nc);
    CHECK_OK(lq_field_download(&A.f, fa));
    int kinds[6] = {0}, changed_fixed = 0;
    for (size_t q = 0; q < nc; q++) {
        kinds[fa[q]]++;
        changed_fixed += lq_markers_fixed(f[q]) && fa[q] != f[q];
    }
    fprintf(stderr, "  cells: %d EMPTY, %d FULL, %d SURFACE\n", kinds[0], kinds[1], kinds[2]);
    CHECK(changed_fixed == 0 && kinds[0] > 0 && kinds[1] > 0 && kinds[2] > 0);
    free(fa);
done:
    side_close(&A);
    side_close(&B);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
    free(u), free(v), free(f);
}

/* --- 2. analytic -------------------------------------------------------------------- */

/* Solid-body rotation, one revolution per second about (½, ½) in a 1 × 1 box of 64²
 * cells: a circle of radius ¼ for one revolution, on both backends. */
static void test_rotation(void)
{
    lq_ctx ref, cl;
    if (twin_open(&ref, &cl)) {
        CHECK(!"an OpenCL device is needed");
        return;
    }
    const int nx = 64, ny = 64, N = 256;
    const double h = 1.0 / 64, om = 2 * LQ_PI;
    float *u = calloc((size_t)(nx + 1) * ny, 4), *v = calloc((size_t)nx * (ny + 1), 4);
    unsigned char *f = malloc((size_t)nx * ny);
    walls(f, nx, ny);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i <= nx; i++) u[i + (nx + 1) * j] = (float)(-om * ((j + 0.5) * h - 0.5));
    for (int j = 0; j <= ny; j++)
        for (int i = 0; i < nx; i++) v[i + nx * j] = (float)(om * ((i + 0.5) * h - 0.5));
    lq_chains_params prm = {.dt = (float)(1.0 / N), .dx = (float)h, .dy = (float)h, .dz = (float)h};
    lq_markers_shape disc = {.kind = LQ_MARKERS_SPHERE, .a = {0.5f, 0.5f, 0}, .r = 0.25f};
    side S[2];
    lq_ctx *ctx[2] = {&ref, &cl};
    int ok = 1;
    for (int s = 0; s < 2; s++) ok = ok && !side_open(&S[s], ctx[s], nx, ny, (float)h);
    if (!ok) goto done;
    double a0 = 0, a1 = 0;
    int n0 = 0, nmin = 1 << 30, nmax = 0;
    for (int s = 0; s < 2; s++) {
        lq_chains_state *st = &S[s].st;
        CHECK_OK(lq_chains_from_shapes(st, (float)h, (float)h, 1, &disc));
        CHECK_OK(lq_chains_sync(st));
        CHECK_OK(lq_field_upload(&S[s].u, u));
        CHECK_OK(lq_field_upload(&S[s].v, v));
        CHECK_OK(lq_field_upload(&S[s].f, f));
        if (s == 0) {
            a0 = lq_chains_area(st, NULL, NULL);
            n0 = st->n;
        }
        for (int t = 0; t < N; t++) {
            CHECK_OK(lq_chains_advance(st, &S[s].ko, &S[s].u, &S[s].v, &S[s].w, &S[s].f, &prm));
            nmin = st->n < nmin ? st->n : nmin;
            nmax = st->n > nmax ? st->n : nmax;
        }
        if (s == 0) a1 = lq_chains_area(st, NULL, NULL);
    }
    CHECK(S[0].st.n == S[1].st.n && memcmp(S[0].st.hp, S[1].st.hp, (size_t)S[0].st.n * 12) == 0);
    fprintf(stderr,
            "rotation: area %.6f -> %.6f (%.3f%%; disc %.6f), points %d (min %d, max %d over "
            "the revolution)\n",
            a0, a1, 100 * (a1 / a0 - 1), LQ_PI / 16, n0, nmin, nmax);
    CHECK(fabs(a1 / a0 - 1) < 0.01);
    CHECK(fabs(a0 / (LQ_PI / 16) - 1) < 0.01);
    CHECK(nmin >= 0.9 * n0 && nmax <= 1.1 * n0);
done:
    for (int s = 0; s < 2; s++) side_close(&S[s]);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
    free(u), free(v), free(f);
}

/* Even-odd point in polygon, double (independent of the kernels' winding number). */
static int pip(const lq_chains_state *st, double x, double y)
{
    int in = 0;
    for (int ch = 0; ch < st->nchains; ch++) {
        int f0 = st->first[ch], m = st->count[ch];
        for (int p = 0; p < m; p++) {
            const float *A = st->hp + 3 * (f0 + p), *B = st->hp + 3 * (f0 + (p + 1) % m);
            if ((A[1] > y) != (B[1] > y) &&
                x < A[0] + (y - A[1]) * ((double)B[0] - A[0]) / ((double)B[1] - A[1]))
                in = !in;
        }
    }
    return in;
}

/* Cells any chain passes through, by fine sampling (1000 samples per segment). */
static void fine_crossed(const lq_chains_state *st, int nx, int ny, double dx, double dy,
                         unsigned char *hit)
{
    memset(hit, 0, (size_t)nx * ny);
    for (int p = 0; p < st->n; p++) {
        int q = st->hn[p];
        if (q < 0) continue;
        for (int s = 0; s <= 1000; s++) {
            double t = s / 1000.0;
            double x = st->hp[3 * p] + t * (st->hp[3 * q] - st->hp[3 * p]);
            double y = st->hp[3 * p + 1] + t * (st->hp[3 * q + 1] - st->hp[3 * p + 1]);
            /* a point on a face (within rounding) is in both cells */
            for (int e = 0; e < 4; e++) {
                double ex = (e & 1 ? 1e-5 : -1e-5) * dx, ey = (e & 2 ? 1e-5 : -1e-5) * dy;
                int i = (int)floor((x + ex) / dx), j = (int)floor((y + ey) / dy);
                if (i >= 0 && i < nx && j >= 0 && j < ny) hit[i + nx * j] = 1;
            }
        }
    }
}

/* Classifies shapes (plus extra chains) on the reference and checks every cell against
 * the point-in-polygon test; returns the FULL count inside each of the first two
 * discs' radius − 1.5 cells through *in_a, *in_b. */
static void check_regions(const char *what, int nshapes, const lq_markers_shape *sh, int nextra,
                          const float *extra, int extra_n, int *full_in)
{
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    const int nx = 50, ny = 40;
    const float dx = 0.02f, dy = 0.025f;
    lq_chains_params prm = {.dt = 0.01f, .dx = dx, .dy = dy, .dz = dx};
    side A;
    if (side_open(&A, &ref, nx, ny, dx)) goto done;
    unsigned char *f = A.f.host, hit[50 * 40];
    walls(f, nx, ny);
    CHECK_OK(lq_chains_from_shapes(&A.st, dx, dy, nshapes, sh));
    if (nextra) CHECK_OK(lq_chains_add(&A.st, extra_n, extra, 1));
    CHECK_OK(lq_chains_sync(&A.st));
    CHECK_OK(lq_chains_classify(&A.ops, &A.st, &A.f, &prm));
    fine_crossed(&A.st, nx, ny, dx, dy, hit);
    const int *label = A.st.label.host;
    int bad = 0, kinds[6] = {0}, crossed = 0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            int c = i + nx * j, k = f[c];
            kinds[k]++;
            if (k == LQ_MAC_SOLID) continue;
            int liquid = k == LQ_MAC_FULL || k == LQ_MAC_SURFACE;
            int in = pip(&A.st, (i + 0.5) * dx, (j + 0.5) * dy);
            int kc = label[c] == LQ_CHAINS_CROSSED;
            crossed += kc;
            int ok = hit[c] ? (kc ? liquid : liquid == in) : (liquid == in && !kc);
            /* SURFACE only on the chain or next to it */
            if (k == LQ_MAC_SURFACE && !hit[c]) {
                int near = 0;
                for (int b = -1; b <= 1; b++)
                    for (int a = -1; a <= 1; a++) {
                        int i2 = i + a, j2 = j + b;
                        if (i2 >= 0 && i2 < nx && j2 >= 0 && j2 < ny) near |= hit[i2 + nx * j2];
                    }
                ok = ok && near;
            }
            if (!ok && bad++ < 5)
                fprintf(stderr, "  cell %d %d: kind %d, inside %d, crossed %d/%d\n", i, j, k, in,
                        kc, hit[c]);
        }
    for (int s = 0; s < 2 && full_in; s++) {
        full_in[s] = 0;
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                double ex = (i + 0.5) * dx - sh[s].a[0], ey = (j + 0.5) * dy - sh[s].a[1];
                if (hypot(ex, ey) < sh[s].r - 1.5 * dy)
                    full_in[s] += f[i + nx * j] == LQ_MAC_FULL ? 1 : -1000;
            }
    }
    fprintf(stderr,
            "regions, %s: %d EMPTY, %d FULL, %d SURFACE (%d crossed), %d disagree with "
            "point-in-polygon, %d sweeps\n",
            what, kinds[0], kinds[1], kinds[2], crossed, bad, A.st.grow_sweeps);
    CHECK(bad == 0 && kinds[1] > 0 && kinds[2] > 0);
done:
    side_close(&A);
    lq_ctx_close(&ref);
}

static void test_regions(void)
{
    lq_markers_shape d1[2] = {{.kind = LQ_MARKERS_SPHERE, .a = {0.5f, 0.5f, 0}, .r = 0.3f},
                              {.kind = LQ_MARKERS_SPHERE, .a = {0.5f, 0.5f, 0}, .r = 0.3f}};
    int in[2];
    check_regions("one disc", 1, d1, 0, NULL, 0, NULL);
    lq_markers_shape d2[2] = {{.kind = LQ_MARKERS_SPHERE, .a = {0.25f, 0.5f, 0}, .r = 0.17f},
                              {.kind = LQ_MARKERS_SPHERE, .a = {0.72f, 0.45f, 0}, .r = 0.2f}};
    check_regions("two discs", 2, d2, 0, NULL, 0, in);
    fprintf(stderr, "  FULL cells well inside: %d and %d\n", in[0], in[1]);
    CHECK(in[0] > 100 && in[1] > 150);
    /* a clockwise bubble inside a box: the bubble's inside is air */
    lq_markers_shape box = {.kind = LQ_MARKERS_BOX, .a = {0, 0, 0}, .b = {1.0f, 0.8f, 1}};
    float bub[2 * 40];
    for (int p = 0; p < 40; p++) {
        double th = -2 * LQ_PI * p / 40;
        bub[2 * p] = (float)(0.5 + 0.12 * cos(th));
        bub[2 * p + 1] = (float)(0.5 + 0.12 * sin(th));
    }
    check_regions("box with a bubble", 1, &box, 1, bub, 40, NULL);
    (void)d1;
}

/* A level box: the chain's flags are the marker path's for the same box. */
static void test_level_like_markers(void)
{
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    const int nx = 30, ny = 24;
    const float d = 0.025f;
    lq_markers_shape lvl = {.kind = LQ_MARKERS_BOX, .a = {0, 0, 0}, .b = {nx * d, 11.5f * d, d}};
    side A;
    lq_markers_ops ko;
    lq_field pos, cnt, fm;
    memset(&pos, 0, sizeof pos), memset(&cnt, 0, sizeof cnt), memset(&fm, 0, sizeof fm);
    memset(&ko, 0, sizeof ko);
    if (side_open(&A, &ref, nx, ny, d)) goto done;
    walls(A.f.host, nx, ny);
    size_t cap = (size_t)nx * ny * 4, m = 0;
    CHECK_OK(lq_field_alloc(&ref, &pos, "pos", 3, (int)cap, 1, 4));
    CHECK_OK(lq_field_alloc(&ref, &cnt, "count", nx, ny, 1, 4));
    CHECK_OK(lq_field_alloc(&ref, &fm, "flags", nx, ny, 1, 1));
    walls(fm.host, nx, ny);
    CHECK_OK(lq_markers_seed(nx, ny, 1, d, d, d, fm.host, 1, &lvl, 4, 1, pos.host, cap, &m));
    CHECK_OK(lq_markers_ops_init(&ko, &ref, nx, ny, 1));
    lq_markers_params kp = {0, d, d, d, 0};
    CHECK_OK(lq_markers_classify(&ko, &pos, (int)m, &fm, &cnt, &kp));
    lq_chains_params prm = {.dt = 0, .dx = d, .dy = d, .dz = d};
    CHECK_OK(lq_chains_from_shapes(&A.st, d, d, 1, &lvl));
    CHECK_OK(lq_chains_sync(&A.st));
    CHECK_OK(lq_chains_classify(&A.ops, &A.st, &A.f, &prm));
    int diff = 0;
    for (int c = 0; c < nx * ny; c++)
        diff += ((unsigned char *)A.f.host)[c] != ((unsigned char *)fm.host)[c];
    double lo[2] = {d, d}, hi[2] = {(nx - 1) * d, (ny - 1) * d};
    double area = lq_chains_area(&A.st, lo, hi), want = (nx - 2) * d * 10.5 * d;
    fprintf(stderr,
            "level box: %d cells differ from the marker path; clipped area %.6g (want "
            "%.6g), whole %.6g\n",
            diff, area, want, lq_chains_area(&A.st, NULL, NULL));
    CHECK(diff == 0);
    CHECK_NEAR(area, want, 1e-6 * want);
done:
    lq_markers_ops_release(&ko);
    lq_field_release(&pos);
    lq_field_release(&cnt);
    lq_field_release(&fm);
    side_close(&A);
    lq_ctx_close(&ref);
}

/* A shear flow u = s (y − ½) stretches a circle; no segment may exceed the limit. */
static void test_shear_insertion(void)
{
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    const int nx = 48, ny = 48;
    const double h = 1.0 / 48;
    side A;
    if (side_open(&A, &ref, nx, ny, (float)h)) goto done;
    walls(A.f.host, nx, ny);
    float *u = A.u.host;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i <= nx; i++) u[i + (nx + 1) * j] = (float)(2.0 * ((j + 0.5) * h - 0.5));
    lq_field_zero(&A.v, 0);
    lq_markers_shape disc = {.kind = LQ_MARKERS_SPHERE, .a = {0.5f, 0.5f, 0}, .r = 0.2f};
    CHECK_OK(lq_chains_from_shapes(&A.st, (float)h, (float)h, 1, &disc));
    CHECK_OK(lq_chains_sync(&A.st));
    lq_chains_params prm = {.dt = 0.01f, .dx = (float)h, .dy = (float)h, .dz = (float)h};
    int n0 = A.st.n, ins = 0;
    double worst = 0, a0 = lq_chains_area(&A.st, NULL, NULL);
    for (int t = 0; t < 60; t++) {
        CHECK_OK(lq_chains_advance(&A.st, &A.ko, &A.u, &A.v, &A.w, &A.f, &prm));
        ins += A.st.inserted;
        worst = fmax(worst, max_segment(&A.st));
    }
    double a1 = lq_chains_area(&A.st, NULL, NULL);
    fprintf(stderr,
            "shear: points %d -> %d (%d inserted), longest segment %.4g (limit %.4g), area "
            "%.5g -> %.5g\n",
            n0, A.st.n, ins, worst, 0.5 * h, a0, a1);
    CHECK(worst <= 0.5 * h * (1 + 1e-6) && ins > 0 && A.st.n > n0);
    CHECK(fabs(a1 / a0 - 1) < 0.01); /* a shear flow keeps area */
    /* merging: a chain with clustered points loses them, a tiny one vanishes */
    float xy[2 * 8] = {0.2f, 0.2f, 0.3f, 0.2f, 0.3001f, 0.2f,  0.3002f, 0.2001f,
                       0.3f, 0.3f, 0.2f, 0.3f, 0.2f,    0.25f, 0.2f,    0.2001f};
    float tiny[6] = {0.5f, 0.5f, 0.5005f, 0.5f, 0.5f, 0.5005f};
    lq_chains_state st;
    CHECK_OK(lq_chains_state_init(&st, &ref, nx, ny, 1, (float)h));
    CHECK_OK(lq_chains_add(&st, 8, xy, 1));
    CHECK_OK(lq_chains_add(&st, 3, tiny, 1));
    lq_chains_refine(&st, &prm);
    fprintf(stderr, "merge: %d merges, %d chains dropped, %d chain(s), %d points, longest %.4g\n",
            st.merged, st.dropped, st.nchains, st.n, max_segment(&st));
    CHECK(st.merged == 5 && st.dropped == 1 && st.nchains == 1);
    CHECK(max_segment(&st) <= 0.5 * h * (1 + 1e-6));
    lq_chains_state_release(&st);
    /* no chains at all: advancing is a no-op, every cell EMPTY */
    CHECK_OK(lq_chains_state_init(&st, &ref, nx, ny, 1, (float)h));
    CHECK_OK(lq_chains_sync(&st));
    CHECK_OK(lq_chains_advance(&st, &A.ko, &A.u, &A.v, &A.w, &A.f, &prm));
    CHECK_OK(lq_chains_classify(&A.ops, &st, &A.f, &prm));
    int liquid = 0;
    for (int c = 0; c < nx * ny; c++) {
        int k = ((unsigned char *)A.f.host)[c];
        liquid += k == LQ_MAC_FULL || k == LQ_MAC_SURFACE;
    }
    CHECK(st.n == 0 && liquid == 0 && lq_chains_area(&st, NULL, NULL) == 0);
    lq_chains_state_release(&st);
    /* 3D is refused */
    lq_error_clear();
    CHECK(lq_chains_state_init(&st, &ref, 8, 8, 8, 0.1f) == LQ_EINPUT);
    fprintf(stderr, "  %s\n", lq_error_message());
    lq_error_clear();
done:
    side_close(&A);
    lq_ctx_close(&ref);
}

int main(void)
{
    (void)twin_alloc;
    (void)twin_release;
    (void)twin_check_float;
    test_twins();
    test_rotation();
    test_regions();
    test_level_like_markers();
    test_shear_insertion();
    CHECK_DONE();
}
