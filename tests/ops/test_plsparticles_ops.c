/*
 * test_plsparticles_ops.c — particles of the particle level set (Enright et al. 2002;
 * host/ops/pls/plsparticles.h):
 *  1. reference twin vs OpenCL (PoCL in CI), 3D and 2D, on a noisy sphere φ with a solid
 *     sdf and random face velocities: seeding (with attraction), advection, correction
 *     of a perturbed φ, radii, deletion and reseeding must agree bit for bit (particles,
 *     counts, φ; "plsparticles.<op>" in host/core/tolerance.c);
 *  2. independent checks: a particle in a uniform flow moves by δt u; the correction
 *     rule on hand-made cases (an escaped positive particle raises φ to its sphere at
 *     the 4 cell centres around it and nowhere else, a negative one lowers it, a
 *     particle that has not escaped changes nothing, Enright's |φ+| ≤ |φ−| choice);
 *     seeded particles sit on their side within [r_min, band] and radii stay within
 *     [r_min, r_max]; after a reseed without attraction each band cell holds exactly
 *     max(count, target); the deletion rules (far, deep, in a solid, kept otherwise);
 *  3. growth (prm.grow): a seeding short of room grows the buffers and gives the
 *     particles of a state with room enough from the start, bit for bit, on both
 *     backends; without it the rest are dropped.
 */
#include "ops/pls/plsparticles.h"
#include "lib/twin.h"

static float frand(lq_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)lq_rng_uniform(r);
}

typedef struct side {
    lq_ctx *ctx;
    lq_field u, v, w, phi, sdf;
    lq_plsparticles_state st;
    lq_plsparticles_ops ops;
} side;

static int side_open(side *s, lq_ctx *ctx, int nx, int ny, int nz, int cap)
{
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    int rc = lq_field_alloc(ctx, &s->u, "u", nx + 1, ny, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->v, "v", nx, ny + 1, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->w, "w", nx, ny, nz + 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->phi, "phi", nx, ny, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->sdf, "sdf", nx, ny, nz, 4);
    if (!rc) rc = lq_plsparticles_state_init(&s->st, ctx, nx, ny, nz, cap);
    if (!rc) rc = lq_plsparticles_ops_init(&s->ops, ctx, nx, ny, nz);
    CHECK_OK(rc);
    return rc;
}

static void side_close(side *s)
{
    lq_plsparticles_ops_release(&s->ops);
    lq_plsparticles_state_release(&s->st);
    lq_field *fs[] = {&s->u, &s->v, &s->w, &s->phi, &s->sdf};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
}

/* Live particles of both sides agree bit for bit. */
static void check_parts(const char *op, side *a, side *b)
{
    CHECK_MSG(a->st.live == b->st.live, "%s: live %d vs %d", op, a->st.live, b->st.live);
    int n = a->st.live < b->st.live ? a->st.live : b->st.live, na, nb;
    size_t bytes = (size_t)(n > 0 ? n : 1) * LQ_PLSPARTICLES_STRIDE * sizeof(float);
    float *pa = malloc(bytes), *pb = malloc(bytes);
    CHECK_OK(lq_plsparticles_download(&a->st, pa, n, &na));
    CHECK_OK(lq_plsparticles_download(&b->st, pb, n, &nb));
    int bad = 0;
    for (int p = 0; p < n; p++)
        bad +=
            memcmp(pa + (size_t)p * LQ_PLSPARTICLES_STRIDE, pb + (size_t)p * LQ_PLSPARTICLES_STRIDE,
                   LQ_PLSPARTICLES_STRIDE * sizeof(float)) != 0;
    fprintf(stderr, "  %-22s %d particles, %d differ\n", op, n, bad);
    const lq_tolerance *t = lq_tolerance_get(op);
    CHECK_MSG(bad == 0 || t->abs > 0, "%s: %d of %d particles differ", op, bad, n);
    free(pa);
    free(pb);
}

static twin_pair pair_of(const lq_field *a, const lq_field *b)
{
    twin_pair p;
    p.ref = *a;
    p.cl = *b;
    return p;
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
    const float h = 0.07f;
    const int cap = 200000;
    size_t nu = (size_t)(nx + 1) * ny * nz, nv = (size_t)nx * (ny + 1) * nz,
           nw = (size_t)nx * ny * (nz + 1), nc = (size_t)nx * ny * nz;
    float *u = malloc(nu * 4), *v = malloc(nv * 4), *w = malloc(nw * 4);
    float *phi = malloc(nc * 4), *phi2 = malloc(nc * 4), *sdf = malloc(nc * 4);
    lq_rng r;
    lq_rng_seed(&r, seed);
    for (size_t q = 0; q < nu; q++) u[q] = frand(&r, -1, 1);
    for (size_t q = 0; q < nv; q++) v[q] = frand(&r, -1, 1);
    for (size_t q = 0; q < nw; q++) w[q] = nz > 1 ? frand(&r, -1, 1) : 0.0f;
    double cx = 0.45 * nx * h, cy = 0.5 * ny * h, cz = 0.5 * nz * h, R = 0.3 * ny * h;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                size_t q = LQ_MAC_CELL(i, j, k, nx, ny);
                double x = (i + 0.5) * h - cx, y = (j + 0.5) * h - cy,
                       z = nz > 1 ? (k + 0.5) * h - cz : 0.0;
                phi[q] = (float)(sqrt(x * x + y * y + z * z) - R) + frand(&r, -0.1f, 0.1f) * h;
                phi2[q] = phi[q] + frand(&r, -1.5f, 1.5f) * h;   /* makes some escape */
                sdf[q] = (float)((i + 0.5) * h - 0.85 * nx * h); /* a solid wall at x = ... */
                sdf[q] = -sdf[q];
            }
    lq_plsparticles_params prm = {0};
    prm.h = h;
    prm.dt = 0.05f;
    prm.seed = (uint32_t)seed;
    prm.per_cell = nz > 1 ? 8 : 6;
    side A, B;
    if (side_open(&A, &ref, nx, ny, nz, cap) || side_open(&B, &cl, nx, ny, nz, cap)) goto done;
    side *ss[] = {&A, &B};
    for (int s = 0; s < 2; s++) {
        CHECK_OK(lq_field_upload(&ss[s]->u, u));
        CHECK_OK(lq_field_upload(&ss[s]->v, v));
        CHECK_OK(lq_field_upload(&ss[s]->w, w));
        CHECK_OK(lq_field_upload(&ss[s]->phi, phi));
        CHECK_OK(lq_field_upload(&ss[s]->sdf, sdf));
        CHECK_OK(lq_plsparticles_seed(&ss[s]->ops, &ss[s]->st, &ss[s]->phi, &ss[s]->sdf, &prm));
    }
    check_parts("plsparticles.seed", &A, &B);
    CHECK(A.st.live > 1000);
    for (int step = 0; step < 3; step++) {
        for (int s = 0; s < 2; s++)
            CHECK_OK(lq_plsparticles_advect(&ss[s]->ops, &ss[s]->st, &ss[s]->u, &ss[s]->v,
                                            &ss[s]->w, &prm));
        CHECK_OK(lq_ctx_finish(&cl));
        check_parts("plsparticles.advect", &A, &B);
    }
    int esc[2] = {0, 0};
    for (int s = 0; s < 2; s++) {
        CHECK_OK(lq_field_upload(&ss[s]->phi, phi2));
        CHECK_OK(lq_plsparticles_correct(&ss[s]->ops, &ss[s]->st, &ss[s]->phi, &prm, &esc[s]));
    }
    fprintf(stderr, "  escaped %d / %d\n", esc[0], esc[1]);
    CHECK(esc[0] == esc[1] && esc[0] > 50);
    twin_pair pp = pair_of(&A.phi, &B.phi);
    twin_check_exact("plsparticles.correct", &pp);
    for (int s = 0; s < 2; s++) /* and without reading the count back */
        CHECK_OK(lq_plsparticles_correct(&ss[s]->ops, &ss[s]->st, &ss[s]->phi, &prm, NULL));
    twin_check_exact("plsparticles.correct", &pp);
    { /* the solver's deletion after the corrections: still escaped by 1.5 r (air), 3 r */
        lq_plsparticles_params pe = prm;
        pe.esc_air = 1.5f;
        pe.esc_liq = 3.0f;
        int before = A.st.live;
        for (int s = 0; s < 2; s++)
            CHECK_OK(
                lq_plsparticles_delete(&ss[s]->ops, &ss[s]->st, &ss[s]->phi, &ss[s]->sdf, &pe));
        check_parts("plsparticles.delete", &A, &B);
        fprintf(stderr, "  still escaped, deleted: %d of %d\n", before - A.st.live, before);
        CHECK(A.st.live < before);
    }
    for (int s = 0; s < 2; s++)
        CHECK_OK(lq_plsparticles_adjust_radii(&ss[s]->ops, &ss[s]->st, &ss[s]->phi, &prm));
    check_parts("plsparticles.radii", &A, &B);
    for (int s = 0; s < 2; s++)
        CHECK_OK(lq_plsparticles_delete(&ss[s]->ops, &ss[s]->st, &ss[s]->phi, &ss[s]->sdf, &prm));
    check_parts("plsparticles.delete", &A, &B);
    prm.step = 7;
    for (int s = 0; s < 2; s++)
        CHECK_OK(lq_plsparticles_reseed(&ss[s]->ops, &ss[s]->st, &ss[s]->phi, NULL, &prm));
    check_parts("plsparticles.seed", &A, &B);
    CHECK(A.st.added == B.st.added && A.st.added > 0);
    /* radii within [r_min, r_max] (reference) */
    {
        int n, bad = 0;
        float *pa = malloc((size_t)A.st.live * LQ_PLSPARTICLES_STRIDE * 4 + 4);
        CHECK_OK(lq_plsparticles_download(&A.st, pa, A.st.live, &n));
        for (int p = 0; p < n; p++) {
            float rr = fabsf(pa[(size_t)p * LQ_PLSPARTICLES_STRIDE + LQ_PLSPARTICLES_R]);
            bad += !(rr >= 0.1f * h * 0.9999f && rr <= 0.5f * h * 1.0001f);
        }
        CHECK_MSG(bad == 0, "%d radii outside [r_min, r_max]", bad);
        free(pa);
    }
done:
    side_close(&A);
    side_close(&B);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
    free(u);
    free(v);
    free(w);
    free(phi);
    free(phi2);
    free(sdf);
}

/* --- 2. independent checks ---------------------------------------------------------- */

static void fill(lq_field *f, float x)
{
    float *a = f->host;
    for (size_t q = 0; q < f->count; q++) a[q] = x;
}

static void test_uniform_flow(void)
{
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    side S;
    if (side_open(&S, &ref, 12, 10, 8, 100)) return;
    float U[3] = {0.75f, -0.375f, 0.3f};
    fill(&S.u, U[0]);
    fill(&S.v, U[1]);
    fill(&S.w, U[2]);
    lq_plsparticles_params prm = {0};
    prm.h = 0.1f;
    prm.dt = 0.02f;
    /* x, y, z, s r: a liquid particle, an air one, a dead one (s r = 0) */
    float in[3 * LQ_PLSPARTICLES_STRIDE] = {0.31f, 0.52f, 0.43f, -0.01f, 0.99f, 0.05f,
                                            0.61f, 0.01f, 0.5f,  0.5f,   0.5f,  0.0f};
    CHECK_OK(lq_plsparticles_upload(&S.st, in, 3));
    CHECK_OK(lq_plsparticles_advect(&S.ops, &S.st, &S.u, &S.v, &S.w, &prm));
    float out[3 * LQ_PLSPARTICLES_STRIDE];
    int n;
    CHECK_OK(lq_plsparticles_download(&S.st, out, 3, &n));
    for (int p = 0; p < 2; p++)
        for (int a = 0; a < 3; a++)
            CHECK_NEAR(out[p * LQ_PLSPARTICLES_STRIDE + a],
                       in[p * LQ_PLSPARTICLES_STRIDE + a] + prm.dt * U[a], 2e-7);
    for (int a = 0; a < LQ_PLSPARTICLES_STRIDE; a++)
        CHECK(out[2 * LQ_PLSPARTICLES_STRIDE + a] == in[2 * LQ_PLSPARTICLES_STRIDE + a]);
    for (int p = 0; p < 2; p++)
        CHECK(out[p * LQ_PLSPARTICLES_STRIDE + 3] == in[p * LQ_PLSPARTICLES_STRIDE + 3]);
    side_close(&S);
    lq_ctx_close(&ref);
}

/* φ = y − 10 on 20², h = 1 (signed distance, liquid below). */
static void test_correction_rule(void)
{
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    const int nx = 20, ny = 20;
    side S;
    if (side_open(&S, &ref, nx, ny, 1, 100)) return;
    float *phi = S.phi.host, base[400];
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) base[i + nx * j] = (j + 0.5f) - 10.0f;
    lq_plsparticles_params prm = {0};
    prm.h = 1.0f;
    /* one escaped positive particle deep in the liquid, one positive not escaped */
    float in[2 * LQ_PLSPARTICLES_STRIDE] = {5.3f, 6.4f, 0.5f, 0.5f, 12.3f, 10.2f, 0.5f, 0.1f};
    memcpy(phi, base, sizeof base);
    CHECK_OK(lq_plsparticles_upload(&S.st, in, 2));
    int esc = -1;
    CHECK_OK(lq_plsparticles_correct(&S.ops, &S.st, &S.phi, &prm, &esc));
    CHECK(esc == 1);
    int changed = 0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            int q = i + nx * j;
            if (i >= 4 && i <= 5 && j >= 5 && j <= 6) {
                double d = hypot((i + 0.5) - 5.3, (j + 0.5) - 6.4), fp = 0.5 - d;
                double want = fp > base[q] ? fp : base[q];
                CHECK_NEAR(phi[q], want, 1e-6);
                changed += phi[q] != base[q];
            } else {
                CHECK_MSG(phi[q] == base[q], "cell %d %d changed: %g vs %g", i, j, phi[q], base[q]);
            }
        }
    CHECK(changed == 4);
    /* the node (5, 6) = (5.5, 6.5): sphere value 0.5 − √0.05 ≈ 0.2764 */
    CHECK_NEAR(phi[5 + nx * 6], 0.5 - sqrt(0.05), 1e-6);
    /* a negative particle in the air lowers φ there; Enright's choice on a node both
     * touch: φ+ = 0.2764 (positive particle) vs φ− from a negative one next to it */
    float in2[2 * LQ_PLSPARTICLES_STRIDE] = {5.3f, 6.4f, 0.5f, 0.5f, 5.6f, 6.5f, 0.5f, -0.3f};
    memcpy(phi, base, sizeof base);
    /* the negative particle is in liquid: not escaped, so no effect: move φ up so it is */
    for (int q = 0; q < 400; q++) phi[q] = base[q];
    CHECK_OK(lq_plsparticles_upload(&S.st, in2, 2));
    CHECK_OK(lq_plsparticles_correct(&S.ops, &S.st, &S.phi, &prm, &esc));
    CHECK(esc == 1);
    CHECK_NEAR(phi[5 + nx * 6], 0.5 - sqrt(0.05), 1e-6);
    /* now in the air (φ = y − 3): both escape; at node (5, 6) φ+ = max(3.5, 0.2764) = 3.5
     * and φ− = min(3.5, −(0.3 − 0.1)) = −0.2 → |φ−| smaller: −0.2 */
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) base[i + nx * j] = (j + 0.5f) - 3.0f;
    memcpy(phi, base, sizeof base);
    float in3[2 * LQ_PLSPARTICLES_STRIDE] = {5.3f, 6.4f, 0.5f, 0.5f, 5.6f, 6.5f, 0.5f, -0.3f};
    CHECK_OK(lq_plsparticles_upload(&S.st, in3, 2));
    CHECK_OK(lq_plsparticles_correct(&S.ops, &S.st, &S.phi, &prm, &esc));
    CHECK(esc == 1); /* the positive one is on its own side now */
    CHECK_NEAR(phi[5 + nx * 6], -(0.3 - hypot(0.1, 0.0)), 1e-6);
    /* both signs on one node: φ = 0 at (5, 6), −2 at its lower-left neighbours, +2 at
     * its upper-right ones; P (+, r ½) at (5.3, 6.4) has φ = −0.56, N (−, r ½) at
     * (5.75, 6.6) has φ = 0.65: both escaped; at (5.5, 6.5) φ+ = ½ − |(0.2, 0.1)| =
     * 0.2764, φ− = −(½ − |(0.25, 0.1)|) = −0.2307: |φ−| < |φ+| → φ− */
    for (int q = 0; q < 400; q++) base[q] = 0.0f;
    base[4 + nx * 5] = base[5 + nx * 5] = base[4 + nx * 6] = -2.0f;
    base[6 + nx * 6] = base[5 + nx * 7] = base[6 + nx * 7] = 2.0f;
    memcpy(phi, base, sizeof base);
    float in4[2 * LQ_PLSPARTICLES_STRIDE] = {5.3f, 6.4f, 0.5f, 0.5f, 5.75f, 6.6f, 0.5f, -0.5f};
    CHECK_OK(lq_plsparticles_upload(&S.st, in4, 2));
    CHECK_OK(lq_plsparticles_correct(&S.ops, &S.st, &S.phi, &prm, &esc));
    CHECK(esc == 2);
    CHECK_NEAR(phi[5 + nx * 6], -(0.5 - hypot(0.25, 0.1)), 1e-6);
    /* (4, 5): only P: max(−2, ½ − |(0.8, 0.9)|) = −0.704 */
    CHECK_NEAR(phi[4 + nx * 5], 0.5 - hypot(0.8, 0.9), 1e-6);
    /* (6, 7): only N: min(2, −(½ − |(0.75, 0.9)|)) = 0.6715 → |φ+| = 2 > |φ−| → φ− */
    CHECK_NEAR(phi[6 + nx * 7], -(0.5 - hypot(0.75, 0.9)), 1e-6);
    side_close(&S);
    lq_ctx_close(&ref);
}

/* A circle on 64², h = 1: seeding, radii, reseed counts, deletion rules. */
static void test_seed_counts(void)
{
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    const int nx = 64, ny = 64, target = 16;
    side S;
    if (side_open(&S, &ref, nx, ny, 1, 100000)) return;
    float *phi = S.phi.host;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            phi[i + nx * j] = (float)(hypot(i + 0.5 - 32.3, j + 0.5 - 31.8) - 15.0);
    lq_plsparticles_params prm = {0};
    prm.h = 1.0f;
    prm.per_cell = target;
    prm.seed = 11;
    int nband = 0;
    for (int q = 0; q < nx * ny; q++) nband += fabsf(phi[q]) < 3.0f;
    CHECK_OK(lq_plsparticles_seed(&S.ops, &S.st, &S.phi, NULL, &prm));
    fprintf(stderr, "seed: %d particles in %d band cells\n", S.st.live, nband);
    CHECK(S.st.live == target * nband);
    float *pa = malloc((size_t)S.st.capacity * LQ_PLSPARTICLES_STRIDE * 4);
    int n, off = 0, badr = 0, neg = 0;
    CHECK_OK(lq_plsparticles_download(&S.st, pa, S.st.capacity, &n));
    lq_plsparticles_coef_of(&prm, nx, ny, 1, 0, S.st.coef_host);
    for (int p = 0; p < n; p++) {
        const float *a = pa + (size_t)p * LQ_PLSPARTICLES_STRIDE;
        double sgn = a[LQ_PLSPARTICLES_R] < 0 ? -1 : 1;
        double f = hypot(a[0] - 32.3, a[1] - 31.8) - 15.0, sf = sgn * f;
        off += !(sf >= 0.1 - 0.05 && sf <= 3.0 + 0.05);
        badr += !(fabsf(a[LQ_PLSPARTICLES_R]) >= 0.1f && fabsf(a[LQ_PLSPARTICLES_R]) <= 0.5f);
        neg += a[LQ_PLSPARTICLES_R] < 0;
    }
    fprintf(stderr, "seed: %d of %d off their goal band, %d negative\n", off, n, neg);
    CHECK(off * 100 <= n); /* ≤ 1% (the trilinear φ is not the exact circle) */
    CHECK(badr == 0);
    CHECK(neg > n / 3 && neg < 2 * n / 3);
    /* reseed without attraction: every band cell ends with max(count, target) */
    prm.attract_iters = -1;
    prm.step = 1;
    int *cnt0 = calloc((size_t)nx * ny, sizeof(int)), *cnt1 = calloc((size_t)nx * ny, sizeof(int));
    CHECK_OK(lq_plsparticles_delete(&S.ops, &S.st, &S.phi, NULL, &prm));
    CHECK_OK(lq_plsparticles_download(&S.st, pa, S.st.capacity, &n));
    for (int p = 0; p < n; p++)
        cnt0[(int)(pa[(size_t)p * LQ_PLSPARTICLES_STRIDE] / 1.0f) +
             nx * (int)pa[(size_t)p * LQ_PLSPARTICLES_STRIDE + 1]]++;
    CHECK_OK(lq_plsparticles_reseed(&S.ops, &S.st, &S.phi, NULL, &prm));
    CHECK_OK(lq_plsparticles_download(&S.st, pa, S.st.capacity, &n));
    for (int p = 0; p < n; p++)
        cnt1[(int)pa[(size_t)p * LQ_PLSPARTICLES_STRIDE] +
             nx * (int)pa[(size_t)p * LQ_PLSPARTICLES_STRIDE + 1]]++;
    int bad = 0, under = 0;
    for (int q = 0; q < nx * ny; q++) {
        int want = fabsf(phi[q]) < 3.0f && cnt0[q] < target ? target : cnt0[q];
        under += fabsf(phi[q]) < 3.0f && cnt0[q] < target;
        bad += cnt1[q] != want;
    }
    fprintf(stderr, "reseed: %d cells under the target, %d added, %d cells off\n", under,
            S.st.added, bad);
    CHECK(under > 0 && S.st.added > 0 && bad == 0);
    /* deletion rules: far (s φ > band + r_max = 3.5), deep (s φ < −0.75), in the solid */
    float in[5 * LQ_PLSPARTICLES_STRIDE] = {
        32.3f, 31.8f + 15.0f + 3.6f,
        0.5f,  0.3f, /* far: deleted */
        32.3f, 31.8f + 15.0f + 3.4f,
        0.5f,  0.3f, /* kept */
        32.3f, 31.8f + 15.0f + 0.8f,
        0.5f,  -0.3f, /* deep (−0.8): deleted */
        32.3f, 31.8f + 15.0f + 0.7f,
        0.5f,  -0.3f, /* kept */
        5.0f,  31.8f,
        0.5f,  0.3f, /* in the solid: deleted */
    };
    float *sd = S.sdf.host;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) sd[i + nx * j] = (i + 0.5f) - 8.0f; /* solid x < 8 */
    prm.attract_iters = 0;
    CHECK_OK(lq_plsparticles_upload(&S.st, in, 5));
    CHECK_OK(lq_plsparticles_delete(&S.ops, &S.st, &S.phi, &S.sdf, &prm));
    CHECK_OK(lq_plsparticles_download(&S.st, pa, 5, &n));
    CHECK(n == 2);
    if (n == 2) {
        CHECK(pa[1] == in[LQ_PLSPARTICLES_STRIDE + 1]);
        CHECK(pa[LQ_PLSPARTICLES_STRIDE + 1] == in[3 * LQ_PLSPARTICLES_STRIDE + 1]);
    }
    /* escape rule (the solver's, after both corrections): a particle s φ(x) < −f r is
     * deleted, f = 1.5 for air, 3 for liquid; the surface at y = 31.8 + 15 above the
     * centre; r = 0.2: air deleted below −0.3, liquid above 0.6 (the deep rule: 0.75) */
    float top = 31.8f + 15.0f;
    float esc[6 * LQ_PLSPARTICLES_STRIDE] = {
        32.3f, top - 0.35f, 0.5f, 0.2f,  /* air 0.35 inside: deleted */
        32.3f, top - 0.25f, 0.5f, 0.2f,  /* air 0.25 inside: kept (its correction holds) */
        32.3f, top + 0.65f, 0.5f, -0.2f, /* liquid 0.65 out: deleted */
        32.3f, top + 0.55f, 0.5f, -0.2f, /* liquid 0.55 out: kept (a sheet φ lost) */
        32.3f, top - 1.0f,  0.5f, -0.2f, /* liquid on its side: kept */
        32.3f, top + 1.0f,  0.5f, 0.2f,  /* air on its side: kept */
    };
    prm.esc_air = 1.5f;
    prm.esc_liq = 3.0f;
    CHECK_OK(lq_plsparticles_upload(&S.st, esc, 6));
    CHECK_OK(lq_plsparticles_delete(&S.ops, &S.st, &S.phi, NULL, &prm));
    CHECK_OK(lq_plsparticles_download(&S.st, pa, 6, &n));
    CHECK(n == 4);
    if (n == 4) {
        const int kept[4] = {1, 3, 4, 5};
        for (int q = 0; q < 4; q++)
            CHECK(pa[q * LQ_PLSPARTICLES_STRIDE + 1] == esc[kept[q] * LQ_PLSPARTICLES_STRIDE + 1]);
    }
    /* without the fractions (reseeding) the rule is off: all six kept */
    prm.esc_air = prm.esc_liq = 0.0f;
    CHECK_OK(lq_plsparticles_upload(&S.st, esc, 6));
    CHECK_OK(lq_plsparticles_delete(&S.ops, &S.st, &S.phi, NULL, &prm));
    CHECK(S.st.live == 6);
    free(cnt0);
    free(cnt1);
    free(pa);
    side_close(&S);
    lq_ctx_close(&ref);
}

/* prm.grow: a seeding short of room grows the buffers first, so it gives exactly the
 * particles of a state with room enough from the start, on both backends (a 2D circle,
 * seeded, then moved, grown and reseeded: the room grows twice); without prm.grow the
 * rest are dropped. */
static void test_growth(void)
{
    lq_ctx ref, cl;
    if (twin_open(&ref, &cl)) {
        CHECK(!"an OpenCL device is needed for the diff tests (install pocl-opencl-icd)");
        return;
    }
    const int nx = 40, ny = 36, small = 300;
    side big, A, B, C;
    CHECK_OK(side_open(&big, &ref, nx, ny, 1, 100000));
    CHECK_OK(side_open(&A, &ref, nx, ny, 1, small));
    CHECK_OK(side_open(&B, &cl, nx, ny, 1, small));
    CHECK_OK(side_open(&C, &ref, nx, ny, 1, small));
    side *all[] = {&big, &A, &B, &C};
    float *phi = malloc((size_t)nx * ny * 4);
    lq_plsparticles_params prm = {0};
    prm.h = 1.0f;
    prm.per_cell = 8;
    prm.seed = 3;
    for (int pass = 0; pass < 2; pass++) {
        double cx = 19.3 + 3.1 * pass, cy = 17.8 - 1.7 * pass;
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                phi[i + nx * j] = (float)(hypot(i + 0.5 - cx, j + 0.5 - cy) - (9.0 + 5.0 * pass));
        prm.step = (uint32_t)pass;
        for (int q = 0; q < 4; q++) {
            side *S = all[q];
            prm.grow = S == &A || S == &B;
            CHECK_OK(lq_field_upload(&S->phi, phi));
            if (pass == 0)
                CHECK_OK(lq_plsparticles_seed(&S->ops, &S->st, &S->phi, NULL, &prm));
            else
                CHECK_OK(lq_plsparticles_reseed(&S->ops, &S->st, &S->phi, NULL, &prm));
        }
        fprintf(stderr,
                "growth, pass %d: %d particles; room %d (ref) %d (OpenCL), %d dropped "
                "without growth\n",
                pass, big.st.live, A.st.capacity, B.st.capacity, (int)C.st.dropped);
        check_parts("plsparticles.seed", &big, &A); /* big vs grown, ref */
        check_parts("plsparticles.seed", &big, &B); /* big (ref) vs grown (OpenCL) */
        CHECK(A.st.capacity == B.st.capacity && A.st.capacity >= big.st.live);
        CHECK(A.st.capacity > (pass == 0 ? small : 4080));
        CHECK(A.st.dropped == 0 && B.st.dropped == 0 && big.st.dropped == 0);
        CHECK(C.st.live == small && C.st.dropped > 0 && C.st.capacity == small);
    }
    CHECK(big.st.live > 2 * small);
    free(phi);
    for (int q = 0; q < 4; q++) side_close(all[q]);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
}

int main(void)
{
    (void)twin_alloc;
    (void)twin_release;
    (void)twin_check_float;
    test_twins(40, 30, 1, 3);
    test_twins(18, 16, 14, 5);
    test_uniform_flow();
    test_correction_rule();
    test_seed_counts();
    test_growth();
    CHECK_DONE();
}
