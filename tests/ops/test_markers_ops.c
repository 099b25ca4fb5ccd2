/*
 * test_markers_ops.c — marker particles (Foster & Metaxas 1996 §4.1; host/ops/mac/markers.h):
 *  1. reference twin vs OpenCL (PoCL in CI) for advection and classification on random
 *     states (random faces, SOLID/INFLOW/OUTFLOW cells, particles anywhere, some on and
 *     beyond the domain edge), 3D with δx ≠ δy ≠ δz and 2D (nz = 1): positions, counts
 *     and flags must agree bit for bit ("markers.<op>" in host/core/tolerance.c);
 *  2. analytic checks: each staggered lattice's sampler reproduces a linear field (up to
 *     float rounding) with non-uniform spacing, 3D and 2D, and holds the value beyond
 *     the lattice; a solid-body rotation keeps a particle on its circle to second order
 *     (the error after one revolution drops ~4× per halving of δt); a particle headed
 *     into a SOLID cell stays put; a seeded box classifies as FULL inside, SURFACE on
 *     its boundary layer (not against the SOLID floor or the domain edge), EMPTY
 *     outside; seeding counts, spheres, and its errors.
 */
#include "ops/mac/markers.h"
#include "lib/twin.h"

static float frand(lq_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)lq_rng_uniform(r);
}

typedef struct side {
    lq_field u, v, w, f, cnt, pos;
    lq_markers_ops ops;
} side;

static int side_open(side *s, lq_ctx *ctx, int nx, int ny, int nz, int cap)
{
    memset(s, 0, sizeof *s);
    int rc = lq_field_alloc(ctx, &s->u, "u", nx + 1, ny, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->v, "v", nx, ny + 1, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->w, "w", nx, ny, nz + 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->f, "flags", nx, ny, nz, 1);
    if (!rc) rc = lq_field_alloc(ctx, &s->cnt, "count", nx, ny, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->pos, "pos", 3, cap, 1, 4);
    if (!rc) rc = lq_markers_ops_init(&s->ops, ctx, nx, ny, nz);
    CHECK_OK(rc);
    return rc;
}

static void side_close(side *s)
{
    lq_markers_ops_release(&s->ops);
    lq_field *fs[] = {&s->u, &s->v, &s->w, &s->f, &s->cnt, &s->pos};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
}

static twin_pair pair_of(const lq_field *a, const lq_field *b)
{
    twin_pair p;
    p.ref = *a;
    p.cl = *b;
    return p;
}

/* The labelling rules of §4.1 with the cavity and ceiling-film cases
 * (kernels/mac/markers_cell.h), written again from the counts and the fixed kinds: a cell with
 * no markers is FULL when its +y neighbour holds markers and every neighbour in the grid
 * holds markers or is SOLID or INFLOW (a cavity), else EMPTY (air); a cell with markers is
 * SURFACE beside air, or when it lies under a SOLID cell (or the grid's top) with markers
 * below and air two below (*film = 1), else FULL. */
static int kind_at(const unsigned char *f, const int *cnt, int i, int j, int k, int nx, int ny,
                   int nz, int *n)
{
    if (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz) return -1; /* wall */
    *n = cnt[LQ_MAC_CELL(i, j, k, nx, ny)];
    return f[LQ_MAC_CELL(i, j, k, nx, ny)];
}

static int is_cavity(const unsigned char *f, const int *cnt, int i, int j, int k, int nx, int ny,
                     int nz)
{
    int n = 0, m;
    if (kind_at(f, cnt, i, j, k, nx, ny, nz, &n) < 0 ||
        lq_markers_fixed(f[LQ_MAC_CELL(i, j, k, nx, ny)]) || n != 0)
        return 0;
    int d[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
    for (int q = 0; q < 6; q++) {
        int kn = kind_at(f, cnt, i + d[q][0], j + d[q][1], k + d[q][2], nx, ny, nz, &m);
        if (q == 3 && (kn < 0 || lq_markers_fixed(kn) || m <= 0)) return 0; /* liquid above */
        if (kn < 0) continue;
        if (lq_markers_fixed(kn) ? kn == LQ_MAC_OUTFLOW : m == 0) return 0;
    }
    return 1;
}

static int is_air(const unsigned char *f, const int *cnt, int i, int j, int k, int nx, int ny,
                  int nz)
{
    int n = 0, kn = kind_at(f, cnt, i, j, k, nx, ny, nz, &n);
    return kn >= 0 && !lq_markers_fixed(kn) && n == 0 && !is_cavity(f, cnt, i, j, k, nx, ny, nz);
}

static int expected_kind(const unsigned char *f, const int *cnt, int i, int j, int k, int nx,
                         int ny, int nz, int *film)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny), n = 0;
    *film = 0;
    if (lq_markers_fixed(f[c])) return f[c];
    if (cnt[c] == 0) return is_cavity(f, cnt, i, j, k, nx, ny, nz) ? LQ_MAC_FULL : LQ_MAC_EMPTY;
    int d[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
    for (int q = 0; q < 6; q++)
        if (is_air(f, cnt, i + d[q][0], j + d[q][1], k + d[q][2], nx, ny, nz))
            return LQ_MAC_SURFACE;
    int up = kind_at(f, cnt, i, j + 1, k, nx, ny, nz, &n);
    if ((up < 0 || up == LQ_MAC_SOLID) && j >= 2 && cnt[c - nx] > 0 &&
        is_air(f, cnt, i, j - 2, k, nx, ny, nz)) {
        *film = 1;
        return LQ_MAC_SURFACE;
    }
    return LQ_MAC_FULL;
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
    const int n = 5000;
    lq_markers_params prm = {0.02f, 0.05f, 0.04f, 0.07f, 0};
    size_t nu = (size_t)(nx + 1) * ny * nz, nv = (size_t)nx * (ny + 1) * nz,
           nw = (size_t)nx * ny * (nz + 1), nc = (size_t)nx * ny * nz;
    float *u = malloc(nu * 4), *v = malloc(nv * 4), *w = malloc(nw * 4), *pos = malloc(n * 12);
    float *pa = malloc(n * 12);
    unsigned char *f = malloc(nc), *fa = malloc(nc);
    lq_rng r;
    lq_rng_seed(&r, seed);
    for (size_t q = 0; q < nu; q++) u[q] = frand(&r, -3, 3);
    for (size_t q = 0; q < nv; q++) v[q] = frand(&r, -3, 3);
    for (size_t q = 0; q < nw; q++) w[q] = nz > 1 ? frand(&r, -3, 3) : 0.0f;
    for (size_t q = 0; q < nc; q++) {
        float x = frand(&r, 0, 1);
        f[q] = x < 0.1f    ? LQ_MAC_SOLID
               : x < 0.13f ? LQ_MAC_INFLOW
               : x < 0.16f ? LQ_MAC_OUTFLOW
               : x < 0.5f  ? LQ_MAC_EMPTY
               : x < 0.75f ? LQ_MAC_FULL
                           : LQ_MAC_SURFACE;
    }
    float L[3] = {nx * prm.dx, ny * prm.dy, nz * prm.dz};
    for (int p = 0; p < n; p++)
        for (int a = 0; a < 3; a++) {
            float x = frand(&r, -0.05f, 1.05f) * L[a];
            if (p % 97 == 0) x = a == 0 ? L[a] : 0.0f; /* exactly on the edge */
            if (a == 2 && nz == 1) x = 0.5f * prm.dz;
            pos[3 * p + a] = x;
        }
    side A, B;
    if (side_open(&A, &ref, nx, ny, nz, n) || side_open(&B, &cl, nx, ny, nz, n)) goto done;
    side *ss[] = {&A, &B};
    for (int s = 0; s < 2; s++) {
        CHECK_OK(lq_field_upload(&ss[s]->u, u));
        CHECK_OK(lq_field_upload(&ss[s]->v, v));
        CHECK_OK(lq_field_upload(&ss[s]->w, w));
        CHECK_OK(lq_field_upload(&ss[s]->f, f));
        CHECK_OK(lq_field_upload(&ss[s]->pos, pos));
    }
    for (int step = 0; step < 3; step++) {
        for (int s = 0; s < 2; s++)
            CHECK_OK(lq_markers_advect(&ss[s]->ops, &ss[s]->pos, n, &ss[s]->u, &ss[s]->v, &ss[s]->w,
                                       &ss[s]->f, &prm));
        CHECK_OK(lq_ctx_finish(&cl));
        twin_pair pp = pair_of(&A.pos, &B.pos);
        twin_check_float("markers.advect", &pp);
    }
    /* reference: in the domain, never in a SOLID cell unless it started there */
    CHECK_OK(lq_field_download(&A.pos, pa));
    lq_markers_coef c = lq_markers_coef_of(&prm, nx, ny, nz);
    int out = 0, moved_into_solid = 0, moved = 0;
    for (int p = 0; p < n; p++) {
        lq_markers_vec3 q0 = {pos[3 * p], pos[3 * p + 1], pos[3 * p + 2]};
        lq_markers_vec3 q1 = {pa[3 * p], pa[3 * p + 1], pa[3 * p + 2]};
        for (int a = 0; a < 3; a++) out += !(pa[3 * p + a] >= 0 && pa[3 * p + a] <= L[a]);
        moved += memcmp(&q0, &q1, 12) != 0;
        int c0 = lq_markers_cell_of(q0, nx, ny, nz, c.idx, c.idy, c.idz);
        int c1 = lq_markers_cell_of(q1, nx, ny, nz, c.idx, c.idy, c.idz);
        moved_into_solid += f[c1] == LQ_MAC_SOLID && c1 != c0;
    }
    fprintf(stderr, "  %d of %d particles moved, %d out, %d into SOLID\n", moved, n, out,
            moved_into_solid);
    CHECK(out == 0 && moved_into_solid == 0 && moved > n / 2);

    for (int s = 0; s < 2; s++)
        CHECK_OK(lq_markers_classify(&ss[s]->ops, &ss[s]->pos, n, &ss[s]->f, &ss[s]->cnt, &prm));
    CHECK_OK(lq_ctx_finish(&cl));
    twin_pair pf = pair_of(&A.f, &B.f), pc = pair_of(&A.cnt, &B.cnt);
    twin_check_exact("markers.classify", &pf);
    twin_check_exact("markers.classify", &pc);
    /* fixed kinds unchanged, counts add up, labels follow the counts */
    int *cnt = malloc(nc * sizeof *cnt);
    CHECK_OK(lq_field_download(&A.f, fa));
    CHECK_OK(lq_field_download(&A.cnt, cnt));
    long total = 0, in_fixed = 0;
    int bad = 0, kinds[6] = {0}, cavities = 0, films = 0;
    for (size_t q = 0; q < nc; q++) {
        if (lq_markers_fixed(f[q]))
            bad += fa[q] != f[q] || cnt[q] != -1;
        else {
            total += cnt[q];
            int i = (int)(q % nx), j = (int)(q / nx % ny), k = (int)(q / ((size_t)nx * ny));
            int film = 0, want = expected_kind(f, cnt, i, j, k, nx, ny, nz, &film);
            bad += fa[q] != want;
            cavities += cnt[q] == 0 && want == LQ_MAC_FULL;
            films += film;
        }
        kinds[fa[q]]++;
    }
    fprintf(stderr, "  %d cavities labelled FULL, %d film cells under a ceiling SURFACE\n",
            cavities, films);
    CHECK(cavities > 0);
    for (int p = 0; p < n; p++) {
        lq_markers_vec3 q1 = {pa[3 * p], pa[3 * p + 1], pa[3 * p + 2]};
        in_fixed += lq_markers_fixed(f[lq_markers_cell_of(q1, nx, ny, nz, c.idx, c.idy, c.idz)]);
    }
    fprintf(stderr, "  cells: %d EMPTY, %d FULL, %d SURFACE\n", kinds[0], kinds[1], kinds[2]);
    CHECK(bad == 0 && total + in_fixed == n && kinds[1] > 0 && kinds[2] > 0);
    free(cnt);
done:
    side_close(&A);
    side_close(&B);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
    free(u), free(v), free(w), free(pos), free(pa), free(f), free(fa);
}

/* --- 2. analytic -------------------------------------------------------------------- */

/* a + b x + c y + d z */
static double lin(const double *k, double x, double y, double z)
{
    return k[0] + k[1] * x + k[2] * y + k[3] * z;
}

/* Fills lattice a (m0 × m1 × m2, node (i + o0) δx, ...) with the linear field. */
static void fill(float *a, int m0, int m1, int m2, double o0, double o1, double o2, const double *d,
                 const double *k)
{
    for (int kk = 0; kk < m2; kk++)
        for (int j = 0; j < m1; j++)
            for (int i = 0; i < m0; i++)
                a[i + m0 * (j + m1 * kk)] =
                    (float)lin(k, (i + o0) * d[0], (j + o1) * d[1], (kk + o2) * d[2]);
}

static void test_linear(int nx, int ny, int nz)
{
    double d[3] = {0.05, 0.031, 0.07};
    float id[3] = {(float)(1 / d[0]), (float)(1 / d[1]), (float)(1 / d[2])};
    double ku[4] = {0.3, 1.7, -2.1, nz > 1 ? 0.9 : 0}, kv[4] = {-0.2, 0.6, 1.3, nz > 1 ? -1.1 : 0},
           kw[4] = {0.1, -0.7, 0.4, 2.3};
    float *u = malloc((size_t)(nx + 1) * ny * nz * 4), *v = malloc((size_t)nx * (ny + 1) * nz * 4),
          *w = malloc((size_t)nx * ny * (nz + 1) * 4);
    fill(u, nx + 1, ny, nz, 0, 0.5, 0.5, d, ku);
    fill(v, nx, ny + 1, nz, 0.5, 0, 0.5, d, kv);
    fill(w, nx, ny, nz + 1, 0.5, 0.5, 0, d, kw);
    lq_rng r;
    lq_rng_seed(&r, 11);
    double eu = 0, ev = 0, ew = 0;
    for (int t = 0; t < 2000; t++) {
        /* inside every lattice: half a cell from the domain edge (z: the one layer) */
        float x = frand(&r, 0.5f, nx - 0.5f) * (float)d[0];
        float y = frand(&r, 0.5f, ny - 0.5f) * (float)d[1];
        float z = nz > 1 ? frand(&r, 0.5f, nz - 0.5f) * (float)d[2] : frand(&r, 0, 1) * (float)d[2];
        float su = lq_markers_sample_u(u, x, y, z, nx, ny, nz, id[0], id[1], id[2]);
        float sv = lq_markers_sample_v(v, x, y, z, nx, ny, nz, id[0], id[1], id[2]);
        float sw = lq_markers_sample_w(w, x, y, z, nx, ny, nz, id[0], id[1], id[2]);
        eu = fmax(eu, fabs(su - lin(ku, x, y, z)));
        ev = fmax(ev, fabs(sv - lin(kv, x, y, z)));
        ew = fmax(ew, fabs(sw - lin(kw, x, y, z)));
    }
    fprintf(stderr, "linear %d×%d×%d: max error u %.2g v %.2g w %.2g\n", nx, ny, nz, eu, ev, ew);
    CHECK(eu < 2e-6 && ev < 2e-6 && ew < 2e-6);
    /* beyond the lattice the value is held: v below its first node row in x */
    float y = 0.5f * (float)d[1], z = 0.5f * (float)d[2];
    CHECK(lq_markers_sample_v(v, 0.0f, y, z, nx, ny, nz, id[0], id[1], id[2]) ==
          lq_markers_sample_v(v, 0.5f * (float)d[0], y, z, nx, ny, nz, id[0], id[1], id[2]));
    CHECK(lq_markers_sample_u(u, -1.0f, y, z, nx, ny, nz, id[0], id[1], id[2]) == u[0]);
    free(u), free(v), free(w);
}

/* Solid-body rotation, ω = 2π (one revolution per second), about (½, ½) in a 1 × 1
 * 2D box: error of a particle at radius ¼ after one revolution in N steps. */
static void test_rotation(void)
{
    lq_ctx ref, cl;
    if (twin_open(&ref, &cl)) {
        CHECK(!"an OpenCL device is needed");
        return;
    }
    const int nx = 32, ny = 32;
    const double h = 1.0 / 32, om = 2 * LQ_PI;
    float *u = calloc((size_t)(nx + 1) * ny, 4), *v = calloc((size_t)nx * (ny + 1), 4),
          *w = calloc((size_t)nx * ny * 2, 4);
    unsigned char *f = calloc((size_t)nx * ny, 1);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i <= nx; i++) u[i + (nx + 1) * j] = (float)(-om * ((j + 0.5) * h - 0.5));
    for (int j = 0; j <= ny; j++)
        for (int i = 0; i < nx; i++) v[i + nx * j] = (float)(om * ((i + 0.5) * h - 0.5));
    side A, B;
    double prev = 0;
    if (side_open(&A, &ref, nx, ny, 1, 1) || side_open(&B, &cl, nx, ny, 1, 1)) goto done;
    side *ss[] = {&A, &B};
    for (int N = 64; N <= 512; N *= 2) {
        float p0[3] = {0.75f, 0.5f, (float)(0.5 * h)}, pa[3], pb[3];
        lq_markers_params prm = {(float)(1.0 / N), (float)h, (float)h, (float)h, 0};
        for (int s = 0; s < 2; s++) {
            CHECK_OK(lq_field_upload(&ss[s]->u, u));
            CHECK_OK(lq_field_upload(&ss[s]->v, v));
            CHECK_OK(lq_field_upload(&ss[s]->w, w));
            CHECK_OK(lq_field_upload(&ss[s]->f, f));
            CHECK_OK(lq_field_upload(&ss[s]->pos, p0));
            for (int t = 0; t < N; t++)
                CHECK_OK(lq_markers_advect(&ss[s]->ops, &ss[s]->pos, 1, &ss[s]->u, &ss[s]->v,
                                           &ss[s]->w, &ss[s]->f, &prm));
        }
        CHECK_OK(lq_field_download(&A.pos, pa));
        CHECK_OK(lq_field_download(&B.pos, pb));
        CHECK(memcmp(pa, pb, sizeof pa) == 0);
        double e = hypot(pa[0] - 0.75, pa[1] - 0.5);
        double dr = fabs(hypot(pa[0] - 0.5, pa[1] - 0.5) - 0.25);
        fprintf(stderr, "rotation, %3d steps: error %.3e (radius %.3e)", N, e, dr);
        if (prev > 0) fprintf(stderr, ", ratio %.2f", prev / e);
        fputc('\n', stderr);
        if (prev > 0) CHECK_MSG(prev / e > 3.5 && prev / e < 4.5, "ratio %g", prev / e);
        CHECK(pa[2] == p0[2]);
        prev = e;
    }
done:
    side_close(&A);
    side_close(&B);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
    free(u), free(v), free(w), free(f);
}

/* A particle headed into a SOLID cell stays where it was; one beside it moves. */
static void test_solid(void)
{
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    const int nx = 8, ny = 4, nz = 4;
    side A;
    if (side_open(&A, &ref, nx, ny, nz, 2)) goto done;
    float *u = A.u.host;
    for (size_t q = 0; q < A.u.count; q++) u[q] = 1.0f;
    lq_field_zero(&A.v, 0);
    lq_field_zero(&A.w, 0);
    lq_field_zero(&A.f, 0);
    ((unsigned char *)A.f.host)[LQ_MAC_CELL(5, 1, 1, nx, ny)] = LQ_MAC_SOLID;
    float p0[6] = {4.9f, 1.5f, 1.5f, 4.9f, 2.5f, 1.5f};
    CHECK_OK(lq_field_upload(&A.pos, p0));
    lq_markers_params prm = {0.3f, 1, 1, 1, 0};
    CHECK_OK(lq_markers_advect(&A.ops, &A.pos, 2, &A.u, &A.v, &A.w, &A.f, &prm));
    float *p = A.pos.host;
    CHECK(p[0] == 4.9f && p[1] == 1.5f && p[2] == 1.5f);
    CHECK_NEAR(p[3], 5.2f, 1e-6);
done:
    side_close(&A);
    lq_ctx_close(&ref);
}

/* A marker in a SURFACE cell under a SOLID ceiling moves with the cell's bottom face (v =
 * −1 there, 0 at the ceiling): dt · 1 down, not the blend's ½ · dt at mid-height; one in a
 * FULL cell under the same ceiling, or in a SURFACE cell under air, keeps the blend. */
static void test_ceiling(void)
{
    lq_ctx ref;
    CHECK_OK(lq_ctx_open(&ref, "ref", false));
    const int nx = 6, ny = 5, nz = 1;
    side A;
    if (side_open(&A, &ref, nx, ny, nz, 3)) goto done;
    lq_field_zero(&A.u, 0);
    lq_field_zero(&A.w, 0);
    float *v = A.v.host;
    for (int j = 0; j <= ny; j++)
        for (int i = 0; i < nx; i++) v[LQ_MAC_V(i, j, 0, nx, ny)] = j <= 3 ? -1.0f : 0.0f;
    unsigned char *f = A.f.host;
    memset(f, LQ_MAC_EMPTY, (size_t)nx * ny);
    for (int i = 0; i < nx; i++) f[LQ_MAC_CELL(i, 4, 0, nx, ny)] = LQ_MAC_SOLID; /* ceiling */
    f[LQ_MAC_CELL(1, 3, 0, nx, ny)] = LQ_MAC_SURFACE;
    f[LQ_MAC_CELL(3, 3, 0, nx, ny)] = LQ_MAC_FULL;
    f[LQ_MAC_CELL(5, 2, 0, nx, ny)] = LQ_MAC_SURFACE; /* under air (row 3 EMPTY) */
    float p0[9] = {1.5f, 3.5f, 0.5f, 3.5f, 3.5f, 0.5f, 5.5f, 2.5f, 0.5f};
    CHECK_OK(lq_field_upload(&A.pos, p0));
    lq_markers_params prm = {0.1f, 1, 1, 1, 0};
    CHECK_OK(lq_markers_advect(&A.ops, &A.pos, 3, &A.u, &A.v, &A.w, &A.f, &prm));
    float *p = A.pos.host;
    fprintf(stderr, "ceiling: SURFACE cell moved %.4f (want 0.1), FULL %.4f, under air %.4f\n",
            3.5 - p[1], 3.5 - p[4], 2.5 - p[7]);
    CHECK_NEAR(p[1], 3.4f, 1e-6);        /* the bottom face's v */
    CHECK(p[4] > 3.43f && p[4] < 3.46f); /* blend, ~0.045 at mid-height */
    CHECK_NEAR(p[7], 2.4f, 1e-6);        /* v = −1 on both faces */
    CHECK(p[0] == 1.5f && p[3] == 3.5f && p[6] == 5.5f);
done:
    side_close(&A);
    lq_ctx_close(&ref);
}

/* Cavities and ceiling films on a hand-made state, both backends: a marker-less cell in
 * the liquid is FULL; one beside an OUTFLOW cell, or under the ceiling, stays EMPTY; a
 * liquid cell under the ceiling with liquid below and air two below is SURFACE (no air
 * beside it: (7, 5)), with liquid five deep it is FULL ((1, 5)). */
static void test_labels(void)
{
    const int nx = 9, ny = 7, nz = 1;
    size_t nc = (size_t)nx * ny;
    unsigned char f[9 * 7], fa[9 * 7], fb[9 * 7];
    memset(f, LQ_MAC_EMPTY, nc);
    for (int i = 0; i < nx; i++)
        f[LQ_MAC_CELL(i, 0, 0, nx, ny)] = f[LQ_MAC_CELL(i, 6, 0, nx, ny)] = LQ_MAC_SOLID;
    for (int j = 0; j < ny; j++)
        f[LQ_MAC_CELL(0, j, 0, nx, ny)] = f[LQ_MAC_CELL(8, j, 0, nx, ny)] = LQ_MAC_SOLID;
    f[LQ_MAC_CELL(4, 1, 0, nx, ny)] = LQ_MAC_OUTFLOW;
    /* markers: columns 1-3 full from j = 1 to 5 except (2, 2) (a cavity) and (3, 5) (air
     * under the ceiling); (4, 3) and (5, 2) around the marker-less (4, 2) over the OUTFLOW (4, 1);
     * columns 6-7: rows 5 and 4 (a film over air at row 3) and column 6 also row 3 */
    int filled[9][7] = {{0}};
    for (int i = 1; i <= 3; i++)
        for (int j = 1; j <= 5; j++) filled[i][j] = 1;
    filled[2][2] = 0;
    filled[3][5] = 0;
    filled[4][3] = filled[5][2] = 1; /* (4, 2): no markers, OUTFLOW below */
    filled[6][5] = filled[6][4] = filled[6][3] = 1;
    filled[7][5] = filled[7][4] = 1;
    float pos[3 * 9 * 7];
    int m = 0;
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++)
            if (filled[i][j]) {
                pos[3 * m] = i + 0.5f;
                pos[3 * m + 1] = j + 0.5f;
                pos[3 * m + 2] = 0.5f;
                m++;
            }
    lq_ctx ref, cl;
    if (twin_open(&ref, &cl)) {
        CHECK(!"an OpenCL device is needed");
        return;
    }
    side A, B;
    if (side_open(&A, &ref, nx, ny, nz, m) || side_open(&B, &cl, nx, ny, nz, m)) goto done;
    side *ss[] = {&A, &B};
    lq_markers_params prm = {0.01f, 1, 1, 1, 0};
    for (int s = 0; s < 2; s++) {
        CHECK_OK(lq_field_upload(&ss[s]->f, f));
        CHECK_OK(lq_field_upload(&ss[s]->pos, pos));
        CHECK_OK(lq_markers_classify(&ss[s]->ops, &ss[s]->pos, m, &ss[s]->f, &ss[s]->cnt, &prm));
    }
    CHECK_OK(lq_field_download(&A.f, fa));
    CHECK_OK(lq_field_download(&B.f, fb));
    CHECK(memcmp(fa, fb, nc) == 0);
#define K(i, j) fa[LQ_MAC_CELL(i, j, 0, nx, ny)]
    fprintf(stderr,
            "labels: cavity %d (want FULL 1), under the ceiling %d (EMPTY 0), over the "
            "outflow %d (EMPTY 0), film top %d (SURFACE 2), five deep %d (FULL 1)\n",
            K(2, 2), K(3, 5), K(4, 2), K(7, 5), K(1, 5));
    CHECK(K(2, 2) == LQ_MAC_FULL);
    CHECK(K(3, 5) == LQ_MAC_EMPTY && K(3, 4) == LQ_MAC_SURFACE && K(2, 5) == LQ_MAC_SURFACE);
    CHECK(K(2, 1) == LQ_MAC_FULL && K(1, 2) == LQ_MAC_FULL && K(2, 3) == LQ_MAC_FULL);
    CHECK(K(4, 1) == LQ_MAC_OUTFLOW && K(4, 2) == LQ_MAC_EMPTY);
    CHECK(K(7, 5) == LQ_MAC_SURFACE && K(7, 4) == LQ_MAC_SURFACE);
    CHECK(K(1, 5) == LQ_MAC_FULL);
    /* mac.fill_cavities false: the same state, the cavity left EMPTY, on both backends */
    prm.cavities_air = 1;
    for (int s = 0; s < 2; s++) {
        CHECK_OK(lq_field_upload(&ss[s]->f, f));
        CHECK_OK(lq_markers_classify(&ss[s]->ops, &ss[s]->pos, m, &ss[s]->f, &ss[s]->cnt, &prm));
    }
    CHECK_OK(lq_field_download(&A.f, fa));
    CHECK_OK(lq_field_download(&B.f, fb));
    CHECK(memcmp(fa, fb, nc) == 0);
    fprintf(stderr, "labels, cavities left as air: cavity %d (want EMPTY 0), film top %d\n",
            K(2, 2), K(7, 5));
    CHECK(K(2, 2) == LQ_MAC_EMPTY && K(2, 1) == LQ_MAC_SURFACE && K(7, 5) == LQ_MAC_SURFACE);
#undef K
done:
    side_close(&A);
    side_close(&B);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
}

/* The cavity and ceiling-film rules are for marker counts only (rules LQ_MARKERS_CEILING |
 * LQ_MARKERS_CAVITIES): the height field and the chains label an exact liquid/air state (rules
 * 0, kernels/mac/machf.cl, chains.cl), where an enclosed air cell is a bubble and stays EMPTY,
 * its liquid neighbours SURFACE. Applied there, the rule filled the chains' bubbles and the
 * marble-in-soup scene took 3 times the pressure sweeps (123 against 41 a step). With
 * mac.fill_cavities false (rules LQ_MARKERS_CEILING) a marker-less cell stays EMPTY too. */
static void test_label_exact(void)
{
    enum { nx = 5, ny = 5 };
    int st[nx * ny];
    for (int c = 0; c < nx * ny; c++) st[c] = 1;
    st[LQ_MAC_CELL(2, 2, 0, nx, ny)] = 0;
    const int rules[3] = {0, LQ_MARKERS_CEILING, LQ_MARKERS_CEILING | LQ_MARKERS_CAVITIES};
    for (int r = 0; r < 3; r++) {
        unsigned char f[nx * ny];
        memset(f, LQ_MAC_EMPTY, sizeof f);
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) lq_markers_label_cell(f, st, i, j, 0, nx, ny, 1, rules[r]);
        int mid = f[LQ_MAC_CELL(2, 2, 0, nx, ny)], up = f[LQ_MAC_CELL(2, 3, 0, nx, ny)];
        int fill = (rules[r] & LQ_MARKERS_CAVITIES) != 0;
        fprintf(stderr, "labels, rules %d: enclosed cell %d, the cell above it %d\n", rules[r], mid,
                up);
        CHECK(mid == (fill ? LQ_MAC_FULL : LQ_MAC_EMPTY));
        CHECK(up == (fill ? LQ_MAC_FULL : LQ_MAC_SURFACE));
    }
}

/* A box seeded over whole cells, over a SOLID floor (j = 0), touching the x = 0 edge. */
static void test_seed_box(int nz, int per_cell)
{
    const int nx = 14, ny = 10;
    const float dx = 0.05f, dy = 0.04f, dz = 0.07f;
    int lo[3] = {0, 1, nz > 1 ? 2 : 0}, hi[3] = {6, 5, nz > 1 ? 6 : 1};
    size_t nc = (size_t)nx * ny * nz;
    unsigned char *f = calloc(nc, 1);
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++) f[LQ_MAC_CELL(i, 0, k, nx, ny)] = LQ_MAC_SOLID;
    lq_markers_shape box = {.kind = LQ_MARKERS_BOX,
                            .a = {lo[0] * dx, 0.0f, lo[2] * dz}, /* down into the floor */
                            .b = {hi[0] * dx, hi[1] * dy, hi[2] * dz}};
    size_t cap = 4000, m = 0;
    float *pos = malloc(cap * 12);
    CHECK_OK(lq_markers_seed(nx, ny, nz, dx, dy, dz, f, 1, &box, per_cell, 5, pos, cap, &m));
    size_t want = (size_t)per_cell * (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
    fprintf(stderr, "seed box nz=%d: %zu particles (want %zu)\n", nz, m, want);
    CHECK(m == want);
    size_t m2 = 0;
    float *pos2 = malloc(cap * 12);
    CHECK_OK(lq_markers_seed(nx, ny, nz, dx, dy, dz, f, 1, &box, per_cell, 5, pos2, cap, &m2));
    CHECK(m2 == m && memcmp(pos, pos2, m * 12) == 0); /* deterministic */

    lq_ctx ref, cl;
    if (twin_open(&ref, &cl)) {
        CHECK(!"an OpenCL device is needed");
        goto out;
    }
    side A, B;
    if (side_open(&A, &ref, nx, ny, nz, (int)m) || side_open(&B, &cl, nx, ny, nz, (int)m))
        goto done;
    side *ss[] = {&A, &B};
    lq_markers_params prm = {0.01f, dx, dy, dz, 0};
    for (int s = 0; s < 2; s++) {
        CHECK_OK(lq_field_upload(&ss[s]->f, f));
        CHECK_OK(lq_field_upload(&ss[s]->pos, pos));
        CHECK_OK(
            lq_markers_classify(&ss[s]->ops, &ss[s]->pos, (int)m, &ss[s]->f, &ss[s]->cnt, &prm));
    }
    unsigned char *fa = malloc(nc), *fb = malloc(nc);
    int *cnt = malloc(nc * 4);
    CHECK_OK(lq_field_download(&A.f, fa));
    CHECK_OK(lq_field_download(&B.f, fb));
    CHECK_OK(lq_field_download(&A.cnt, cnt));
    CHECK(memcmp(fa, fb, nc) == 0);
    int bad = 0;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                int c = LQ_MAC_CELL(i, j, k, nx, ny), want_k;
                int in =
                    i >= lo[0] && i < hi[0] && j >= lo[1] && j < hi[1] && k >= lo[2] && k < hi[2];
                if (j == 0)
                    want_k = LQ_MAC_SOLID;
                else if (!in)
                    want_k = LQ_MAC_EMPTY;
                else {
                    /* boundary layer: next to a non-solid cell outside the box in the grid */
                    int edge = (i == hi[0] - 1 && i + 1 < nx) || (j == hi[1] - 1) ||
                               (nz > 1 && (k == lo[2] || k == hi[2] - 1));
                    want_k = edge ? LQ_MAC_SURFACE : LQ_MAC_FULL;
                }
                if (fa[c] != want_k || (in && cnt[c] != per_cell)) {
                    if (bad++ < 5)
                        fprintf(stderr, "  cell %d %d %d: kind %d want %d count %d\n", i, j, k,
                                fa[c], want_k, cnt[c]);
                }
            }
    CHECK(bad == 0);
    free(fa), free(fb), free(cnt);
done:
    side_close(&A);
    side_close(&B);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
out:
    free(f), free(pos), free(pos2);
}

static void test_seed_misc(void)
{
    const float d = 0.1f;
    lq_markers_shape s = {.kind = LQ_MARKERS_SPHERE, .a = {1.0f, 1.0f, 1.0f}, .r = 0.5f};
    size_t cap = 20000, m = 0;
    float *pos = malloc(cap * 12);
    CHECK_OK(lq_markers_seed(20, 20, 20, d, d, d, NULL, 1, &s, 8, 3, pos, cap, &m));
    double want = 4.0 / 3 * LQ_PI * 0.125 * 8 / (d * d * d);
    fprintf(stderr, "seed sphere: %zu particles, %.0f by volume\n", m, want);
    CHECK(fabs(m - want) < 0.03 * want);
    int outside = 0;
    for (size_t p = 0; p < m; p++)
        outside +=
            hypot(hypot(pos[3 * p] - 1.0, pos[3 * p + 1] - 1.0), pos[3 * p + 2] - 1.0) > 0.5 + 1e-6;
    CHECK(outside == 0);
    /* too small a capacity: a clear error and the count needed */
    size_t m2 = 0;
    lq_error_clear();
    CHECK(lq_markers_seed(20, 20, 20, d, d, d, NULL, 1, &s, 8, 3, pos, 100, &m2) == LQ_EINPUT);
    CHECK(m2 == m && strstr(lq_error_message(), "capacity") != NULL);
    fprintf(stderr, "  %s\n", lq_error_message());
    lq_error_clear();
    CHECK(lq_markers_seed(20, 20, 1, d, d, d, NULL, 1, &s, 8, 3, pos, cap, &m2) == LQ_EINPUT);
    fprintf(stderr, "  %s\n", lq_error_message());
    lq_error_clear();
    free(pos);
}

int main(void)
{
    (void)twin_alloc;
    (void)twin_release;
    test_linear(9, 7, 6);
    test_linear(9, 7, 1);
    test_twins(19, 13, 11, 2024);
    test_twins(23, 17, 1, 7);
    test_rotation();
    test_solid();
    test_ceiling();
    test_labels();
    test_label_exact();
    test_seed_box(10, 8);
    test_seed_box(1, 4);
    test_seed_misc();
    CHECK_DONE();
}
