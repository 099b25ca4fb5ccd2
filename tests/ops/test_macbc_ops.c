/*
 * test_macbc_ops.c — the `mac` solver's inflow, outflow and air-band face rules
 * (host/ops/mac/macbc.c, kernels/mac/macbc_cell.h): reference twin vs OpenCL bit for bit on random
 * cell kinds, plus each rule's result checked by hand on small set-ups.
 */
#include "ops/mac/macbc.h"
#include "lib/twin.h"

typedef struct bc_set {
    int nx, ny, nz;
    twin_pair u, v, w, flags, region, vel;
} bc_set;

static void bc_alloc(bc_set *s, lq_ctx *ref, lq_ctx *cl, int nx, int ny, int nz,
                     const unsigned char *fl, const unsigned char *rg, const float *uvw)
{
    size_t nu = (size_t)(nx + 1) * ny * nz, nv = (size_t)nx * (ny + 1) * nz;
    s->nx = nx, s->ny = ny, s->nz = nz;
    float vel[3 * LQ_MACBC_MAX_INLETS];
    for (int q = 0; q < 3 * LQ_MACBC_MAX_INLETS; q++) vel[q] = 0.25f * (float)(q + 1);
    CHECK_OK(twin_alloc(&s->u, ref, cl, "u", nx + 1, ny, nz, 4, uvw));
    CHECK_OK(twin_alloc(&s->v, ref, cl, "v", nx, ny + 1, nz, 4, uvw + nu));
    CHECK_OK(twin_alloc(&s->w, ref, cl, "w", nx, ny, nz + 1, 4, uvw + nu + nv));
    CHECK_OK(twin_alloc(&s->flags, ref, cl, "flags", nx, ny, nz, 1, fl));
    CHECK_OK(twin_alloc(&s->region, ref, cl, "region", nx, ny, nz, 1, rg));
    CHECK_OK(twin_alloc(&s->vel, ref, cl, "vel", 3, LQ_MACBC_MAX_INLETS, 1, 4, vel));
}

static void bc_release(bc_set *s)
{
    twin_pair *ps[] = {&s->u, &s->v, &s->w, &s->flags, &s->region, &s->vel};
    for (size_t i = 0; i < LQ_COUNT(ps); i++) twin_release(ps[i]);
}

/* Random kinds (every kind, inlets 1..3) and random faces; each operation on both. */
static void test_twins(int nx, int ny, int nz, uint64_t seed)
{
    lq_ctx ref, cl;
    if (twin_open(&ref, &cl)) {
        CHECK(0);
        return;
    }
    lq_macbc_ops oref, ocl;
    CHECK_OK(lq_macbc_ops_init(&oref, &ref, nx, ny, nz));
    CHECK_OK(lq_macbc_ops_init(&ocl, &cl, nx, ny, nz));
    size_t n = (size_t)nx * ny * nz, nf = (size_t)(nx + 1) * ny * nz + (size_t)nx * (ny + 1) * nz +
                                          (size_t)nx * ny * (nz + 1);
    unsigned char *fl = malloc(n), *rg = malloc(n);
    float *uvw = malloc(nf * sizeof(float));
    lq_rng r;
    lq_rng_seed(&r, seed);
    for (size_t c = 0; c < n; c++) {
        fl[c] = (unsigned char)(lq_rng_u32(&r) % 6);
        rg[c] = fl[c] == LQ_MAC_INFLOW ? (unsigned char)(1 + lq_rng_u32(&r) % 3) : 0;
    }
    for (size_t q = 0; q < nf; q++) uvw[q] = (float)(2 * lq_rng_uniform(&r) - 1);
    bc_set s;
    bc_alloc(&s, &ref, &cl, nx, ny, nz, fl, rg, uvw);
    fprintf(stderr, "twins %d x %d x %d:\n", nx, ny, nz);
    CHECK_OK(lq_macbc_inflow(&oref, &s.u.ref, &s.v.ref, &s.w.ref, &s.flags.ref, &s.region.ref,
                             &s.vel.ref));
    CHECK_OK(
        lq_macbc_inflow(&ocl, &s.u.cl, &s.v.cl, &s.w.cl, &s.flags.cl, &s.region.cl, &s.vel.cl));
    twin_check_exact("macbc_inflow", &s.u);
    twin_check_exact("macbc_inflow", &s.v);
    twin_check_exact("macbc_inflow", &s.w);
    CHECK_OK(lq_macbc_outflow(&oref, &s.u.ref, &s.v.ref, &s.w.ref, &s.flags.ref));
    CHECK_OK(lq_macbc_outflow(&ocl, &s.u.cl, &s.v.cl, &s.w.cl, &s.flags.cl));
    twin_check_exact("macbc_outflow", &s.u);
    twin_check_exact("macbc_outflow", &s.v);
    twin_check_exact("macbc_outflow", &s.w);
    {
        twin_pair p;
        float *pv = malloc(n * sizeof(float));
        for (size_t c = 0; c < n; c++) pv[c] = (float)c * 0.5f;
        CHECK_OK(twin_alloc(&p, &ref, &cl, "p", nx, ny, nz, 4, pv));
        CHECK_OK(lq_macbc_outflow_pressure(&oref, &p.ref, &s.flags.ref));
        CHECK_OK(lq_macbc_outflow_pressure(&ocl, &p.cl, &s.flags.cl));
        twin_check_exact("macbc_outflow_p", &p);
        /* an outflow cell with a liquid neighbour took that neighbour's p */
        float *pr = malloc(n * sizeof(float));
        CHECK_OK(lq_field_download(&p.ref, pr));
        int moved = 0;
        for (size_t c = 0; c < n; c++)
            if (pr[c] != pv[c]) {
                CHECK(fl[c] == LQ_MAC_OUTFLOW);
                moved++;
            }
        CHECK(moved > 0);
        free(pr);
        free(pv);
        twin_release(&p);
    }
    CHECK_OK(lq_macbc_extrapolate(&oref, &s.u.ref, &s.v.ref, &s.w.ref, &s.flags.ref));
    CHECK_OK(lq_macbc_extrapolate(&ocl, &s.u.cl, &s.v.cl, &s.w.cl, &s.flags.cl));
    twin_check_exact("macbc_extrapolate", &s.u);
    twin_check_exact("macbc_extrapolate", &s.v);
    twin_check_exact("macbc_extrapolate", &s.w);
    bc_release(&s);
    free(fl);
    free(rg);
    free(uvw);
    lq_macbc_ops_release(&ocl);
    lq_macbc_ops_release(&oref);
    lq_ctx_close(&cl);
    lq_ctx_close(&ref);
}

/* A 2D channel along x (nz = 1), walls top and bottom, liquid in the middle rows:
 * inflow column at i = 0, outflow column at i = nx − 1. Run on one backend. */
static void test_channel(const char *device)
{
    enum { NX = 8, NY = 5, NZ = 1 };
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, device, false));
    lq_macbc_ops o;
    CHECK_OK(lq_macbc_ops_init(&o, &ctx, NX, NY, NZ));
    unsigned char fl[NX * NY], rg[NX * NY];
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            int c = LQ_MAC_CELL(i, j, 0, NX, NY);
            bool wall = j == 0 || j == NY - 1;
            fl[c] = wall                   ? LQ_MAC_SOLID
                    : i == 0               ? LQ_MAC_INFLOW
                    : i == NX - 1          ? LQ_MAC_OUTFLOW
                    : j == NY - 2 && i > 4 ? LQ_MAC_EMPTY
                    : j == NY - 2          ? LQ_MAC_SURFACE
                                           : LQ_MAC_FULL;
            rg[c] = fl[c] == LQ_MAC_INFLOW ? 2 : 0; /* inlet 1: vel[3..5] = 1, 1.25, 1.5 */
        }
    size_t nu = (NX + 1) * NY, nv = NX * (NY + 1), nw = NX * NY * 2;
    float uvw[(NX + 1) * NY + NX * (NY + 1) + NX * NY * 2];
    for (size_t q = 0; q < nu + nv + nw; q++) uvw[q] = 7.0f; /* a marker value */
    /* liquid x-faces: 0.5 (so extrapolation has something to spread) */
    for (int j = 1; j < NY - 1; j++)
        for (int i = 1; i < NX; i++) uvw[LQ_MAC_U(i, j, 0, NX, NY)] = 0.5f + 0.01f * i;
    lq_field u, v, w, flags, region, vel;
    CHECK_OK(lq_field_alloc(&ctx, &u, "u", NX + 1, NY, NZ, 4));
    CHECK_OK(lq_field_alloc(&ctx, &v, "v", NX, NY + 1, NZ, 4));
    CHECK_OK(lq_field_alloc(&ctx, &w, "w", NX, NY, NZ + 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &flags, "flags", NX, NY, NZ, 1));
    CHECK_OK(lq_field_alloc(&ctx, &region, "region", NX, NY, NZ, 1));
    CHECK_OK(lq_field_alloc(&ctx, &vel, "vel", 3, LQ_MACBC_MAX_INLETS, 1, 4));
    float vv[3 * LQ_MACBC_MAX_INLETS] = {0};
    vv[3] = 1.0f, vv[4] = 1.25f, vv[5] = 1.5f;
    CHECK_OK(lq_field_upload(&u, uvw));
    CHECK_OK(lq_field_upload(&v, uvw + nu));
    CHECK_OK(lq_field_upload(&w, uvw + nu + nv));
    CHECK_OK(lq_field_upload(&flags, fl));
    CHECK_OK(lq_field_upload(&region, rg));
    CHECK_OK(lq_field_upload(&vel, vv));
    CHECK_OK(lq_macbc_inflow(&o, &u, &v, &w, &flags, &region, &vel));
    CHECK_OK(lq_macbc_outflow(&o, &u, &v, &w, &flags));
    float hu[(NX + 1) * NY], hv[NX * (NY + 1)];
    CHECK_OK(lq_field_download(&u, hu));
    CHECK_OK(lq_field_download(&v, hv));
    for (int j = 1; j < NY - 1; j++) {
        /* inflow: both x-faces of the inflow cell hold the inlet's u */
        CHECK_NEAR(hu[LQ_MAC_U(0, j, 0, NX, NY)], 1.0, 0);
        CHECK_NEAR(hu[LQ_MAC_U(1, j, 0, NX, NY)], 1.0, 0);
        /* outflow: the outer face copies the face across the outflow cell (liquid side) */
        int c = LQ_MAC_CELL(NX - 2, j, 0, NX, NY);
        float want = fl[c] == LQ_MAC_EMPTY ? 7.0f : 0.5f + 0.01f * (NX - 1);
        CHECK_NEAR(hu[LQ_MAC_U(NX, j, 0, NX, NY)], want, 0);
    }
    /* inflow faces toward the walls are left to the obstacle rule */
    CHECK_NEAR(hv[LQ_MAC_V(0, 1, 0, NX, NY)], 7.0, 0);
    CHECK_NEAR(hv[LQ_MAC_V(0, 2, 0, NX, NY)], 1.25, 0);
    /* air band: the x-faces between the two EMPTY cells of row NY − 2 take the mean of
     * their known neighbours: the x-face below (liquid row) and the one at i − 1 if
     * known */
    CHECK_OK(lq_macbc_extrapolate(&o, &u, &v, &w, &flags));
    CHECK_OK(lq_field_download(&u, hu));
    int j = NY - 2;
    /* face i = 6 (cells 5 | 6, both EMPTY): neighbours (5, j) known (cells 4 SURFACE |
     * 5), (6, j − 1) known (liquid row below), (7, j) not known (6 | 7 EMPTY |
     * OUTFLOW), (6, j + 1) wall row: cells SOLID, not liquid */
    float a = 0.5f + 0.01f * 5, b = 0.5f + 0.01f * 6;
    CHECK_NEAR(hu[LQ_MAC_U(6, j, 0, NX, NY)], (a + b) * 0.5f, 0);
    /* a face touching liquid is not changed */
    CHECK_NEAR(hu[LQ_MAC_U(5, j, 0, NX, NY)], a, 0);
    lq_field *fs[] = {&u, &v, &w, &flags, &region, &vel};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
    lq_macbc_ops_release(&o);
    lq_ctx_close(&ctx);
}

/* The air band's two layers round one SURFACE cell (3, 3) in a 2D grid of EMPTY cells:
 * its x-faces u(3, 3) = 1 and u(4, 3) = 3 touch liquid; layer 1 (air faces next to
 * those) takes their mean, layer 2 (air faces next to layer 1 only) the mean of its
 * layer-1 neighbours; a face farther out keeps its value. A drop that enters a cell
 * diagonally in one step finds all its faces in the band. */
static void test_band(const char *device)
{
    enum { NX = 8, NY = 8, NZ = 1 };
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, device, false));
    lq_macbc_ops o;
    CHECK_OK(lq_macbc_ops_init(&o, &ctx, NX, NY, NZ));
    unsigned char fl[NX * NY];
    memset(fl, LQ_MAC_EMPTY, sizeof fl);
    fl[LQ_MAC_CELL(3, 3, 0, NX, NY)] = LQ_MAC_SURFACE;
    float hu[(NX + 1) * NY], hv[NX * (NY + 1)], hw[NX * NY * 2];
    for (size_t q = 0; q < LQ_COUNT(hu); q++) hu[q] = 7.0f;
    for (size_t q = 0; q < LQ_COUNT(hv); q++) hv[q] = 7.0f;
    memset(hw, 0, sizeof hw);
    hu[LQ_MAC_U(3, 3, 0, NX, NY)] = 1.0f;
    hu[LQ_MAC_U(4, 3, 0, NX, NY)] = 3.0f;
    lq_field u, v, w, flags;
    CHECK_OK(lq_field_alloc(&ctx, &u, "u", NX + 1, NY, NZ, 4));
    CHECK_OK(lq_field_alloc(&ctx, &v, "v", NX, NY + 1, NZ, 4));
    CHECK_OK(lq_field_alloc(&ctx, &w, "w", NX, NY, NZ + 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &flags, "flags", NX, NY, NZ, 1));
    CHECK_OK(lq_field_upload(&u, hu));
    CHECK_OK(lq_field_upload(&v, hv));
    CHECK_OK(lq_field_upload(&w, hw));
    CHECK_OK(lq_field_upload(&flags, fl));
    CHECK_OK(lq_macbc_extrapolate(&o, &u, &v, &w, &flags));
    CHECK_OK(lq_field_download(&u, hu));
#define UAT(i, j) hu[LQ_MAC_U(i, j, 0, NX, NY)]
    fprintf(stderr,
            "air band (%s): layer 1 u(5,3) %g u(4,4) %g; layer 2 u(5,4) %g u(2,4) %g "
            "u(3,5) %g; layer 3 u(6,5) %g\n",
            device, UAT(5, 3), UAT(4, 4), UAT(5, 4), UAT(2, 4), UAT(3, 5), UAT(6, 5));
    CHECK_NEAR(UAT(5, 3), 3.0, 0); /* layer 1: its one known neighbour u(4, 3) */
    CHECK_NEAR(UAT(4, 4), 3.0, 0);
    CHECK_NEAR(UAT(3, 4), 1.0, 0);
    CHECK_NEAR(UAT(5, 4), 3.0, 0); /* layer 2: u(4, 4) and u(5, 3), both 3 */
    CHECK_NEAR(UAT(2, 4), 1.0, 0); /* layer 2: u(3, 4) and u(2, 3), both 1 */
    CHECK_NEAR(UAT(3, 5), 1.0, 0); /* layer 2: only u(3, 4) of its neighbours is layer 1 */
    CHECK_NEAR(UAT(6, 5), 7.0, 0); /* layer 3: untouched */
#undef UAT
    lq_field *fs[] = {&u, &v, &w, &flags};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
    lq_macbc_ops_release(&o);
    lq_ctx_close(&ctx);
}

int main(void)
{
    (void)twin_check_float;
    test_twins(13, 11, 9, 11);
    test_twins(17, 9, 1, 12);
    test_channel("ref");
    test_channel("opencl");
    test_band("ref");
    test_band("opencl");
    CHECK_DONE();
}
