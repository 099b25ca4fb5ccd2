/*
 * test_pls_sources.c — the `pls` solver's inlets and outlets measured through the solver
 * (host/ops/pls/plssource.h; reference path, small grids):
 *  1. an inlet delivers its stated volume: a cylinder inlet under the surface of a 16³
 *     tank pushing flow F up for 0.5 s raises the liquid volume by F·Δt over any window
 *     it is open (frames 3-12: within 1 %, measured 1e-5), source_volume ends at F·0.5,
 *     and |volume_drift| stays below 1e-3;
 *  2. a pour: a cylinder nozzle 5 cells above a pool (24³) pours F = 0.073 m³/s for 0.5 s
 *     (the stream falls, splashes, the pool sloshes); source_volume ends at F·0.5 plus the
 *     liquid the nozzle held when it closed (at most its cells' volume), and the accounting
 *     closes: |liquid − initial − source + sink| ≤ 1.5 % of initial + source at every frame
 *     (measured at most 0.72 %: the level set's own error in the splash);
 *  3. a drain: a box outlet in the corner of a 2D pool removes what reaches it (its cells
 *     hold no liquid after any step), sink_volume grows, and the pool loses exactly that:
 *     |drift| ≤ 1 %;
 *  4. a level outlet holds a pool's level: an inlet under the surface adds 0.05 m² (2D)
 *     to a 0.25 m pool whose outlet removes the liquid above 0.28 m: the pool ends within
 *     a quarter cell of 0.28 m and sink_volume is what came in above it.
 */
#include <string.h>
#include <unistd.h>

#include "core/common.h"
#include "lib/check.h"
#include "lib/scene_run.h"
#include "scene/config.h"
#include "solvers/registry.h"

/* Frame f's stats (frame 0: the measure of the start). */
static int frame(run *r, int f, lq_frame_stats *st)
{
    int rc = f == 0 ? r->vt->measure(r->state, st)
                    : r->vt->advance(r->state, f, f / r->cfg->time.fps, st);
    CHECK_MSG(rc == 0, "frame %d: %s", f, lq_error_message());
    return rc;
}

static void test_submerged(void)
{
    run r;
    if (open_scene(&r, "solver: pls\n"
                       "grid: {size: [16, 16, 16], cell: 0.0625}\n"
                       "time: {frames: 20, fps: 30}\n"
                       "liquid: [{level: 0.5}]\n"
                       "sources:\n"
                       "  - inlet:\n"
                       "      cylinder: {center: [0.5, 0.0625, 0.5], radius: 0.15, height: "
                       "0.125}\n"
                       "      velocity: [0, 1, 0]\n"
                       "      flow: 0.003\n"
                       "      stop: 0.5\n"
                       "pls: {particles_per_cell: 16}\n"))
        goto done;
    double v3 = 0, v12 = 0, worst = 0;
    lq_frame_stats st;
    for (int f = 0; f <= 20 && !frame(&r, f, &st); f++) {
        if (f == 3) v3 = st.liquid_volume;
        if (f == 12) v12 = st.liquid_volume;
        worst = fmax(worst, fabs(extra(&st, "volume_drift")));
    }
    double want = 0.003 * 9 / 30.0, src = extra(&st, "source_volume");
    fprintf(stderr,
            "submerged inlet: frames 3-12 delivered %.9g m³, stated %.9g (%+.4f %%); "
            "source %.9g (stated %.9g); worst |drift| %.2g\n",
            v12 - v3, want, 100 * (v12 - v3 - want) / want, src, 0.003 * 0.5, worst);
    CHECK(fabs(v12 - v3 - want) <= 0.01 * want);
    CHECK_NEAR(src, 0.003 * 0.5, 1e-9);
    CHECK(worst < 1e-3);
done:
    close_scene(&r);
}

static void test_pour(void)
{
    run r;
    if (open_scene(&r, "solver: pls\n"
                       "grid: {size: [24, 24, 24], cell: 0.041666666666666664}\n"
                       "time: {frames: 30, fps: 30}\n"
                       "liquid: [{level: 0.25}]\n"
                       "sources:\n"
                       "  - inlet:\n"
                       "      cylinder: {center: [0.5, 0.5, 0.5], radius: 0.125, height: 0.08}\n"
                       "      velocity: [0, -1, 0]\n"
                       "      flow: 0.073\n"
                       "      stop: 0.5\n"
                       "pls: {particles_per_cell: 16}\n"))
        goto done;
    double worst = 0, src = 0, h = 1 / 24.0;
    lq_frame_stats st;
    for (int f = 0; f <= 30 && !frame(&r, f, &st); f++) {
        worst = fmax(worst, fabs(extra(&st, "volume_drift")));
        src = extra(&st, "source_volume");
    }
    double plug = src - 0.073 * 0.5, cells = 52 * 2 * h * h * h; /* 2 layers of ≤ 52 cells */
    fprintf(stderr,
            "pour: source %.6g m³ = flow × 0.5 s + %.6g (the nozzle's last plug, its "
            "cells %.6g); worst |drift| %.4f\n",
            src, plug, cells, worst);
    CHECK(plug >= 0 && plug <= cells);
    CHECK(worst <= 0.015);
done:
    close_scene(&r);
}

static void test_drain(void)
{
    run r;
    if (open_scene(&r, "solver: pls\n"
                       "grid: {size: [32, 32, 1], cell: 0.03125}\n"
                       "time: {frames: 30, fps: 30}\n"
                       "liquid: [{level: 0.4}]\n"
                       "sources: [{outlet: {min: [0.875, 0, 0], max: [1, 0.125, 0.03]}}]\n"))
        goto done;
    double worst = 0, sink = 0, v0 = 0, wet = 0;
    lq_frame_stats st;
    for (int f = 0; f <= 30 && !frame(&r, f, &st); f++) {
        if (f == 0) v0 = st.liquid_volume;
        worst = fmax(worst, fabs(extra(&st, "volume_drift")));
        sink = extra(&st, "sink_volume");
        lq_field_view v;
        CHECK_OK(r.vt->view(r.state, "phi", &v));
        for (int j = 0; j < 4; j++) /* the outlet's cells (28-31, 0-3) */
            for (int i = 28; i < 32; i++)
                wet = fmax(wet, fmin(fmax(0.5 - v.data[i + 32 * j] / 0.03125, 0.0), 1.0));
    }
    fprintf(stderr,
            "drain: removed %.6g m² of %.6g, pool %.6g; most liquid in an outlet cell "
            "%.3g; worst |drift| %.4f\n",
            sink, v0, st.liquid_volume, wet, worst);
    CHECK(sink > 0.01 && wet == 0 && worst <= 0.01);
done:
    close_scene(&r);
}

static void test_level(void)
{
    run r;
    if (open_scene(&r, "solver: pls\n"
                       "grid: {size: [32, 32, 1], cell: 0.03125}\n"
                       "time: {frames: 45, fps: 30}\n"
                       "liquid: [{level: 0.25}]\n"
                       "sources:\n"
                       "  - inlet: {min: [0.4, 0, 0], max: [0.6, 0.0625, 0.03], velocity: [0, "
                       "1, 0], flow: 0.05, stop: 1}\n"
                       "  - outlet: {level: 0.28}\n"))
        goto done;
    lq_frame_stats st;
    for (int f = 0; f <= 45 && !frame(&r, f, &st); f++) {
    }
    double sink = extra(&st, "sink_volume"), src = extra(&st, "source_volume");
    double depth = st.liquid_volume / 1.0; /* a 1 m wide 2D tank: m² = m */
    fprintf(stderr,
            "level: pool %.5f m deep (outlet at 0.28), delivered %.5f m², removed %.5f "
            "(above 0.28: %.5f), drift %.4f\n",
            depth, src, sink, 0.25 + src - 0.28, extra(&st, "volume_drift"));
    CHECK(fabs(depth - 0.28) <= 0.25 * 0.03125);
    CHECK(fabs(sink - (0.25 + src - 0.28)) <= 0.25 * 0.03125);
done:
    close_scene(&r);
}

int main(void)
{
    test_submerged();
    test_pour();
    test_drain();
    test_level();
    CHECK_DONE();
}
