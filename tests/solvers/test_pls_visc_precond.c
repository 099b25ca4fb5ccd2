/*
 * test_pls_visc_precond.c — the viscous solve's multigrid preconditioner
 * (pls.viscosity_precond: mg, host/ops/pls/viscosity.c) against the Jacobi one through the
 * `pls` solver (reference path): a very viscous 3D block (ν = 20 m²/s, 20 × 14 × 12 cells
 * of 0.02 m, νΔt/h² ≈ 1000 a step: the regime of the melting wax) slumps for 3 frames
 * with each preconditioner. Both stop at the same test (‖r‖ ≤ 1e-6 ‖b‖ per component), so
 *  1. the face velocities agree to the solve's accuracy: the right-hand side is u* ~ g Δt
 *     (0.33 m/s a frame), which the solve cancels down to a creep of ~0.01 m/s; the true
 *     residual float reaches at νΔt/h² ~ 1000 is ~1e-3 ‖b‖ for either preconditioner
 *     (viscosity_residual), so max |u_mg − u_jacobi| ≤ 1e-4 m/s = 3e-4 g Δt (measured
 *     2.2e-5 m/s); the zero set's volume the same to 1e-5;
 *  2. multigrid takes at most a third of Jacobi's iterations, and both converge.
 */
#include <string.h>
#include <unistd.h>

#include "core/common.h"
#include "lib/check.h"
#include "lib/scene_run.h"
#include "scene/config.h"
#include "solvers/registry.h"

#define NX     20
#define NY     14
#define NZ     12
#define FRAMES 3

static const char *scene_text(const char *pc, char *buf, size_t cap)
{
    snprintf(buf, cap,
             "solver: pls\n"
             "grid: {size: [%d, %d, %d], cell: 0.02}\n"
             "time: {frames: %d, fps: 30}\n"
             "liquid: [{box: {min: [0.1, 0, 0.06], max: [0.3, 0.2, 0.18]}}]\n"
             "pls: {cfl: 2, particles_per_cell: 8, viscosity: 20.0, viscosity_precond: %s}\n",
             NX, NY, NZ, FRAMES, pc);
    return buf;
}

typedef struct result {
    float *u[3];
    size_t n[3];
    double iters, unconverged, volume, umax, residual;
} result;

static int run_one(const char *pc, result *res)
{
    char text[800];
    run r;
    memset(res, 0, sizeof *res);
    int rc = open_scene(&r, scene_text(pc, text, sizeof text));
    lq_frame_stats st;
    for (int f = 1; f <= FRAMES && !rc; f++) {
        rc = r.vt->advance(r.state, f, f / r.cfg->time.fps, &st);
        CHECK_MSG(rc == 0, "frame %d: %s", f, lq_error_message());
        if (!rc) {
            res->iters += extra(&st, "viscosity_iterations");
            res->unconverged += extra(&st, "viscosity_unconverged");
            res->volume = st.liquid_volume;
            res->residual = fmax(res->residual, extra(&st, "viscosity_residual"));
        }
    }
    const char *names[3] = {"u", "v", "w"};
    for (int a = 0; a < 3 && !rc; a++) {
        lq_field_view v;
        rc = r.vt->view(r.state, names[a], &v);
        if (rc) break;
        res->n[a] = (size_t)(NX + (a == 0)) * (NY + (a == 1)) * (NZ + (a == 2));
        res->u[a] = malloc(res->n[a] * sizeof(float));
        memcpy(res->u[a], v.data, res->n[a] * sizeof(float));
        for (size_t i = 0; i < res->n[a]; i++) res->umax = fmax(res->umax, fabs(res->u[a][i]));
    }
    CHECK_MSG(rc == 0, "views: %s", lq_error_message());
    close_scene(&r);
    return rc;
}

int main(void)
{
    result j, m;
    if (run_one("jacobi", &j) || run_one("mg", &m)) {
        CHECK(0);
        CHECK_DONE();
    }
    double d = 0;
    for (int a = 0; a < 3; a++)
        for (size_t i = 0; i < j.n[a]; i++) d = fmax(d, fabs((double)j.u[a][i] - m.u[a][i]));
    fprintf(stderr,
            "  %d frames: iterations jacobi %.0f, mg %.0f; max speed %.4g m/s, max |u_mg − "
            "u_jacobi| %.3g m/s; true residual jacobi %.2g, mg %.2g; volume %.8g vs %.8g\n",
            FRAMES, j.iters, m.iters, j.umax, d, j.residual, m.residual, j.volume, m.volume);
    CHECK(j.umax > 0 && d <= 1e-4);
    CHECK(fabs(j.volume - m.volume) <= 1e-5 * j.volume);
    CHECK(m.iters > 0 && 3 * m.iters <= j.iters);
    CHECK(j.unconverged == 0 && m.unconverged == 0);
    for (int a = 0; a < 3; a++) {
        free(j.u[a]);
        free(m.u[a]);
    }
    CHECK_DONE();
}
