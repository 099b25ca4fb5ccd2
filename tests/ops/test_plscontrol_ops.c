/*
 * test_plscontrol_ops.c — the control particles' operations (host/ops/pls/plscontrol.h,
 * Rasmussen et al. 2004 §4):
 *  1. reference twin vs OpenCL (PoCL in CI) on random particles of every kind, shape and
 *     falloff (some outside the grid, some with strength 0, one large enough to coarsen
 *     the tiles), 3D and 2D: the binning (keys, tile counts and starts, the sorted order),
 *     and each kind's pass (the faces, α, V_p and the projection's solid field; φ and
 *     the kill field; ν; the right-hand side) must agree bit for bit ("plscontrol.*" in
 *     host/core/tolerance.c);
 *  2. the binning misses no particle: each cell's α (a max, order-free) equals the max
 *     over every particle computed without bins, on the same random sets;
 *  3. independent checks on the reference path: the falloff curves (box 1, hat 1 − s,
 *     the smooth cubic ½ at s = ½ with zero slope at both ends); a still pool's faces
 *     under soft control become α·target (eq. 4 with V_liquid = 0) and keep their value
 *     outside; two overlapping particles give the α-weighted mean; a hard region
 *     (α > 0.9) takes V_p exactly on every face of its liquid cells and is solid (−h/2)
 *     for the projection; a cylinder φ particle blends φ toward the signed distance to
 *     its plane; an eraser makes φ = max(φ, −sd) and marks the cells it moved; a
 *     divergence particle adds (h²/dt) α D to the unknowns' right-hand side only.
 */
#include "ops/pls/plscontrol.h"
#include "lib/twin.h"

static float frand(lq_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)lq_rng_uniform(r);
}

static void fill(lq_rng *r, float *a, size_t n, float lo, float hi)
{
    for (size_t i = 0; i < n; i++) a[i] = frand(r, lo, hi);
}

/* One record: kind, shape, falloff, at p with radius R (m). */
static void put(float *rec, int kind, int shape, int falloff, const float p[3], float R,
                float strength)
{
    memset(rec, 0, LQ_PLSCONTROL_STRIDE * sizeof(float));
    for (int a = 0; a < 3; a++) rec[LQ_PLSCONTROL_X + a] = p[a];
    rec[LQ_PLSCONTROL_R] = R;
    rec[LQ_PLSCONTROL_AXIS + 1] = 1.0f;
    rec[LQ_PLSCONTROL_HALF] = shape == LQ_PLSCONTROL_CYLINDER ? R : 0.0f;
    rec[LQ_PLSCONTROL_STRENGTH] = strength;
    rec[LQ_PLSCONTROL_CODE] =
        (float)(kind + LQ_PLSCONTROL_SHAPE_MUL * shape + LQ_PLSCONTROL_FALL_MUL * falloff);
    float half = rec[LQ_PLSCONTROL_HALF];
    rec[LQ_PLSCONTROL_EXTENT] = shape == LQ_PLSCONTROL_CYLINDER ? sqrtf(R * R + half * half) : R;
}

/* n random particles over a box a little larger than the grid (nx h ...). */
static void random_records(lq_rng *r, float *rec, int n, int nx, int ny, int nz, float h,
                           bool small)
{
    for (int i = 0; i < n; i++) {
        float *q = rec + (size_t)i * LQ_PLSCONTROL_STRIDE;
        float p[3] = {frand(r, -2 * h, (nx + 2) * h), frand(r, -2 * h, (ny + 2) * h),
                      nz > 1 ? frand(r, -2 * h, (nz + 2) * h) : 0.5f * h};
        int kind = (int)(lq_rng_u32(r) % (small ? LQ_PLSCONTROL_ERASER : LQ_PLSCONTROL_KINDS));
        int shape = small ? LQ_PLSCONTROL_SPHERE : (int)(lq_rng_u32(r) % 2),
            fall = (int)(lq_rng_u32(r) % 3);
        float strength = i % 17 == 5 ? 0.0f : frand(r, 0.2f, 1.0f);
        if (i % 5 == 0) strength = 1.0f; /* hard velocity cells */
        put(q, kind, shape, fall, p,
            small ? frand(r, 0.4f * h, 0.95f * h) : frand(r, 0.5f * h, 1.6f * h), strength);
        for (int a = 0; a < 3; a++) q[LQ_PLSCONTROL_V + a] = frand(r, -2, 2);
        float ax[3] = {frand(r, -1, 1), frand(r, -1, 1), nz > 1 ? frand(r, -1, 1) : 0};
        float l = sqrtf(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
        for (int a = 0; a < 3; a++) q[LQ_PLSCONTROL_AXIS + a] = l > 0 ? ax[a] / l : (a == 1);
        q[LQ_PLSCONTROL_VALUE] = kind == LQ_PLSCONTROL_PHI ? frand(r, -h, h) : frand(r, 0, 3);
        if (kind == LQ_PLSCONTROL_ERASER) q[LQ_PLSCONTROL_EXTENT] += 2 * h;
    }
}

/* 2. No particle missed: α per cell (a max, order-free) against every particle, right
 * after the first velocity pass (the scratch of unlisted blocks still holds its zeros). */
static void check_brute(const lq_plscontrol_ops *o, const float *rec, int n, int nx, int ny, int nz,
                        float h)
{
    const float *ca = o->ca.host;
    int bad = 0;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                float m = 0, x = (i + 0.5f) * h, y = (j + 0.5f) * h, z = (k + 0.5f) * h;
                for (int q = 0; q < n; q++) {
                    const float *rq = rec + (size_t)q * LQ_PLSCONTROL_STRIDE;
                    if (lq_plscontrol_kind(rq) != LQ_PLSCONTROL_VELOCITY) continue;
                    float al = lq_plscontrol_alpha(rq, x, y, z);
                    if (al > m) m = al;
                }
                bad += ca[LQ_MAC_CELL(i, j, k, nx, ny)] != m;
            }
    CHECK_MSG(bad == 0, "binned α differs from the brute force in %d cells", bad);
}

/* mode 0: radii ½–1.6 cells, every kind and shape; 1: the same and one large particle;
 * 2: spheres of ½–1 cell without erasers (tiles of one cell). */
static void test_twins(int nx, int ny, int nz, int n, int mode, uint64_t seed)
{
    bool big = mode == 1;
    fprintf(stderr, "twins %dx%dx%d, %d particles%s:\n", nx, ny, nz, n,
            big ? ", one large" : (mode == 2 ? ", one cell or less" : ""));
    lq_ctx ref, cl;
    if (twin_open(&ref, &cl)) {
        CHECK(0);
        return;
    }
    float h = 0.05f;
    lq_rng r;
    lq_rng_seed(&r, seed);
    size_t nu = (size_t)(nx + 1) * ny * nz, nv = (size_t)nx * (ny + 1) * nz,
           nw = (size_t)nx * ny * (nz + 1), nc = (size_t)nx * ny * nz;
    float *rec = malloc((size_t)n * LQ_PLSCONTROL_STRIDE * 4), *u = malloc(nu * 4),
          *v = malloc(nv * 4), *w = malloc(nw * 4), *phi = malloc(nc * 4), *sdf = malloc(nc * 4),
          *nu0 = malloc(nc * 4), *b = malloc(nc * 4);
    unsigned char *mask = malloc(nc);
    random_records(&r, rec, n, nx, ny, nz, h, mode == 2);
    if (big) rec[LQ_PLSCONTROL_R] = rec[LQ_PLSCONTROL_EXTENT] = 9.5f * h; /* tiles of 10 */
    fill(&r, u, nu, -3, 3);
    fill(&r, v, nv, -3, 3);
    fill(&r, w, nw, -3, 3);
    fill(&r, phi, nc, -0.2f, 0.1f);
    fill(&r, sdf, nc, -0.02f, 1.0f);
    fill(&r, nu0, nc, 0, 2);
    fill(&r, b, nc, -1, 1);
    for (size_t c = 0; c < nc; c++) mask[c] = lq_rng_u32(&r) % 3 ? LQ_POISSON_UNKNOWN : 0;
    unsigned kinds = (1u << LQ_PLSCONTROL_KINDS) - 1;
    lq_plscontrol_ops oa, ob;
    CHECK_OK(lq_plscontrol_ops_init(&oa, &ref, nx, ny, nz, n, kinds));
    CHECK_OK(lq_plscontrol_ops_init(&ob, &cl, nx, ny, nz, n, kinds));
    CHECK_OK(lq_plscontrol_bin(&oa, rec, n, h));
    CHECK_OK(lq_plscontrol_bin(&ob, rec, n, h));
    fprintf(stderr, "  tile %d cells, %d tiles, %d of %d binned\n", oa.tile, oa.ntiles, oa.binned,
            n);
    CHECK(oa.binned == ob.binned && oa.binned > 0 && oa.binned < n);
    CHECK(big ? oa.tile == 10 : (mode == 2 ? oa.tile == 1 : oa.tile <= 5)); /* eraser: R + 2 h */
    twin_pair K = {oa.keys, ob.keys}, O = {oa.order, ob.order}, TS = {oa.tstart, ob.tstart},
              TC = {oa.tcount, ob.tcount};
    twin_check_exact("plscontrol.bin", &K);
    twin_check_exact("plscontrol.bin", &TC);
    twin_check_exact("plscontrol.bin", &TS);
    twin_check_exact("plscontrol.bin", &O);
    for (int with = 0; with < 2; with++) {
        twin_pair U, V, W, P, S, N0, B, M;
        CHECK_OK(twin_alloc(&U, &ref, &cl, "u", nx + 1, ny, nz, 4, u));
        CHECK_OK(twin_alloc(&V, &ref, &cl, "v", nx, ny + 1, nz, 4, v));
        CHECK_OK(twin_alloc(&W, &ref, &cl, "w", nx, ny, nz + 1, 4, w));
        CHECK_OK(twin_alloc(&P, &ref, &cl, "phi", nx, ny, nz, 4, phi));
        CHECK_OK(twin_alloc(&S, &ref, &cl, "sdf", nx, ny, nz, 4, sdf));
        CHECK_OK(twin_alloc(&N0, &ref, &cl, "nu0", nx, ny, nz, 4, nu0));
        CHECK_OK(twin_alloc(&B, &ref, &cl, "b", nx, ny, nz, 4, b));
        CHECK_OK(twin_alloc(&M, &ref, &cl, "mask", nx, ny, nz, 1, mask));
        const lq_field *sa = with ? &S.ref : NULL, *sb = with ? &S.cl : NULL;
        int ha, hb, ma, mb;
        CHECK_OK(lq_plscontrol_phi(&oa, &P.ref, sa, h, &ma));
        CHECK_OK(lq_plscontrol_phi(&ob, &P.cl, sb, h, &mb));
        twin_check_exact("plscontrol.apply", &P);
        twin_pair KL = {oa.kill, ob.kill};
        twin_check_exact("plscontrol.apply", &KL);
        CHECK_OK(lq_plscontrol_velocity(&oa, &U.ref, &V.ref, &W.ref, &P.ref, sa, h, &ha));
        CHECK_OK(lq_plscontrol_velocity(&ob, &U.cl, &V.cl, &W.cl, &P.cl, sb, h, &hb));
        fprintf(stderr, "  %s objects: %d hard cells, %d moved\n", with ? "with" : "no", ha, ma);
        CHECK(ha == hb && ma == mb && ha > 0 && ma > 0);
        if (!with) check_brute(&oa, rec, n, nx, ny, nz, h);
        twin_check_exact("plscontrol.apply", &U);
        twin_check_exact("plscontrol.apply", &V);
        twin_check_exact("plscontrol.apply", &W);
        twin_pair CA = {oa.ca, ob.ca}, CV = {oa.cv, ob.cv}, SO = {oa.solid, ob.solid};
        twin_check_exact("plscontrol.apply", &CA);
        twin_check_exact("plscontrol.apply", &CV);
        twin_check_exact("plscontrol.apply", &SO);
        CHECK_OK(lq_plscontrol_viscosity(&oa, with ? &N0.ref : NULL, 0.75f, h));
        CHECK_OK(lq_plscontrol_viscosity(&ob, with ? &N0.cl : NULL, 0.75f, h));
        /* the particles move and are binned again: the solid field holds −h/2 in exactly
         * the hard cells of the new pass (the old ones put back to their base) */
        for (int i = 0; i < n; i++) rec[(size_t)i * LQ_PLSCONTROL_STRIDE] += 1.7f * h;
        CHECK_OK(lq_plscontrol_bin(&oa, rec, n, h));
        CHECK_OK(lq_plscontrol_bin(&ob, rec, n, h));
        CHECK_OK(lq_plscontrol_velocity(&oa, &U.ref, &V.ref, &W.ref, &P.ref, sa, h, &ha));
        CHECK_OK(lq_plscontrol_velocity(&ob, &U.cl, &V.cl, &W.cl, &P.cl, sb, h, &hb));
        twin_check_exact("plscontrol.apply", &U);
        twin_check_exact("plscontrol.apply", &SO);
        int marked = 0;
        for (size_t c = 0; c < nc; c++) marked += ((const float *)oa.solid.host)[c] == -0.5f * h;
        CHECK_MSG(marked == ha && ha == hb, "%d cells marked solid, %d hard", marked, ha);
        for (int i = 0; i < n; i++) rec[(size_t)i * LQ_PLSCONTROL_STRIDE] -= 1.7f * h;
        CHECK_OK(lq_plscontrol_bin(&oa, rec, n, h));
        CHECK_OK(lq_plscontrol_bin(&ob, rec, n, h));
        twin_pair NU = {oa.nu, ob.nu};
        twin_check_exact("plscontrol.apply", &NU);
        CHECK_OK(lq_plscontrol_divergence(&oa, &B.ref, &M.ref, LQ_POISSON_UNKNOWN, h, 0.01f));
        CHECK_OK(lq_plscontrol_divergence(&ob, &B.cl, &M.cl, LQ_POISSON_UNKNOWN, h, 0.01f));
        twin_check_exact("plscontrol.apply", &B);
        twin_pair *ps[] = {&U, &V, &W, &P, &S, &N0, &B, &M};
        for (size_t i = 0; i < LQ_COUNT(ps); i++) twin_release(ps[i]);
    }
    lq_plscontrol_ops_release(&oa);
    lq_plscontrol_ops_release(&ob);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
    free(rec);
    free(u);
    free(v);
    free(w);
    free(phi);
    free(sdf);
    free(nu0);
    free(b);
    free(mask);
}

static void test_falloff(void)
{
    fprintf(stderr, "falloff curves:\n");
    CHECK(lq_plscontrol_curve(LQ_PLSCONTROL_BOX, 0.7f) == 1.0f);
    CHECK(lq_plscontrol_curve(LQ_PLSCONTROL_HAT, 0.25f) == 0.75f);
    CHECK(lq_plscontrol_curve(LQ_PLSCONTROL_SMOOTH, 0.5f) == 0.5f);
    CHECK(lq_plscontrol_curve(LQ_PLSCONTROL_SMOOTH, 0.0f) == 1.0f);
    CHECK(lq_plscontrol_curve(LQ_PLSCONTROL_SMOOTH, 1.0f) == 0.0f);
    /* zero slope at both ends: a one-sided difference of order ε² */
    float e = 1e-3f;
    CHECK(1.0f - lq_plscontrol_curve(LQ_PLSCONTROL_SMOOTH, e) < 4 * e * e);
    CHECK(lq_plscontrol_curve(LQ_PLSCONTROL_SMOOTH, 1.0f - e) < 4 * e * e);
    float rec[LQ_PLSCONTROL_STRIDE], p[3] = {0, 0, 0};
    put(rec, LQ_PLSCONTROL_VELOCITY, LQ_PLSCONTROL_SPHERE, LQ_PLSCONTROL_HAT, p, 2.0f, 0.5f);
    CHECK(lq_plscontrol_alpha(rec, 0.5f, 0, 0) == 0.5f * 0.75f);
    CHECK(lq_plscontrol_alpha(rec, 0, 2.5f, 0) == 0.0f);
    /* a cylinder along y: falloff of the distance to the axis, cut at ±L */
    put(rec, LQ_PLSCONTROL_VELOCITY, LQ_PLSCONTROL_CYLINDER, LQ_PLSCONTROL_HAT, p, 2.0f, 1.0f);
    CHECK(lq_plscontrol_alpha(rec, 1.0f, 1.9f, 0) == 0.5f);
    CHECK(lq_plscontrol_alpha(rec, 1.0f, 2.1f, 0) == 0.0f);
}

/* A ref-path grid of 12 x 10 x 8 cells (h = 0.1), its fields and an ops object. */
typedef struct grid {
    lq_ctx ctx;
    int nx, ny, nz;
    float h;
    lq_field u, v, w, phi, b, mask;
    lq_plscontrol_ops o;
} grid;

static void grid_open(grid *g, int nparticles)
{
    *g = (grid){.nx = 12, .ny = 10, .nz = 8, .h = 0.1f};
    int nx = g->nx, ny = g->ny, nz = g->nz;
    CHECK_OK(lq_ctx_open(&g->ctx, "ref", false));
    CHECK_OK(lq_field_alloc(&g->ctx, &g->u, "u", nx + 1, ny, nz, 4));
    CHECK_OK(lq_field_alloc(&g->ctx, &g->v, "v", nx, ny + 1, nz, 4));
    CHECK_OK(lq_field_alloc(&g->ctx, &g->w, "w", nx, ny, nz + 1, 4));
    CHECK_OK(lq_field_alloc(&g->ctx, &g->phi, "phi", nx, ny, nz, 4));
    CHECK_OK(lq_field_alloc(&g->ctx, &g->b, "b", nx, ny, nz, 4));
    CHECK_OK(lq_field_alloc(&g->ctx, &g->mask, "mask", nx, ny, nz, 1));
    lq_field *z[] = {&g->u, &g->v, &g->w, &g->b, &g->mask};
    for (size_t i = 0; i < LQ_COUNT(z); i++) CHECK_OK(lq_field_zero(z[i], 0));
    float *P = g->phi.host; /* a still pool: liquid below y = 0.75 */
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                P[LQ_MAC_CELL(i, j, k, nx, ny)] = (j + 0.5f) * g->h - 0.75f;
    CHECK_OK(lq_plscontrol_ops_init(&g->o, &g->ctx, nx, ny, nz, nparticles,
                                    (1u << LQ_PLSCONTROL_KINDS) - 1));
}

static void grid_close(grid *g)
{
    lq_plscontrol_ops_release(&g->o);
    lq_field *f[] = {&g->u, &g->v, &g->w, &g->phi, &g->b, &g->mask};
    for (size_t i = 0; i < LQ_COUNT(f); i++) lq_field_release(f[i]);
    lq_ctx_close(&g->ctx);
}

/* Soft control of a still pool (eq. 4, V_liquid = 0): u = α target inside, 0 outside. */
static void test_soft(void)
{
    fprintf(stderr, "soft velocity control of a still pool:\n");
    grid g;
    grid_open(&g, 2);
    float rec[2 * LQ_PLSCONTROL_STRIDE], c0[3] = {0.6f, 0.4f, 0.4f}, c1[3] = {0.62f, 0.4f, 0.4f};
    put(rec, LQ_PLSCONTROL_VELOCITY, LQ_PLSCONTROL_SPHERE, LQ_PLSCONTROL_BOX, c0, 0.25f, 0.5f);
    rec[LQ_PLSCONTROL_V] = 2.0f;
    CHECK_OK(lq_plscontrol_bin(&g.o, rec, 1, g.h));
    int hard = -1;
    CHECK_OK(lq_plscontrol_velocity(&g.o, &g.u, &g.v, &g.w, &g.phi, NULL, g.h, &hard));
    const float *U = g.u.host, *V = g.v.host;
    int nx = g.nx, ny = g.ny, bad = 0, inside = 0;
    for (int k = 0; k < g.nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 1; i < nx; i++) {
                /* both cells' centres inside the sphere: α = ½ on the face */
                float y = (j + 0.5f) * g.h - 0.4f, z = (k + 0.5f) * g.h - 0.4f;
                float xm = (i - 0.5f) * g.h - 0.6f, xp = (i + 0.5f) * g.h - 0.6f;
                bool in_m = sqrtf(xm * xm + y * y + z * z) <= 0.25f,
                     in_p = sqrtf(xp * xp + y * y + z * z) <= 0.25f;
                float want = in_m && in_p ? 1.0f : (in_m || in_p ? 0.5f : 0.0f);
                inside += in_m && in_p;
                bad += U[LQ_MAC_U(i, j, k, nx, ny)] != want;
            }
    fprintf(stderr, "  %d faces inside at α = ½ target, %d wrong; hard cells %d\n", inside, bad,
            hard);
    CHECK(bad == 0 && inside > 10 && hard == 0);
    for (size_t f = 0; f < g.v.count; f++) bad += V[f] != 0.0f;
    CHECK(bad == 0);
    /* two particles at α = ½ each, targets 2 and 4: the weighted mean 3, α = ½ */
    CHECK_OK(lq_field_zero(&g.u, 0));
    put(rec + LQ_PLSCONTROL_STRIDE, LQ_PLSCONTROL_VELOCITY, LQ_PLSCONTROL_SPHERE, LQ_PLSCONTROL_BOX,
        c1, 0.25f, 0.5f);
    rec[LQ_PLSCONTROL_STRIDE + LQ_PLSCONTROL_V] = 4.0f;
    CHECK_OK(lq_plscontrol_bin(&g.o, rec, 2, g.h));
    CHECK_OK(lq_plscontrol_velocity(&g.o, &g.u, &g.v, &g.w, &g.phi, NULL, g.h, &hard));
    CHECK(U[LQ_MAC_U(6, 4, 4, nx, ny)] == 1.5f); /* (1 − ½) 0 + ½ 3 */
    grid_close(&g);
}

/* Hard control: α > 0.9 in liquid cells: faces V_p, the cells solid for the projection. */
static void test_hard(void)
{
    fprintf(stderr, "hard velocity control:\n");
    grid g;
    grid_open(&g, 1);
    /* smooth falloff, R = 6 cells: α > 0.9 within 0.118 m, the centre cell and its six
     * neighbours */
    float rec[LQ_PLSCONTROL_STRIDE], c[3] = {0.65f, 0.45f, 0.45f};
    put(rec, LQ_PLSCONTROL_VELOCITY, LQ_PLSCONTROL_SPHERE, LQ_PLSCONTROL_SMOOTH, c, 0.6f, 1.0f);
    rec[LQ_PLSCONTROL_V + 1] = -1.5f;
    float *U = g.u.host, *V = g.v.host;
    for (size_t f = 0; f < g.v.count; f++) V[f] = 7.0f;
    for (size_t f = 0; f < g.u.count; f++) U[f] = 7.0f;
    CHECK_OK(lq_plscontrol_bin(&g.o, rec, 1, g.h));
    int hard = 0, nx = g.nx, ny = g.ny, bad = 0, n = 0;
    CHECK_OK(lq_plscontrol_velocity(&g.o, &g.u, &g.v, &g.w, &g.phi, NULL, g.h, &hard));
    const float *ca = g.o.ca.host, *solid = g.o.solid.host, *P = g.phi.host;
    for (int k = 0; k < g.nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                int cc = LQ_MAC_CELL(i, j, k, nx, ny);
                bool hd = ca[cc] > 0.9f && P[cc] <= 0;
                n += hd;
                bad += solid[cc] != (hd ? -0.05f : g.h);
                if (!hd) continue;
                bad += V[LQ_MAC_V(i, j, k, nx, ny)] != -1.5f ||
                       V[LQ_MAC_V(i, j + 1, k, nx, ny)] != -1.5f;
                bad += U[LQ_MAC_U(i, j, k, nx, ny)] != 0.0f ||
                       U[LQ_MAC_U(i + 1, j, k, nx, ny)] != 0.0f;
            }
    fprintf(stderr, "  %d hard cells (counted %d), %d wrong\n", n, hard, bad);
    CHECK(n == hard && n == 7 && bad == 0);
    grid_close(&g);
}

/* Level set: a cylinder's plane, an eraser's CSG difference; the divergence targets. */
static void test_phi_div(void)
{
    fprintf(stderr, "level-set control, erasers, divergence:\n");
    grid g;
    grid_open(&g, 2);
    int nx = g.nx, ny = g.ny;
    float rec[2 * LQ_PLSCONTROL_STRIDE], c[3] = {0.35f, 0.75f, 0.45f}, e[3] = {0.85f, 0.55f, 0.45f};
    put(rec, LQ_PLSCONTROL_PHI, LQ_PLSCONTROL_CYLINDER, LQ_PLSCONTROL_BOX, c, 0.2f, 0.5f);
    rec[LQ_PLSCONTROL_VALUE] = -0.1f;    /* the plane 0.1 m above c along the normal −y... */
    rec[LQ_PLSCONTROL_AXIS + 1] = -1.0f; /* normal −y: φ_p = −(y − 0.75) + 0.1 */
    put(rec + LQ_PLSCONTROL_STRIDE, LQ_PLSCONTROL_ERASER, LQ_PLSCONTROL_SPHERE, LQ_PLSCONTROL_BOX,
        e, 0.15f, 1.0f);
    rec[LQ_PLSCONTROL_STRIDE + LQ_PLSCONTROL_EXTENT] += 2 * g.h;
    CHECK_OK(lq_plscontrol_bin(&g.o, rec, 2, g.h));
    float *P = g.phi.host;
    int moved = 0;
    CHECK_OK(lq_plscontrol_phi(&g.o, &g.phi, NULL, g.h, &moved));
    int cc = LQ_MAC_CELL(3, 7, 4, nx, ny); /* (0.35, 0.75, 0.45): the cylinder's centre */
    float y = 7.5f * g.h, phi0 = y - 0.75f, want = 0.5f * phi0 + 0.5f * (-(y - 0.75f) + 0.1f);
    CHECK_NEAR(P[cc], want, 1e-6);
    int ce = LQ_MAC_CELL(8, 5, 4, nx, ny); /* the eraser's centre: φ = +R there */
    CHECK_NEAR(P[ce], 0.15, 1e-6);
    CHECK(((const float *)g.o.kill.host)[ce] == -1.0f);
    int cf = LQ_MAC_CELL(1, 1, 1, nx, ny); /* far from both */
    CHECK(P[cf] == (1.5f * g.h - 0.75f) && ((const float *)g.o.kill.host)[cf] == g.h);
    fprintf(stderr, "  φ at the cylinder %.6g (want %.6g), at the eraser %.6g; %d moved\n", P[cc],
            want, P[ce], moved);
    CHECK(moved > 5);
    /* divergence: D = 2 1/s with α = ½ at one unknown cell, another not an unknown */
    float d[3] = {0.45f, 0.35f, 0.45f};
    put(rec, LQ_PLSCONTROL_DIVERGENCE, LQ_PLSCONTROL_SPHERE, LQ_PLSCONTROL_BOX, d, 0.12f, 0.5f);
    rec[LQ_PLSCONTROL_VALUE] = 2.0f;
    CHECK_OK(lq_plscontrol_bin(&g.o, rec, 1, g.h));
    unsigned char *M = g.mask.host;
    int c1 = LQ_MAC_CELL(4, 3, 4, nx, ny), c2 = LQ_MAC_CELL(5, 3, 4, nx, ny);
    M[c1] = LQ_POISSON_UNKNOWN;
    CHECK_OK(lq_plscontrol_divergence(&g.o, &g.b, &g.mask, LQ_POISSON_UNKNOWN, g.h, 0.01f));
    const float *B = g.b.host;
    float scale = (float)((double)g.h * g.h / 0.01);
    CHECK(B[c1] == scale * (0.5f * 2.0f) && B[c2] == 0.0f);
    grid_close(&g);
}

int main(void)
{
    (void)twin_check_float;
    test_falloff();
    test_soft();
    test_hard();
    test_phi_div();
    test_twins(20, 14, 11, 600, 0, 11);
    test_twins(23, 17, 1, 300, 0, 12);
    test_twins(30, 24, 9, 400, 1, 13);
    test_twins(40, 32, 24, 3000, 2, 14);
    CHECK_DONE();
}
