/*
 * test_pls_poiseuille.c — plane Poiseuille flow through the `pls` solver (no-slip walls,
 * Rasmussen et al. 2004 §5.1's viscous step; reference path, 2D).
 *
 * pls has no periodic boundary, and a liquid filling a closed channel cannot flow, so the
 * channel is long and the liquid a slug: a 2D channel 1.6 m long and H = 0.16 m high (160 ×
 * 16 cells of 0.01 m) with no-slip floor and ceiling, the slug filling it from floor to
 * ceiling over x in [0.4, 1.2] m, driven by a body force g = 2 m/s² along x (gravity),
 * ν = 0.08 m²/s. The slug's ends are free surfaces (p = 0), so its middle, more than H from
 * either end, is the plane Poiseuille problem driven by g with no pressure gradient, whose
 * steady state is u(y) = g/(2ν) y (H − y) (u_max = g H²/(8ν) = 0.32 m/s), reached on the
 * viscous time H²/(π²ν) = 0.032 s. Checks at t = 0.2 s (6 viscous times; the slug has
 * moved 6 cells):
 *  1. no-slip: in the columns of the slug's middle third the cell-centre u profile is the
 *     parabola within 2 % of u_max (measured 1.1 %: the ghost −u's discrete steady state
 *     is the parabola plus g h²/(8ν) = (h/H)² u_max, 0.4 %, and the slug's ends). Later the
 *     ends do not stay flat (the core runs ahead as a tongue, the wall layers lag as films)
 *     and a pressure gradient grows along the slug: +2 % at 0.25 s, +6 % at 0.4 s;
 *  2. free-slip walls (the default): the same slug slides as a plug, u = g t across the
 *     channel within 1 % (measured 3e-7 m/s at t = 0.15 s): the parabola is the walls'
 *     doing;
 *  3. the viscous solve's stats: viscosity_iterations > 0, viscosity_residual small,
 *     viscosity_unconverged 0.
 */
#include <string.h>
#include <unistd.h>

#include "core/common.h"
#include "lib/check.h"
#include "lib/scene_run.h"
#include "scene/config.h"
#include "solvers/registry.h"

#define NX 160
#define NY 16

static const char *scene_text(const char *walls, int frames, char *buf, size_t cap)
{
    snprintf(buf, cap,
             "solver: pls\n"
             "grid: {size: [%d, %d, 1], cell: 0.01}\n"
             "time: {frames: %d, fps: 20}\n"
             "gravity: [8, 0, 0]\n"
             "walls: %s\n"
             "liquid: [{box: {min: [0.4, 0, 0], max: [1.2, 0.16, 0.01]}}]\n"
             "pls: {viscosity: 0.08}\n",
             NX, NY, frames, walls);
    return buf;
}

/* Runs the scene's frames; the mean cell-centre u per row over the middle third of the
 * columns full of liquid into prof[NY]. */
static int run_profile(const char *walls, int frames, double prof[NY], lq_frame_stats *st)
{
    char text[600];
    run r;
    int rc = open_scene(&r, scene_text(walls, frames, text, sizeof text));
    double visc_iters = 0;
    for (int f = 1; f <= frames && !rc; f++) {
        rc = r.vt->advance(r.state, f, f / r.cfg->time.fps, st);
        CHECK_MSG(rc == 0, "frame %d: %s", f, lq_error_message());
        if (!rc) visc_iters += extra(st, "viscosity_iterations");
    }
    static float phi[NX * NY], u[(NX + 1) * NY];
    lq_field_view v;
    if (!rc) rc = r.vt->view(r.state, "phi", &v);
    if (!rc) memcpy(phi, v.data, sizeof phi);
    if (!rc) rc = r.vt->view(r.state, "u", &v);
    if (!rc) memcpy(u, v.data, sizeof u);
    CHECK_MSG(rc == 0, "views: %s", lq_error_message());
    int lo = NX, hi = -1;
    for (int i = 0; i < NX && !rc; i++) {
        int full = 1;
        for (int j = 0; j < NY; j++) full &= phi[i + NX * j] < -0.5f * 0.01f;
        if (full) {
            lo = i < lo ? i : lo;
            hi = i > hi ? i : hi;
        }
    }
    int a = lo + (hi - lo + 1) / 3, b = hi - (hi - lo + 1) / 3;
    CHECK_MSG(hi - lo > 30, "the slug's full columns %d..%d", lo, hi);
    for (int j = 0; j < NY; j++) {
        double s = 0;
        for (int i = a; i <= b; i++)
            s += 0.5 * ((double)u[i + (NX + 1) * j] + u[i + 1 + (NX + 1) * j]);
        prof[j] = b >= a ? s / (b - a + 1) : NAN;
    }
    fprintf(stderr, "  walls %s, t = %.2f s: full columns %d..%d, profile over %d..%d\n", walls,
            frames / 20.0, lo, hi, a, b);
    CHECK(visc_iters > 0);
    close_scene(&r);
    return rc;
}

static void test_noslip(void)
{
    fprintf(stderr, "no-slip floor and ceiling:\n");
    double prof[NY], g = 8, nu = 0.08, H = 0.16, h = 0.01, umax = g * H * H / (8 * nu), err = 0;
    lq_frame_stats st;
    if (run_profile("{y_min: no-slip, y_max: no-slip}", 4, prof, &st)) return;
    for (int j = 0; j < NY; j++) {
        double y = (j + 0.5) * h, want = g / (2 * nu) * y * (H - y);
        fprintf(stderr, "    y %.3f  u %.5f  analytic %.5f\n", y, prof[j], want);
        err = fmax(err, fabs(prof[j] - want));
    }
    double res = extra(&st, "viscosity_residual"), unc = extra(&st, "viscosity_unconverged");
    fprintf(stderr,
            "  max |u − g/(2ν) y (H − y)| = %.4g m/s = %.2f %% of u_max %.3g; viscosity residual "
            "%.2g, unconverged %g\n",
            err, 100 * err / umax, umax, res, unc);
    CHECK(err <= 0.02 * umax);
    CHECK(res < 1e-4 && unc == 0);
}

static void test_freeslip(void)
{
    fprintf(stderr, "free-slip walls (default):\n");
    double prof[NY], err = 0, want = 8 * 0.15;
    lq_frame_stats st;
    if (run_profile("free-slip", 3, prof, &st)) return;
    for (int j = 0; j < NY; j++) err = fmax(err, fabs(prof[j] - want));
    fprintf(stderr, "  plug: max |u − g t| = %.3g m/s (g t = %.3g)\n", err, want);
    CHECK(err <= 0.01 * want);
}

int main(void)
{
    test_noslip();
    test_freeslip();
    CHECK_DONE();
}
