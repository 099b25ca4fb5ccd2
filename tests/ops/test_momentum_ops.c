/*
 * test_momentum_ops.c — the momentum operations (Foster & Metaxas 1996 §3.1 eq. 2–3,
 * §3.2.1; host/ops/mac/momentum.h), one at a time:
 *  1. reference twin vs OpenCL (PoCL in CI) of lq_momentum_step, lq_momentum_boundary
 *     and lq_momentum_max_speed / lq_momentum_dt on a random 3D state (17×13×11,
 *     δx ≠ δy ≠ δz; solid walls, an interior solid block, an INFLOW patch, a bumpy free
 *     surface of SURFACE cells with EMPTY above, EMPTY bubbles, random per-cell
 *     free/no-slip flags) and a 2D one (nz = 1): every field bit for bit
 *     ("momentum.<op>" in host/core/tolerance.c); the step leaves faces touching SOLID or
 *     INFLOW cells, domain-edge faces and all-EMPTY faces alone; the step on random
 *     cell kinds (40×23×19, 40×37×1, 11×9×7), open pairs and hanging cells inside the
 *     vector lanes, with both OpenCL kernels (vector rows of 16 and 8 lanes, per face),
 *     bit for bit; each with donor cell (γ 0 and 1) and with mac.advection: limited;
 *  2. analytic checks (reference): uniform flow with ν > 0, g = 0, constant p stays
 *     exactly uniform; fluid at rest with p = g_y y (dyadic numbers) gives ṽ = 0 exactly;
 *     a sine shear u(y) decays by 1 − 4ν δt/δy² sin²(kδy/2); no-slip mirrors average to
 *     0 at the wall, free-slip ones copy, normals are 0 and SOLID p copies the fluid's;
 *     the δt bound against hand-computed values.
 */
#include "ops/mac/momentum.h"
#include "lib/twin.h"

static const float DX = 0.05f, DY = 0.04f, DZ = 0.07f, DT = 0.004f;

static float frand(lq_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)lq_rng_uniform(r);
}

/* --- a whole state as host arrays --------------------------------------------------- */

typedef struct grid {
    int nx, ny, nz;
    size_t n[3], nc;
    float *q[3], *p; /* u, v, w; p */
    unsigned char *f, *bnd;
} grid;

static void grid_alloc(grid *g, int nx, int ny, int nz)
{
    g->nx = nx;
    g->ny = ny;
    g->nz = nz;
    g->n[0] = (size_t)(nx + 1) * ny * nz;
    g->n[1] = (size_t)nx * (ny + 1) * nz;
    g->n[2] = (size_t)nx * ny * (nz + 1);
    g->nc = (size_t)nx * ny * nz;
    for (int a = 0; a < 3; a++) g->q[a] = calloc(g->n[a], 4);
    g->p = calloc(g->nc, 4);
    g->f = calloc(g->nc, 1);
    g->bnd = calloc(g->nc, 1);
    CHECK(g->q[0] && g->q[1] && g->q[2] && g->p && g->f && g->bnd);
}

static void grid_free(grid *g)
{
    for (int a = 0; a < 3; a++) free(g->q[a]);
    free(g->p);
    free(g->f);
    free(g->bnd);
}

#define CELL(g, i, j, k) LQ_MAC_CELL(i, j, k, (g)->nx, (g)->ny)

static int kind(const grid *g, int i, int j, int k)
{
    if (i < 0 || j < 0 || k < 0 || i >= g->nx || j >= g->ny || k >= g->nz) return -1;
    return g->f[CELL(g, i, j, k)];
}

/* Coordinates of face q of axis a (the low face of cell (i, j, k) along a). */
static void face_ijk(const grid *g, int a, size_t q, int *i, int *j, int *k)
{
    int ex = g->nx + (a == 0), ey = g->ny + (a == 1);
    *i = (int)(q % (size_t)ex);
    *j = (int)(q / (size_t)ex % (size_t)ey);
    *k = (int)(q / ((size_t)ex * ey));
}

/* Kinds of the two cells of face q of axis a (-1 outside). */
static void face_kinds(const grid *g, int a, size_t q, int *ka, int *kb)
{
    int i, j, k;
    face_ijk(g, a, q, &i, &j, &k);
    *ka = kind(g, i - (a == 0), j - (a == 1), k - (a == 2));
    *kb = kind(g, i, j, k);
}

static void make_state(grid *g, unsigned seed)
{
    lq_rng r;
    lq_rng_seed(&r, seed);
    int nx = g->nx, ny = g->ny, nz = g->nz, is3 = nz > 1;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                int c = CELL(g, i, j, k);
                int wall = i == 0 || i == nx - 1 || j == 0 || j == ny - 1 ||
                           (is3 && (k == 0 || k == nz - 1));
                int top = 7 + (i + 2 * k) % 3;
                unsigned char f = LQ_MAC_FULL;
                if (j == top) f = LQ_MAC_SURFACE;
                if (j > top) f = LQ_MAC_EMPTY;
                if (i >= 7 && i <= 9 && j >= 3 && j <= 5 && (!is3 || (k >= 4 && k <= 6)))
                    f = LQ_MAC_SOLID;
                if (wall) f = LQ_MAC_SOLID;
                if (i == 0 && j >= 2 && j <= 4 && (!is3 || (k >= 3 && k <= 6))) f = LQ_MAC_INFLOW;
                g->f[c] = f;
                g->bnd[c] = (unsigned char)(lq_rng_u32(&r) & 1u);
                g->p[c] = frand(&r, -2.0f, 2.0f);
            }
    const int bub[][3] = {{4, 2, 2}, {12, 4, 7}, {5, 5, 5}, {14, 3, 3}};
    for (size_t b = 0; b < LQ_COUNT(bub); b++)
        g->f[CELL(g, bub[b][0], bub[b][1], is3 ? bub[b][2] : 0)] = LQ_MAC_EMPTY;
    /* a cell hanging under the block: SURFACE, EMPTY below (its −y face: body force only) */
    g->f[CELL(g, 8, 2, is3 ? 5 : 0)] = LQ_MAC_SURFACE;
    g->f[CELL(g, 8, 1, is3 ? 5 : 0)] = LQ_MAC_EMPTY;
    for (int a = 0; a < 3; a++)
        for (size_t q = 0; q < g->n[a]; q++) g->q[a][q] = frand(&r, -1.0f, 1.0f);
    if (!is3) memset(g->q[2], 0, g->n[2] * 4);
}

/* --- one backend's copy -------------------------------------------------------------- */

typedef struct side {
    lq_field q[3], p, f, bnd;
    lq_momentum_state st;
    lq_momentum_ops ops;
} side;

static int side_open(side *s, lq_ctx *ctx, int nx, int ny, int nz)
{
    memset(s, 0, sizeof *s);
    int rc = lq_field_alloc(ctx, &s->q[0], "u", nx + 1, ny, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->q[1], "v", nx, ny + 1, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->q[2], "w", nx, ny, nz + 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->p, "p", nx, ny, nz, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->f, "flags", nx, ny, nz, 1);
    if (!rc) rc = lq_field_alloc(ctx, &s->bnd, "bnd", nx, ny, nz, 1);
    if (!rc)
        rc = lq_momentum_state_init(&s->st, ctx, nx, ny, nz, &s->q[0], &s->q[1], &s->q[2], &s->p,
                                    &s->f, &s->bnd);
    if (!rc) rc = lq_momentum_ops_init(&s->ops, ctx, nx, ny, nz);
    CHECK_OK(rc);
    return rc;
}

static void side_close(side *s)
{
    lq_momentum_ops_release(&s->ops);
    lq_momentum_state_release(&s->st);
    lq_field *fs[] = {&s->q[0], &s->q[1], &s->q[2], &s->p, &s->f, &s->bnd};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
}

static void side_put(side *s, const grid *g)
{
    for (int a = 0; a < 3; a++) CHECK_OK(lq_field_upload(&s->q[a], g->q[a]));
    CHECK_OK(lq_field_upload(&s->p, g->p));
    CHECK_OK(lq_field_upload(&s->f, g->f));
    CHECK_OK(lq_field_upload(&s->bnd, g->bnd));
}

/* The fields after an operation: the step's outputs (out = 1) or the inputs. */
static void side_get(side *s, grid *g, int out)
{
    lq_field *o[3] = {&s->st.un, &s->st.vn, &s->st.wn};
    for (int a = 0; a < 3; a++) CHECK_OK(lq_field_download(out ? o[a] : &s->q[a], g->q[a]));
    CHECK_OK(lq_field_download(&s->p, g->p));
    CHECK_OK(lq_field_download(&s->f, g->f));
    CHECK_OK(lq_field_download(&s->bnd, g->bnd));
}

static lq_momentum_params params(float nu, float gx, float gy, float gz)
{
    lq_momentum_params m = {DT, DX, DY, DZ, nu, {gx, gy, gz}, 0.0f, LQ_MOMENTUM_DONOR};
    return m;
}

static void cmp_all(side *a, side *b, const char *op)
{
    twin_pair fl[] = {{a->q[0], b->q[0]},   {a->q[1], b->q[1]},   {a->q[2], b->q[2]},  {a->p, b->p},
                      {a->st.un, b->st.un}, {a->st.vn, b->st.vn}, {a->st.wn, b->st.wn}};
    for (size_t i = 0; i < LQ_COUNT(fl); i++) twin_check_float(op, &fl[i]);
    twin_pair ex[] = {{a->st.smax, b->st.smax}, {a->f, b->f}, {a->bnd, b->bnd}};
    for (size_t i = 0; i < LQ_COUNT(ex); i++) twin_check_exact(op, &ex[i]);
}

/* --- twin diff ------------------------------------------------------------------------ */

static void test_twins(int nx, int ny, int nz, unsigned seed)
{
    lq_ctx ref, cl;
    fprintf(stderr, "twin diff, %d×%d×%d:\n", nx, ny, nz);
    if (twin_open(&ref, &cl)) {
        CHECK(!"an OpenCL device is needed for the diff tests (install pocl-opencl-icd)");
        return;
    }
    side a, b;
    grid init, after;
    grid_alloc(&init, nx, ny, nz);
    grid_alloc(&after, nx, ny, nz);
    make_state(&init, seed);
    if (side_open(&a, &ref, nx, ny, nz) || side_open(&b, &cl, nx, ny, nz)) goto done;
    lq_momentum_params prm = params(1e-3f, 0.5f, -9.81f, 0.25f);

    /* boundary first (what the solver does), then the step on its result, chained */
    side_put(&a, &init);
    side_put(&b, &init);
    CHECK_OK(lq_momentum_boundary(&a.ops, &a.st));
    CHECK_OK(lq_momentum_boundary(&b.ops, &b.st));
    CHECK_OK(lq_ctx_finish(&cl));
    cmp_all(&a, &b, "momentum.boundary");
    CHECK_OK(lq_momentum_step(&a.ops, &a.st, &prm));
    CHECK_OK(lq_momentum_step(&b.ops, &b.st, &prm));
    CHECK_OK(lq_ctx_finish(&cl));
    cmp_all(&a, &b, "momentum.step");
    /* with donor-cell upwinding as the solver runs it (γ = 1; a double fabs in the twin
     * once made this differ by an ulp while γ = 0 agreed) */
    lq_momentum_params up = prm;
    up.gamma = 1.0f;
    side_put(&a, &init);
    side_put(&b, &init);
    CHECK_OK(lq_momentum_step(&a.ops, &a.st, &up));
    CHECK_OK(lq_momentum_step(&b.ops, &b.st, &up));
    CHECK_OK(lq_ctx_finish(&cl));
    cmp_all(&a, &b, "momentum.step");
    /* mac.advection: limited (the per-face kernel on every device) */
    lq_momentum_params lim = prm;
    lim.advection = LQ_MOMENTUM_LIMITED;
    side_put(&a, &init);
    side_put(&b, &init);
    CHECK_OK(lq_momentum_step(&a.ops, &a.st, &lim));
    CHECK_OK(lq_momentum_step(&b.ops, &b.st, &lim));
    CHECK_OK(lq_ctx_finish(&cl));
    cmp_all(&a, &b, "momentum.step");

    /* the step on the raw state: which faces moved */
    side_put(&a, &init);
    side_put(&b, &init);
    CHECK_OK(lq_momentum_step(&a.ops, &a.st, &prm));
    CHECK_OK(lq_momentum_step(&b.ops, &b.st, &prm));
    CHECK_OK(lq_ctx_finish(&cl));
    cmp_all(&a, &b, "momentum.step");
    side_get(&a, &after, 1);
    int frozen_moved = 0, moved = 0, free_faces = 0;
    for (int ax = 0; ax < 3; ax++)
        for (size_t q = 0; q < init.n[ax]; q++) {
            int ka, kb;
            face_kinds(&init, ax, q, &ka, &kb);
            int moves = ka >= 0 && kb >= 0 && lq_momentum_face_moves(ka, kb);
            int same = memcmp(&init.q[ax][q], &after.q[ax][q], 4) == 0;
            /* air (an EMPTY side, no liquid on either) is cleared to 0 */
            int air = ka >= 0 && kb >= 0 && (ka == LQ_MAC_EMPTY || kb == LQ_MAC_EMPTY) &&
                      !lq_momentum_is_fluid(ka) && !lq_momentum_is_fluid(kb);
            if (air) {
                frozen_moved += after.q[ax][q] != 0.0f;
                continue;
            }
            if (!moves) frozen_moved += !same;
            free_faces += moves;
            moved += moves && !same;
        }
    fprintf(stderr, "  step: %d of %d free faces moved, %d frozen faces moved\n", moved, free_faces,
            frozen_moved);
    CHECK(frozen_moved == 0);
    CHECK(moved > free_faces * 9 / 10);

    /* max speeds and δt */
    float sa[3], sb[3], ta = -1, tb = -2;
    CHECK_OK(lq_momentum_max_speed(&a.ops, &a.st, sa));
    CHECK_OK(lq_momentum_max_speed(&b.ops, &b.st, sb));
    cmp_all(&a, &b, "momentum.max_speed");
    CHECK(memcmp(sa, sb, sizeof sa) == 0);
    side_get(&a, &after, 0); /* the inputs the max ran over */
    for (int ax = 0; ax < 3; ax++) {
        float m = 0;
        for (size_t q = 0; q < init.n[ax]; q++) m = fmaxf(m, fabsf(after.q[ax][q]));
        CHECK(m == sa[ax]);
    }
    CHECK_OK(lq_momentum_dt(&a.ops, &a.st, &prm, 0.5f, 1.0f, &ta));
    CHECK_OK(lq_momentum_dt(&b.ops, &b.st, &prm, 0.5f, 1.0f, &tb));
    fprintf(stderr, "  max |u| %g |v| %g |w| %g, dt %g / %g (ref / cl)\n", (double)sa[0],
            (double)sa[1], (double)sa[2], (double)ta, (double)tb);
    CHECK(memcmp(&ta, &tb, 4) == 0 && ta > 0.0f);

done:
    side_close(&a);
    side_close(&b);
    grid_free(&init);
    grid_free(&after);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
}

/* The step on random cell kinds (every kind, any neighbour: open pairs and hanging cells
 * everywhere, also where the vector rows of momentum_step_rows run), reference vs both
 * OpenCL kernels (vector rows, what a CPU device runs, and the per-face kernel), bit for
 * bit, with and without donor-cell upwinding. */
static void test_twins_kinds(int nx, int ny, int nz, unsigned seed)
{
    lq_ctx ref, cl;
    fprintf(stderr, "twin diff, random kinds, %d×%d×%d:\n", nx, ny, nz);
    if (twin_open(&ref, &cl)) {
        CHECK(!"an OpenCL device is needed for the diff tests (install pocl-opencl-icd)");
        return;
    }
    side a, b;
    grid g;
    grid_alloc(&g, nx, ny, nz);
    lq_rng r;
    lq_rng_seed(&r, seed);
    /* EMPTY and SURFACE twice as likely as the others: more pairs and hanging cells */
    const unsigned char kinds[] = {LQ_MAC_EMPTY,   LQ_MAC_EMPTY, LQ_MAC_FULL,   LQ_MAC_SURFACE,
                                   LQ_MAC_SURFACE, LQ_MAC_SOLID, LQ_MAC_INFLOW, LQ_MAC_OUTFLOW};
    for (size_t c = 0; c < g.nc; c++) {
        g.f[c] = kinds[lq_rng_u32(&r) % LQ_COUNT(kinds)];
        g.bnd[c] = (unsigned char)(lq_rng_u32(&r) & 1u);
        g.p[c] = frand(&r, -2.0f, 2.0f);
    }
    for (int ax = 0; ax < 3; ax++)
        for (size_t q = 0; q < g.n[ax]; q++) g.q[ax][q] = frand(&r, -1.0f, 1.0f);
    if (nz == 1) memset(g.q[2], 0, g.n[2] * 4);
    /* pair and hanging faces inside the vector lanes (i in 2 … 32 for nx = 40, in rows two
     * cells from the edges along the axis) */
    int pairs = 0, hanging = 0;
    for (int ax = 0; ax < 3 && nx == 40; ax++)
        for (size_t q = 0; q < g.n[ax]; q++) {
            int i, j, k;
            face_ijk(&g, ax, q, &i, &j, &k);
            int c[3] = {i, j, k}, n[3] = {nx, ny, nz}, ka, kb;
            face_kinds(&g, ax, q, &ka, &kb);
            if (i < 2 || i > 32 || (ax > 0 && (c[ax] < 2 || c[ax] > n[ax] - 2)) || ka < 0 ||
                kb < 0 || !lq_momentum_face_moves(ka, kb))
                continue;
            pairs += lq_momentum_open_pair(g.f, ax, i, j, k, nx, ny, nz) != 0;
            hanging += lq_momentum_hanging_face(g.f, ax, i, j, k, nx, ny, nz);
        }
    if (nx == 40) {
        fprintf(stderr, "  %d open-pair and %d hanging faces in vector lanes\n", pairs, hanging);
        CHECK(pairs > 20 && hanging > 5);
    }
    if (side_open(&a, &ref, nx, ny, nz)) goto done;
    /* vectors of 16 lanes (the default) and of 8 (LIQUIDCL_MOMENTUM_W=8) */
    for (int lanes = 16; lanes >= 8; lanes -= 8) {
        setenv("LIQUIDCL_MOMENTUM_W", lanes == 8 ? "8" : "16", 1);
        if (side_open(&b, &cl, nx, ny, nz)) {
            side_close(&b);
            break;
        }
        /* a CPU device runs the vector rows */
        CHECK(b.ops.rows == ((cl.cl.dev.type & CL_DEVICE_TYPE_CPU) != 0));
        for (int rows = 1; rows >= 0; rows--)
            for (int up = 0; up <= 2; up++) { /* γ 0, γ 1, mac.advection: limited */
                lq_momentum_params prm = params(1e-3f, 0.5f, -9.81f, 0.25f);
                prm.gamma = up == 1 ? 1.0f : 0.0f;
                prm.advection = up == 2 ? LQ_MOMENTUM_LIMITED : LQ_MOMENTUM_DONOR;
                b.ops.rows = rows;
                side_put(&a, &g);
                side_put(&b, &g);
                CHECK_OK(lq_momentum_step(&a.ops, &a.st, &prm));
                CHECK_OK(lq_momentum_step(&b.ops, &b.st, &prm));
                CHECK_OK(lq_ctx_finish(&cl));
                cmp_all(&a, &b, "momentum.step");
            }
        side_close(&b);
    }
    unsetenv("LIQUIDCL_MOMENTUM_W");
done:
    side_close(&a);
    grid_free(&g);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
}

/* --- analytic checks (reference) ------------------------------------------------------ */

/* An all-FULL grid of n³ (or n² × 1) cells on the reference backend. */
static int open_ref(lq_ctx *ctx, side *s, grid *g, int nx, int ny, int nz)
{
    CHECK_OK(lq_ctx_open(ctx, "ref", false));
    grid_alloc(g, nx, ny, nz);
    memset(g->f, LQ_MAC_FULL, g->nc);
    return side_open(s, ctx, nx, ny, nz);
}

static void close_ref(lq_ctx *ctx, side *s, grid *g)
{
    side_close(s);
    grid_free(g);
    lq_ctx_close(ctx);
}

/* Uniform flow, constant p, ν > 0, g = 0: every face keeps its value exactly, with either
 * mac.advection. */
static void test_uniform(int nz, int advection)
{
    lq_ctx ctx;
    side s;
    grid g;
    if (open_ref(&ctx, &s, &g, 9, 8, nz)) return;
    const float U[3] = {0.75f, -0.3f, nz > 1 ? 0.41f : 0.0f};
    for (int a = 0; a < 3; a++)
        for (size_t q = 0; q < g.n[a]; q++) g.q[a][q] = U[a];
    for (size_t c = 0; c < g.nc; c++) g.p[c] = 1.5f;
    side_put(&s, &g);
    lq_momentum_params prm = params(2e-3f, 0, 0, 0);
    prm.advection = advection;
    CHECK_OK(lq_momentum_step(&s.ops, &s.st, &prm));
    side_get(&s, &g, 1);
    int bad = 0;
    for (int a = 0; a < 3; a++)
        for (size_t q = 0; q < g.n[a]; q++) bad += g.q[a][q] != U[a];
    fprintf(stderr, "uniform flow (nz %d, advection %d): %d faces changed\n", nz, advection, bad);
    CHECK(bad == 0);
    close_ref(&ctx, &s, &g);
}

/* Fluid at rest, g = (0, −8, 0), δy = 1/4, p_j = g_y δy j = −2 j: the pressure gradient
 * (p_{j−1} − p_j)/δy = 8 balances g exactly, so ṽ = 0 on every face. */
static void test_hydrostatic(int nz)
{
    lq_ctx ctx;
    side s;
    grid g;
    if (open_ref(&ctx, &s, &g, 6, 10, nz)) return;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < g.ny; j++)
            for (int i = 0; i < g.nx; i++) {
                g.p[CELL(&g, i, j, k)] = -2.0f * (float)j;
                if (j >= 7) g.f[CELL(&g, i, j, k)] = j == 7 ? LQ_MAC_SURFACE : LQ_MAC_EMPTY;
            }
    side_put(&s, &g);
    lq_momentum_params prm = {
        0.01f, 0.5f, 0.25f, 0.5f, 1e-3f, {0.0f, -8.0f, 0.0f}, 0.0f, LQ_MOMENTUM_DONOR};
    CHECK_OK(lq_momentum_step(&s.ops, &s.st, &prm));
    side_get(&s, &g, 1);
    int bad = 0;
    for (int a = 0; a < 3; a++)
        for (size_t q = 0; q < g.n[a]; q++) bad += g.q[a][q] != 0.0f;
    fprintf(stderr, "hydrostatic (nz %d): %d faces nonzero\n", nz, bad);
    CHECK(bad == 0);
    close_ref(&ctx, &s, &g);
}

/* u = A sin(k y), v = w = 0, p = 0, g = 0: advection vanishes, the viscous term gives
 * ũ = u (1 − 4 ν δt/δy² sin²(k δy/2)) on rows whose y neighbours are in the grid. */
static void test_viscous_decay(int nz)
{
    lq_ctx ctx;
    side s;
    grid g;
    int ny = 16;
    if (open_ref(&ctx, &s, &g, 5, ny, nz)) return;
    double kk = 2.0 * 3.14159265358979323846 / (ny * (double)DY), A = 0.8, nu = 0.05;
    for (size_t q = 0; q < g.n[0]; q++) {
        int i, j, k;
        face_ijk(&g, 0, q, &i, &j, &k);
        g.q[0][q] = (float)(A * sin(kk * (j + 0.5) * DY));
    }
    side_put(&s, &g);
    lq_momentum_params prm = params((float)nu, 0, 0, 0);
    CHECK_OK(lq_momentum_step(&s.ops, &s.st, &prm));
    float *u0 = malloc(g.n[0] * 4);
    memcpy(u0, g.q[0], g.n[0] * 4);
    side_get(&s, &g, 1);
    double s2 = sin(kk * DY / 2), fac = 1.0 - 4.0 * nu * DT / (DY * (double)DY) * s2 * s2;
    double worst = 0;
    int checked = 0;
    for (size_t q = 0; q < g.n[0]; q++) {
        int i, j, k;
        face_ijk(&g, 0, q, &i, &j, &k);
        if (i == 0 || i == g.nx || j == 0 || j == ny - 1) continue;
        worst = fmax(worst, fabs(g.q[0][q] - u0[q] * fac));
        checked++;
    }
    fprintf(stderr, "viscous decay (nz %d): factor %.7f, %d faces, max error %.3g\n", nz, fac,
            checked, worst);
    CHECK(checked > 0 && worst < 2e-6);
    CHECK(fac < 0.99);
    free(u0);
    close_ref(&ctx, &s, &g);
}

/* A 7 x 7 x nz grid of air (EMPTY) with random pressures in [-3, 3] and faces in [-1, 1]
 * (seed), for the single-cell cases below to place their cells in; returns their plane. */
static int air_state(grid *g, int nz, unsigned seed)
{
    lq_rng r;
    lq_rng_seed(&r, seed);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < 7; j++)
            for (int i = 0; i < 7; i++) {
                int c = CELL(g, i, j, k);
                g->f[c] = LQ_MAC_EMPTY;
                g->p[c] = frand(&r, -3, 3);
            }
    for (int a = 0; a < 3; a++)
        for (size_t q = 0; q < g->n[a]; q++) g->q[a][q] = frand(&r, -1, 1);
    return nz > 1 ? nz / 2 : 0;
}

/* Gates' open pairs: a SURFACE cell (3, 3) with EMPTY on both sides along x and FULL
 * below moves its two x faces by the body force only, both to the pair's mean plus g δt
 * (whatever the pressure and the flow beside it); the same cell against a SOLID cell on
 * its +x side has no open pair and its −x face takes eq. 2. Before: the air's 0 beyond
 * the leading face pushed a moving drop's front face by ½ cfl of its speed every step. */
static void test_open_pair(int nz)
{
    lq_ctx ctx;
    side s;
    grid g;
    if (open_ref(&ctx, &s, &g, 7, 7, nz)) return;
    int kc = air_state(&g, nz, 9);
    g.f[CELL(&g, 3, 2, kc)] = LQ_MAC_FULL;
    g.f[CELL(&g, 3, 3, kc)] = LQ_MAC_SURFACE;
    int ul = LQ_MAC_U(3, 3, kc, 7, 7), ur = LQ_MAC_U(4, 3, kc, 7, 7);
    g.q[0][ul] = 0.3f;
    g.q[0][ur] = 2.1f;
    side_put(&s, &g);
    lq_momentum_params prm = {
        0.01f, 0.05f, 0.04f, 0.07f, 1e-3f, {0.5f, -8.0f, 0.25f}, 1.0f, LQ_MOMENTUM_DONOR};
    CHECK_OK(lq_momentum_step(&s.ops, &s.st, &prm));
    side_get(&s, &g, 1);
    float want = 0.5f * (0.3f + 2.1f) + (float)(double)prm.dt * 0.5f;
    fprintf(stderr, "open pair (nz %d): faces %.7g %.7g, want %.7g\n", nz, g.q[0][ul], g.q[0][ur],
            want);
    CHECK(g.q[0][ul] == want && g.q[0][ur] == want);
    /* a SOLID cell on the +x side: no pair; the −x face is eq. 2's (not the mean) */
    g.f[CELL(&g, 4, 3, kc)] = LQ_MAC_SOLID;
    g.q[0][ul] = 0.3f;
    g.q[0][ur] = 0.0f;
    side_put(&s, &g);
    CHECK_OK(lq_momentum_step(&s.ops, &s.st, &prm));
    side_get(&s, &g, 1);
    fprintf(stderr, "  against a wall: -x face %.7g (the pair rule would give %.7g)\n", g.q[0][ul],
            0.5f * 0.3f + 0.005f);
    CHECK(g.q[0][ul] != 0.5f * 0.3f + 0.005f);
    close_ref(&ctx, &s, &g);
}

/* A SURFACE cell (3, 3) hanging from a SOLID cell above it, EMPTY below: its −y face moves
 * by the body force only, q + g δt (whatever the pressure and the flow beside it), as an
 * open pair's; Gates' rules then take the least of it, continuity and 0
 * (kernels/mac/macsurface_cell.h). With a FULL cell above instead it is an ordinary surface (the
 * underside of a falling blob) and takes eq. 2. Before: eq. 2 everywhere, and Gates' rule
 * reset the face to the ceiling's 0 every step, so the cell never fell. */
static void test_hanging(int nz)
{
    lq_ctx ctx;
    side s;
    grid g;
    if (open_ref(&ctx, &s, &g, 7, 7, nz)) return;
    int kc = air_state(&g, nz, 21);
    for (int i = 2; i <= 4; i++) g.f[CELL(&g, i, 3, kc)] = LQ_MAC_SURFACE;
    g.f[CELL(&g, 3, 4, kc)] = LQ_MAC_SOLID;
    int fb = LQ_MAC_V(3, 3, kc, 7, 7);
    g.q[1][fb] = 0.3f;
    side_put(&s, &g);
    lq_momentum_params prm = {
        0.01f, 0.05f, 0.04f, 0.07f, 1e-3f, {0.5f, -8.0f, 0.25f}, 1.0f, LQ_MOMENTUM_DONOR};
    CHECK_OK(lq_momentum_step(&s.ops, &s.st, &prm));
    side_get(&s, &g, 1);
    float want = 0.3f + 0.01f * -8.0f;
    fprintf(stderr, "hanging (nz %d): -y face %.7g, want %.7g\n", nz, g.q[1][fb], want);
    CHECK(g.q[1][fb] == want);
    /* FULL above: not hanging; eq. 2 (the pressure difference alone is far from 0) */
    g.f[CELL(&g, 3, 4, kc)] = LQ_MAC_FULL;
    g.q[1][fb] = 0.3f;
    side_put(&s, &g);
    CHECK_OK(lq_momentum_step(&s.ops, &s.st, &prm));
    side_get(&s, &g, 1);
    fprintf(stderr, "  liquid above: -y face %.7g (the hanging rule would give %.7g)\n", g.q[1][fb],
            want);
    CHECK(g.q[1][fb] != want);
    close_ref(&ctx, &s, &g);
}

/* A box with SOLID walls one cell thick and one no-slip (y walls) / free-slip (x walls)
 * flag per wall: mirrored tangential faces, zero normals, copied pressure. */
static void test_walls(int nz)
{
    lq_ctx ctx;
    side s;
    grid g;
    int nx = 8, ny = 7, is3 = nz > 1;
    if (open_ref(&ctx, &s, &g, nx, ny, nz)) return;
    lq_rng r;
    lq_rng_seed(&r, 5);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                int c = CELL(&g, i, j, k);
                int wx = i == 0 || i == nx - 1, wy = j == 0 || j == ny - 1;
                int wz = is3 && (k == 0 || k == nz - 1);
                if (wx || wy || wz) g.f[c] = LQ_MAC_SOLID;
                g.bnd[c] = (unsigned char)(wy && !wx);
                g.p[c] = frand(&r, -1, 1);
            }
    for (int a = 0; a < 3; a++)
        for (size_t q = 0; q < g.n[a]; q++) g.q[a][q] = frand(&r, -1, 1);
    if (!is3) memset(g.q[2], 0, g.n[2] * 4);
    grid before;
    grid_alloc(&before, nx, ny, nz);
    for (int a = 0; a < 3; a++) memcpy(before.q[a], g.q[a], g.n[a] * 4);
    memcpy(before.p, g.p, g.nc * 4);
    side_put(&s, &g);
    CHECK_OK(lq_momentum_boundary(&s.ops, &s.st));
    side_get(&s, &g, 0);
    int kc = is3 ? nz / 2 : 0, bad_noslip = 0, bad_free = 0, bad_normal = 0, bad_p = 0;
    /* bottom wall (no-slip): u inside row 0 mirrors row 1, so their average is 0 */
    for (int i = 2; i < nx - 1; i++) {
        float u0 = g.q[0][LQ_MAC_U(i, 0, kc, nx, ny)], u1 = g.q[0][LQ_MAC_U(i, 1, kc, nx, ny)];
        bad_noslip += 0.5f * (u0 + u1) != 0.0f || u1 != before.q[0][LQ_MAC_U(i, 1, kc, nx, ny)];
        bad_normal += g.q[1][LQ_MAC_V(i - 1, 1, kc, nx, ny)] != 0.0f; /* v at the wall */
        bad_p += g.p[CELL(&g, i, 0, kc)] != before.p[CELL(&g, i, 1, kc)];
    }
    /* left wall (free-slip): v inside column 0 equals column 1 */
    for (int j = 2; j < ny - 1; j++) {
        float v0 = g.q[1][LQ_MAC_V(0, j, kc, nx, ny)], v1 = g.q[1][LQ_MAC_V(1, j, kc, nx, ny)];
        bad_free += v0 != v1;
        bad_normal += g.q[0][LQ_MAC_U(1, j, kc, nx, ny)] != 0.0f;
        bad_p += g.p[CELL(&g, 0, j, kc)] != before.p[CELL(&g, 1, j, kc)];
    }
    /* fluid faces and fluid p untouched */
    int touched = 0;
    for (int a = 0; a < 3; a++)
        for (size_t q = 0; q < g.n[a]; q++) {
            int ka, kb;
            face_kinds(&g, a, q, &ka, &kb);
            if (ka != LQ_MAC_SOLID && kb != LQ_MAC_SOLID)
                touched += memcmp(&g.q[a][q], &before.q[a][q], 4) != 0;
        }
    for (size_t c = 0; c < g.nc; c++)
        if (g.f[c] != LQ_MAC_SOLID) touched += memcmp(&g.p[c], &before.p[c], 4) != 0;
    fprintf(stderr,
            "walls (nz %d): no-slip %d, free-slip %d, normals %d, pressure %d, fluid touched %d "
            "bad\n",
            nz, bad_noslip, bad_free, bad_normal, bad_p, touched);
    CHECK(bad_noslip == 0 && bad_free == 0 && bad_normal == 0 && bad_p == 0 && touched == 0);
    grid_free(&before);
    close_ref(&ctx, &s, &g);
}

/* δt against hand-computed bounds (max_speed_of on given maxima, and the full op). */
static void test_dt(void)
{
    lq_momentum_params prm = {0.0f, 0.5f, 0.25f, 1.0f, 0.0f, {0, 0, 0}, 0.0f, LQ_MOMENTUM_DONOR};
    float sm[3] = {2.0f, 1.0f, 3.0f};
    /* rates 4, 4, 3 per s: cfl 0.5 → 0.125 */
    float dt = lq_momentum_dt_of(&prm, 8, 8, 8, sm, 0.5f, 1.0f);
    CHECK(dt == 0.125f);
    /* viscous: 1 / (2 · 0.5 · (4 + 16 + 1)) = 1/21 */
    prm.nu = 0.5f;
    float sz[3] = {0, 0, 0};
    dt = lq_momentum_dt_of(&prm, 8, 8, 8, sz, 0.5f, 1.0f);
    CHECK(dt <= 1.0 / 21.0 && dt >= nextafterf((float)(1.0 / 21.0), 0.0f));
    /* 2D leaves z out: 1/20 */
    dt = lq_momentum_dt_of(&prm, 8, 8, 1, sz, 0.5f, 1.0f);
    CHECK(dt == 0.05f || (dt <= 0.05 && dt >= nextafterf(0.05f, 0.0f)));
    /* at rest, inviscid: the cap */
    prm.nu = 0.0f;
    CHECK(lq_momentum_dt_of(&prm, 8, 8, 8, sz, 0.5f, 0.03f) == 0.03f);
    fprintf(stderr, "dt bounds: checked\n");

    /* the whole op on a state with known maxima */
    lq_ctx ctx;
    side s;
    grid g;
    if (open_ref(&ctx, &s, &g, 4, 4, 4)) return;
    g.q[0][3] = -2.0f;
    g.q[1][7] = 1.0f;
    g.q[2][5] = 3.0f;
    side_put(&s, &g);
    float got = -1;
    CHECK_OK(lq_momentum_dt(&s.ops, &s.st, &prm, 0.5f, 1.0f, &got));
    CHECK(got == 0.125f);
    g.q[1][2] = NAN;
    side_put(&s, &g);
    CHECK(lq_momentum_dt(&s.ops, &s.st, &prm, 0.5f, 1.0f, &got) == LQ_ESIM);
    CHECK(lq_momentum_dt(&s.ops, &s.st, &prm, 0.0f, 1.0f, &got) == LQ_EINPUT);
    close_ref(&ctx, &s, &g);
}

int main(void)
{
    (void)twin_alloc; /* twin.h helpers this test does not need */
    (void)twin_release;
    test_twins(17, 13, 11, 11);
    test_twins(17, 13, 1, 12);
    test_twins_kinds(40, 23, 19, 13);
    test_twins_kinds(40, 37, 1, 14);
    test_twins_kinds(11, 9, 7, 15);
    for (int nz = 1; nz <= 6; nz += 5) {
        test_uniform(nz, LQ_MOMENTUM_DONOR);
        test_uniform(nz, LQ_MOMENTUM_LIMITED);
        test_hydrostatic(nz);
        test_viscous_decay(nz);
        test_walls(nz);
        test_open_pair(nz);
        test_hanging(nz);
    }
    test_dt();
    CHECK_DONE();
}
