/*
 * viscosity_validation.h — the pls viscosity validation cases (VALIDATION.md, `pls`,
 * Viscosity and Rigid rotation), shared by tests/validation/test_viscosity_validation.c (quick
 * sizes) and tests/validation/full_viscosity_validation.c (finer sizes, 3D). All run the viscous
 * step alone (lq_viscosity_step with u* = uⁿ, no advection, no projection) on the reference
 * backend; the twins are diffed in test_viscosity_ops.c.
 *
 *  - Taylor–Green vortex. The periodic [0, 2π]² is not available in this layout (the
 *    domain edge is a wall), so its closed-box equivalent is used: one cell of the vortex,
 *    [0, π]² with free-slip walls, u = sin x cos y, v = −cos x sin y. On the staggered
 *    grid with the walls' normal faces at 0 (Dirichlet, sine in x) and zero shear flux at
 *    the tangential walls (cosine in y, DCT-II), this field is an exact eigenvector of the
 *    discrete −A with λ_h = (8/h²) sin²(h/2), the same as the periodic case at the same h
 *    (N = 64 on 2π ⇔ 32 cells on π). The explicit part is round-off (the field is
 *    discretely solenoidal), so each backward-Euler step multiplies the amplitude by
 *    1/(1 + νΔt λ_h).
 *  - Plane Poiseuille: liquid everywhere, no-slip walls, a body force g along x
 *    (lq_plsforce_body_force, the pls call order), backward-Euler steps to the steady state;
 *    the profile across the middle column against u = g y (H − y)/(2ν), u_max = g H²/(8ν).
 *    The box is closed (x ends are walls, no projection: a closed box cannot carry a net
 *    flow), so the channel is 6 H long and the middle column is 3 H from the ends. With
 *    no projection the end disturbance is not solenoidal, and the explicit (ν u_x)_x of
 *    eq. 8 doubles its x diffusion: it decays like e^{−π x/(√2 H)} (~1e-3 at 3 H). The
 *    film (free top, slowest mode sin(π y/2H)) decays like e^{−π x/(2√2 H)}: 12 H long
 *    (6 H long it was 6 % low in the middle).
 *  - Rigid rotation of a liquid ball (zero gravity): u = Ω × (x − c) everywhere, the ball
 *    φ = |x − c| − R; Ω measured over the UNKNOWN faces as Σ (r × u)·ê / Σ r⊥² after one
 *    revolution, per explicit-part variant (viscosity.h: MASKED, NONE, UNMASKED).
 */
#ifndef LQ_VISCOSITY_VALIDATION_H
#define LQ_VISCOSITY_VALIDATION_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/check.h"
#include "core/common.h"
#include "ops/pls/plsforce.h"
#include "ops/pls/viscosity.h"

static void vv_copy(lq_field *dst, const lq_field *src)
{
    memcpy(dst->host, src->host, lq_field_bytes(src));
}

/* Taylor–Green in [0, π]² with n cells a side: amplitude after `steps` steps and the
 * expected 1/(1 + νΔtλ_h)^steps; the largest CG iteration count and residual seen. */
static void vv_taylor_green(int n, double nu, double dt, int steps, double *amp, double *want,
                            int *iters, double *resid)
{
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, "ref", false));
    double h = LQ_PI / n;
    lq_field u, v, w, u0, v0, w0, phi, nuf;
    CHECK_OK(lq_field_alloc(&ctx, &u, "u", n + 1, n, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &v, "v", n, n + 1, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &w, "w", n, n, 2, 4));
    CHECK_OK(lq_field_alloc(&ctx, &u0, "u0", n + 1, n, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &v0, "v0", n, n + 1, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &w0, "w0", n, n, 2, 4));
    CHECK_OK(lq_field_alloc(&ctx, &phi, "phi", n, n, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &nuf, "nu", n, n, 1, 4));
    memset(w.host, 0, lq_field_bytes(&w));
    memset(w0.host, 0, lq_field_bytes(&w0));
    for (size_t c = 0; c < phi.count; c++) ((float *)phi.host)[c] = -1.0f;
    double *ue = malloc(u.count * sizeof(double)), *ve = malloc(v.count * sizeof(double));
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= n; i++) {
            double e = (i == 0 || i == n) ? 0.0 : sin(i * h) * cos((j + 0.5) * h);
            ue[LQ_MAC_U(i, j, 0, n, n)] = e;
            ((float *)u.host)[LQ_MAC_U(i, j, 0, n, n)] = (float)e;
        }
    for (int j = 0; j <= n; j++)
        for (int i = 0; i < n; i++) {
            double e = (j == 0 || j == n) ? 0.0 : -cos((i + 0.5) * h) * sin(j * h);
            ve[LQ_MAC_V(i, j, 0, n, n)] = e;
            ((float *)v.host)[LQ_MAC_V(i, j, 0, n, n)] = (float)e;
        }
    lq_viscosity_ops o;
    CHECK_OK(lq_viscosity_ops_init(&o, &ctx, n, n, 1));
    CHECK_OK(lq_viscosity_fill(&o, &nuf, (float)nu, NULL, 0, (float)h));
    lq_viscosity_params prm = {.dt = (float)dt, .h = (float)h, .noslip = 0, .tol = 1e-7f};
    *iters = 0;
    *resid = 0;
    for (int s = 0; s < steps; s++) {
        vv_copy(&u0, &u);
        vv_copy(&v0, &v);
        lq_viscosity_stats st;
        CHECK_OK(lq_viscosity_step(&o, &u0, &v0, &w0, &u, &v, &w, &nuf, &phi, NULL, &prm, &st));
        for (int a = 0; a < 2; a++) {
            *iters = st.iterations[a] > *iters ? st.iterations[a] : *iters;
            *resid = fmax(*resid, st.residual[a]);
        }
    }
    double num = 0, den = 0;
    for (size_t f = 0; f < u.count; f++) {
        num += ((float *)u.host)[f] * ue[f];
        den += ue[f] * ue[f];
    }
    for (size_t f = 0; f < v.count; f++) {
        num += ((float *)v.host)[f] * ve[f];
        den += ve[f] * ve[f];
    }
    *amp = num / den;
    double lam = 8.0 / (h * h) * sin(h / 2) * sin(h / 2);
    *want = pow(1.0 / (1.0 + nu * dt * lam), steps);
    lq_viscosity_ops_release(&o);
    lq_field *fs[] = {&u, &v, &w, &u0, &v0, &w0, &phi, &nuf};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
    free(ue);
    free(ve);
    lq_ctx_close(&ctx);
}

/* Plane Poiseuille between no-slip plates y = 0, H (ny cells across, nx = 6 ny): after
 * `steps` steps of Δt, *err = max |u − u_exact| / u_max over the middle column,
 * *umax = the largest u there / (g H²/(8ν)).
 * film: instead a liquid film of depth H (ny cells) on the no-slip floor under 4 rows of
 * air (φ = y − H), g the along-slope component g sin θ (the normal component only sets a
 * hydrostatic pressure, which this viscous-only test has no projection for): the surface
 * has zero shear (the viscous flux to air is 0), u = g y (2H − y)/(2ν), and *umax is
 * the top row's u over that exact value there, u_max = g H²/(2ν) at y = H. */
static void vv_poiseuille(int ny, double H, double nu, double g, double dt, int steps, int film,
                          double *err, double *umax, int *iters)
{
    int nx = (film ? 12 : 6) * ny, nl = ny;
    if (film) ny += 4;
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, "ref", false));
    double h = H / nl;
    lq_field u, v, w, u0, v0, w0, phi, nuf;
    CHECK_OK(lq_field_alloc(&ctx, &u, "u", nx + 1, ny, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &v, "v", nx, ny + 1, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &w, "w", nx, ny, 2, 4));
    CHECK_OK(lq_field_alloc(&ctx, &u0, "u0", nx + 1, ny, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &v0, "v0", nx, ny + 1, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &w0, "w0", nx, ny, 2, 4));
    CHECK_OK(lq_field_alloc(&ctx, &phi, "phi", nx, ny, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &nuf, "nu", nx, ny, 1, 4));
    lq_field *zs[] = {&u, &v, &w, &w0};
    for (size_t i = 0; i < LQ_COUNT(zs); i++) memset(zs[i]->host, 0, lq_field_bytes(zs[i]));
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            ((float *)phi.host)[LQ_MAC_CELL(i, j, 0, nx, ny)] =
                film ? (float)((j + 0.5) * h - H) : -1.0f;
    lq_viscosity_ops o;
    lq_plsforce_ops pf;
    CHECK_OK(lq_viscosity_ops_init(&o, &ctx, nx, ny, 1));
    CHECK_OK(lq_plsforce_ops_init(&pf, &ctx, nx, ny, 1));
    CHECK_OK(lq_viscosity_fill(&o, &nuf, (float)nu, NULL, 0, (float)h));
    lq_viscosity_params prm = {.dt = (float)dt,
                               .h = (float)h,
                               .noslip = LQ_VISCOSITY_NOSLIP_ALL,
                               .tol = 1e-6f,
                               .max_iter = 2000};
    double gv[3] = {g, 0, 0};
    *iters = 0;
    for (int s = 0; s < steps; s++) {
        vv_copy(&u0, &u);
        vv_copy(&v0, &v);
        CHECK_OK(lq_plsforce_body_force(&pf, &u, &v, &w, &phi, NULL, gv, dt));
        lq_viscosity_stats st;
        CHECK_OK(lq_viscosity_step(&o, &u0, &v0, &w0, &u, &v, &w, &nuf, &phi, NULL, &prm, &st));
        CHECK(st.converged);
        *iters = st.iterations[0] > *iters ? st.iterations[0] : *iters;
    }
    double um = g * H * H / ((film ? 2 : 8) * nu), e = 0, m = 0;
    for (int j = 0; j < nl; j++) {
        double y = (j + 0.5) * h;
        double ex = film ? g * y * (2 * H - y) / (2 * nu) : g * y * (H - y) / (2 * nu);
        double q = ((float *)u.host)[LQ_MAC_U(nx / 2, j, 0, nx, ny)];
        e = fmax(e, fabs(q - ex) / um);
        m = film ? q / ex : fmax(m, q / um);
    }
    *err = e;
    *umax = m;
    lq_viscosity_ops_release(&o);
    lq_plsforce_ops_release(&pf);
    lq_field *fs[] = {&u, &v, &w, &u0, &v0, &w0, &phi, &nuf};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
    lq_ctx_close(&ctx);
}

/* A liquid ball of radius 0.3 in the unit box (n cells a side; nz = 1 or n) spinning at
 * Ω = 1 rad/s about z; `steps` viscous steps over one revolution. nu_var: ν random per
 * cell in [0.2 ν, ν] instead of ν. Returns Ω after one revolution / Ω before. */
static double vv_rotation(int n, int nz, double nu, int nu_var, int cross, int steps)
{
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, "ref", false));
    double h = 1.0 / n, R = 0.3, dt = 2 * LQ_PI / steps;
    lq_field u, v, w, u0, v0, w0, phi, nuf;
    CHECK_OK(lq_field_alloc(&ctx, &u, "u", n + 1, n, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &v, "v", n, n + 1, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &w, "w", n, n, nz + 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &u0, "u0", n + 1, n, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &v0, "v0", n, n + 1, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &w0, "w0", n, n, nz + 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &phi, "phi", n, n, nz, 4));
    CHECK_OK(lq_field_alloc(&ctx, &nuf, "nu", n, n, nz, 4));
    memset(w.host, 0, lq_field_bytes(&w));
    memset(w0.host, 0, lq_field_bytes(&w0));
    double zc = nz > 1 ? 0.5 : 0.5 * h;
    float *P = phi.host, *U = u.host, *V = v.host;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                double x = (i + 0.5) * h - 0.5, y = (j + 0.5) * h - 0.5, z = (k + 0.5) * h - zc;
                P[LQ_MAC_CELL(i, j, k, n, n)] = (float)(sqrt(x * x + y * y + z * z) - R);
            }
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i <= n; i++)
                U[LQ_MAC_U(i, j, k, n, n)] = (float)(-((j + 0.5) * h - 0.5));
    for (int k = 0; k < nz; k++)
        for (int j = 0; j <= n; j++)
            for (int i = 0; i < n; i++) V[LQ_MAC_V(i, j, k, n, n)] = (float)((i + 0.5) * h - 0.5);
    lq_viscosity_ops o;
    CHECK_OK(lq_viscosity_ops_init(&o, &ctx, n, n, nz));
    CHECK_OK(lq_viscosity_fill(&o, &nuf, (float)nu, NULL, 0, (float)h));
    if (nu_var) {
        lq_rng r;
        lq_rng_seed(&r, 99);
        for (size_t c = 0; c < nuf.count; c++)
            ((float *)nuf.host)[c] = (float)(nu * (0.2 + 0.8 * lq_rng_uniform(&r)));
    }
    lq_viscosity_params prm = {.dt = (float)dt, .h = (float)h, .cross = cross, .tol = 1e-7f};
    double om[2];
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            for (int s = 0; s < steps; s++) {
                vv_copy(&u0, &u);
                vv_copy(&v0, &v);
                vv_copy(&w0, &w);
                lq_viscosity_stats st;
                CHECK_OK(
                    lq_viscosity_step(&o, &u0, &v0, &w0, &u, &v, &w, &nuf, &phi, NULL, &prm, &st));
            }
        double num = 0, den = 0;
        for (int k = 0; k < nz; k++)
            for (int j = 0; j < n; j++) {
                for (int i = 1; i < n; i++) {
                    if (P[LQ_MAC_CELL(i - 1, j, k, n, n)] > 0 || P[LQ_MAC_CELL(i, j, k, n, n)] > 0)
                        continue;
                    double y = (j + 0.5) * h - 0.5;
                    num += -y * U[LQ_MAC_U(i, j, k, n, n)];
                    den += y * y;
                }
            }
        for (int k = 0; k < nz; k++)
            for (int j = 1; j < n; j++)
                for (int i = 0; i < n; i++) {
                    if (P[LQ_MAC_CELL(i, j - 1, k, n, n)] > 0 || P[LQ_MAC_CELL(i, j, k, n, n)] > 0)
                        continue;
                    double x = (i + 0.5) * h - 0.5;
                    num += x * V[LQ_MAC_V(i, j, k, n, n)];
                    den += x * x;
                }
        om[pass] = num / den;
    }
    lq_viscosity_ops_release(&o);
    lq_field *fs[] = {&u, &v, &w, &u0, &v0, &w0, &phi, &nuf};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
    lq_ctx_close(&ctx);
    return om[1] / om[0];
}

#endif
