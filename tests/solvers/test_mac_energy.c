/*
 * test_mac_energy.c — the `mac` solver's free surface and the energy it makes. A block of
 * water (0.2 m cube) dropped into a still tank (12 × 14 × 12 cells of 5 cm, free-slip
 * walls, water 0.2 m deep, viscosity 1e-6) can at most turn the potential energy it
 * releases into kinetic energy, and once it lands the tank should settle. Potential
 * energy from the markers (each carries ρ δ³ / markers-per-cell of liquid), kinetic from
 * each cell's markers times the mean of its faces' squared velocities.
 *
 * mac.surface_solve on with mac.surface_solve_ghost: empty (every SURFACE cell relaxed,
 * EMPTY cells holding the air side of the pressure line, kernels/mac/pressure_cell.h): E_k +
 * E_p stays within 4% of the released energy above the start (3.3% measured, at the
 * impact) and the kinetic energy left over the last second is under 1% of the released
 * energy; a still tank stays still. With the ghost fluid at the fill (the default), within
 * 4% too and less left than off (0.55 J measured). Off (Foster & Metaxas' surface cells at
 * applied pressure, Gates' rules closing their divergence) the surface keeps stirring: the
 * energy left is asserted to be at least 3 times the option's (0.75 J against 0.15 J
 * measured), to show what the option is for (if the paper's way is ever fixed, drop that
 * check).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/check.h"
#include "core/common.h"
#include "common/mac_grid.h"
#include "scene/config.h"
#include "solvers/registry.h"

#define RHO 1000.0
#define G   9.81

typedef struct energy {
    double ek, ep;
} energy;

static energy measure(const lq_solver_vt *vt, void *st, double h, int per_cell)
{
    energy e = {0, 0};
    lq_field_view fv;
    lq_points_view pv;
    if (vt->view(st, "flags", &fv) || vt->points(st, &pv)) {
        CHECK(!"flags view, markers");
        return e;
    }
    int nx = fv.dims[0], ny = fv.dims[1], nz = fv.dims[2];
    double ox = fv.origin[0] - 0.5 * h, oy = fv.origin[1] - 0.5 * h, oz = fv.origin[2] - 0.5 * h;
    /* the liquid per cell: its markers (each ρ δ³ / per_cell) */
    int *cnt = calloc((size_t)nx * ny * nz, sizeof(int));
    double m = RHO * h * h * h / per_cell;
    for (int q = 0; q < pv.n; q++) {
        if (pv.columns[7][q] != 2) continue;
        double x = pv.columns[0][q], y = pv.columns[1][q], z = pv.columns[2][q];
        e.ep += m * G * y;
        int i = (int)floor((x - ox) / h), j = (int)floor((y - oy) / h),
            k = (int)floor((z - oz) / h);
        if (i >= 0 && j >= 0 && k >= 0 && i < nx && j < ny && k < nz)
            cnt[LQ_MAC_CELL(i, j, k, nx, ny)]++;
    }
    for (int a = 0; a < 3; a++) {
        char name[2] = {(char)('u' + a), 0};
        CHECK_OK(vt->view(st, name, &fv));
        int fx = nx + (a == 0), fy = ny + (a == 1);
        for (int k = 0; k < nz; k++)
            for (int j = 0; j < ny; j++)
                for (int i = 0; i < nx; i++) {
                    int c = cnt[LQ_MAC_CELL(i, j, k, nx, ny)];
                    if (c == 0) continue;
                    size_t lo = (size_t)i + (size_t)fx * (j + (size_t)fy * k);
                    size_t hi = lo + (a == 0 ? 1 : a == 1 ? (size_t)fx : (size_t)fx * fy);
                    double l = fv.data[lo], r = fv.data[hi];
                    e.ek += 0.5 * m * c * 0.5 * (l * l + r * r);
                }
    }
    free(cnt);
    return e;
}

/* What one run measured (J). */
typedef struct result {
    double rise;     /* the largest E_k + E_p above the start */
    double released; /* the largest E_p below the start */
    double ekmax;    /* the peak E_k */
    double eklate;   /* the mean E_k over the last third of the frames (settled) */
} result;

/* Drops the block; frames at 30 fps. */
static result run(const char *device, int surface_solve, const char *ghost, int frames, int block)
{
    const char *path = surface_solve ? "test_mac_energy_on.yaml" : "test_mac_energy_off.yaml";
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    result res = {NAN, NAN, NAN, NAN};
    if (!f) return res;
    fprintf(f,
            "solver: mac\ngrid: {size: [12, 14, 12], cell: 0.05}\n"
            "time: {frames: %d, fps: 30}\nwalls: free-slip\n"
            "mac: {surface_solve: %s, surface_solve_ghost: %s, particles: 8, viscosity: 1e-6}\n"
            "output: {markers: true}\n"
            "liquid:\n  - level: 0.2\n"
            "%s",
            frames, surface_solve ? "true" : "false", ghost,
            block ? "  - box: {min: [0.2, 0.35, 0.2], max: [0.4, 0.55, 0.4]}\n" : "");
    fclose(f);
    lq_config *cfg = lq_config_load(path, 0, NULL);
    CHECK_MSG(cfg != NULL, "%s", lq_error_message());
    remove(path);
    if (!cfg) return res;
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, device, false));
    const lq_solver_vt *vt = lq_registry_find(cfg);
    void *st = NULL;
    CHECK(vt != NULL);
    CHECK_OK(vt->create(&ctx, cfg, &st));
    res = (result){-INFINITY, 0, 0, 0};
    int nlate = 0;
    if (st) {
        energy e0 = measure(vt, st, 0.05, 8);
        for (int fr = 1; fr <= frames; fr++) {
            lq_frame_stats fs;
            memset(&fs, 0, sizeof fs);
            if (vt->advance(st, fr, fr / 30.0, &fs)) {
                CHECK_MSG(0, "%s", lq_error_message());
                break;
            }
            energy e = measure(vt, st, 0.05, 8);
            if (getenv("LQ_ENERGY_TRACE"))
                fprintf(stderr, "  on %d frame %d: E_k %.3f E_p - E_p(0) %.3f, %d steps\n",
                        surface_solve, fr, e.ek, e.ep - e0.ep, fs.steps);
            res.rise = fmax(res.rise, (e.ek + e.ep) - (e0.ek + e0.ep));
            res.released = fmax(res.released, e0.ep - e.ep);
            res.ekmax = fmax(res.ekmax, e.ek);
            if (3 * fr > 2 * frames) {
                res.eklate += e.ek;
                nlate++;
            }
        }
        vt->destroy(st);
    }
    if (ctx.backend == LQ_BACKEND_CL) lq_ctx_close(&ctx);
    lq_config_free(cfg);
    res.eklate /= LQ_MAX(nlate, 1);
    return res;
}

int main(int argc, char **argv)
{
    const char *device = argc > 1 ? argv[1] : "ref";
    int frames = argc > 2 ? atoi(argv[2]) : 120;
    result on = run(device, 1, "empty", frames, 1), off = run(device, 0, "fill", frames, 1);
    result fill = run(device, 1, "fill", frames, 1);
    for (int q = 0; q < 2; q++) {
        result still = run(device, 1, q ? "fill" : "empty", 60, 0);
        fprintf(stderr, "%s, still tank, 60 frames, surface_solve on (%s): peak E_k %.3g J\n",
                device, q ? "fill" : "empty", still.ekmax);
        CHECK(still.ekmax < 1e-4); /* the still tank stays still */
    }
    const result *r[3] = {&on, &off, &fill};
    const char *label[3] = {"on (empty)", "off", "on (fill)"};
    for (int q = 0; q < 3; q++)
        fprintf(stderr,
                "%s, %d frames, surface_solve %s: E_k + E_p at most %.3f J above the start, "
                "potential released at most %.3f J, peak E_k %.3f J, mean E_k over the last "
                "third %.3f J\n",
                device, frames, label[q], r[q]->rise, r[q]->released, r[q]->ekmax, r[q]->eklate);
    /* on: at most a few % made while the block falls and lands (measured 3.3% at the
     * impact, E_k from face values, E_p from markers; off: none then), and the tank
     * settles (what is left is under 1% of the released energy after 3 s) */
    CHECK(on.released > 10.0);
    CHECK(on.rise <= 0.04 * on.released);
    CHECK(on.eklate <= 0.01 * on.released);
    /* off: the surface layer keeps stirring (Gates' rules turn sideways spread into
     * vertical velocity every step): several times what is left with the option on */
    CHECK(off.eklate >= 3.0 * on.eklate);
    /* on with the ghost fluid at the fill (the default way, which keeps a sub-cell wave's
     * period): its surface cells under half full are held and closed by Gates' rules as
     * without the option, so part of the stirring comes back (0.55 J measured): it makes
     * no more energy than the other way, and keeps less than the default */
    CHECK(fill.released > 10.0);
    CHECK(fill.rise <= 0.04 * fill.released);
    CHECK(fill.eklate < off.eklate);
    CHECK_DONE();
}
