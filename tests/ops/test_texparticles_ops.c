/*
 * test_texparticles_ops.c — texture particles (Rasmussen et al. 2004 §6;
 * host/ops/pls/texparticles.h):
 *  1. reference twin vs OpenCL (PoCL in CI), 3D and 2D, on a sphere φ with random face
 *     velocities: seeding (with the settling on φ = 0), advection and projection agree
 *     bit for bit ("texparticles.<op>" in host/core/tolerance.c);
 *  2. independent checks: the band cells are those with |φ| < band; per_cell particles
 *     per listed cell; settled particles lie on the trilinear φ = 0 (|φ| < 0.001 h; the
 *     sphere itself within 0.1 h) with their rest coordinate where they landed; in a uniform flow
 * every particle moves by δt u (to float rounding) and its rest coordinate does not change; a
 * particle off a plane φ = y − y0 projects onto it in one step, one beyond band + h stays.
 */
#include "ops/pls/texparticles.h"
#include "lib/twin.h"

typedef struct side {
    lq_field u, v, w, phi;
    lq_texparticles_state st;
    lq_texparticles_ops ops;
} side;

static int side_open(side *s, lq_ctx *ctx, int nx, int ny, int nz, int cap)
{
    memset(s, 0, sizeof *s);
    int rc = lq_field_alloc(ctx, &s->u, "u", nx + 1, ny, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->v, "v", nx, ny + 1, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->w, "w", nx, ny, nz + 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->phi, "phi", nx, ny, nz, 4);
    if (!rc) rc = lq_texparticles_state_init(&s->st, ctx, nx, ny, nz, cap);
    if (!rc) rc = lq_texparticles_ops_init(&s->ops, ctx, nx, ny, nz);
    CHECK_OK(rc);
    return rc;
}

static void side_close(side *s)
{
    lq_texparticles_ops_release(&s->ops);
    lq_texparticles_state_release(&s->st);
    lq_field *fs[] = {&s->u, &s->v, &s->w, &s->phi};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
}

static float *download(side *s)
{
    float *p = malloc((size_t)(s->st.n > 0 ? s->st.n : 1) * LQ_TEXPARTICLES_STRIDE * 4);
    CHECK_OK(lq_texparticles_download(&s->st, p));
    return p;
}

/* The particles of both sides agree bit for bit. */
static void check_parts(const char *op, side *a, side *b)
{
    CHECK_MSG(a->st.n == b->st.n, "%s: %d vs %d particles", op, a->st.n, b->st.n);
    float *pa = download(a), *pb = download(b);
    int bad = 0;
    for (int p = 0; p < a->st.n && p < b->st.n; p++)
        bad +=
            memcmp(pa + (size_t)p * LQ_TEXPARTICLES_STRIDE, pb + (size_t)p * LQ_TEXPARTICLES_STRIDE,
                   LQ_TEXPARTICLES_STRIDE * sizeof(float)) != 0;
    fprintf(stderr, "  %-22s %d particles, %d differ\n", op, a->st.n, bad);
    const lq_tolerance *t = lq_tolerance_get(op);
    CHECK_MSG(bad == 0 || t->abs > 0, "%s: %d of %d particles differ", op, bad, a->st.n);
    free(pa);
    free(pb);
}

/* A sphere of radius R about the domain's centre: φ, a signed distance, on the cells. */
static float *sphere_phi(int nx, int ny, int nz, float h, double R)
{
    float *phi = malloc((size_t)nx * ny * nz * 4);
    double cx = 0.5 * nx * h, cy = 0.5 * ny * h, cz = 0.5 * nz * h;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                double x = (i + 0.5) * h - cx, y = (j + 0.5) * h - cy,
                       z = nz > 1 ? (k + 0.5) * h - cz : 0.0;
                phi[LQ_MAC_CELL(i, j, k, nx, ny)] = (float)(sqrt(x * x + y * y + z * z) - R);
            }
    return phi;
}

/* --- 1. twins, and the seeding's own checks ----------------------------------------- */

static void test_twins(int nx, int ny, int nz, uint64_t seed)
{
    lq_ctx ref, cl;
    fprintf(stderr, "twin diff, %d×%d×%d:\n", nx, ny, nz);
    if (twin_open(&ref, &cl)) {
        CHECK(!"an OpenCL device is needed for the diff tests (install pocl-opencl-icd)");
        return;
    }
    const float h = 0.05f;
    size_t nu = (size_t)(nx + 1) * ny * nz, nv = (size_t)nx * (ny + 1) * nz,
           nw = (size_t)nx * ny * (nz + 1), nc = (size_t)nx * ny * nz;
    float *u = malloc(nu * 4), *v = malloc(nv * 4), *w = malloc(nw * 4);
    double R = 0.3 * ny * h;
    float *phi = sphere_phi(nx, ny, nz, h, R);
    lq_rng r;
    lq_rng_seed(&r, seed);
    for (size_t q = 0; q < nu; q++) u[q] = (float)(2 * lq_rng_uniform(&r) - 1);
    for (size_t q = 0; q < nv; q++) v[q] = (float)(2 * lq_rng_uniform(&r) - 1);
    for (size_t q = 0; q < nw; q++) w[q] = nz > 1 ? (float)(2 * lq_rng_uniform(&r) - 1) : 0.0f;
    lq_texparticles_params prm = {
        .h = h, .dt = 0.03f, .band = h, .per_cell = nz > 1 ? 8 : 4, .seed = (uint32_t)seed};
    int ncells = lq_texparticles_band_cells(phi, nx, ny, nz, prm.band, NULL);
    int *cells = malloc((size_t)ncells * sizeof *cells), inband = 0;
    CHECK(lq_texparticles_band_cells(phi, nx, ny, nz, prm.band, cells) == ncells);
    for (size_t q = 0; q < nc; q++) inband += fabsf(phi[q]) < prm.band;
    CHECK(inband == ncells && ncells > 20);
    for (int q = 1; q < ncells; q++) CHECK(cells[q] > cells[q - 1]);
    int cap = ncells * prm.per_cell;
    side A, B;
    if (side_open(&A, &ref, nx, ny, nz, cap) || side_open(&B, &cl, nx, ny, nz, cap)) goto done;
    side *ss[] = {&A, &B};
    for (int s = 0; s < 2; s++) {
        CHECK_OK(lq_field_upload(&ss[s]->u, u));
        CHECK_OK(lq_field_upload(&ss[s]->v, v));
        CHECK_OK(lq_field_upload(&ss[s]->w, w));
        CHECK_OK(lq_field_upload(&ss[s]->phi, phi));
        CHECK_OK(lq_texparticles_seed(&ss[s]->ops, &ss[s]->st, &ss[s]->phi, cells, ncells, &prm));
    }
    check_parts("texparticles.settle", &A, &B);
    CHECK(A.st.n == cap);
    /* settled on the sphere, rest = position, in the domain */
    float *pa = download(&A);
    double worst = 0, worst_tri = 0;
    double cx = 0.5 * nx * h, cy = 0.5 * ny * h, cz = 0.5 * nz * h;
    for (int p = 0; p < A.st.n; p++) {
        const float *a = pa + (size_t)p * LQ_TEXPARTICLES_STRIDE;
        double z = nz > 1 ? a[2] - cz : 0.0;
        double d = sqrt((a[0] - cx) * (a[0] - cx) + (a[1] - cy) * (a[1] - cy) + z * z) - R;
        lq_markers_vec3 x = {a[0], a[1], a[2]};
        worst = fmax(worst, fabs(d));
        worst_tri = fmax(worst_tri, fabs(lq_plsparticles_sample(phi, x, nx, ny, nz, 1 / h)));
        CHECK(memcmp(a, a + 3, 3 * sizeof(float)) == 0);
    }
    /* on the trilinear φ = 0 (what the settling sees); that surface is within O(h² / R)
     * of the sphere */
    fprintf(stderr, "  settled: max |trilinear phi| %.3g h, max distance to the sphere %.3g h\n",
            worst_tri / h, worst / h);
    CHECK(worst_tri < 1e-3 * h);
    CHECK(worst < 0.1 * h);
    free(pa);
    for (int step = 0; step < 3; step++) {
        for (int s = 0; s < 2; s++)
            CHECK_OK(lq_texparticles_advect(&ss[s]->ops, &ss[s]->st, &ss[s]->u, &ss[s]->v,
                                            &ss[s]->w, &prm));
        CHECK_OK(lq_ctx_finish(&cl));
        check_parts("texparticles.advect", &A, &B);
    }
    for (int s = 0; s < 2; s++)
        CHECK_OK(lq_texparticles_project(&ss[s]->ops, &ss[s]->st, &ss[s]->phi, &prm));
    check_parts("texparticles.project", &A, &B);
done:
    side_close(&A);
    side_close(&B);
    free(u);
    free(v);
    free(w);
    free(phi);
    free(cells);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
}

/* --- 2. analytic ------------------------------------------------------------------------- */

static void fill(lq_field *f, float x)
{
    float *d = malloc(f->count * 4);
    for (size_t q = 0; q < f->count; q++) d[q] = x;
    CHECK_OK(lq_field_upload(f, d));
    free(d);
}

/* A uniform flow moves every particle by δt u and leaves its rest coordinate alone. */
static void test_uniform_flow(void)
{
    lq_ctx ref;
    const int nx = 16, ny = 12, nz = 10;
    const float h = 0.1f, U[3] = {0.7f, -0.4f, 0.25f};
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    float *phi = sphere_phi(nx, ny, nz, h, 0.35);
    int ncells = lq_texparticles_band_cells(phi, nx, ny, nz, h, NULL);
    int *cells = malloc((size_t)ncells * sizeof *cells);
    lq_texparticles_band_cells(phi, nx, ny, nz, h, cells);
    lq_texparticles_params prm = {.h = h, .dt = 0.02f, .band = h, .per_cell = 4, .seed = 9};
    side A;
    if (side_open(&A, &ref, nx, ny, nz, ncells * 4)) goto done;
    fill(&A.u, U[0]);
    fill(&A.v, U[1]);
    fill(&A.w, U[2]);
    CHECK_OK(lq_field_upload(&A.phi, phi));
    CHECK_OK(lq_texparticles_seed(&A.ops, &A.st, &A.phi, cells, ncells, &prm));
    float *p0 = download(&A);
    const int steps = 10;
    for (int s = 0; s < steps; s++)
        CHECK_OK(lq_texparticles_advect(&A.ops, &A.st, &A.u, &A.v, &A.w, &prm));
    float *p1 = download(&A);
    double worst = 0;
    int rest_moved = 0;
    for (int p = 0; p < A.st.n; p++) {
        const float *a = p0 + (size_t)p * 6, *b = p1 + (size_t)p * 6;
        for (int c = 0; c < 3; c++) {
            double want = a[c] + steps * (double)prm.dt * U[c];
            worst = fmax(worst, fabs(b[c] - want));
        }
        rest_moved += memcmp(a + 3, b + 3, 3 * sizeof(float)) != 0;
    }
    fprintf(stderr, "uniform flow: %d particles, max |x - x0 - n dt u| = %.3g m (%.2g h)\n", A.st.n,
            worst, worst / h);
    CHECK(worst < 1e-6);
    CHECK(rest_moved == 0);
    free(p0);
    free(p1);
done:
    side_close(&A);
    free(phi);
    free(cells);
    lq_ctx_close(&ref);
}

/* φ = y − y0: a particle 0.4 h above lands on the plane in one Newton step; one farther
 * than band + h is left alone. */
static void test_projection(void)
{
    lq_ctx ref;
    const int nx = 8, ny = 12, nz = 8;
    const float h = 0.1f, y0 = 0.55f;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    side A;
    if (side_open(&A, &ref, nx, ny, nz, 2)) goto done;
    float *phi = malloc((size_t)nx * ny * nz * 4);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) phi[LQ_MAC_CELL(i, j, k, nx, ny)] = (j + 0.5f) * h - y0;
    CHECK_OK(lq_field_upload(&A.phi, phi));
    float in[12] = {0.33f, y0 + 0.4f * h, 0.41f, 1, 2, 3, 0.33f, y0 + 2.5f * h, 0.41f, 4, 5, 6};
    CHECK_OK(lq_texparticles_upload(&A.st, in, 2));
    lq_texparticles_params prm = {.h = h, .band = h};
    CHECK_OK(lq_texparticles_project(&A.ops, &A.st, &A.phi, &prm));
    float out[12];
    CHECK_OK(lq_texparticles_download(&A.st, out));
    CHECK_NEAR(out[1], y0, 1e-6);
    CHECK(out[0] == in[0] && out[2] == in[2] && out[3] == 1 && out[5] == 3);
    CHECK(memcmp(out + 6, in + 6, 6 * sizeof(float)) == 0);
    free(phi);
done:
    side_close(&A);
    lq_ctx_close(&ref);
}

int main(void)
{
    (void)twin_alloc;
    (void)twin_release;
    (void)twin_check_float;
    (void)twin_check_exact;
    test_twins(18, 16, 14, 5);
    test_twins(40, 30, 1, 3);
    test_uniform_flow();
    test_projection();
    CHECK_DONE();
}
