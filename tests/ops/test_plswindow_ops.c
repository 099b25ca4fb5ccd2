/*
 * test_plswindow_ops.c — the moving grid window (host/ops/pls/plswindow.h, §5.3):
 *  1. reference twin vs OpenCL (PoCL in CI) on random fields, 3D and 2D: every shift
 *     (moves of ±1, ±3 cells and past the lattice, on each axis and diagonally; fill and
 *     clamp; cell-centred and each face lattice with its wall), the particles moved and
 *     killed with their count, and the liquid's bounding box must agree bit for bit;
 *  2. independent checks on the reference path: moved left by 3 cells φ_{i,j,k} ←
 *     φ_{i+3,j,k} exactly and the 3 uncovered columns the fill; clamp copies the nearest
 *     kept element (along a face lattice's own axis the nearest open face) and zeroes the
 *     window's wall faces; a particle at x moved by d cells is at x − d h, one that leaves
 *     is dead (signed radius 0) and counted once; the box of a block of liquid is its
 *     cells, and of no liquid empty.
 */
#include "ops/pls/plswindow.h"
#include "common/mac_grid.h"
#include "lib/twin.h"

static float frand(lq_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)lq_rng_uniform(r);
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
    lq_plswindow_ops oa, ob;
    CHECK_OK(lq_plswindow_ops_init(&oa, &ref, nx, ny, nz));
    CHECK_OK(lq_plswindow_ops_init(&ob, &cl, nx, ny, nz));
    /* the four lattices: cells, u, v, w */
    for (int lat = -1; lat < 3; lat++) {
        if (nz == 1 && lat == 2) continue;
        int fx = nx + (lat == 0), fy = ny + (lat == 1), fz = nz + (lat == 2);
        size_t n = (size_t)fx * fy * fz;
        float *init = malloc(n * 4);
        for (size_t c = 0; c < n; c++) init[c] = frand(&r, -2, 2);
        twin_pair S, D;
        CHECK_OK(twin_alloc(&S, &ref, &cl, "src", fx, fy, fz, 4, init));
        CHECK_OK(twin_alloc(&D, &ref, &cl, "dst", fx, fy, fz, 4, NULL));
        static const int moves[][3] = {{3, 0, 0},  {-3, 0, 0},  {0, 1, 0},  {0, -4, 0}, {0, 0, 2},
                                       {2, -1, 1}, {-1, 5, -2}, {40, 0, 0}, {0, -40, 0}};
        for (size_t m = 0; m < LQ_COUNT(moves); m++) {
            int d[3] = {moves[m][0], moves[m][1], nz > 1 ? moves[m][2] : 0};
            for (int mode = 0; mode < 2; mode++) {
                CHECK_OK(lq_plswindow_shift(&oa, &S.ref, &D.ref, d, mode, 0.375f, lat));
                CHECK_OK(lq_plswindow_shift(&ob, &S.cl, &D.cl, d, mode, 0.375f, lat));
                twin_check_exact("plswindow.shift", &D);
            }
        }
        twin_release(&S);
        twin_release(&D);
        free(init);
    }
    /* particles: inside, near the edges, some dead */
    float h = 0.1f;
    int np = 3001, stride = 4;
    float *part = malloc((size_t)np * stride * 4);
    float ext[3] = {nx * h, ny * h, nz * h};
    for (int q = 0; q < np; q++) {
        for (int a = 0; a < 3; a++) part[q * stride + a] = frand(&r, 0, ext[a]);
        float rr = frand(&r, -0.05f, 0.05f);
        part[q * stride + 3] = q % 17 == 0 ? 0.0f : rr;
    }
    twin_pair P;
    CHECK_OK(twin_alloc(&P, &ref, &cl, "part", np * stride, 1, 1, 4, part));
    int dd[3] = {2, -3, nz > 1 ? 1 : 0};
    CHECK_OK(lq_plswindow_particles(&oa, &P.ref, np, stride, 3, dd, h));
    CHECK_OK(lq_plswindow_particles(&ob, &P.cl, np, stride, 3, dd, h));
    twin_check_exact("plswindow.particles", &P);
    long long ca = -1, cb = -2;
    CHECK_OK(lq_plswindow_take_out(&oa, &ca));
    CHECK_OK(lq_plswindow_take_out(&ob, &cb));
    fprintf(stderr, "  plswindow.particles killed: %lld vs %lld\n", ca, cb);
    CHECK(ca == cb && ca > 0);
    CHECK_OK(lq_plswindow_take_out(&ob, &cb));
    CHECK(cb == 0);
    twin_release(&P);
    free(part);
    /* the box: a random blob of liquid, then none */
    size_t nc = (size_t)nx * ny * nz;
    float *phi = malloc(nc * 4);
    for (size_t c = 0; c < nc; c++) phi[c] = frand(&r, 0.01f, 1);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                if (frand(&r, 0, 1) < 0.02f) phi[LQ_MAC_CELL(i, j, k, nx, ny)] = -0.5f;
    twin_pair F;
    CHECK_OK(twin_alloc(&F, &ref, &cl, "phi", nx, ny, nz, 4, phi));
    int ba[6], bb[6];
    CHECK_OK(lq_plswindow_box(&oa, &F.ref, ba));
    CHECK_OK(lq_plswindow_box(&ob, &F.cl, bb));
    fprintf(stderr, "  plswindow.box [%d %d %d]..[%d %d %d]\n", bb[0], bb[1], bb[2], bb[3], bb[4],
            bb[5]);
    CHECK(memcmp(ba, bb, sizeof ba) == 0 && ba[0] <= ba[3]);
    for (size_t c = 0; c < nc; c++) phi[c] = 1;
    CHECK_OK(lq_field_upload(&F.ref, phi));
    CHECK_OK(lq_field_upload(&F.cl, phi));
    CHECK_OK(lq_plswindow_box(&oa, &F.ref, ba));
    CHECK_OK(lq_plswindow_box(&ob, &F.cl, bb));
    CHECK(memcmp(ba, bb, sizeof ba) == 0 && ba[0] > ba[3]);
    twin_release(&F);
    free(phi);
    lq_plswindow_ops_release(&oa);
    lq_plswindow_ops_release(&ob);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
}

/* Independent checks on the reference path. */
static void test_math(void)
{
    fprintf(stderr, "math:\n");
    int nx = 10, ny = 7, nz = 5;
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, "ref", false));
    lq_plswindow_ops o;
    CHECK_OK(lq_plswindow_ops_init(&o, &ctx, nx, ny, nz));
    lq_field a, b, u, u2;
    CHECK_OK(lq_field_alloc(&ctx, &a, "phi", nx, ny, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &b, "phin", nx, ny, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &u, "u", nx + 1, ny, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &u2, "u2", nx + 1, ny, nz, 4));
    float *A = a.host, *B = b.host, *U = u.host, *U2 = u2.host;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) A[LQ_MAC_CELL(i, j, k, nx, ny)] = (float)(i + 100 * j);
    /* left by 3 cells: φ_{i,j,k} ← φ_{i+3,j,k}, the last 3 columns the fill */
    int left[3] = {3, 0, 0};
    CHECK_OK(lq_plswindow_shift(&o, &a, &b, left, LQ_PLSWINDOW_FILL, 9.0f, -1));
    int bad = 0;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                float want = i + 3 < nx ? A[LQ_MAC_CELL(i + 3, j, k, nx, ny)] : 9.0f;
                bad += B[LQ_MAC_CELL(i, j, k, nx, ny)] != want;
            }
    CHECK_MSG(bad == 0, "left by 3: %d cells wrong", bad);
    /* u's own axis, moved right by 2 (d = −2): the uncovered faces 1, 2 copy the nearest
     * kept open face (old face 1, now at 3), face 0 and nx are walls */
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i <= nx; i++)
                U[LQ_MAC_U(i, j, k, nx, ny)] = (i == 0 || i == nx) ? 0.0f : (float)(i + 50 * j);
    int right[3] = {-2, 0, 0};
    CHECK_OK(lq_plswindow_shift(&o, &u, &u2, right, LQ_PLSWINDOW_CLAMP, 0, 0));
    bad = 0;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i <= nx; i++) {
                float want = (i == 0 || i == nx) ? 0.0f
                             : i < 3             ? (float)(1 + 50 * j)
                                                 : (float)(i - 2 + 50 * j);
                bad += U2[LQ_MAC_U(i, j, k, nx, ny)] != want;
            }
    CHECK_MSG(bad == 0, "u right by 2, clamp: %d faces wrong", bad);
    /* u across its axis (up by 1, d = (0, 1, 0)): the top row copies the old top row */
    int up[3] = {0, 1, 0};
    CHECK_OK(lq_plswindow_shift(&o, &u, &u2, up, LQ_PLSWINDOW_CLAMP, 0, 0));
    bad = 0;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i <= nx; i++)
                bad += U2[LQ_MAC_U(i, j, k, nx, ny)] !=
                       U[LQ_MAC_U(i, LQ_MIN(j + 1, ny - 1), k, nx, ny)];
    CHECK_MSG(bad == 0, "u up by 1, clamp: %d faces wrong", bad);
    /* particles */
    float h = 0.5f;
    lq_field p;
    CHECK_OK(lq_field_alloc(&ctx, &p, "part", 12, 1, 1, 4));
    float *P = p.host;
    float init[12] = {2.25f, 1.25f, 1.0f, -0.1f, 0.25f, 2.0f, 1.0f, 0.1f, 4.75f, 3.0f, 2.0f, 0.0f};
    memcpy(P, init, sizeof init);
    int d[3] = {-1, 1, 0}; /* the window a cell to −x and +y: x + h, y − h */
    CHECK_OK(lq_plswindow_particles(&o, &p, 3, 4, 3, d, h));
    long long out = 0;
    CHECK_OK(lq_plswindow_take_out(&o, &out));
    CHECK(P[0] == 2.75f && P[1] == 0.75f && P[2] == 1.0f && P[3] == -0.1f); /* kept */
    CHECK(P[4] == 0.75f && P[5] == 1.5f && P[7] == 0.1f);                   /* kept */
    CHECK(P[8] == 5.25f && P[11] == 0.0f); /* x ≥ nx h = 5: already dead, not counted */
    CHECK(out == 0);
    int d2[3] = {0, 2, 0}; /* y − 1: the first particle (y 0.75) leaves */
    CHECK_OK(lq_plswindow_particles(&o, &p, 3, 4, 3, d2, h));
    CHECK_OK(lq_plswindow_take_out(&o, &out));
    CHECK(P[3] == 0.0f && P[7] == 0.1f && out == 1);
    /* the box of a block */
    for (size_t c = 0; c < a.count; c++) A[c] = 1;
    for (int k = 1; k <= 3; k++)
        for (int j = 2; j <= 5; j++)
            for (int i = 4; i <= 8; i++) A[LQ_MAC_CELL(i, j, k, nx, ny)] = -1;
    int box[6];
    CHECK_OK(lq_plswindow_box(&o, &a, box));
    CHECK(box[0] == 4 && box[1] == 2 && box[2] == 1 && box[3] == 8 && box[4] == 5 && box[5] == 3);
    lq_field_release(&p);
    lq_field_release(&a);
    lq_field_release(&b);
    lq_field_release(&u);
    lq_field_release(&u2);
    lq_plswindow_ops_release(&o);
    lq_ctx_close(&ctx);
}

int main(void)
{
    (void)twin_check_float;
    test_twins(13, 11, 9, 2025);
    test_twins(17, 12, 1, 16);
    test_math();
    CHECK_DONE();
}
