/*
 * test_machf_ops.c — the height-field surface of `mac` (Foster & Metaxas 1996 §4.3,
 * eq. 11–12; host/ops/mac/machf.h):
 *  1. reference twin vs OpenCL (PoCL in CI) for the column update and the
 *     classification on random states (random faces, heights anywhere, SOLID/INFLOW/
 *     OUTFLOW cells), 3D with δx ≠ δy ≠ δz and 2D: heights, scratch and flags agree bit
 *     for bit ("machf.<op>" in host/core/tolerance.c);
 *  2. analytic: a uniform upward v raises every wet column by v δt (whatever its slope);
 *     a steady shear flow (u, w growing with y, v = 0) leaves a flat surface flat,
 *     exactly; a sinusoid carried by a uniform u moves at u (phase fit, within the
 *     scheme's dispersion); the classification of a known h gives the expected
 *     FULL/SURFACE/EMPTY counts (flat, with a raised column, h on a face, an obstacle);
 *     initialisation from shapes and flags, and the volume measure.
 */
#include "ops/mac/machf.h"
#include "lib/twin.h"

static float frand(lq_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)lq_rng_uniform(r);
}

typedef struct side {
    lq_field u, v, w, f;
    lq_machf_state st;
    lq_machf_ops ops;
} side;

static int side_open(side *s, lq_ctx *ctx, int nx, int ny, int nz)
{
    memset(s, 0, sizeof *s);
    int rc = lq_field_alloc(ctx, &s->u, "u", nx + 1, ny, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->v, "v", nx, ny + 1, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->w, "w", nx, ny, nz + 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->f, "flags", nx, ny, nz, 1);
    if (!rc) rc = lq_machf_state_init(&s->st, ctx, nx, ny, nz);
    if (!rc) rc = lq_machf_ops_init(&s->ops, ctx, nx, ny, nz);
    CHECK_OK(rc);
    return rc;
}

static void side_close(side *s)
{
    lq_machf_ops_release(&s->ops);
    lq_machf_state_release(&s->st);
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

/* Walls (outer layer SOLID; in 2D no z walls). */
static void walls(unsigned char *f, int nx, int ny, int nz)
{
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                int wall = i == 0 || i == nx - 1 || j == 0 || j == ny - 1 ||
                           (nz > 1 && (k == 0 || k == nz - 1));
                f[LQ_MAC_CELL(i, j, k, nx, ny)] = wall ? LQ_MAC_SOLID : LQ_MAC_EMPTY;
            }
}

/* --- 1. twins ----------------------------------------------------------------------- */

static void test_twins(int nx, int ny, int nz, uint64_t seed)
{
    lq_ctx ref, cl;
    fprintf(stderr, "twin diff, %d×%d×%d:\n", nx, ny, nz);
    if (twin_open(&ref, &cl)) {
        CHECK(!"an OpenCL device is needed for the diff tests (install pocl-opencl-icd)");
        return;
    }
    lq_machf_params prm = {0.02f, 0.05f, 0.04f, 0.07f};
    size_t nu = (size_t)(nx + 1) * ny * nz, nv = (size_t)nx * (ny + 1) * nz,
           nw = (size_t)nx * ny * (nz + 1), nc = (size_t)nx * ny * nz, ncol = (size_t)nx * nz;
    float *u = malloc(nu * 4), *v = malloc(nv * 4), *w = malloc(nw * 4), *h = malloc(ncol * 4);
    unsigned char *f = malloc(nc);
    lq_rng r;
    lq_rng_seed(&r, seed);
    for (size_t q = 0; q < nu; q++) u[q] = frand(&r, -3, 3);
    for (size_t q = 0; q < nv; q++) v[q] = frand(&r, -3, 3);
    for (size_t q = 0; q < nw; q++) w[q] = nz > 1 ? frand(&r, -3, 3) : 0.0f;
    walls(f, nx, ny, nz);
    for (size_t q = 0; q < nc; q++) {
        float x = frand(&r, 0, 1);
        if (f[q] == LQ_MAC_EMPTY)
            f[q] = x < 0.05f   ? LQ_MAC_SOLID
                   : x < 0.07f ? LQ_MAC_INFLOW
                   : x < 0.09f ? LQ_MAC_OUTFLOW
                   : x < 0.5f  ? LQ_MAC_EMPTY
                               : LQ_MAC_FULL;
    }
    float ly = ny * prm.dy;
    for (size_t q = 0; q < ncol; q++) {
        h[q] = frand(&r, -0.05f, 1.05f) * ly;
        if (q % 13 == 0) h[q] = (float)(q % 7) * prm.dy; /* exactly on a face */
    }
    side A, B;
    if (side_open(&A, &ref, nx, ny, nz) || side_open(&B, &cl, nx, ny, nz)) goto done;
    side *ss[] = {&A, &B};
    for (int s = 0; s < 2; s++) {
        CHECK_OK(lq_field_upload(&ss[s]->u, u));
        CHECK_OK(lq_field_upload(&ss[s]->v, v));
        CHECK_OK(lq_field_upload(&ss[s]->w, w));
        CHECK_OK(lq_field_upload(&ss[s]->f, f));
        CHECK_OK(lq_machf_set(&ss[s]->st, h));
    }
    for (int step = 0; step < 3; step++) {
        for (int s = 0; s < 2; s++)
            CHECK_OK(lq_machf_advance(&ss[s]->ops, &ss[s]->st, &ss[s]->u, &ss[s]->v, &ss[s]->w,
                                      &ss[s]->f, &prm));
        CHECK_OK(lq_ctx_finish(&cl));
        twin_pair ph = pair_of(&A.st.h, &B.st.h);
        twin_check_float("machf.advance", &ph);
    }
    float *ha = malloc(ncol * 4);
    CHECK_OK(lq_machf_get(&A.st, ha));
    int out = 0, moved = 0;
    for (size_t q = 0; q < ncol; q++) {
        /* a column whose surface cell is fixed keeps its h, in range or not */
        out += ha[q] != h[q] && !(ha[q] >= 0 && ha[q] <= ly);
        moved += ha[q] != h[q];
    }
    fprintf(stderr, "  %d of %zu columns moved, %d of them out of [0, ny dy]\n", moved, ncol, out);
    CHECK(out == 0 && moved > (int)ncol / 3);
    for (int s = 0; s < 2; s++)
        CHECK_OK(lq_machf_classify(&ss[s]->ops, &ss[s]->st, &ss[s]->f, &prm));
    CHECK_OK(lq_ctx_finish(&cl));
    twin_pair pf = pair_of(&A.f, &B.f), ps = pair_of(&A.st.state, &B.st.state);
    twin_check_exact("machf.classify", &pf);
    twin_check_exact("machf.classify", &ps);
    /* fixed kinds kept; liquid exactly below h */
    unsigned char *fa = malloc(nc);
    CHECK_OK(lq_field_download(&A.f, fa));
    int bad = 0, kinds[6] = {0};
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                int c = LQ_MAC_CELL(i, j, k, nx, ny);
                kinds[fa[c]]++;
                if (lq_markers_fixed(f[c])) {
                    bad += fa[c] != f[c];
                    continue;
                }
                int liquid = (double)j * prm.dy < (double)ha[i + nx * k];
                bad += liquid != (fa[c] == LQ_MAC_FULL || fa[c] == LQ_MAC_SURFACE);
            }
    fprintf(stderr, "  cells: %d EMPTY, %d FULL, %d SURFACE\n", kinds[0], kinds[1], kinds[2]);
    CHECK(bad == 0 && kinds[1] > 0 && kinds[2] > 0);
    free(ha);
    free(fa);
done:
    side_close(&A);
    side_close(&B);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
    free(u), free(v), free(w), free(h), free(f);
}

/* --- 2. analytic -------------------------------------------------------------------- */

/* Fills u, w with a(y) and v with vy everywhere; u is s_u y, w is s_w y at cell rows. */
static void fill_flow(side *s, int nx, int ny, int nz, float dy, float su, float sw, float vy)
{
    float *u = s->u.host, *v = s->v.host, *w = s->w.host;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i <= nx; i++) u[LQ_MAC_U(i, j, k, nx, ny)] = su * (j + 0.5f) * dy;
    for (size_t q = 0; q < s->v.count; q++) v[q] = vy;
    for (int k = 0; k <= nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) w[LQ_MAC_W(i, j, k, nx, ny)] = sw * (j + 0.5f) * dy;
}

/* Uniform upward v: every wet column rises by v δt; a shear flow keeps a flat h flat. */
static void test_uniform_and_shear(int nz)
{
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    const int nx = 12, ny = 10;
    lq_machf_params prm = {0.01f, 0.05f, 0.04f, 0.06f};
    side A;
    if (side_open(&A, &ref, nx, ny, nz)) goto done;
    walls(A.f.host, nx, ny, nz);
    float h[12 * 12], h1[12 * 12];
    lq_rng r;
    lq_rng_seed(&r, 3);
    for (int q = 0; q < nx * nz; q++) h[q] = frand(&r, 2.2f, 6.8f) * prm.dy; /* rough */
    fill_flow(&A, nx, ny, nz, prm.dy, 0, 0, 0.7f);
    CHECK_OK(lq_machf_set(&A.st, h));
    CHECK_OK(lq_machf_advance(&A.ops, &A.st, &A.u, &A.v, &A.w, &A.f, &prm));
    CHECK_OK(lq_machf_get(&A.st, h1));
    double e = 0;
    int wet = 0;
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++) {
            int q = i + nx * k,
                interior = i > 0 && i < nx - 1 && (nz == 1 || (k > 0 && k < nz - 1));
            if (!interior) {
                CHECK(h1[q] == h[q]); /* wall columns keep their h */
                continue;
            }
            wet++;
            e = fmax(e, fabs((h1[q] - h[q]) - 0.7 * prm.dt));
        }
    fprintf(stderr, "uniform v, nz=%d: %d columns, max |Δh − v δt| %.2g (v δt %.3g)\n", nz, wet, e,
            0.7 * prm.dt);
    CHECK(wet > 0 && e < 1e-6);
    /* shear: u = 3 y, w = −2 y, v = 0; flat h at 4.3 δy */
    for (int q = 0; q < nx * nz; q++) h[q] = 4.3f * prm.dy;
    fill_flow(&A, nx, ny, nz, prm.dy, 3.0f, nz > 1 ? -2.0f : 0.0f, 0.0f);
    CHECK_OK(lq_machf_set(&A.st, h));
    for (int t = 0; t < 20; t++)
        CHECK_OK(lq_machf_advance(&A.ops, &A.st, &A.u, &A.v, &A.w, &A.f, &prm));
    CHECK_OK(lq_machf_get(&A.st, h1));
    CHECK(memcmp(h, h1, (size_t)nx * nz * 4) == 0);
    fprintf(stderr, "shear, nz=%d: flat surface after 20 steps: %s\n", nz,
            memcmp(h, h1, (size_t)nx * nz * 4) == 0 ? "flat" : "NOT flat");
done:
    side_close(&A);
    lq_ctx_close(&ref);
}

/* A dry column (h on its floor) beside a wet one rises when the liquid flows in (eq.
 * 12's horizontal term in the row above the floor); a column below its floor is lifted
 * onto it. */
static void test_dry(void)
{
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    const int nx = 8, ny = 8;
    const float d = 0.1f;
    lq_machf_params prm = {0.01f, d, d, d};
    side A;
    if (side_open(&A, &ref, nx, ny, 1)) goto done;
    walls(A.f.host, nx, ny, 1);
    fill_flow(&A, nx, ny, 1, d, 0, 0, 0);
    float *u = A.u.host;
    for (size_t q = 0; q < A.u.count; q++) u[q] = 1.0f;
    float h[8] = {0, 4.5f * d, 4.5f * d, 4.5f * d, d, d, 0.0f, 0}, h1[8];
    CHECK_OK(lq_machf_set(&A.st, h));
    CHECK_OK(lq_machf_advance(&A.ops, &A.st, &A.u, &A.v, &A.w, &A.f, &prm));
    CHECK_OK(lq_machf_get(&A.st, h1));
    double want = d + prm.dt * (3.5 * d) / (4 * d) * 2.0;
    fprintf(stderr, "dry column: %.6g -> %.6g (want %.6g); next %.6g, below-floor %g -> %g\n", h[4],
            h1[4], want, h1[5], h[6], h1[6]);
    CHECK_NEAR(h1[4], want, 1e-6);
    CHECK(h1[5] >= d && h1[5] < h1[4]); /* (it reads column 6's raw h, below the floor) */
    CHECK(h1[6] == d);                  /* h under the floor is lifted onto it */
done:
    side_close(&A);
    lq_ctx_close(&ref);
}

/* A sinusoid h = H + A sin(κ x) in 2D carried by a uniform u: the phase fitted over the
 * middle of the domain moves at u (forward Euler with eq. 12's centred difference has a
 * phase speed atan(C sin κδ)/(C κδ) of u: 0.974 here). Checked on both backends. */
static void test_phase(void)
{
    lq_ctx ref, cl;
    if (twin_open(&ref, &cl)) {
        CHECK(!"an OpenCL device is needed");
        return;
    }
    const int nx = 130, ny = 24, nz = 1, steps = 40;
    const double dx = 0.01, U = 0.5, C = 0.1, lambda = 16 * dx, kap = 2 * LQ_PI / lambda;
    lq_machf_params prm = {(float)(C * dx / U), (float)dx, (float)dx, (float)dx};
    float h[130], hr[130], hc[130];
    side S[2];
    lq_ctx *ctx[2] = {&ref, &cl};
    for (int s = 0; s < 2; s++)
        if (side_open(&S[s], ctx[s], nx, ny, nz)) goto done;
    for (int i = 0; i < nx; i++) h[i] = (float)((12 + 2 * sin(kap * (i + 0.5) * dx)) * dx);
    unsigned char *f = malloc((size_t)nx * ny);
    walls(f, nx, ny, nz);
    float *u = malloc(S[0].u.count * 4), *v = calloc(S[0].v.count, 4), *w = calloc(S[0].w.count, 4);
    for (size_t q = 0; q < S[0].u.count; q++) u[q] = (float)U;
    for (int s = 0; s < 2; s++) {
        CHECK_OK(lq_field_upload(&S[s].u, u));
        CHECK_OK(lq_field_upload(&S[s].v, v));
        CHECK_OK(lq_field_upload(&S[s].w, w));
        CHECK_OK(lq_field_upload(&S[s].f, f));
        CHECK_OK(lq_machf_set(&S[s].st, h));
        for (int t = 0; t < steps; t++)
            CHECK_OK(
                lq_machf_advance(&S[s].ops, &S[s].st, &S[s].u, &S[s].v, &S[s].w, &S[s].f, &prm));
    }
    CHECK_OK(lq_machf_get(&S[0].st, hr));
    CHECK_OK(lq_machf_get(&S[1].st, hc));
    CHECK(memcmp(hr, hc, sizeof hr) == 0);
    /* least squares a sin + b cos over columns 40..90 (far from the mirrored walls) */
    double ss = 0, cc = 0, sc = 0, ys = 0, yc = 0;
    for (int i = 40; i <= 90; i++) {
        double x = (i + 0.5) * dx, s1 = sin(kap * x), c1 = cos(kap * x), y = hr[i] - 12 * dx;
        ss += s1 * s1, cc += c1 * c1, sc += s1 * c1, ys += y * s1, yc += y * c1;
    }
    double det = ss * cc - sc * sc, a = (ys * cc - yc * sc) / det, b = (yc * ss - ys * sc) / det;
    /* A sin(κ(x − s)) = A cos(κs) sin κx − A sin(κs) cos κx */
    double shift = atan2(-b, a) / kap, T = steps * (double)prm.dt;
    double speed = shift / T, amp = hypot(a, b) / (2 * dx);
    double theory = atan(C * sin(kap * dx)) / (C * kap * dx);
    fprintf(stderr,
            "phase: shift %.4g m in %.3g s: speed %.4f m/s (u %.2f, ratio %.4f, scheme %.4f), "
            "amplitude ×%.4f\n",
            shift, T, speed, U, speed / U, theory, amp);
    CHECK(fabs(speed / U - 1) < 0.05);
    CHECK(fabs(speed / U - theory) < 0.01);
    CHECK(amp > 0.98 && amp < 1.06);
    free(f), free(u), free(v), free(w);
done:
    for (int s = 0; s < 2; s++) side_close(&S[s]);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
}

/* Known h on an 8×8×8 walled box: counts of each kind, initialisation and volume. */
static void test_classify_known(void)
{
    lq_ctx ref, cl;
    if (twin_open(&ref, &cl)) {
        CHECK(!"an OpenCL device is needed");
        return;
    }
    const int n = 8;
    const float d = 0.1f;
    lq_machf_params prm = {0.01f, d, d, d};
    float h[64];
    unsigned char f0[512], fa[512], fb[512];
    side A, B;
    if (side_open(&A, &ref, n, n, n) || side_open(&B, &cl, n, n, n)) goto done;
    struct {
        const char *what;
        float flat, raised; /* in cells */
        int obstacle;
        int want[3]; /* EMPTY, FULL, SURFACE */
    } cases[] = {
        {"flat 3.5", 3.5f, 3.5f, 0, {108, 72, 36}},
        /* one column (3,3) at 5.2: rows 4 and 5 SURFACE there, 3 FULL, 6 EMPTY */
        {"raised column", 3.5f, 5.2f, 0, {106, 73, 37}},
        {"h on a face (3.0)", 3.0f, 3.0f, 0, {144, 36, 36}},
        /* an obstacle cell at (2,2,2) under the surface: untouched, no neighbour EMPTY */
        {"obstacle", 3.5f, 3.5f, 1, {108, 71, 36}},
    };
    for (size_t t = 0; t < LQ_COUNT(cases); t++) {
        walls(f0, n, n, n);
        if (cases[t].obstacle) f0[LQ_MAC_CELL(2, 2, 2, n, n)] = LQ_MAC_SOLID;
        for (int q = 0; q < n * n; q++) h[q] = cases[t].flat * d;
        h[3 + n * 3] = cases[t].raised * d;
        side *ss[] = {&A, &B};
        for (int s = 0; s < 2; s++) {
            CHECK_OK(lq_field_upload(&ss[s]->f, f0));
            CHECK_OK(lq_machf_set(&ss[s]->st, h));
            CHECK_OK(lq_machf_classify(&ss[s]->ops, &ss[s]->st, &ss[s]->f, &prm));
        }
        CHECK_OK(lq_field_download(&A.f, fa));
        CHECK_OK(lq_field_download(&B.f, fb));
        CHECK(memcmp(fa, fb, sizeof fa) == 0);
        int kinds[6] = {0};
        for (int q = 0; q < 512; q++) kinds[fa[q]]++;
        fprintf(stderr, "classify %-18s: %d EMPTY, %d FULL, %d SURFACE, %d SOLID\n", cases[t].what,
                kinds[0], kinds[1], kinds[2], kinds[3]);
        CHECK(kinds[0] == cases[t].want[0] && kinds[1] == cases[t].want[1] &&
              kinds[2] == cases[t].want[2]);
        CHECK(kinds[3] == 512 - 216 + cases[t].obstacle);
        if (t == 1) {
            int c = LQ_MAC_CELL(3, 0, 3, n, n); /* the stride in j is n */
            CHECK(fa[c + 3 * n] == LQ_MAC_FULL && fa[c + 4 * n] == LQ_MAC_SURFACE &&
                  fa[c + 5 * n] == LQ_MAC_SURFACE && fa[c + 6 * n] == LQ_MAC_EMPTY);
            /* from the flags back: 1 + the highest liquid row */
            float hf[64];
            lq_machf_from_flags(n, n, n, d, fa, hf);
            CHECK_NEAR(hf[3 + n * 3], 6 * d, 1e-6);
            CHECK_NEAR(hf[1 + n * 1], 4 * d, 1e-6);
            CHECK(hf[0] == 0.0f);
        }
        if (t == 0) {
            lq_machf_measure m;
            lq_machf_measure_host(n, n, n, d, d, d, f0, h, &m);
            double want = 36 * 2.5 * d * d * d;
            fprintf(stderr, "  volume %.6g (want %.6g), max slope %.3g, %d steep\n", m.volume, want,
                    m.max_slope, m.steep);
            CHECK_NEAR(m.volume, want, 1e-6 * want);
            CHECK(m.max_slope == 0 && m.steep == 0);
        }
        if (t == 1) {
            lq_machf_measure m;
            lq_machf_measure_host(n, n, n, d, d, d, f0, h, &m);
            fprintf(stderr, "  raised: max slope %.3g, %d steep\n", m.max_slope, m.steep);
            CHECK_NEAR(m.max_slope, 1.7, 1e-5);
            CHECK(m.steep == 3); /* (2,3) and (3,2) see it at +x/+z; (3,3) sees its own */
        }
    }
    /* from shapes: a level box and a ball on top (2D and 3D) */
    {
        lq_markers_shape sh[3] = {
            {.kind = LQ_MARKERS_BOX, .a = {0, 0, 0}, .b = {0.8f, 0.25f, 0.8f}},
            {.kind = LQ_MARKERS_SPHERE, .a = {0.4f, 0.3f, 0.4f}, .r = 0.15f},
            {.kind = LQ_MARKERS_WAVE,
             .a = {0, 0, 0},
             .b = {0.8f, 0.8f, 0.8f},
             .level = 0.4f,
             .amp = 0.05f,
             .k = (float)(2 * LQ_PI / 0.8),
             .x0 = 0.05f,
             .axis = 2}};
        lq_machf_from_shapes(n, n, n, d, d, d, NULL, 2, sh, h);
        CHECK_NEAR(h[0], 0.25, 1e-6);
        CHECK_NEAR(h[3 + n * 3], 0.3 + sqrt(0.15 * 0.15 - 2 * 0.05 * 0.05), 1e-6);
        lq_machf_from_shapes(n, n, 1, d, d, d, NULL, 1, &sh[1], h);
        CHECK_NEAR(h[4], 0.3 + sqrt(0.15 * 0.15 - 0.05 * 0.05), 1e-6);
        CHECK(h[0] == 0.0f);
        lq_machf_from_shapes(n, n, n, d, d, d, NULL, 1, &sh[2], h);
        CHECK_NEAR(h[5 + n * 0], 0.45, 1e-6); /* z = x0: the crest */
        CHECK_NEAR(h[5 + n * 4], 0.35, 1e-6); /* half a wavelength on: the trough */
        /* with flags: a dry column sits on its floor (the wall layer's top), wall
         * columns on the grid's top */
        walls(f0, n, n, n);
        lq_machf_from_shapes(n, n, n, d, d, d, f0, 1, &sh[1], h);
        CHECK_NEAR(h[1 + n * 1], d, 1e-7);
        CHECK_NEAR(h[0], (n - 1) * d, 1e-6);
    }
done:
    side_close(&A);
    side_close(&B);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
}

int main(void)
{
    (void)twin_alloc;
    (void)twin_release;
    test_twins(19, 13, 11, 2024);
    test_twins(23, 17, 1, 7);
    test_uniform_and_shear(1);
    test_uniform_and_shear(8);
    test_dry();
    test_phase();
    test_classify_known();
    CHECK_DONE();
}
