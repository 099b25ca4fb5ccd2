/*
 * plsparticles_zalesak.h — Zalesak's slotted disk (VALIDATION.md `pls`) for the particle
 * level set, shared by tests/validation/test_pls_zalesak.c (quick, reduced) and
 * tests/validation/full_pls_zalesak.c (full). 2D (nz = 1), domain [0, 100]², a disk r = 15 at
 * (50, 75) with a slot 5 wide from y = 60 to 85, rigid rotation u = (π/314)(50 − y),
 * v = (π/314)(x − 50); one revolution t = 628; exact area 582.2070.
 *
 * Per step (Enright et al. 2002 §3, Rasmussen et al. 2004 §3): particles RK2
 * (lq_plsparticles_advect) and φ semi-Lagrangian (lq_sladvect_advect_scalar); correct φ with the
 * escaped particles; reinitialise (every zk_reinit_every steps, 1 unless a test sets it); correct
 * again; adjust radii; reseed every `reseed` steps. The
 * plain level set does the advection and the reinitialisation only.
 *
 * Reinitialisation: lq_reinit (host/ops/pls/reinit.h) with its defaults (FIM, band 5 h), also
 * applied once to the initial φ. The area of {φ ≤ 0} is exact for the piecewise-linear
 * φ on the triangulated dual grid.
 *
 * Measured (reference backend, 100², one revolution in 628 steps, reseed every 20 steps,
 * 16 particles per band cell, one run each; |ΔA|/A0 with particles):
 *  - reinitialised every step (Enright's order): 3.7% with the plain trilinear pass, 3.7%
 *    with MacCormack, 3.8% with BFECC — the advection is NOT what limits it. With zero
 *    velocity, 628 reinitialisations alone lose 1.64% (also with particles). The particles
 *    only correct an interface that has moved past an escaped particle by more than its
 *    radius (r ≥ r_min = 0.1 h, and the nearest particles sit ~r_min deep), so a drift of
 *    up to ~0.2 h per side (~5% of this disk) is never corrected: the loss settles at the
 *    reinitialisation's drift (lower with r_min = 0.05 h: 2.5%; 0.02 h: 1.9%). Keeping the
 *    interface cells' φ through the reinitialisation (zk_keep_near) still loses 3.4%: the
 *    first-order eikonal values of the next ring steer the next advection.
 *  - reinitialised every N steps (zk_reinit_every), BFECC: N = 5 3.1%, 10 3.2%, 20 2.5%,
 *    50 0.55% (corners kept; plain level set 5.0%), 100 0.26%, 200 0.30%, never 0.57%
 *    (plain level set without reinitialisation: +4.7%, it grows). MacCormack N = 100
 *    0.58%; the plain trilinear pass N = 100: 10.5% (it needs the reinitialisation
 *    often). 314 steps, BFECC: N = 1 3.4%, N = 50 0.49%, N = 100 0.45% (corners rounded).
 * A rigid rotation keeps φ a signed distance, so sparse reinitialisation suits it; in a
 * deforming flow |∇φ| drifts and N must be chosen from that.
 *  - keeping the interface cells near a distance (zk_reinit_keep, lq_reinit_params.keep)
 *    and reinitialising only when the band's mean ||∇φ| − 1| exceeds a threshold
 *    (zk_reinit_threshold, lq_reinit_departure; the pls solver's pls.reinit_keep and
 *    pls.reinit_threshold), BFECC, 628 steps: keep 0.2 and threshold 0.15 0.18% (11
 *    reinitialisations), 0.1 1.9% (43), 0.25 0.33% (1); keep 0.2 every step 3.4%, every
 *    50 steps 0.35%.
 *  - the single vortex (zk_vortex_T = 8, 128², 1024 steps, δt = h), particles, every
 *    step: 1.21%, keeping cells (0.2) 0.23%, with the threshold 0.15 too 0.43%.
 */
#ifndef LQ_PLSPARTICLES_ZALESAK_H
#define LQ_PLSPARTICLES_ZALESAK_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/check.h"
#include "core/common.h"
#include "ops/pls/plsparticles.h"
#include "ops/pls/reinit.h"
#include "ops/pls/sladvect.h"

#define ZK_L      100.0
#define ZK_AREA   582.2070
#define ZK_PERIOD 628.0
#define ZK_PI     3.14159265358979323846

/* The scalar scheme of the φ advection (lq_sladvect_scheme; the tests may switch it). */
static int zk_scheme = LQ_SLADVECT_DEFAULT;
/* Reinitialise every this many steps (0: never; experiments). */
static int zk_reinit_every = 1;
/* Reinitialisation method (lq_reinit_params.method); < 0: lq_reinit_params_default's. */
static int zk_reinit_method = -1;
/* lq_reinit_params.keep: interface cells with ||∇φ| − 1| ≤ this keep φ (0: none). */
static float zk_reinit_keep = 0;
/* > 0: reinitialise (instead of every zk_reinit_every steps) only in the steps where the
 * band's mean ||∇φ| − 1| (lq_reinit_departure, |φ| < 3 h) exceeds this. */
static double zk_reinit_threshold = 0;
static int zk_reinits; /* the last run's reinitialisations */
/* > 0: LeVeque's single vortex instead of the rotation, period T (s): a disk r = 15 at
 * (50, 75) (the slotted disk's, no slot) in u = −100 sin²(πx) sin(2πy) cos(πt/T),
 * v = 100 sin²(πy) sin(2πx) cos(πt/T), x = X/100; at t = T it is back. The faces are set
 * at each step's mid time. */
static double zk_vortex_T = 0;
/* Particle radius bounds in cells (0: the module's defaults, 0.1 and 0.5). */
static double zk_r_min = 0, zk_r_max = 0;
/* Experiment: restore φ at the interface cells (a 4-neighbour of the other sign) after
 * each reinitialisation, so that it cannot move the interface (host copies). */
static int zk_keep_near = 0;

static void zk_restore_near(lq_field *phi, const float *before, float *tmp, int n)
{
    CHECK_OK(lq_field_download(phi, tmp));
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            float a = before[i + n * j];
            int near = 0;
            if (i > 0) near |= (a <= 0) != (before[i - 1 + n * j] <= 0);
            if (i < n - 1) near |= (a <= 0) != (before[i + 1 + n * j] <= 0);
            if (j > 0) near |= (a <= 0) != (before[i + n * (j - 1)] <= 0);
            if (j < n - 1) near |= (a <= 0) != (before[i + n * (j + 1)] <= 0);
            if (near) tmp[i + n * j] = a;
        }
    CHECK_OK(lq_field_upload(phi, tmp));
}

/* Signed distance (approximately: the max of the disk's and minus the slot's) of the slotted disk.
 */
static double zk_sdf(double x, double y)
{
    if (zk_vortex_T > 0) return hypot(x - 50.0, y - 75.0) - 15.0;
    double dd = hypot(x - 50.0, y - 75.0) - 15.0;
    /* slot rectangle [47.5, 52.5] × [50, 85] (below the disk too, so it cuts the bottom) */
    double qx = fabs(x - 50.0) - 2.5, qy = fabs(y - 67.5) - 17.5;
    double ox = qx > 0 ? qx : 0, oy = qy > 0 ? qy : 0;
    double dr = hypot(ox, oy) + fmin(fmax(qx, qy), 0.0);
    return fmax(dd, -dr);
}

/* Area of {f ≤ 0} in a triangle of area A with linear f (vertex values f0, f1, f2). */
static double zk_tri(double A, double f0, double f1, double f2)
{
    double f[3] = {f0, f1, f2};
    int nn = (f0 <= 0) + (f1 <= 0) + (f2 <= 0);
    if (nn == 0) return 0;
    if (nn == 3) return A;
    /* the lone vertex: the one whose side differs */
    int lone = 0;
    for (int k = 0; k < 3; k++) {
        int cnt = 0;
        for (int m = 0; m < 3; m++) cnt += (f[m] <= 0) == (f[k] <= 0);
        if (cnt == 1) lone = k;
    }
    double a = f[lone], b = f[(lone + 1) % 3], c = f[(lone + 2) % 3];
    double corner = A * (a / (a - b)) * (a / (a - c));
    return nn == 1 ? corner : A - corner;
}

static double zk_area(const float *phi, int nx, int ny, float h)
{
    double s = 0, A = 0.5 * (double)h * h;
    for (int j = 0; j + 1 < ny; j++)
        for (int i = 0; i + 1 < nx; i++) {
            double a = phi[i + nx * j], b = phi[i + 1 + nx * j], c = phi[i + nx * (j + 1)],
                   d = phi[i + 1 + nx * (j + 1)];
            s += zk_tri(A, a, b, d) + zk_tri(A, a, d, c);
        }
    return s;
}

/* Bilinear φ at (x, y) (cell centres). */
static double zk_at(const float *phi, int nx, int ny, float h, double x, double y)
{
    double gx = x / h - 0.5, gy = y / h - 0.5;
    int i = (int)floor(gx), j = (int)floor(gy);
    i = i < 0 ? 0 : i > nx - 2 ? nx - 2 : i;
    j = j < 0 ? 0 : j > ny - 2 ? ny - 2 : j;
    double fx = gx - i, fy = gy - j;
    const float *p = phi + i + nx * j;
    return (1 - fy) * ((1 - fx) * p[0] + fx * p[1]) + fy * ((1 - fx) * p[nx] + fx * p[nx + 1]);
}

typedef struct zk_result {
    double area0, area, rel; /* initial and final area of {φ ≤ 0}, |ΔA|/A0 */
    int slot_open;           /* φ > 0 along the slot's axis, y = 62 … 83 */
    int corners;             /* φ > 0 just inside both upper slot corners */
    int particles;           /* live at the end */
} zk_result;

/* The faces at time t: the rotation (constant) or the single vortex. */
static void zk_faces(float *hu, float *hv, int n, float h, double t)
{
    double om = ZK_PI / 314.0;
    double ct = zk_vortex_T > 0 ? cos(ZK_PI * t / zk_vortex_T) : 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= n; i++) {
            double x = i * h / 100.0, y = (j + 0.5) * h / 100.0, sx = sin(ZK_PI * x);
            hu[i + (n + 1) * j] =
                (float)(zk_vortex_T > 0 ? -100.0 * sx * sx * sin(2 * ZK_PI * y) * ct
                                        : om * (50.0 - (j + 0.5) * h));
        }
    for (int j = 0; j <= n; j++)
        for (int i = 0; i < n; i++) {
            double x = (i + 0.5) * h / 100.0, y = j * h / 100.0, sy = sin(ZK_PI * y);
            hv[i + n * j] = (float)(zk_vortex_T > 0 ? 100.0 * sy * sy * sin(2 * ZK_PI * x) * ct
                                                    : om * ((i + 0.5) * h - 50.0));
        }
}

/* Runs `frac` of a revolution on n² cells in `steps` steps; particles when with_pls. */
static zk_result zk_run(const char *dev, int n, int steps, double frac, int with_pls, int reseed)
{
    zk_result res;
    memset(&res, 0, sizeof res);
    lq_ctx ctx;
    if (lq_ctx_open(&ctx, dev, false)) {
        CHECK_MSG(0, "%s", lq_error_message());
        return res;
    }
    float h = (float)(ZK_L / n);
    double dt = (zk_vortex_T > 0 ? zk_vortex_T : ZK_PERIOD) * frac / steps;
    lq_field u, v, w, phi, phin;
    lq_sladvect_ops sl;
    lq_plsparticles_ops po;
    lq_plsparticles_state st;
    lq_reinit_ops ro;
    lq_reinit_params rp = lq_reinit_params_default(h);
    if (zk_reinit_method >= 0) rp.method = zk_reinit_method;
    rp.keep = zk_reinit_keep;
    int cap = 64 * n * n / 4;
    int rc = lq_field_alloc(&ctx, &u, "u", n + 1, n, 1, 4);
    if (!rc) rc = lq_field_alloc(&ctx, &v, "v", n, n + 1, 1, 4);
    if (!rc) rc = lq_field_alloc(&ctx, &w, "w", n, n, 2, 4);
    if (!rc) rc = lq_field_alloc(&ctx, &phi, "phi", n, n, 1, 4);
    if (!rc) rc = lq_field_alloc(&ctx, &phin, "phin", n, n, 1, 4);
    if (!rc) rc = lq_sladvect_ops_init(&sl, &ctx, n, n, 1);
    if (!rc) rc = lq_plsparticles_ops_init(&po, &ctx, n, n, 1);
    if (!rc) rc = lq_plsparticles_state_init(&st, &ctx, n, n, 1, cap);
    if (!rc) rc = lq_reinit_ops_init(&ro, &ctx, n, n, 1);
    CHECK_OK(rc);
    if (rc) return res;
    float *hu = malloc(sizeof(float) * (n + 1) * n), *hv = malloc(sizeof(float) * n * (n + 1));
    float *hp = malloc(sizeof(float) * n * n), *hw = calloc((size_t)n * n * 2, sizeof(float));
    zk_faces(hu, hv, n, h, 0.5 * dt);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) hp[i + n * j] = (float)zk_sdf((i + 0.5) * h, (j + 0.5) * h);
    CHECK_OK(lq_field_upload(&u, hu));
    CHECK_OK(lq_field_upload(&v, hv));
    CHECK_OK(lq_field_upload(&w, hw));
    CHECK_OK(lq_field_upload(&phi, hp));
    CHECK_OK(lq_reinit(&ro, &phi, &phin, &rp, NULL));
    CHECK_OK(lq_field_download(&phi, hp));
    res.area0 = zk_area(hp, n, n, h);
    lq_sladvect_params sp = {(float)dt, h, zk_scheme, 0, 0};
    lq_plsparticles_params pp;
    memset(&pp, 0, sizeof pp);
    pp.h = h;
    pp.dt = (float)dt;
    pp.seed = 2002;
    pp.r_min = (float)(zk_r_min * h);
    pp.r_max = (float)(zk_r_max * h);
    if (with_pls) CHECK_OK(lq_plsparticles_seed(&po, &st, &phi, NULL, &pp));
    zk_reinits = 0;
    for (int s = 0; s < steps; s++) {
        if (zk_vortex_T > 0 && s > 0) {
            zk_faces(hu, hv, n, h, (s + 0.5) * dt);
            CHECK_OK(lq_field_upload(&u, hu));
            CHECK_OK(lq_field_upload(&v, hv));
        }
        if (with_pls) CHECK_OK(lq_plsparticles_advect(&po, &st, &u, &v, &w, &pp));
        CHECK_OK(lq_sladvect_advect_scalar(&sl, &phi, &phin, &u, &v, &w, &sp));
        lq_field t = phi;
        phi = phin;
        phin = t;
        if (with_pls) CHECK_OK(lq_plsparticles_correct(&po, &st, &phi, &pp, NULL));
        int re = zk_reinit_every > 0 && (s + 1) % zk_reinit_every == 0;
        if (zk_reinit_threshold > 0) {
            double dep;
            long long cells;
            CHECK_OK(lq_reinit_departure(&ro, &phi, h, 3.0f, &dep, &cells));
            re = dep > zk_reinit_threshold;
        }
        zk_reinits += re;
        if (re) {
            if (zk_keep_near) CHECK_OK(lq_field_download(&phi, hp));
            CHECK_OK(lq_reinit(&ro, &phi, &phin, &rp, NULL));
            if (zk_keep_near) zk_restore_near(&phi, hp, hu, n);
        }
        if (with_pls) {
            CHECK_OK(lq_plsparticles_correct(&po, &st, &phi, &pp, NULL));
            CHECK_OK(lq_plsparticles_adjust_radii(&po, &st, &phi, &pp));
            if ((s + 1) % reseed == 0) {
                pp.step = (uint32_t)(s + 1);
                CHECK_OK(lq_plsparticles_reseed(&po, &st, &phi, NULL, &pp));
            }
        }
    }
    CHECK_OK(lq_field_download(&phi, hp));
    res.area = zk_area(hp, n, n, h);
    res.rel = fabs(res.area - res.area0) / res.area0;
    res.particles = st.live;
    /* after a whole revolution the slot is back in place; otherwise rotate the probes */
    double ang = 2.0 * ZK_PI * frac, ca = cos(ang), sa = sin(ang);
#define ZK_ROT_X(x, y) (50.0 + ca * ((x)-50.0) - sa * ((y)-50.0))
#define ZK_ROT_Y(x, y) (50.0 + sa * ((x)-50.0) + ca * ((y)-50.0))
    res.slot_open = 1;
    for (double y = 62.0; y <= 83.0; y += 0.5)
        if (!(zk_at(hp, n, n, h, ZK_ROT_X(50.0, y), ZK_ROT_Y(50.0, y)) > 0)) res.slot_open = 0;
    double cx[2] = {48.25, 51.75}, cy = 84.25;
    res.corners = 1;
    for (int k = 0; k < 2; k++)
        if (!(zk_at(hp, n, n, h, ZK_ROT_X(cx[k], cy), ZK_ROT_Y(cx[k], cy)) > 0)) res.corners = 0;
#undef ZK_ROT_X
#undef ZK_ROT_Y
    fprintf(stderr,
            "%s %d² %d steps, %.2f rev, %s: area %.4f → %.4f (exact %.4f), |ΔA|/A0 = "
            "%.3f%%, slot %s, corners %s, %d particles, %d reinitialisations\n",
            zk_vortex_T > 0 ? "single vortex" : "zalesak", n, steps, frac,
            with_pls ? "particle level set" : "plain level set", res.area0, res.area,
            zk_vortex_T > 0 ? ZK_PI * 225.0 : ZK_AREA, 100.0 * res.rel,
            res.slot_open ? "open" : "closed", res.corners ? "kept" : "lost", res.particles,
            zk_reinits);
    free(hu);
    free(hv);
    free(hp);
    free(hw);
    lq_plsparticles_state_release(&st);
    lq_reinit_ops_release(&ro);
    lq_plsparticles_ops_release(&po);
    lq_sladvect_ops_release(&sl);
    lq_field *fs[] = {&u, &v, &w, &phi, &phin};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
    lq_ctx_close(&ctx);
    return res;
}

#endif
