/*
 * test_shallow_line_solve.c — shallow.line_solve on a real scene: the beach (a wavemaker,
 * a shoreline wetting and drying, open side walls) at 96 × 48 cells, a few frames with
 * the Thomas line solve and with the parallel one (heightfield_cell.h): on the reference
 * path they agree to float round-off (tolerance "shallow.line_solve"), and the parallel
 * one on OpenCL (PoCL in CI) agrees with its reference run as the diff tests demand
 * ("shallow.h", ...). Frame by frame, h, u, w and the volume.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/check.h"
#include "core/common.h"
#include "core/field.h"
#include "core/tolerance.h"
#include "scene/config.h"
#include "solvers/registry.h"

#define FRAMES 8

static const char *const fields[] = {"h", "u", "w"};

typedef struct run {
    lq_ctx ctx;
    lq_config *cfg;
    const lq_solver_vt *vt;
    void *state;
} run;

static int run_open(run *r, const char *device, const char *solve)
{
    char set[64];
    snprintf(set, sizeof set, "shallow.line_solve=%s", solve);
    const char *sets[] = {"grid.size=[96,48]", "grid.cell=0.2", set};
    memset(r, 0, sizeof *r);
    r->cfg = lq_config_load("scenes/beach.yaml", 3, sets);
    if (!r->cfg) goto fail;
    r->vt = lq_registry_find(r->cfg);
    if (!r->vt || lq_ctx_open(&r->ctx, device, false)) goto fail;
    if (r->vt->create(&r->ctx, r->cfg, &r->state)) goto fail;
    return 0;
fail:
    fprintf(stderr, "beach on %s, %s: %s\n", device, solve, lq_error_message());
    return 1;
}

static void run_close(run *r)
{
    if (r->state) r->vt->destroy(r->state);
    if (r->ctx.backend == LQ_BACKEND_CL) lq_ctx_close(&r->ctx);
    lq_config_free(r->cfg);
}

/* Largest |a − b| of each field and of the volume over FRAMES frames. */
static int compare(run *a, run *b, double *worst, double *vol, int *steps)
{
    for (int f = 1; f <= FRAMES; f++) {
        lq_frame_stats sa, sb;
        double fps = a->cfg->time.fps;
        if (a->vt->advance(a->state, f, f / fps, &sa) ||
            b->vt->advance(b->state, f, f / fps, &sb)) {
            fprintf(stderr, "frame %d: %s\n", f, lq_error_message());
            return 1;
        }
        *steps += sa.steps;
        *vol = fmax(*vol,
                    fabs(sa.liquid_volume - sb.liquid_volume) / fmax(fabs(sa.liquid_volume), 1e-9));
        for (size_t q = 0; q < LQ_COUNT(fields); q++) {
            lq_field_view va, vb;
            if (a->vt->view(a->state, fields[q], &va)) return 1;
            size_t n = (size_t)va.dims[0] * (size_t)va.dims[1] * (size_t)va.dims[2];
            float *copy = malloc(n * sizeof *copy);
            memcpy(copy, va.data, n * sizeof *copy);
            if (b->vt->view(b->state, fields[q], &vb)) {
                free(copy);
                return 1;
            }
            for (size_t i = 0; i < n; i++)
                worst[q] = fmax(worst[q], fabs((double)copy[i] - (double)vb.data[i]));
            free(copy);
        }
    }
    return 0;
}

/* Thomas vs the parallel solve on one backend, or the parallel solve on two. */
static void check_pair(const char *da, const char *sa, const char *db, const char *sb,
                       const char *tol_prefix)
{
    run a, b;
    if (run_open(&a, da, sa) || run_open(&b, db, sb)) {
        CHECK(!"scene set-up failed");
        run_close(&a);
        return;
    }
    double worst[3] = {0, 0, 0}, vol = 0;
    int steps = 0;
    CHECK(compare(&a, &b, worst, &vol, &steps) == 0);
    fprintf(
        stderr,
        "  beach, %d frames (%d steps): %s %s vs %s %s: max |dh| %.3g m, |du| %.3g, |dw| %.3g m/s, "
        "volume %.3g relative\n",
        FRAMES, steps, da, sa, db, sb, worst[0], worst[1], worst[2], vol);
    for (size_t q = 0; q < LQ_COUNT(fields); q++) {
        char name[64];
        snprintf(name, sizeof name, "%s.%s", tol_prefix, fields[q]);
        const lq_tolerance *t = lq_tolerance_get(name);
        CHECK_MSG(t && lq_tolerance_ok(t, worst[q], 0), "%s: %g", name, worst[q]);
    }
    char name[64];
    snprintf(name, sizeof name, "%s.volume", tol_prefix);
    const lq_tolerance *t = lq_tolerance_get(name);
    CHECK_MSG(t && lq_tolerance_ok(t, 0, vol), "%s: %g", name, vol);
    run_close(&a);
    run_close(&b);
}

int main(void)
{
    check_pair("ref", "thomas", "ref", "pcr", "line_solve");
    lq_ctx probe;
    if (lq_ctx_open(&probe, "opencl", false) == LQ_OK) {
        lq_ctx_close(&probe);
        check_pair("ref", "pcr", "opencl", "pcr", "shallow");
        check_pair("opencl", "thomas", "opencl", "pcr", "line_solve");
    } else {
        CHECK(!"an OpenCL device is needed for the diff tests (install pocl-opencl-icd)");
    }
    CHECK_DONE();
}
