/*
 * test_mac_hydrostatic.c — the `mac` building blocks stepped together as Foster &
 * Metaxas' §6 lists them, on the hydrostatic tank (VALIDATION.md): a stone box holding
 * still water with a surface layer and air above. Per step: ũ from eq. 2
 * (host/ops/mac/momentum.c), obstacle conditions (§3.2.1), Gates' surface conditions
 * (host/ops/mac/macsurface.c), the pressure iteration to ε (host/ops/mac/pressure.c), the surface
 * conditions again (§6 step 7). The water must stay at rest and the pressure settle to
 * hydrostatic: p(j) − p(j+1) = g δy between FULL cells. Cell kinds are held fixed (no
 * marker motion): this ties the operations together before the solver does.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/check.h"
#include "core/common.h"
#include "core/field.h"
#include "common/mac_grid.h"
#include "ops/mac/macsurface.h"
#include "ops/mac/momentum.h"
#include "ops/mac/pressure.h"

#define NX 8
#define NY 16
#define NZ 8
#define G  9.81f

static void swap(lq_field *a, lq_field *b)
{
    lq_field t = *a;
    *a = *b;
    *b = t;
}

static void run(const char *device)
{
    lq_ctx ctx;
    if (lq_ctx_open(&ctx, device, false)) {
        CHECK(!"context");
        return;
    }
    const float h = 0.05f, dt = 0.005f, g3[3] = {0, -G, 0}, hh[3] = {h, h, h};
    lq_field u, v, w, p, flags, bnd, mask;
    CHECK_OK(lq_field_alloc(&ctx, &u, "u", NX + 1, NY, NZ, 4));
    CHECK_OK(lq_field_alloc(&ctx, &v, "v", NX, NY + 1, NZ, 4));
    CHECK_OK(lq_field_alloc(&ctx, &w, "w", NX, NY, NZ + 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &p, "p", NX, NY, NZ, 4));
    CHECK_OK(lq_field_alloc(&ctx, &flags, "flags", NX, NY, NZ, 1));
    CHECK_OK(lq_field_alloc(&ctx, &bnd, "bnd", NX, NY, NZ, 1));
    CHECK_OK(lq_field_alloc(&ctx, &mask, "mask", NX, NY, NZ, 1));
    unsigned char fl[NX * NY * NZ], zero1[NX * NY * NZ];
    memset(zero1, 0, sizeof zero1);
    const int surface_j = 9; /* FULL below, SURFACE at j = 9, EMPTY above */
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                unsigned char f = LQ_MAC_EMPTY;
                if (j < surface_j) f = LQ_MAC_FULL;
                if (j == surface_j) f = LQ_MAC_SURFACE;
                if (i == 0 || i == NX - 1 || k == 0 || k == NZ - 1 || j == 0) f = LQ_MAC_SOLID;
                fl[LQ_MAC_CELL(i, j, k, NX, NY)] = f;
            }
    CHECK_OK(lq_field_upload(&flags, fl));
    CHECK_OK(lq_field_upload(&bnd, zero1));
    CHECK_OK(lq_field_zero(&u, 0));
    CHECK_OK(lq_field_zero(&v, 0));
    CHECK_OK(lq_field_zero(&w, 0));
    CHECK_OK(lq_field_zero(&p, 0));

    lq_momentum_ops mo;
    lq_momentum_state ms;
    lq_pressure_ops po;
    lq_pressure_state ps;
    lq_macsurface_ops so;
    CHECK_OK(lq_momentum_ops_init(&mo, &ctx, NX, NY, NZ));
    CHECK_OK(lq_momentum_state_init(&ms, &ctx, NX, NY, NZ, &u, &v, &w, &p, &flags, &bnd));
    CHECK_OK(lq_pressure_ops_init(&po, &ctx, NX, NY, NZ));
    CHECK_OK(lq_pressure_state_init(&ps, &ctx, NX, NY, NZ, &u, &v, &w, &p, &flags));
    CHECK_OK(lq_macsurface_ops_init(&so, &ctx, NX, NY, NZ));
    CHECK_OK(lq_macsurface_classify(&so, &flags, &mask));

    lq_momentum_params mp = {.dt = dt, .dx = h, .dy = h, .dz = h, .nu = 0.0f};
    memcpy(mp.g, g3, sizeof g3);
    lq_pressure_params pp = lq_pressure_params_of(LQ_PRESSURE_RED_BLACK, dt, h, h, h, 1e-4f, 1000);
    pp.max_sweeps = 5000;
    int sweeps_first = 0, sweeps_last = 0, steps = 200;
    float maxdiv = 0;
    for (int s = 0; s < steps; s++) {
        int sweeps = 0;
        CHECK_OK(lq_momentum_step(&mo, &ms, &mp)); /* 5 */
        swap(&u, &ms.un);
        swap(&v, &ms.vn);
        swap(&w, &ms.wn);
        CHECK_OK(lq_macsurface_apply(&so, &flags, &mask, &u, &v, &w, hh, dt, g3)); /* 4: surface */
        CHECK_OK(lq_momentum_boundary(&mo, &ms)); /* 4: obstacles, mirroring the above */
        CHECK_OK(lq_pressure_solve(&po, &ps, &pp, &sweeps, &maxdiv));              /* 6 */
        CHECK_OK(lq_macsurface_apply(&so, &flags, &mask, &u, &v, &w, hh, dt, g3)); /* 7 */
        if (s == 0) sweeps_first = sweeps;
        sweeps_last = sweeps;
    }
    float *hv = malloc(sizeof(float) * (NX + 1) * (NY + 1) * (NZ + 1)), pv[NX * NY * NZ];
    double umax = 0;
    lq_field *fs[3] = {&u, &v, &w};
    for (int a = 0; a < 3; a++) {
        CHECK_OK(lq_field_download(fs[a], hv));
        for (size_t q = 0; q < fs[a]->count; q++) {
            /* the water's faces: both cells inside the grid and not stone, one of them
             * liquid (faces inside walls hold mirrored ghost values) */
            int fx = fs[a]->nx, fy = fs[a]->ny;
            int i = (int)(q % fx), j = (int)(q / fx % fy), k = (int)(q / fx / fy);
            int i0 = i - (a == 0), j0 = j - (a == 1), k0 = k - (a == 2);
            if (i0 < 0 || j0 < 0 || k0 < 0 || (a == 0 && i >= NX) || (a == 1 && j >= NY) ||
                (a == 2 && k >= NZ))
                continue;
            int ca = fl[LQ_MAC_CELL(i0, j0, k0, NX, NY)], cb = fl[LQ_MAC_CELL(i, j, k, NX, NY)];
            if (ca == LQ_MAC_SOLID || cb == LQ_MAC_SOLID) continue;
            if (ca == LQ_MAC_EMPTY && cb == LQ_MAC_EMPTY) continue;
            umax = fmax(umax, fabs(hv[q]));
        }
    }
    CHECK_OK(lq_field_download(&p, pv));
    double worst = 0;
    for (int k = 1; k < NZ - 1; k++)
        for (int j = 1; j + 1 < surface_j; j++)
            for (int i = 1; i < NX - 1; i++) {
                double dpj =
                    pv[LQ_MAC_CELL(i, j, k, NX, NY)] - pv[LQ_MAC_CELL(i, j + 1, k, NX, NY)];
                worst = fmax(worst, fabs(dpj - G * h));
            }
    double depth = (surface_j - 0.5) * h, ulim = 1e-4 * sqrt(G * depth);
    fprintf(stderr,
            "%s: mac hydrostatic tank, %d steps: max |u| %.3g m/s (limit %.3g), pressure "
            "steps off g dy by at most %.3g (g dy = %.4g), %d sweeps in the first step, %d in "
            "the last, max |D| %.3g\n",
            device, steps, umax, ulim, worst, G * h, sweeps_first, sweeps_last, maxdiv);
    CHECK(umax <= ulim);
    CHECK(worst <= 1e-3 * G * h);
    CHECK(maxdiv < pp.eps);
    free(hv);
    lq_macsurface_ops_release(&so);
    lq_pressure_state_release(&ps);
    lq_pressure_ops_release(&po);
    lq_momentum_state_release(&ms);
    lq_momentum_ops_release(&mo);
    lq_field *all[] = {&u, &v, &w, &p, &flags, &bnd, &mask};
    for (size_t i = 0; i < LQ_COUNT(all); i++) lq_field_release(all[i]);
    if (ctx.backend == LQ_BACKEND_CL) lq_ctx_close(&ctx);
}

int main(void)
{
    run("ref");
    run("opencl");
    CHECK_DONE();
}
