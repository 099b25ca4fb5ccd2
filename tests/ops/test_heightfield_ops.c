/*
 * test_heightfield_ops.c — the height-field operations, one by one:
 *  1. the line solver against a dense solve of the same matrix (eq. 15–16);
 *  2. one solve conserves Σh (unit column sums of A); the split solve repeated on the
 *     defect converges to the unsplit 2D solve;
 *  3. connected-region labels against an independent flood fill;
 *  4. reference twin vs OpenCL (PoCL in CI) for every operation on random inputs,
 *     with the tolerances of host/core/tolerance.c;
 *  5. the parallel line solve (shallow.line_solve: pcr) against a dense solve and the
 *     Thomas solve for lines of 1 to 1031 cells, and its kernels against its twin.
 */
#include "ops/hf/heightfield.h"
#include "lib/twin.h"

#define NX 67
#define NZ 45
#define N  (NX * NZ)

/* Closed walls, and every wall open and absorbing at once (the twins run every branch). */
static const lq_heightfield_walls CLOSED = {0, 0.0f, 0.0f, 0.0f, 0, 0.0f, 0.0f};
static const lq_heightfield_walls WALLS = {15, 0.05f, 0.03f, 0.6f, 15, 6.0f, 0.4f};

static float frand(lq_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)lq_rng_uniform(r);
}

/* A rough bed with islands, a lake to level 1.0 with noise, some dry cells. */
static void make_state(lq_rng *r, float *b, float *h1, float *h0, float eps)
{
    for (int k = 0; k < NZ; k++)
        for (int i = 0; i < NX; i++) {
            int idx = i + NX * k;
            float bb = 0.6f + 0.3f * sinf(0.21f * (float)i) * cosf(0.17f * (float)k) +
                       frand(r, -0.05f, 0.05f);
            if ((i / 9 + k / 7) % 5 == 0) bb += 0.6f; /* islands above the surface */
            if (i == 30 || k == 20) bb = 1.5f;        /* ridges: four separate lakes */
            b[idx] = bb;
            float h = 1.0f + frand(r, -0.02f, 0.02f);
            h1[idx] = h > bb ? h : bb - eps;
            h0[idx] = h > bb ? h + frand(r, -0.01f, 0.01f) : bb - eps;
        }
}

/* Dense Gaussian elimination (double) of A x = r along one line, A from eq. 16. */
static void dense_line(const float *h1, const float *b, const double *rhs, int base, int stride,
                       int n, double kappa, double *x)
{
    double *A = calloc((size_t)n * (size_t)n, sizeof *A), *y = malloc((size_t)n * sizeof *y);
    for (int t = 0; t < n; t++) A[t * n + t] = 1.0;
    for (int t = 0; t + 1 < n; t++) {
        int a = base + t * stride, c = a + stride;
        double e = kappa * (double)lq_heightfield_edge_depth(h1[a], b[a], h1[c], b[c]);
        A[t * n + t] += e;
        A[(t + 1) * n + t + 1] += e;
        A[t * n + t + 1] -= e;
        A[(t + 1) * n + t] -= e;
    }
    for (int t = 0; t < n; t++) y[t] = rhs[t];
    for (int c = 0; c < n; c++) /* no pivoting needed: diagonally dominant */
        for (int r = c + 1; r < n; r++) {
            double f = A[r * n + c] / A[c * n + c];
            if (f == 0) continue;
            for (int j = c; j < n; j++) A[r * n + j] -= f * A[c * n + j];
            y[r] -= f * y[c];
        }
    for (int r = n - 1; r >= 0; r--) {
        double s = y[r];
        for (int j = r + 1; j < n; j++) s -= A[r * n + j] * x[j];
        x[r] = s / A[r * n + r];
    }
    free(A);
    free(y);
}

static void test_dense_and_conservation(void)
{
    lq_rng r;
    lq_rng_seed(&r, 7);
    static float b[N], h1[N], h0[N], out[N], cp[N], rhs_copy[N];
    const float eps = 1e-5f, kappa = 3.7f;
    make_state(&r, b, h1, h0, eps);
    for (int i = 0; i < N; i++) out[i] = rhs_copy[i] = 0.01f * sinf(0.37f * (float)i) + 0.002f;
    for (int k = 0; k < NZ; k++)
        lq_heightfield_solve_line(h1, b, h1, out, cp, k * NX, 1, NX, kappa, 0, 0.0f, 0.0f);
    double worst = 0, worst_sum = 0;
    for (int k = 0; k < NZ; k++) {
        double rhs[NX], x[NX], s_rhs = 0, s_out = 0;
        for (int i = 0; i < NX; i++) {
            rhs[i] = rhs_copy[i + NX * k];
            s_rhs += rhs[i];
            s_out += out[i + NX * k];
        }
        dense_line(h1, b, rhs, k * NX, 1, NX, kappa, x);
        for (int i = 0; i < NX; i++) worst = fmax(worst, fabs(x[i] - out[i + NX * k]));
        worst_sum = fmax(worst_sum, fabs(s_rhs - s_out) / fabs(s_rhs));
    }
    fprintf(stderr, "  line solve vs dense: max error %.3g m; row-sum drift %.3g\n", worst,
            worst_sum);
    CHECK(worst < 1e-8);     /* float solve of centimetre right-hand sides */
    CHECK(worst_sum < 1e-5); /* Σ conserved to round-off (unit column sums) */

    /* columns, in place, adding h1 back (the last sub-iteration) */
    for (int i = 0; i < N; i++) out[i] = rhs_copy[i];
    for (int i = 0; i < NX; i++)
        lq_heightfield_solve_line(h1, b, h1, out, cp, i, NX, NZ, kappa, 1, 0.0f, 0.0f);
    worst = 0;
    for (int i = 0; i < NX; i++) {
        double rhs[NZ], x[NZ];
        for (int k = 0; k < NZ; k++) rhs[k] = rhs_copy[i + NX * k];
        dense_line(h1, b, rhs, i, NX, NZ, kappa, x);
        for (int k = 0; k < NZ; k++)
            worst = fmax(worst, fabs(h1[i + NX * k] + x[k] - out[i + NX * k]));
    }
    fprintf(stderr, "  column solve vs dense: max error %.3g m\n", worst);
    CHECK(worst < 2e-7); /* one rounding of h1 + x */

    /* Delta form: water at rest over this uneven bed, shoreline included, has R = 0
     * exactly, so it stays exactly at rest. */
    float level = 1.0f;
    static float u0[(NX + 1) * NZ], w0[NX * (NZ + 1)];
    int nonzero = 0;
    for (int i = 0; i < N; i++) h1[i] = b[i] < level ? level : b[i] - eps;
    for (int k = 0; k < NZ; k++)
        for (int i = 0; i < NX; i++)
            nonzero += lq_heightfield_residual_cell(h1, u0, w0, b, h1, i, k, NX, NZ, kappa, 0.1f, 0,
                                                    0.0f) != 0.0f;
    fprintf(stderr, "  residual of a lake at rest: %d nonzero cells\n", nonzero);
    CHECK(nonzero == 0);
}

/* The thin-film limiter (shallow.thin_film): √(g D / 2) per axis below the threshold,
 * D the shallower cell's depth (half the wet one's at a shoreline), √(g D / 2)(D/thin)²
 * above it, continuous at it, off at 0, and never faster than asked. */
static void test_thin_film(void)
{
    const float g = 9.81f, thin = 0.01f;
    float da[5] = {0.002f, 0.01f, 0.03f, 0.5f, 0.004f}, db[5] = {0.5f, 0.01f, 0.02f, 0.5f, 0.0f};
    float Dw[5] = {0.002f, 0.01f, 0.02f, 0.5f, 0.002f};
    for (int j = 0; j < 5; j++) {
        float D = Dw[j], r = D > thin ? D / thin : 1.0f, cap = sqrtf(0.5f * g * D) * (r * r);
        float fast = lq_heightfield_thin_film(7.0f, da[j], db[j], g, thin);
        float back = lq_heightfield_thin_film(-7.0f, db[j], da[j], g, thin);
        float slow = lq_heightfield_thin_film(0.01f, da[j], db[j], g, thin);
        fprintf(stderr, "  thin film: depths %.3f, %.3f m: 7 m/s capped to %.4f (cap %.4f)\n",
                da[j], db[j], fast, cap);
        CHECK(fast == fminf(7.0f, cap) && back == -fast && slow == 0.01f);
    }
    CHECK(lq_heightfield_thin_film(7.0f, 0.002f, 0.002f, g, 0.0f) == 7.0f);
    float below = lq_heightfield_thin_film(7.0f, thin * 0.99999f, 1.0f, g, thin);
    float above = lq_heightfield_thin_film(7.0f, thin * 1.00001f, 1.0f, g, thin);
    CHECK(fabsf(above - below) < 1e-4f); /* continuous where it changes law */
}

/* The split solve repeated on the defect (heightfield_cell.h) converges to the solution
 * of the unsplit 2D system (I − κ_s L) Δ = R, found here by dense elimination, on a bed
 * with islands and dry cells; the single split solve does not. */
static void test_iterated_split(void)
{
    enum { SX = 14, SZ = 11, SN = SX * SZ };
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, "ref", false));
    static float b[SN], h1[SN], u[(SX + 1) * SZ], w[SX * (SZ + 1)];
    lq_rng r;
    lq_rng_seed(&r, 11);
    for (int k = 0; k < SZ; k++)
        for (int i = 0; i < SX; i++) {
            int c = i + SX * k;
            b[c] = 0.2f * sinf(0.5f * (float)i) + frand(&r, 0.0f, 0.1f);
            if ((i == 4 && k < 6) || (i == 9 && k == 7)) b[c] = 2.0f; /* a wall, an island */
            h1[c] = 1.0f + frand(&r, -0.05f, 0.05f);
            if (h1[c] <= b[c]) h1[c] = b[c] - 1e-5f;
        }
    for (int c = 0; c < (SX + 1) * SZ; c++) u[c] = (c % (SX + 1)) ? frand(&r, -0.3f, 0.3f) : 0;
    for (int c = 0; c < SX * (SZ + 1); c++)
        w[c] = (c >= SX && c < SX * SZ) ? frand(&r, -0.3f, 0.3f) : 0;
    const float kappa = 12.0f, kappa_s = 6.0f, cdt = 0.2f; /* C² ≈ 12: a large step */
    lq_field H1, B, U, W, HN, HX, CP;
    CHECK_OK(lq_field_alloc(&ctx, &H1, "h1", SX, SZ, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &B, "b", SX, SZ, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &U, "u", SX + 1, SZ, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &W, "w", SX, SZ + 1, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &HN, "hn", SX, SZ, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &HX, "hx", SX, SZ, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &CP, "cp", SX, SZ, 1, 4));
    lq_field_upload(&H1, h1);
    lq_field_upload(&B, b);
    lq_field_upload(&U, u);
    lq_field_upload(&W, w);
    /* the unsplit system, dense, in double */
    static double A[SN * SN], y[SN], x[SN];
    for (int k = 0; k < SZ; k++)
        for (int i = 0; i < SX; i++) {
            int c = i + SX * k;
            y[c] = lq_heightfield_residual_cell(h1, u, w, b, h1, i, k, SX, SZ, kappa, cdt, 0, 0.0f);
            A[c * SN + c] += 1.0;
            int nb[2] = {i + 1 < SX ? c + 1 : -1, k + 1 < SZ ? c + SX : -1};
            for (int q = 0; q < 2; q++) {
                if (nb[q] < 0) continue;
                double e =
                    kappa_s * (double)lq_heightfield_edge_depth(h1[c], b[c], h1[nb[q]], b[nb[q]]);
                A[c * SN + c] += e;
                A[nb[q] * SN + nb[q]] += e;
                A[c * SN + nb[q]] -= e;
                A[nb[q] * SN + c] -= e;
            }
        }
    for (int c = 0; c < SN; c++)
        for (int rr = c + 1; rr < SN; rr++) {
            double f = A[rr * SN + c] / A[c * SN + c];
            if (f == 0) continue;
            for (int j = c; j < SN; j++) A[rr * SN + j] -= f * A[c * SN + j];
            y[rr] -= f * y[c];
        }
    double xmax = 0;
    for (int rr = SN - 1; rr >= 0; rr--) {
        double t = y[rr];
        for (int j = rr + 1; j < SN; j++) t -= A[rr * SN + j] * x[j];
        x[rr] = t / A[rr * SN + rr];
        xmax = fmax(xmax, fabs(x[rr]));
    }
    /* the split solve, then repeated on the defect */
    lq_heightfield_ref_residual(SX, SZ, &H1, &U, &W, &B, &H1, &HN, kappa, cdt, &CLOSED);
    lq_heightfield_ref_adi_x(SX, SZ, &H1, &B, &HN, &CP, kappa_s, 0.0f, 0.0f);
    lq_heightfield_ref_adi_z(SX, SZ, &H1, &B, &H1, &HN, &CP, kappa_s, 0.0f, 0.0f);
    double err[201];
    for (int m = 1; m <= 200; m++) {
        const float *hn = HN.host;
        err[m] = 0;
        for (int c = 0; c < SN; c++)
            err[m] = fmax(err[m], fabs((double)hn[c] - (double)h1[c] - x[c]));
        err[m] /= xmax;
        lq_heightfield_ref_defect(SX, SZ, &H1, &HN, &U, &W, &B, &H1, &HX, kappa, cdt, kappa_s,
                                  &CLOSED);
        lq_heightfield_ref_adi_x(SX, SZ, &H1, &B, &HX, &CP, kappa_s, 0.0f, 0.0f);
        lq_heightfield_ref_adi_z(SX, SZ, &H1, &B, &HN, &HX, &CP, kappa_s, 0.0f, 0.0f);
        lq_field t = HN;
        HN = HX;
        HX = t;
    }
    fprintf(stderr,
            "  split solve vs the unsplit system (C^2 = 12): error %.3g of max|x| after 1 solve, "
            "%.3g after 4, %.3g after 200\n",
            err[1], err[4], err[200]);
    /* the plain ADI is far off at this step (random velocities: grid-scale diagonal modes,
     * which converge slowest, factor (6·4 D/(1 + 6·4 D))² ≈ 0.92 per solve)... */
    CHECK(err[1] > 0.05);
    CHECK(err[4] < err[1]);
    CHECK(err[200] < 1e-4); /* ...and the iteration converges to the unsplit solve */
    lq_field *fs[] = {&H1, &B, &U, &W, &HN, &HX, &CP};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
    lq_ctx_close(&ctx);
}

/* Semi-Lagrangian advection of a velocity field that is uniform along x and linear
 * along z by a uniform flow: bilinear interpolation is exact for it, so each face
 * must take the value one step upstream exactly (away from the clamped walls). */
static void test_advect_exact(void)
{
    enum { AX = 24, AZ = 20 };
    static float h[AX * AZ], bb[AX * AZ], u[(AX + 1) * AZ], w[AX * (AZ + 1)], ua[(AX + 1) * AZ],
        wa[AX * (AZ + 1)];
    for (int c = 0; c < AX * AZ; c++) {
        bb[c] = 0.0f;
        h[c] = 1.0f;
    }
    /* u = 0.5 + 0.1 z (index units), w = 0.25 everywhere inside */
    for (int k = 0; k < AZ; k++)
        for (int i = 0; i <= AX; i++)
            u[i + (AX + 1) * k] = (i == 0 || i == AX) ? 0.0f : 0.5f + 0.1f * (float)k;
    for (int k = 0; k <= AZ; k++)
        for (int i = 0; i < AX; i++) w[i + AX * k] = (k == 0 || k == AZ) ? 0.0f : 0.25f;
    const float dt_dx = 1.5f;
    for (int k = 0; k < AZ; k++)
        for (int i = 0; i < AX; i++)
            lq_heightfield_advect_cell(h, bb, u, w, ua, wa, i, k, AX, AZ, dt_dx);
    double worst = 0;
    for (int k = 4; k < AZ - 4; k++)
        for (int i = 4; i < AX - 4; i++) {
            /* the face's w is the mean of four inner w faces: 0.25 */
            double expect = 0.5 + 0.1 * ((double)k - dt_dx * 0.25);
            worst = fmax(worst, fabs(ua[i + (AX + 1) * k] - expect));
        }
    fprintf(stderr, "  advection of a linear field: max error %.3g\n", worst);
    CHECK(worst < 1e-6);
}

/* Independent labelling: BFS flood fill, then compare partitions via the smallest
 * index of each region. */
static void test_labels(void)
{
    lq_rng r;
    lq_rng_seed(&r, 11);
    static float b[N], h1[N], h0[N];
    static int Lref[N], L[N], queue[N];
    static lq_long o[N], s[N];
    static int wcount[N];
    make_state(&r, b, h1, h0, 1e-5f);
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, "ref", false));
    lq_field fh1, fhn, fb, fL, fo, fs, fw;
    lq_field_alloc(&ctx, &fh1, "h1", NX, NZ, 1, 4);
    lq_field_alloc(&ctx, &fhn, "hn", NX, NZ, 1, 4);
    lq_field_alloc(&ctx, &fb, "b", NX, NZ, 1, 4);
    lq_field_alloc(&ctx, &fL, "L", NX, NZ, 1, 4);
    lq_field_alloc(&ctx, &fo, "o", NX, NZ, 1, 8);
    lq_field_alloc(&ctx, &fs, "s", NX, NZ, 1, 8);
    lq_field_alloc(&ctx, &fw, "w", NX, NZ, 1, 4);
    lq_field_upload(&fh1, h1);
    lq_field_upload(&fhn, h0);
    lq_field_upload(&fb, b);
    lq_heightfield_ref_label(NX, NZ, &fh1, &fhn, &fb, &fL, &fo, &fs, &fw);
    lq_field_download(&fL, L);
    (void)o;
    (void)s;
    (void)wcount;
    for (int i = 0; i < N; i++) Lref[i] = (h1[i] > b[i] || h0[i] > b[i]) ? -2 : -1;
    int regions = 0;
    for (int start = 0; start < N; start++) {
        if (Lref[start] != -2) continue;
        regions++;
        int head = 0, tail = 0;
        queue[tail++] = start;
        Lref[start] = start;
        while (head < tail) {
            int c = queue[head++], i = c % NX, k = c / NX;
            int nb[4] = {i > 0 ? c - 1 : -1, i + 1 < NX ? c + 1 : -1, k > 0 ? c - NX : -1,
                         k + 1 < NZ ? c + NX : -1};
            for (int q = 0; q < 4; q++)
                if (nb[q] >= 0 && Lref[nb[q]] == -2) {
                    Lref[nb[q]] = start; /* BFS from the smallest index first */
                    queue[tail++] = nb[q];
                }
        }
    }
    int bad = 0;
    for (int i = 0; i < N; i++) bad += L[i] != Lref[i];
    fprintf(stderr, "  labels: %d regions, %d cells differ from flood fill\n", regions, bad);
    CHECK(regions > 3);
    CHECK(bad == 0);
    lq_field *fs_[] = {&fh1, &fhn, &fb, &fL, &fo, &fs, &fw};
    for (size_t i = 0; i < LQ_COUNT(fs_); i++) lq_field_release(fs_[i]);
    lq_ctx_close(&ctx);
}

/* Every operation on both backends from the same random inputs. */
static void test_twins(void)
{
    lq_ctx ref, cl;
    if (twin_open(&ref, &cl)) {
        CHECK(!"an OpenCL device is needed for the diff tests (install pocl-opencl-icd)");
        return;
    }
    lq_heightfield_ops oref, ocl;
    CHECK_OK(lq_heightfield_ops_init(&oref, &ref, NX, NZ, LQ_HEIGHTFIELD_SOLVE_THOMAS));
    CHECK_OK(lq_heightfield_ops_init(&ocl, &cl, NX, NZ, LQ_HEIGHTFIELD_SOLVE_THOMAS));
    lq_rng r;
    lq_rng_seed(&r, 3);
    static float b[N], h1[N], h0[N], hn[N], u[(NX + 1) * NZ], w[NX * (NZ + 1)];
    const float eps = 1e-5f, scale = 1073741824.0f, kappa = 2.3f, keep = 0.95f;
    make_state(&r, b, h1, h0, eps);
    for (int i = 0; i < N; i++) hn[i] = h0[i] + frand(&r, -0.03f, 0.03f);
    (void)hn; /* hn is first overwritten by the residual */
    for (int i = 0; i < (NX + 1) * NZ; i++) u[i] = frand(&r, -1, 1);
    for (int i = 0; i < NX * (NZ + 1); i++) w[i] = frand(&r, -1, 1);
    twin_pair H1, HN, B, CP, L, OS, NS0, NS1, WT0, WT1, U, W, AL, AI;
    int acc_i0[LQ_HEIGHTFIELD_ACC_I_COUNT] = {0, 0, 0, 0, 0x7fffffff, 0, 0, 0};
    CHECK_OK(twin_alloc(&H1, &ref, &cl, "h1", NX, NZ, 1, 4, h1));
    CHECK_OK(twin_alloc(&HN, &ref, &cl, "hn", NX, NZ, 1, 4, hn));
    twin_pair HR; /* the open walls' reference surface */
    CHECK_OK(twin_alloc(&HR, &ref, &cl, "href", NX, NZ, 1, 4, h0));
    CHECK_OK(twin_alloc(&B, &ref, &cl, "b", NX, NZ, 1, 4, b));
    CHECK_OK(twin_alloc(&CP, &ref, &cl, "cp", NX, NZ, 1, 4, NULL));
    CHECK_OK(twin_alloc(&L, &ref, &cl, "L", NX, NZ, 1, 4, NULL));
    CHECK_OK(twin_alloc(&OS, &ref, &cl, "old_sum", NX, NZ, 1, 8, NULL));
    CHECK_OK(twin_alloc(&NS0, &ref, &cl, "new_sum0", NX, NZ, 1, 8, NULL));
    CHECK_OK(twin_alloc(&NS1, &ref, &cl, "new_sum1", NX, NZ, 1, 8, NULL));
    CHECK_OK(twin_alloc(&WT0, &ref, &cl, "wet0", NX, NZ, 1, 4, NULL));
    CHECK_OK(twin_alloc(&WT1, &ref, &cl, "wet1", NX, NZ, 1, 4, NULL));
    CHECK_OK(twin_alloc(&U, &ref, &cl, "u", NX + 1, NZ, 1, 4, u));
    CHECK_OK(twin_alloc(&W, &ref, &cl, "w", NX, NZ + 1, 1, 4, w));
    CHECK_OK(twin_alloc(&AL, &ref, &cl, "acc_l", LQ_HEIGHTFIELD_ACC_L_COUNT, 1, 1, 8, NULL));
    CHECK_OK(twin_alloc(&AI, &ref, &cl, "acc_i", LQ_HEIGHTFIELD_ACC_I_COUNT, 1, 1, 4, acc_i0));

#define BOTH(call_ref, call_cl)                                                                    \
    do {                                                                                           \
        CHECK_OK(call_ref);                                                                        \
        CHECK_OK(call_cl);                                                                         \
        CHECK_OK(lq_ctx_finish(&cl));                                                              \
    } while (0)

    BOTH(lq_heightfield_residual(&oref, &H1.ref, &U.ref, &W.ref, &B.ref, &HR.ref, &HN.ref, kappa,
                                 0.07f, &WALLS),
         lq_heightfield_residual(&ocl, &H1.cl, &U.cl, &W.cl, &B.cl, &HR.cl, &HN.cl, kappa, 0.07f,
                                 &WALLS));
    twin_check_float("hf_residual", &HN);
    twin_pair UA, WA;
    CHECK_OK(twin_alloc(&UA, &ref, &cl, "u_adv", NX + 1, NZ, 1, 4, NULL));
    CHECK_OK(twin_alloc(&WA, &ref, &cl, "w_adv", NX, NZ + 1, 1, 4, NULL));
    BOTH(lq_heightfield_advect(&oref, &H1.ref, &B.ref, &U.ref, &W.ref, &UA.ref, &WA.ref, 0.9f),
         lq_heightfield_advect(&ocl, &H1.cl, &B.cl, &U.cl, &W.cl, &UA.cl, &WA.cl, 0.9f));
    twin_check_float("hf_advect", &UA);
    twin_check_float("hf_advect", &WA);
    twin_release(&UA);
    twin_release(&WA);
    BOTH(lq_heightfield_adi_x(&oref, &H1.ref, &B.ref, &HN.ref, &CP.ref, kappa, 0.03f, 0.02f),
         lq_heightfield_adi_x(&ocl, &H1.cl, &B.cl, &HN.cl, &CP.cl, kappa, 0.03f, 0.02f));
    twin_check_float("hf_adi_x", &HN);
    BOTH(lq_heightfield_adi_z(&oref, &H1.ref, &B.ref, &H1.ref, &HN.ref, &CP.ref, kappa, 0.02f,
                              0.03f),
         lq_heightfield_adi_z(&ocl, &H1.cl, &B.cl, &H1.cl, &HN.cl, &CP.cl, kappa, 0.02f, 0.03f));
    twin_check_float("hf_adi_z", &HN);
    /* one more split solve: the defect of the iterate, solved, added to it */
    twin_pair HX;
    CHECK_OK(twin_alloc(&HX, &ref, &cl, "hx", NX, NZ, 1, 4, NULL));
    BOTH(lq_heightfield_defect(&oref, &H1.ref, &HN.ref, &U.ref, &W.ref, &B.ref, &HR.ref, &HX.ref,
                               kappa, 0.07f, 0.6f * kappa, &WALLS),
         lq_heightfield_defect(&ocl, &H1.cl, &HN.cl, &U.cl, &W.cl, &B.cl, &HR.cl, &HX.cl, kappa,
                               0.07f, 0.6f * kappa, &WALLS));
    twin_check_float("hf_defect", &HX);
    BOTH(lq_heightfield_adi_x(&oref, &H1.ref, &B.ref, &HX.ref, &CP.ref, 0.6f * kappa, 0.0f, 0.0f),
         lq_heightfield_adi_x(&ocl, &H1.cl, &B.cl, &HX.cl, &CP.cl, 0.6f * kappa, 0.0f, 0.0f));
    BOTH(lq_heightfield_adi_z(&oref, &H1.ref, &B.ref, &HN.ref, &HX.ref, &CP.ref, 0.6f * kappa, 0.0f,
                              0.0f),
         lq_heightfield_adi_z(&ocl, &H1.cl, &B.cl, &HN.cl, &HX.cl, &CP.cl, 0.6f * kappa, 0.0f,
                              0.0f));
    twin_check_float("hf_adi_z", &HX);
    twin_release(&HX);

    /* a bump, a uniform inflow and a drain, overlapping dry and wet cells */
    int modes[3] = {LQ_HEIGHTFIELD_SOURCE_BUMP, LQ_HEIGHTFIELD_SOURCE_UNIFORM,
                    LQ_HEIGHTFIELD_SOURCE_DRAIN};
    for (int m = 0; m < 3; m++) {
        float ci = 10.0f + 20.0f * (float)m, ck = 22.5f, R = 6.5f, amount = 0.004f;
        if (modes[m] == LQ_HEIGHTFIELD_SOURCE_DRAIN) amount = 0.05f;
        int i0 = (int)(ci - R), k0 = (int)(ck - R), ni = (int)(2 * R) + 2, nk = ni;
        BOTH(lq_heightfield_source(&oref, &H1.ref, &B.ref, &AL.ref, i0, k0, ni, nk, ci, ck,
                                   1.0f / (R * R), modes[m], amount, scale),
             lq_heightfield_source(&ocl, &H1.cl, &B.cl, &AL.cl, i0, k0, ni, nk, ci, ck,
                                   1.0f / (R * R), modes[m], amount, scale));
    }
    twin_check_float("hf_source", &H1);
    twin_check_exact("hf_source", &AL);

    BOTH(lq_heightfield_label(&oref, &H1.ref, &HN.ref, &B.ref, &L.ref, &OS.ref, &NS0.ref, &WT0.ref),
         lq_heightfield_label(&ocl, &H1.cl, &HN.cl, &B.cl, &L.cl, &OS.cl, &NS0.cl, &WT0.cl));
    twin_check_exact("hf_label", &L);
    BOTH(lq_heightfield_open(&oref, &H1.ref, &HN.ref, &B.ref, &HR.ref, &L.ref, &OS.ref, &AL.ref,
                             &WALLS, scale, 1),
         lq_heightfield_open(&ocl, &H1.cl, &HN.cl, &B.cl, &HR.cl, &L.cl, &OS.cl, &AL.cl, &WALLS,
                             scale, 1));
    twin_check_exact("hf_open", &OS);
    twin_check_exact("hf_open", &AL);

    BOTH(lq_heightfield_volume_reduce(&oref, &H1.ref, &HN.ref, &B.ref, &L.ref, &OS.ref, &NS0.ref,
                                      &WT0.ref, scale, 1),
         lq_heightfield_volume_reduce(&ocl, &H1.cl, &HN.cl, &B.cl, &L.cl, &OS.cl, &NS0.cl, &WT0.cl,
                                      scale, 1));
    twin_check_exact("hf_volume_reduce", &OS);
    twin_check_exact("hf_volume_reduce", &NS0);
    twin_check_exact("hf_volume_reduce", &WT0);

    BOTH(lq_heightfield_volume_apply(&oref, &HN.ref, &B.ref, &L.ref, &OS.ref, &NS0.ref, &WT0.ref,
                                     &NS1.ref, &WT1.ref, &AL.ref, 1.0f / scale, 1),
         lq_heightfield_volume_apply(&ocl, &HN.cl, &B.cl, &L.cl, &OS.cl, &NS0.cl, &WT0.cl, &NS1.cl,
                                     &WT1.cl, &AL.cl, 1.0f / scale, 1));
    twin_check_float("hf_volume_apply", &HN);
    twin_check_exact("hf_volume_apply", &AL);

    BOTH(lq_heightfield_finish(&oref, &HN.ref, &H1.ref, &B.ref, &U.ref, &W.ref, &AI.ref, 0.3f, 0.2f,
                               keep, 0.02f, 9.81f, 0.3f, eps, 5, &WALLS),
         lq_heightfield_finish(&ocl, &HN.cl, &H1.cl, &B.cl, &U.cl, &W.cl, &AI.cl, 0.3f, 0.2f, keep,
                               0.02f, 9.81f, 0.3f, eps, 5, &WALLS));
    twin_check_float("hf_finish", &HN);
    twin_check_float("hf_finish", &U);
    twin_check_float("hf_finish", &W);
    twin_check_exact("hf_finish", &AI);

    BOTH(lq_heightfield_stats(&oref, &HN.ref, &B.ref, &U.ref, &W.ref, &AL.ref, &AI.ref, scale),
         lq_heightfield_stats(&ocl, &HN.cl, &B.cl, &U.cl, &W.cl, &AL.cl, &AI.cl, scale));
    twin_check_exact("hf_stats", &AL);
    twin_check_exact("hf_stats", &AI);

    twin_pair *all[] = {&H1, &HN, &HR, &B, &CP, &L, &OS, &NS0, &NS1, &WT0, &WT1, &U, &W, &AL, &AI};
    for (size_t i = 0; i < LQ_COUNT(all); i++) twin_release(all[i]);
    lq_heightfield_ops_release(&oref);
    lq_heightfield_ops_release(&ocl);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
}

/* A lake wider than the reduction segments and a whole number of 8-column blocks, so
 * the kernels' CPU paths run (8 x 8 row blocks plus leftover rows, vector cell
 * segments, one-region reductions): they must still match the twins exactly. */
static void test_twins_lake(void)
{
    enum { LX = 256, LZ = 12, LN = LX * LZ };
    lq_ctx ref, cl;
    if (twin_open(&ref, &cl)) return;
    lq_heightfield_ops oref, ocl;
    CHECK_OK(lq_heightfield_ops_init(&oref, &ref, LX, LZ, LQ_HEIGHTFIELD_SOLVE_THOMAS));
    CHECK_OK(lq_heightfield_ops_init(&ocl, &cl, LX, LZ, LQ_HEIGHTFIELD_SOLVE_THOMAS));
    static float b[LN], h1[LN], hn[LN];
    lq_rng r;
    lq_rng_seed(&r, 5);
    for (int c = 0; c < LN; c++) {
        b[c] = frand(&r, 0.0f, 0.3f);
        h1[c] = 1.0f + frand(&r, -0.01f, 0.01f);
        hn[c] = 1.0f + frand(&r, -0.01f, 0.01f);
    }
    b[LX * 6 + 200] = 2.0f; /* one island: a segment with a dry cell */
    h1[LX * 6 + 200] = hn[LX * 6 + 200] = 2.0f - 1e-5f;
    twin_pair H1, HN, B, L, OS, NS, WT;
    CHECK_OK(twin_alloc(&H1, &ref, &cl, "h1", LX, LZ, 1, 4, h1));
    CHECK_OK(twin_alloc(&HN, &ref, &cl, "hn", LX, LZ, 1, 4, hn));
    CHECK_OK(twin_alloc(&B, &ref, &cl, "b", LX, LZ, 1, 4, b));
    CHECK_OK(twin_alloc(&L, &ref, &cl, "L", LX, LZ, 1, 4, NULL));
    CHECK_OK(twin_alloc(&OS, &ref, &cl, "old_sum", LX, LZ, 1, 8, NULL));
    CHECK_OK(twin_alloc(&NS, &ref, &cl, "new_sum", LX, LZ, 1, 8, NULL));
    CHECK_OK(twin_alloc(&WT, &ref, &cl, "wet", LX, LZ, 1, 4, NULL));
    static float u[(LX + 1) * LZ], w[LX * (LZ + 1)];
    for (int c = 0; c < (LX + 1) * LZ; c++) u[c] = (c % (LX + 1)) ? frand(&r, -0.5f, 0.5f) : 0;
    for (int c = 0; c < LX * (LZ + 1); c++)
        w[c] = (c >= LX && c < LX * LZ) ? frand(&r, -0.5f, 0.5f) : 0;
    twin_pair U, W, CP, R;
    CHECK_OK(twin_alloc(&U, &ref, &cl, "u", LX + 1, LZ, 1, 4, u));
    CHECK_OK(twin_alloc(&W, &ref, &cl, "w", LX, LZ + 1, 1, 4, w));
    CHECK_OK(twin_alloc(&CP, &ref, &cl, "cp", LX, LZ, 1, 4, NULL));
    CHECK_OK(twin_alloc(&R, &ref, &cl, "R", LX, LZ, 1, 4, NULL));
    CHECK_OK(lq_heightfield_residual(&oref, &H1.ref, &U.ref, &W.ref, &B.ref, &HN.ref, &R.ref, 2.1f,
                                     0.03f, &WALLS));
    CHECK_OK(lq_heightfield_residual(&ocl, &H1.cl, &U.cl, &W.cl, &B.cl, &HN.cl, &R.cl, 2.1f, 0.03f,
                                     &WALLS));
    CHECK_OK(lq_ctx_finish(&cl));
    twin_check_float("hf_residual", &R);
    CHECK_OK(lq_heightfield_adi_x(&oref, &H1.ref, &B.ref, &R.ref, &CP.ref, 2.1f, 0.04f, 0.05f));
    CHECK_OK(lq_heightfield_adi_x(&ocl, &H1.cl, &B.cl, &R.cl, &CP.cl, 2.1f, 0.04f, 0.05f));
    CHECK_OK(lq_ctx_finish(&cl));
    twin_check_float("hf_adi_x", &R);
    CHECK_OK(
        lq_heightfield_adi_z(&oref, &H1.ref, &B.ref, &HN.ref, &R.ref, &CP.ref, 2.1f, 0.05f, 0.04f));
    CHECK_OK(lq_heightfield_adi_z(&ocl, &H1.cl, &B.cl, &HN.cl, &R.cl, &CP.cl, 2.1f, 0.05f, 0.04f));
    CHECK_OK(lq_ctx_finish(&cl));
    twin_check_float("hf_adi_z", &R);
    CHECK_OK(lq_heightfield_defect(&oref, &H1.ref, &R.ref, &U.ref, &W.ref, &B.ref, &HN.ref, &CP.ref,
                                   2.1f, 0.03f, 1.05f, &WALLS));
    CHECK_OK(lq_heightfield_defect(&ocl, &H1.cl, &R.cl, &U.cl, &W.cl, &B.cl, &HN.cl, &CP.cl, 2.1f,
                                   0.03f, 1.05f, &WALLS));
    CHECK_OK(lq_ctx_finish(&cl));
    twin_check_float("hf_defect", &CP);
    {
        static float g[LN]; /* the finish's θ-weighted velocities, vector segments */
        twin_pair U2, W2;
        memcpy(g, hn, sizeof g);
        CHECK_OK(twin_alloc(&U2, &ref, &cl, "u2", LX + 1, LZ, 1, 4, u));
        CHECK_OK(twin_alloc(&W2, &ref, &cl, "w2", LX, LZ + 1, 1, 4, w));
        twin_pair HF, AI;
        int acc_i0[LQ_HEIGHTFIELD_ACC_I_COUNT] = {0, 0, 0, 0, 0x7fffffff, 0, 0, 0};
        CHECK_OK(twin_alloc(&HF, &ref, &cl, "hf", LX, LZ, 1, 4, g));
        CHECK_OK(twin_alloc(&AI, &ref, &cl, "acc_i", LQ_HEIGHTFIELD_ACC_I_COUNT, 1, 1, 4, acc_i0));
        CHECK_OK(lq_heightfield_finish(&oref, &HF.ref, &H1.ref, &B.ref, &U2.ref, &W2.ref, &AI.ref,
                                       0.3f, 0.2f, 0.97f, 0.01f, 9.81f, 0.3f, 1e-5f, 2, &CLOSED));
        CHECK_OK(lq_heightfield_finish(&ocl, &HF.cl, &H1.cl, &B.cl, &U2.cl, &W2.cl, &AI.cl, 0.3f,
                                       0.2f, 0.97f, 0.01f, 9.81f, 0.3f, 1e-5f, 2, &CLOSED));
        CHECK_OK(lq_ctx_finish(&cl));
        twin_check_float("hf_finish", &HF);
        twin_check_float("hf_finish", &U2);
        twin_check_float("hf_finish", &W2);
        twin_pair *tw[] = {&U2, &W2, &HF, &AI};
        for (size_t i = 0; i < LQ_COUNT(tw); i++) twin_release(tw[i]);
    }
    twin_release(&U);
    twin_release(&W);
    twin_release(&CP);
    twin_release(&R);
    CHECK_OK(
        lq_heightfield_label(&oref, &H1.ref, &HN.ref, &B.ref, &L.ref, &OS.ref, &NS.ref, &WT.ref));
    CHECK_OK(lq_heightfield_label(&ocl, &H1.cl, &HN.cl, &B.cl, &L.cl, &OS.cl, &NS.cl, &WT.cl));
    CHECK_OK(lq_heightfield_volume_reduce(&oref, &H1.ref, &HN.ref, &B.ref, &L.ref, &OS.ref, &NS.ref,
                                          &WT.ref, 1073741824.0f, 1));
    CHECK_OK(lq_heightfield_volume_reduce(&ocl, &H1.cl, &HN.cl, &B.cl, &L.cl, &OS.cl, &NS.cl,
                                          &WT.cl, 1073741824.0f, 1));
    CHECK_OK(lq_ctx_finish(&cl));
    twin_check_exact("hf_label", &L);
    twin_check_exact("hf_volume_reduce", &OS);
    twin_check_exact("hf_volume_reduce", &NS);
    twin_check_exact("hf_volume_reduce", &WT);
    twin_pair *all[] = {&H1, &HN, &B, &L, &OS, &NS, &WT};
    for (size_t i = 0; i < LQ_COUNT(all); i++) twin_release(all[i]);
    lq_heightfield_ops_release(&oref);
    lq_heightfield_ops_release(&ocl);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
}

/* A bed for an nx × nz grid: rough, with ridges that dry a line into separate pieces. */
static void make_bed(lq_rng *r, int nx, int nz, float *b, float *h1)
{
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++) {
            int c = i + nx * k;
            float bb = 0.6f + 0.3f * sinf(0.21f * (float)i) * cosf(0.17f * (float)k) +
                       frand(r, -0.05f, 0.05f);
            if ((i * 7 + k * 3) % 97 == 5) bb = 1.5f; /* dry cells: lines fall apart */
            b[c] = bb;
            float h = 1.0f + frand(r, -0.02f, 0.02f);
            h1[c] = h > bb ? h : bb - 1e-5f;
        }
}

/* The parallel line solve against a dense solve and against Thomas, rows and columns of
 * lengths 1 to 1031 (odd, even, powers of two and not; past W = 256 reduced equations,
 * so its Thomas part has systems of several equations), on the reference path. */
static void test_pcr_dense(void)
{
    static const int lens[] = {1, 2, 3, 4, 5, 7, 8, 16, 31, 33, 67, 100, 257, 513, 600, 1031};
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, "ref", false));
    lq_rng r;
    lq_rng_seed(&r, 19);
    double worst_dense = 0, worst_rows = 0, worst_thomas = 0, worst_thomas_dense = 0;
    double steep_rows = 0, steep_thomas_rows = 0; /* κ = 900: Courant number 30 at 1 m */
    for (size_t q = 0; q < 2 * LQ_COUNT(lens); q++)
        for (int axis = 0; axis < 2; axis++) {
            const bool steep = q >= LQ_COUNT(lens);
            const float kappa = steep ? 900.0f : 9.0f; /* Courant number 30 or 3 at 1 m */
            int n = lens[q % LQ_COUNT(lens)], lines = 3, nx = axis ? lines : n,
                nz = axis ? n : lines;
            size_t cells = (size_t)nx * (size_t)nz;
            float *b = malloc(cells * 4), *h1 = malloc(cells * 4), *rhs = malloc(cells * 4);
            float *xp = malloc(cells * 4), *xt = malloc(cells * 4);
            double *dr = malloc((size_t)n * sizeof *dr), *dx = malloc((size_t)n * sizeof *dx);
            make_bed(&r, nx, nz, b, h1);
            for (size_t c = 0; c < cells; c++) rhs[c] = frand(&r, -0.01f, 0.01f);
            lq_field H1, B, HN, CP;
            CHECK_OK(lq_field_alloc(&ctx, &H1, "h1", nx, nz, 1, 4));
            CHECK_OK(lq_field_alloc(&ctx, &B, "b", nx, nz, 1, 4));
            CHECK_OK(lq_field_alloc(&ctx, &HN, "hn", nx, nz, 1, 4));
            CHECK_OK(lq_field_alloc(&ctx, &CP, "cp", nx, nz, 1, 4));
            lq_field_upload(&H1, h1);
            lq_field_upload(&B, b);
            /* closed ends against the dense solve (which has no wall terms) */
            lq_field_upload(&HN, rhs);
            CHECK_OK(lq_heightfield_ref_pcr(nx, nz, axis, &H1, &B, &H1, &HN, kappa, 0.0f, 0.0f));
            lq_field_download(&HN, xp);
            lq_field_upload(&HN, rhs);
            if (axis)
                lq_heightfield_ref_adi_z(nx, nz, &H1, &B, &H1, &HN, &CP, kappa, 0.0f, 0.0f);
            else
                lq_heightfield_ref_adi_x(nx, nz, &H1, &B, &HN, &CP, kappa, 0.0f, 0.0f);
            lq_field_download(&HN, xt);
            for (int l = 0; l < lines; l++) {
                int first = axis ? l : l * nx, stride = axis ? nx : 1;
                for (int t = 0; t < n; t++) dr[t] = rhs[first + t * stride];
                dense_line(h1, b, dr, first, stride, n, kappa, dx);
                for (int t = 0; t < n; t++) {
                    int c = first + t * stride;
                    double base = axis ? (double)h1[c] : 0.0; /* columns add h1 back */
                    double e = fabs((double)xp[c] - base - dx[t]);
                    double et = fabs((double)xt[c] - base - dx[t]);
                    if (steep) {
                        if (!axis) steep_rows = fmax(steep_rows, e);
                        if (!axis) steep_thomas_rows = fmax(steep_thomas_rows, et);
                        continue;
                    }
                    worst_dense = fmax(worst_dense, e);
                    if (!axis) worst_rows = fmax(worst_rows, e);
                    worst_thomas_dense = fmax(worst_thomas_dense, et);
                }
            }
            /* open ends: against Thomas */
            lq_field_upload(&HN, rhs);
            CHECK_OK(lq_heightfield_ref_pcr(nx, nz, axis, &H1, &B, &H1, &HN, kappa, 0.3f, 0.2f));
            lq_field_download(&HN, xp);
            lq_field_upload(&HN, rhs);
            if (axis)
                lq_heightfield_ref_adi_z(nx, nz, &H1, &B, &H1, &HN, &CP, kappa, 0.3f, 0.2f);
            else
                lq_heightfield_ref_adi_x(nx, nz, &H1, &B, &HN, &CP, kappa, 0.3f, 0.2f);
            lq_field_download(&HN, xt);
            for (size_t c = 0; c < cells && !steep; c++)
                worst_thomas = fmax(worst_thomas, fabs((double)xp[c] - (double)xt[c]));
            lq_field *fs[] = {&H1, &B, &HN, &CP};
            for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
            free(b);
            free(h1);
            free(rhs);
            free(xp);
            free(xt);
            free(dr);
            free(dx);
        }
    fprintf(stderr,
            "  parallel line solve, lengths 1..1031: vs dense %.3g m, rows alone %.3g m (Thomas "
            "vs dense %.3g m); vs Thomas with open ends %.3g m\n",
            worst_dense, worst_rows, worst_thomas_dense, worst_thomas);
    /* rows: centimetre solutions to float round-off; columns add h1 ≈ 1 m, one rounding */
    fprintf(stderr, "  at Courant number 30: rows vs dense %.3g m (Thomas %.3g m)\n", steep_rows,
            steep_thomas_rows);
    CHECK(worst_rows < 1e-8);
    CHECK(steep_rows <= 2.0 * steep_thomas_rows + 1e-8); /* as accurate as Thomas there */
    CHECK(worst_dense < 2e-7);
    CHECK(worst_thomas < 2e-7);
    lq_ctx_close(&ctx);
}

/* The parallel line solve's kernels against its twin, on grids whose lines are odd,
 * even, one cell, and longer than W reduced equations (several per work-item), open
 * ends included; and against the Thomas kernels to round-off. */
static void test_twins_pcr(void)
{
    static const int shapes[][2] = {{67, 45}, {5, 3}, {1, 7}, {7, 1}, {600, 9}, {9, 1100}};
    lq_ctx ref, cl;
    if (twin_open(&ref, &cl)) return;
    lq_rng r;
    lq_rng_seed(&r, 23);
    double vs_thomas = 0;
    for (size_t q = 0; q < LQ_COUNT(shapes); q++) {
        int nx = shapes[q][0], nz = shapes[q][1];
        size_t cells = (size_t)nx * (size_t)nz;
        lq_heightfield_ops oref, ocl, othomas;
        CHECK_OK(lq_heightfield_ops_init(&oref, &ref, nx, nz, LQ_HEIGHTFIELD_SOLVE_PCR));
        CHECK_OK(lq_heightfield_ops_init(&ocl, &cl, nx, nz, LQ_HEIGHTFIELD_SOLVE_PCR));
        CHECK_OK(lq_heightfield_ops_init(&othomas, &cl, nx, nz, LQ_HEIGHTFIELD_SOLVE_THOMAS));
        CHECK(oref.pcr && ocl.pcr && !othomas.pcr);
        float *b = malloc(cells * 4), *h1 = malloc(cells * 4), *rhs = malloc(cells * 4);
        float *xp = malloc(cells * 4), *xt = malloc(cells * 4);
        make_bed(&r, nx, nz, b, h1);
        for (size_t c = 0; c < cells; c++) rhs[c] = frand(&r, -0.01f, 0.01f);
        twin_pair H1, B, HN, CP;
        CHECK_OK(twin_alloc(&H1, &ref, &cl, "h1", nx, nz, 1, 4, h1));
        CHECK_OK(twin_alloc(&B, &ref, &cl, "b", nx, nz, 1, 4, b));
        CHECK_OK(twin_alloc(&HN, &ref, &cl, "hn", nx, nz, 1, 4, rhs));
        CHECK_OK(twin_alloc(&CP, &ref, &cl, "cp", nx, nz, 1, 4, NULL));
        lq_field T; /* the Thomas kernels' result, from the same right-hand side */
        CHECK_OK(lq_field_alloc(&cl, &T, "thomas", nx, nz, 1, 4));
        CHECK_OK(lq_field_upload(&T, rhs));
        CHECK_OK(
            lq_heightfield_adi_x(&oref, &H1.ref, &B.ref, &HN.ref, &CP.ref, 5.0f, 0.03f, 0.02f));
        CHECK_OK(lq_heightfield_adi_x(&ocl, &H1.cl, &B.cl, &HN.cl, &CP.cl, 5.0f, 0.03f, 0.02f));
        CHECK_OK(lq_heightfield_adi_x(&othomas, &H1.cl, &B.cl, &T, &CP.cl, 5.0f, 0.03f, 0.02f));
        CHECK_OK(lq_ctx_finish(&cl));
        fprintf(stderr, "  %d x %d:\n", nx, nz);
        twin_check_float("hf_pcr_x", &HN);
        CHECK_OK(lq_heightfield_adi_z(&oref, &H1.ref, &B.ref, &H1.ref, &HN.ref, &CP.ref, 5.0f,
                                      0.02f, 0.03f));
        CHECK_OK(
            lq_heightfield_adi_z(&ocl, &H1.cl, &B.cl, &H1.cl, &HN.cl, &CP.cl, 5.0f, 0.02f, 0.03f));
        CHECK_OK(
            lq_heightfield_adi_z(&othomas, &H1.cl, &B.cl, &H1.cl, &T, &CP.cl, 5.0f, 0.02f, 0.03f));
        CHECK_OK(lq_ctx_finish(&cl));
        twin_check_float("hf_pcr_z", &HN);
        CHECK_OK(lq_field_download(&HN.cl, xp));
        CHECK_OK(lq_field_download(&T, xt));
        for (size_t c = 0; c < cells; c++)
            vs_thomas = fmax(vs_thomas, fabs((double)xp[c] - (double)xt[c]));
        lq_field_release(&T);
        twin_pair *all[] = {&H1, &B, &HN, &CP};
        for (size_t i = 0; i < LQ_COUNT(all); i++) twin_release(all[i]);
        lq_heightfield_ops_release(&oref);
        lq_heightfield_ops_release(&ocl);
        lq_heightfield_ops_release(&othomas);
        free(b);
        free(h1);
        free(rhs);
        free(xp);
        free(xt);
    }
    fprintf(stderr, "  parallel vs Thomas kernels, rows then columns: max difference %.3g m\n",
            vs_thomas);
    CHECK(vs_thomas < 2e-7); /* h1 + Δ, h1 ≈ 1 m: about one rounding */
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
}

/* What auto picks, and where the parallel solve fits, on devices described by hand:
 * a GPU with NVIDIA's 48 KiB of local memory, and a CPU. */
static void test_pcr_choice(void)
{
    lq_ctx gpu;
    memset(&gpu, 0, sizeof gpu);
    gpu.backend = LQ_BACKEND_CL;
    gpu.cl.dev.type = CL_DEVICE_TYPE_GPU;
    gpu.cl.dev.local_mem = 49152;
    gpu.cl.dev.max_work_group = 1024;
    snprintf(gpu.cl.dev.name, sizeof gpu.cl.dev.name, "a 48 KiB GPU");
    lq_ctx cpu = gpu;
    cpu.cl.dev.type = CL_DEVICE_TYPE_CPU;
    char why[256] = "";
    CHECK(lq_heightfield_pcr_fits(&gpu, 4096, 4096, why, sizeof why)); /* 24 KiB a line */
    CHECK(lq_heightfield_pcr_fits(&gpu, 8000, 64, why, sizeof why));
    CHECK(!lq_heightfield_pcr_fits(&gpu, 64, 8192, why, sizeof why)); /* 48 KiB: no room */
    fprintf(stderr, "  parallel line solve refused: %s\n", why);
    CHECK(strstr(why, "8192") != NULL);
    CHECK(lq_heightfield_line_solve(&gpu, 2048, 2048, LQ_HEIGHTFIELD_SOLVE_AUTO) ==
          LQ_HEIGHTFIELD_SOLVE_PCR);
    CHECK(lq_heightfield_line_solve(&gpu, 8192, 8192, LQ_HEIGHTFIELD_SOLVE_AUTO) ==
          LQ_HEIGHTFIELD_SOLVE_THOMAS);
    CHECK(lq_heightfield_line_solve(&cpu, 2048, 2048, LQ_HEIGHTFIELD_SOLVE_AUTO) ==
          LQ_HEIGHTFIELD_SOLVE_THOMAS);
    CHECK(lq_heightfield_line_solve(&cpu, 2048, 2048, LQ_HEIGHTFIELD_SOLVE_PCR) ==
          LQ_HEIGHTFIELD_SOLVE_PCR);
    CHECK(lq_heightfield_line_solve(&gpu, 2048, 2048, LQ_HEIGHTFIELD_SOLVE_THOMAS) ==
          LQ_HEIGHTFIELD_SOLVE_THOMAS);
    gpu.cl.dev.max_work_group = 128; /* groups of 256 needed past 256 reduced equations */
    CHECK(!lq_heightfield_pcr_fits(&gpu, 1024, 1024, why, sizeof why));
    CHECK(lq_heightfield_pcr_fits(&gpu, 200, 100, why, sizeof why)); /* W = 128 */
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    CHECK(lq_heightfield_line_solve(&ref, 2048, 2048, LQ_HEIGHTFIELD_SOLVE_AUTO) ==
          LQ_HEIGHTFIELD_SOLVE_THOMAS);
    lq_ctx_close(&ref);
}

int main(void)
{
    test_dense_and_conservation();
    test_iterated_split();
    test_thin_film();
    test_labels();
    test_advect_exact();
    test_twins();
    test_twins_lake();
    test_pcr_choice();
    test_pcr_dense();
    test_twins_pcr();
    CHECK_DONE();
}
