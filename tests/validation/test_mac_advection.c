/*
 * test_mac_advection.c — the numerical viscosity of `mac`'s convective schemes
 * (mac.advection, kernels/mac/momentum_cell.h) on a 2D Taylor–Green vortex, the `mac`
 * building blocks stepped as the solver steps a box full of liquid: obstacle mirrors
 * (§3.2.1), eq. 2 (host/ops/mac/momentum.c), the pressure iteration of eq. 5–9 to ε
 * (red-black), on the reference backend.
 *
 * The vortex u = U sin(πx/L) cos(πy/L), v = −U cos(πx/L) sin(πy/L) fills a free-slip box
 * of side L exactly (normal velocity 0 and no shear on every wall) and is a steady
 * solution of Euler's equations, the pressure balancing the convective term; with
 * viscosity ν its kinetic energy decays as exp(−2ν|k|²t), |k|² = 2π²/L². Run here with
 * ν = 0, every bit of the decay is the scheme's: ν_eff = −(slope of ln E_k over t) /
 * (2|k|²), the slope fitted by least squares over every step, compared with the donor
 * cell's estimate U h/2 (U the peak speed, h the cell size).
 *
 * U = 1 m/s, L = 1 m, N × N liquid cells inside the one-cell wall (N = 32 and 64),
 * each scheme at the Courant number the solver runs it at (donor 0.9, the solver's cap;
 * limited LQ_MOMENTUM_LIMITED_CFL = 0.5), 1 s (about 0.3 turnovers of the vortex).
 * Asserted: donor cell's ν_eff is within a factor 3 of U h/2 at both resolutions (first
 * order: it scales with h); the limited scheme's is at least 30 times smaller at both and
 * falls more than 4 times from N = 32 to 64 (faster than h²), which a scheme that were
 * secretly donor cell could not do; the limited scheme run at donor's Courant number 0.9
 * (blending toward donor cell above ½) still 2.5 times below donor; none gains energy
 * over a step. Figures: docs/VALIDATION.md, `mac` advection.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/check.h"
#include "core/common.h"
#include "core/field.h"
#include "common/mac_grid.h"
#include "ops/mac/momentum.h"
#include "ops/mac/pressure.h"

#define PI   3.14159265358979323846
#define UMAX 1.0
#define LBOX 1.0
#define TEND 1.0

static void swap(lq_field *a, lq_field *b)
{
    lq_field t = *a;
    *a = *b;
    *b = t;
}

/* ½ Σ q² h² over every face of the liquid (walls' normal faces included: 0), J/kg·m. */
static double kinetic(const float *u, const float *v, int nx, int ny, double h)
{
    double e = 0;
    for (int j = 1; j < ny - 1; j++)
        for (int i = 1; i <= nx - 1; i++) {
            double q = u[LQ_MAC_U(i, j, 0, nx, ny)];
            e += q * q;
        }
    for (int j = 1; j <= ny - 1; j++)
        for (int i = 1; i < nx - 1; i++) {
            double q = v[LQ_MAC_V(i, j, 0, nx, ny)];
            e += q * q;
        }
    return 0.5 * e * h * h;
}

/* ν_eff (m²/s) of scheme `advection` on N × N liquid cells; *gain: the largest rise of
 * E_k over a step, relative to E_k(0). */
static double nu_eff(int n, int advection, float cfl, double *gain)
{
    lq_ctx ctx;
    *gain = 0;
    if (lq_ctx_open(&ctx, "ref", false)) {
        CHECK(!"context");
        return NAN;
    }
    int nx = n + 2, ny = n + 2, nz = 1;
    double h = LBOX / n;
    lq_field u, v, w, p, flags, bnd;
    CHECK_OK(lq_field_alloc(&ctx, &u, "u", nx + 1, ny, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &v, "v", nx, ny + 1, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &w, "w", nx, ny, nz + 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &p, "p", nx, ny, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &flags, "flags", nx, ny, nz, 1));
    CHECK_OK(lq_field_alloc(&ctx, &bnd, "bnd", nx, ny, nz, 1));
    unsigned char *fl = flags.host;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            int wall = i == 0 || j == 0 || i == nx - 1 || j == ny - 1;
            fl[LQ_MAC_CELL(i, j, 0, nx, ny)] = wall ? LQ_MAC_SOLID : LQ_MAC_FULL;
        }
    memset(bnd.host, 0, bnd.count); /* free-slip walls */
    memset(p.host, 0, p.count * 4);
    memset(w.host, 0, w.count * 4);
    double kk = PI / LBOX;
    float *uh = u.host, *vh = v.host;
    /* x, y from the wall's inner face (cell 1's low corner) */
    for (int j = 0; j < ny; j++)
        for (int i = 0; i <= nx; i++) {
            double x = (i - 1) * h, y = (j - 0.5) * h;
            uh[LQ_MAC_U(i, j, 0, nx, ny)] = (float)(UMAX * sin(kk * x) * cos(kk * y));
        }
    for (int j = 0; j <= ny; j++)
        for (int i = 0; i < nx; i++) {
            double x = (i - 0.5) * h, y = (j - 1) * h;
            vh[LQ_MAC_V(i, j, 0, nx, ny)] = (float)(-UMAX * cos(kk * x) * sin(kk * y));
        }
    lq_momentum_ops mo;
    lq_momentum_state ms;
    lq_pressure_ops po;
    lq_pressure_state ps;
    CHECK_OK(lq_momentum_ops_init(&mo, &ctx, nx, ny, nz));
    CHECK_OK(lq_momentum_state_init(&ms, &ctx, nx, ny, nz, &u, &v, &w, &p, &flags, &bnd));
    CHECK_OK(lq_pressure_ops_init(&po, &ctx, nx, ny, nz));
    CHECK_OK(lq_pressure_state_init(&ps, &ctx, nx, ny, nz, &u, &v, &w, &p, &flags));
    float hf = (float)h;
    lq_momentum_params mp = {.dx = hf, .dy = hf, .dz = hf, .nu = 0.0f, .advection = advection};
    mp.gamma = 1.0f;
    double e0 = kinetic(u.host, v.host, nx, ny, h), t = 0, eprev = e0;
    /* least squares of ln(E/E0) = s t through every step */
    double st = 0, stt = 0, sy = 0, sty = 0;
    int m = 0, unconverged = 0;
    while (t < TEND - 1e-9) {
        float dt;
        CHECK_OK(lq_momentum_boundary(&mo, &ms));
        CHECK_OK(lq_momentum_dt(&mo, &ms, &mp, cfl, 1.0f, &dt));
        if (t + dt > TEND) dt = (float)(TEND - t);
        mp.dt = dt;
        CHECK_OK(lq_momentum_step(&mo, &ms, &mp));
        swap(&u, &ms.un);
        swap(&v, &ms.vn);
        swap(&w, &ms.wn);
        lq_pressure_params pp =
            lq_pressure_params_of(LQ_PRESSURE_RED_BLACK, dt, hf, hf, hf, 1e-5f, 20000);
        int sweeps = 0;
        float maxdiv = 0;
        CHECK_OK(lq_pressure_solve(&po, &ps, &pp, &sweeps, &maxdiv));
        unconverged += !(maxdiv < pp.eps);
        t += dt;
        double e = kinetic(u.host, v.host, nx, ny, h), y = log(e / e0);
        *gain = fmax(*gain, (e - eprev) / e0);
        eprev = e;
        st += t;
        stt += t * t;
        sy += y;
        sty += t * y;
        m++;
    }
    CHECK(unconverged == 0);
    m++; /* the point (0, 0): ln(E/E0) = 0 at t = 0 */
    double slope = (m * sty - st * sy) / (m * stt - st * st);
    double nu = -slope / (2.0 * 2.0 * kk * kk);
    fprintf(stderr,
            "  %-7s N = %2d, cfl %.1f: %3d steps, E_k(1 s)/E_k(0) = %.5f, nu_eff = %.3e m^2/s "
            "= %.4f x U h/2\n",
            advection == LQ_MOMENTUM_LIMITED ? "limited" : "donor", n, (double)cfl, m - 1,
            eprev / e0, nu, nu / (0.5 * UMAX * h));
    lq_pressure_state_release(&ps);
    lq_pressure_ops_release(&po);
    lq_momentum_state_release(&ms);
    lq_momentum_ops_release(&mo);
    lq_field_release(&u);
    lq_field_release(&v);
    lq_field_release(&w);
    lq_field_release(&p);
    lq_field_release(&flags);
    lq_field_release(&bnd);
    lq_ctx_close(&ctx);
    return nu;
}

int main(void)
{
    fprintf(stderr, "Taylor-Green vortex, free-slip box, nu = 0, %.0f s:\n", TEND);
    /* each scheme at the Courant number the solver gives it, and limited at donor's too */
    const float cd = 0.9f, cl = LQ_MOMENTUM_LIMITED_CFL;
    double g[5], h32 = LBOX / 32, h64 = LBOX / 64;
    double nd32 = nu_eff(32, LQ_MOMENTUM_DONOR, cd, &g[0]);
    double nd64 = nu_eff(64, LQ_MOMENTUM_DONOR, cd, &g[1]);
    double nl32 = nu_eff(32, LQ_MOMENTUM_LIMITED, cl, &g[2]);
    double nl64 = nu_eff(64, LQ_MOMENTUM_LIMITED, cl, &g[3]);
    double nh32 = nu_eff(32, LQ_MOMENTUM_LIMITED, cd, &g[4]);
    fprintf(stderr,
            "donor / limited: %.0f at N = 32, %.0f at N = 64 (limited at cfl 0.9: %.1f at N = "
            "32); limited N = 32 / N = 64: %.1f\n",
            nd32 / nl32, nd64 / nl64, nd32 / nh32, nl32 / nl64);
    /* donor cell: first order, about U h/2 */
    CHECK(nd32 > 0.5 * UMAX * h32 / 3 && nd32 < 3 * 0.5 * UMAX * h32);
    CHECK(nd64 > 0.5 * UMAX * h64 / 3 && nd64 < 3 * 0.5 * UMAX * h64);
    /* limited: far below it and falling faster than h² (measured: 155x, 640x; 8x) */
    CHECK(nl32 > 0 && nd32 > 30 * nl32);
    CHECK(nl64 > 0 && nd64 > 30 * nl64);
    CHECK(nl32 > 4 * nl64);
    /* above the cap it blends toward donor cell, still well below it (measured 4.2x) */
    CHECK(nh32 > 0 && nd32 > 2.5 * nh32);
    for (int i = 0; i < 5; i++) CHECK(g[i] < 1e-6);
    CHECK_DONE();
}
