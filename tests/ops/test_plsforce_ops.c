/*
 * test_plsforce_ops.c — the pls solver's small operations (host/ops/pls/plsforce.h):
 *  1. reference twin vs OpenCL (PoCL in CI) on random fields with random objects, 3D and
 *     2D: the body force's faces, the max speeds and the fixed-point volume must agree
 *     bit for bit ("plsforce.*" in host/core/tolerance.c);
 *  2. independent checks: the body force adds exactly g·dt (rounded once) on interior
 *     open faces beside liquid, keeps air-only faces, and leaves 0 on the domain edge and
 *     next to solids; the max speed equals
 *     a plain host max of |q| and shows a NaN as not finite; the volume of a flat
 *     surface at height Y is nx·nz·Y/h cells (to float rounding of φ), a sphere's is
 *     4/3 π R³ within 1 %, solid cells hold none, and a NaN φ is counted.
 */
#include "ops/pls/plsforce.h"
#include "lib/twin.h"

static float frand(lq_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)lq_rng_uniform(r);
}

static void fill(lq_rng *r, float *a, size_t n, float lo, float hi)
{
    for (size_t i = 0; i < n; i++) a[i] = frand(r, lo, hi);
}

static void test_twins(int nx, int ny, int nz, uint64_t seed)
{
    fprintf(stderr, "twins %dx%dx%d:\n", nx, ny, nz);
    lq_ctx ref, cl;
    if (twin_open(&ref, &cl)) {
        CHECK(0);
        return;
    }
    lq_rng r;
    lq_rng_seed(&r, seed);
    size_t nu = (size_t)(nx + 1) * ny * nz, nv = (size_t)nx * (ny + 1) * nz,
           nw = (size_t)nx * ny * (nz + 1), nc = (size_t)nx * ny * nz;
    float *u = malloc(nu * 4), *v = malloc(nv * 4), *w = malloc(nw * 4), *phi = malloc(nc * 4),
          *sdf = malloc(nc * 4);
    fill(&r, u, nu, -3, 3);
    fill(&r, v, nv, -3, 3);
    fill(&r, w, nw, -3, 3);
    fill(&r, phi, nc, -0.2f, 0.2f);
    fill(&r, sdf, nc, -0.05f, 1.0f);
    twin_pair U, V, W, P, S;
    CHECK_OK(twin_alloc(&U, &ref, &cl, "u", nx + 1, ny, nz, 4, u));
    CHECK_OK(twin_alloc(&V, &ref, &cl, "v", nx, ny + 1, nz, 4, v));
    CHECK_OK(twin_alloc(&W, &ref, &cl, "w", nx, ny, nz + 1, 4, w));
    CHECK_OK(twin_alloc(&P, &ref, &cl, "phi", nx, ny, nz, 4, phi));
    CHECK_OK(twin_alloc(&S, &ref, &cl, "sdf", nx, ny, nz, 4, sdf));
    lq_plsforce_ops oa, ob;
    CHECK_OK(lq_plsforce_ops_init(&oa, &ref, nx, ny, nz));
    CHECK_OK(lq_plsforce_ops_init(&ob, &cl, nx, ny, nz));
    double g[3] = {0.3, -9.81, 0.7};
    for (int with = 0; with < 2; with++) {
        const lq_field *sa = with ? &S.ref : NULL, *sb = with ? &S.cl : NULL;
        CHECK_OK(lq_plsforce_body_force(&oa, &U.ref, &V.ref, &W.ref, &P.ref, sa, g, 0.0123));
        CHECK_OK(lq_plsforce_body_force(&ob, &U.cl, &V.cl, &W.cl, &P.cl, sb, g, 0.0123));
        twin_check_exact("plsforce.body", &U);
        twin_check_exact("plsforce.body", &V);
        twin_check_exact("plsforce.body", &W);
        float ma[3], mb[3];
        CHECK_OK(lq_plsforce_max_speed(&oa, &U.ref, &V.ref, &W.ref, ma));
        CHECK_OK(lq_plsforce_max_speed(&ob, &U.cl, &V.cl, &W.cl, mb));
        CHECK(memcmp(ma, mb, sizeof ma) == 0);
        double ca, cb;
        int ba, bb;
        CHECK_OK(lq_plsforce_volume(&oa, &P.ref, sa, 0.05f, &ca, &ba));
        CHECK_OK(lq_plsforce_volume(&ob, &P.cl, sb, 0.05f, &cb, &bb));
        fprintf(stderr, "  plsforce.volume   %s objects: %.9g vs %.9g cells\n",
                with ? "with" : "no", ca, cb);
        CHECK(ca == cb && ba == 0 && bb == 0 && ca > 0);
        CHECK_OK(lq_plsforce_volume_pl(&oa, &P.ref, sa, 0.05f, &ca, &ba));
        CHECK_OK(lq_plsforce_volume_pl(&ob, &P.cl, sb, 0.05f, &cb, &bb));
        CHECK_OK(lq_plsforce_shift(&oa, &P.ref, sa, 0.0123f));
        CHECK_OK(lq_plsforce_shift(&ob, &P.cl, sb, 0.0123f));
        twin_check_exact("plsforce.shift", &P);
        fprintf(stderr, "  plsforce.volume_pl %s objects: %.9g vs %.9g cells\n",
                with ? "with" : "no", ca, cb);
        CHECK(ca == cb && ba == 0 && bb == 0 && ca > 0);
    }
    lq_plsforce_ops_release(&oa);
    lq_plsforce_ops_release(&ob);
    twin_release(&U);
    twin_release(&V);
    twin_release(&W);
    twin_release(&P);
    twin_release(&S);
    free(u);
    free(v);
    free(w);
    free(phi);
    free(sdf);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
}

/* Independent checks on the reference path. */
static void test_math(int nz)
{
    fprintf(stderr, "math nz = %d:\n", nz);
    int nx = 12, ny = 10;
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, "ref", false));
    lq_field u, v, w, phi, sdf;
    CHECK_OK(lq_field_alloc(&ctx, &u, "u", nx + 1, ny, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &v, "v", nx, ny + 1, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &w, "w", nx, ny, nz + 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &phi, "phi", nx, ny, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &sdf, "sdf", nx, ny, nz, 4));
    lq_plsforce_ops o;
    CHECK_OK(lq_plsforce_ops_init(&o, &ctx, nx, ny, nz));
    float *U = u.host, *V = v.host, *W = w.host, *P = phi.host, *S = sdf.host;
    for (size_t f = 0; f < u.count; f++) U[f] = 1.0f;
    for (size_t f = 0; f < v.count; f++) V[f] = 1.0f;
    for (size_t f = 0; f < w.count; f++) W[f] = 1.0f;
    for (size_t c = 0; c < sdf.count; c++) S[c] = 1.0f;
    int sc = LQ_MAC_CELL(5, 4, nz > 1 ? 3 : 0, nx, ny); /* one solid cell */
    S[sc] = -0.01f;
    double g[3] = {0.5, -9.81, 0.25}, dt = 0.01;
    /* liquid below y = 6.5 h (φ ≤ 0 up to cell row 6): rows 8 and up are air on both sides */
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) P[LQ_MAC_CELL(i, j, k, nx, ny)] = (float)(j - 6.5);
    CHECK_OK(lq_plsforce_body_force(&o, &u, &v, &w, &phi, &sdf, g, dt));
    int k0 = nz > 1 ? 3 : 0, bad = 0;
    float gy = (float)(g[1] * dt);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j <= ny; j++)
            for (int i = 0; i < nx; i++) {
                float want = 1.0f + gy;
                if (j >= 8) want = 1.0f; /* air on both sides: kept */
                if (j == 0 || j == ny) want = 0;
                if (i == 5 && k == k0 && (j == 4 || j == 5)) want = 0; /* the solid's faces */
                bad += V[LQ_MAC_V(i, j, k, nx, ny)] != want;
            }
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i <= nx; i++) {
                float want = 1.0f + (float)(g[0] * dt);
                if (j >= 7) want = 1.0f;
                if (i == 0 || i == nx) want = 0;
                if (j == 4 && k == k0 && (i == 5 || i == 6)) want = 0;
                bad += U[LQ_MAC_U(i, j, k, nx, ny)] != want;
            }
    CHECK_MSG(bad == 0, "body force: %d faces wrong", bad);
    if (nz == 1) CHECK(W[0] == 1.0f); /* 2D: w untouched */
    /* max speed */
    U[7] = -4.5f;
    V[9] = 2.25f;
    float sm[3];
    CHECK_OK(lq_plsforce_max_speed(&o, &u, &v, &w, sm));
    CHECK(sm[0] == 4.5f && sm[1] == 2.25f);
    if (nz > 1) CHECK(sm[2] == (float)(1.0f + (float)(g[2] * dt)));
    CHECK(sm[1] == 2.25f);
    V[3] = NAN;
    CHECK_OK(lq_plsforce_max_speed(&o, &u, &v, &w, sm));
    CHECK(!isfinite(sm[1]));
    /* volume: a flat surface at Y = 3.3 cells (h = 0.1), then a sphere */
    float h = 0.1f;
    double cells;
    int nbad;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) P[LQ_MAC_CELL(i, j, k, nx, ny)] = (j + 0.5f) * h - 0.33f;
    CHECK_OK(lq_plsforce_volume(&o, &phi, NULL, h, &cells, &nbad));
    fprintf(stderr, "  flat: %.6f cells (want %.6f)\n", cells, nx * nz * 3.3);
    CHECK_NEAR(cells, nx * nz * 3.3, 1e-4);
    CHECK(nbad == 0);
    /* the zero set's volume: exact for a plane, and the same for φ scaled by 3 */
    CHECK_OK(lq_plsforce_volume_pl(&o, &phi, NULL, h, &cells, &nbad));
    fprintf(stderr, "  flat, zero set: %.6f cells (want %.6f)\n", cells, nx * nz * 3.3);
    CHECK_NEAR(cells, nx * nz * 3.3, 1e-4);
    CHECK(nbad == 0);
    for (int c = 0; c < nx * ny * nz; c++) P[c] *= 3.0f;
    double scaled;
    CHECK_OK(lq_plsforce_volume_pl(&o, &phi, NULL, h, &scaled, &nbad));
    CHECK_NEAR(scaled, cells, 1e-4);
    for (int c = 0; c < nx * ny * nz; c++) P[c] /= 3.0f;
    /* a solid cell below the surface: its whole cell is gone */
    S[sc] = 1.0f;
    S[LQ_MAC_CELL(5, 1, k0, nx, ny)] = -0.01f;
    CHECK_OK(lq_plsforce_volume(&o, &phi, &sdf, h, &cells, &nbad));
    CHECK_NEAR(cells, nx * nz * 3.3 - 1.0, 1e-4);
    P[2] = NAN;
    CHECK_OK(lq_plsforce_volume(&o, &phi, NULL, h, &cells, &nbad));
    CHECK(nbad == 1);
    lq_plsforce_ops_release(&o);
    lq_field *fs[] = {&u, &v, &w, &phi, &sdf};
    for (int i = 0; i < 5; i++) lq_field_release(fs[i]);
    lq_ctx_close(&ctx);
}

static void test_sphere(void)
{
    int n = 40;
    double h = 1.0 / n, R = 0.3;
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, "ref", false));
    lq_field phi;
    CHECK_OK(lq_field_alloc(&ctx, &phi, "phi", n, n, n, 4));
    float *P = phi.host;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                double x = (i + 0.5) * h - 0.5, y = (j + 0.5) * h - 0.5, z = (k + 0.5) * h - 0.5;
                P[LQ_MAC_CELL(i, j, k, n, n)] = (float)(sqrt(x * x + y * y + z * z) - R);
            }
    lq_plsforce_ops o;
    CHECK_OK(lq_plsforce_ops_init(&o, &ctx, n, n, n));
    double cells;
    int bad;
    CHECK_OK(lq_plsforce_volume(&o, &phi, NULL, (float)h, &cells, &bad));
    double want = 4.0 / 3.0 * LQ_PI * R * R * R / (h * h * h);
    fprintf(stderr, "sphere R = %g h: %.2f cells, exact %.2f (%.3f %%)\n", R / h, cells, want,
            100 * (cells - want) / want);
    CHECK(fabs(cells - want) < 0.01 * want);
    /* the zero set's volume: the sphere's, and unchanged when φ is not a distance (its
     * square's sign: (r² − R²) / (2R) has the same zero set, |∇| = r / R) */
    double pl, pl2;
    CHECK_OK(lq_plsforce_volume_pl(&o, &phi, NULL, (float)h, &pl, &bad));
    for (int c = 0; c < n * n * n; c++) {
        double r = P[c] + R;
        P[c] = (float)((r * r - R * R) / (2 * R));
    }
    CHECK_OK(lq_plsforce_volume_pl(&o, &phi, NULL, (float)h, &pl2, &bad));
    CHECK_OK(lq_plsforce_volume(&o, &phi, NULL, (float)h, &cells, &bad));
    fprintf(stderr,
            "sphere, zero set: %.2f cells (%.3f %%), φ squared: %.2f (%.3f %%; per-cell measure "
            "%.3f %%)\n",
            pl, 100 * (pl - want) / want, pl2, 100 * (pl2 - want) / want,
            100 * (cells - want) / want);
    CHECK(fabs(pl - want) < 0.01 * want);
    CHECK(fabs(pl2 - pl) < 0.002 * want);
    lq_plsforce_ops_release(&o);
    lq_field_release(&phi);
    lq_ctx_close(&ctx);
}

int main(void)
{
    (void)twin_check_float;
    test_twins(19, 13, 11, 2024);
    test_twins(23, 17, 1, 7);
    test_math(6);
    test_math(1);
    test_sphere();
    CHECK_DONE();
}
