/*
 * diff.c — `liquidcl diff`: one scene on the reference path and on an OpenCL device,
 * frame by frame, compared field by field against the tolerances of host/core/tolerance.c
 * (entries "<solver>.<field>" and "<solver>.volume"). Exit 1 past a tolerance.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "core/field.h"
#include "cli/run.h"
#include "scene/config.h"
#include "ops/hf/heightfield.h"
#include "solvers/registry.h"
#include "core/tolerance.h"

typedef struct lq_diff_acc {
    double max_abs, max_rel;
    int worst_frame;
} lq_diff_acc;

static void lq_diff_field(const lq_field_view *a, const lq_field_view *b, double floor,
                          lq_diff_acc *acc, int frame)
{
    size_t n = (size_t)a->dims[0] * (size_t)a->dims[1] * (size_t)a->dims[2];
    for (size_t i = 0; i < n; i++) {
        double x = a->data[i], y = b->data[i];
        double e = fabs(x - y);
        if (isnan(x) || isnan(y)) e = (isnan(x) && isnan(y)) ? 0 : INFINITY;
        double r = e / fmax(fabs(x), floor);
        if (e > acc->max_abs) acc->worst_frame = frame;
        acc->max_abs = fmax(acc->max_abs, e);
        acc->max_rel = fmax(acc->max_rel, r);
    }
}

int lq_diff(const lq_run_opts *o)
{
    int rc = LQ_OK;
    lq_config *cfg = NULL;
    lq_ctx cref, ccl;
    bool ref_open = false, cl_open = false;
    void *sref = NULL, *scl = NULL;
    const lq_solver_vt *vt = NULL;
    float *copy = NULL;
    memset(&cref, 0, sizeof cref);
    memset(&ccl, 0, sizeof ccl);

    cfg = lq_config_load(o->scene, o->nsets, o->sets);
    if (!cfg) return LQ_EINPUT;
    vt = lq_registry_find(cfg);
    if (!vt) {
        rc = LQ_EINPUT;
        goto done;
    }
    const char *spec = strcmp(o->device, "auto") == 0 ? "opencl" : o->device;
    if (strcmp(spec, "ref") == 0) {
        rc = lq_error(LQ_EINPUT, "--device ref: diff compares the reference with an OpenCL device");
        goto done;
    }
    rc = lq_ctx_open(&cref, "ref", false);
    if (!rc) ref_open = true;
    if (!rc) rc = lq_ctx_open(&ccl, spec, true);
    if (!rc) cl_open = true;
    /* shallow.line_solve: auto picks by device; the reference runs what the device runs
     * (the parallel and Thomas solves agree to round-off, not bit for bit) */
    if (!rc && strcmp(cfg->solver, "shallow") == 0)
        cfg->shallow.line_solve = lq_heightfield_line_solve(
            &ccl, cfg->grid.size[0], cfg->grid.size[1], cfg->shallow.line_solve);
    if (!rc) rc = vt->create(&cref, cfg, &sref);
    if (!rc) rc = vt->create(&ccl, cfg, &scl);
    if (rc) goto done;

    int nfields = 0;
    while (vt->fields[nfields]) nfields++;
    lq_diff_acc acc[16];
    memset(acc, 0, sizeof acc);
    lq_diff_acc vol = {0, 0, 0}, objs = {0, 0, 0}, pts = {0, 0, 0};
    double fps = cfg->time.fps;
    fprintf(stderr, "liquidcl: diff %s: %d frames, reference vs OpenCL\n", o->scene, o->frames);
    for (int f = 1; f <= o->frames && !rc; f++) {
        lq_frame_stats a, b;
        rc = vt->advance(sref, f, f / fps, &a);
        if (!rc) rc = vt->advance(scl, f, f / fps, &b);
        if (rc) {
            rc = lq_error_replace(rc, "frame %d: %s", f, lq_error_message());
            break;
        }
        double e = fabs(a.liquid_volume - b.liquid_volume);
        double r = e / fmax(fabs(a.liquid_volume), 1e-30);
        vol.max_abs = fmax(vol.max_abs, e);
        vol.max_rel = fmax(vol.max_rel, r);
        for (int i = 0; i < nfields && i < 16 && !rc; i++) {
            char key[64];
            snprintf(key, sizeof key, "%s.%s", vt->name, vt->fields[i]);
            const lq_tolerance *t = lq_tolerance_get(key);
            lq_field_view va, vb;
            rc = vt->view(sref, vt->fields[i], &va);
            if (rc) break;
            /* the view's storage is reused by the next call: keep a copy */
            size_t n = (size_t)va.dims[0] * (size_t)va.dims[1] * (size_t)va.dims[2];
            free(copy);
            copy = lq_alloc(n * sizeof *copy);
            if (!copy) {
                rc = LQ_ESIM;
                break;
            }
            memcpy(copy, va.data, n * sizeof *copy);
            va.data = copy;
            rc = vt->view(scl, vt->fields[i], &vb);
            if (!rc) lq_diff_field(&va, &vb, t->floor, &acc[i], f);
        }
        /* rigid objects: centres (m); particles: count, then positions (m) */
        if (!rc && vt->objects) {
            const lq_object_record *ra, *rb;
            int na = 0, nb = 0;
            rc = vt->objects(sref, &ra, &na);
            if (!rc) rc = vt->objects(scl, &rb, &nb);
            for (int i = 0; i < na && i < nb && !rc; i++)
                for (int x = 0; x < 3; x++) {
                    double err = fabs(ra[i].pos[x] - rb[i].pos[x]);
                    objs.max_abs = fmax(objs.max_abs, err);
                    objs.max_rel = fmax(objs.max_rel, err / fmax(fabs(ra[i].pos[x]), 1e-3));
                }
        }
        if (!rc && vt->points) {
            lq_points_view pa, pb;
            rc = vt->points(sref, &pa);
            size_t n = (size_t)pa.n * 3;
            free(copy);
            copy = lq_alloc((n + 1) * sizeof *copy);
            if (!copy) rc = LQ_ESIM;
            for (size_t j = 0; j < (size_t)pa.n && !rc; j++)
                for (int x = 0; x < 3; x++) copy[j * 3 + x] = pa.columns[x][j];
            if (!rc) rc = vt->points(scl, &pb);
            if (!rc && pa.n != pb.n) {
                pts.max_abs = INFINITY; /* a different count is a failure */
                pts.max_rel = INFINITY;
            }
            for (size_t j = 0; j < (size_t)pa.n && !rc && pa.n == pb.n; j++)
                for (int x = 0; x < 3; x++) {
                    double err = fabs(copy[j * 3 + x] - pb.columns[x][j]);
                    pts.max_abs = fmax(pts.max_abs, err);
                    pts.max_rel = fmax(pts.max_rel, err / fmax(fabs(copy[j * 3 + x]), 1e-3));
                }
        }
    }
    if (rc) goto done;
    int bad = 0;
    printf("%-16s %12s %12s %12s %12s  %s\n", "field", "max abs", "max rel", "tol abs", "tol rel",
           "verdict");
    int rows = nfields + 1 + (vt->objects != NULL) + (vt->points != NULL);
    for (int i = 0; i < rows && i < 19; i++) {
        char key[64];
        const lq_diff_acc *d = &vol;
        const char *what = "volume";
        if (i < nfields) {
            d = &acc[i];
            what = vt->fields[i];
        } else if (i > nfields && vt->objects && i == nfields + 1) {
            d = &objs;
            what = "objects";
        } else if (i > nfields) {
            d = &pts;
            what = "particles";
        }
        snprintf(key, sizeof key, "%s.%s", vt->name, what);
        const lq_tolerance *t = lq_tolerance_get(key);
        bool ok = lq_tolerance_ok(t, d->max_abs, d->max_rel);
        bad += !ok;
        printf("%-16s %12.3g %12.3g %12.3g %12.3g  %s\n", key, d->max_abs, d->max_rel, t->abs,
               t->rel, ok ? "ok" : "FAIL");
    }
    if (bad) rc = lq_error(LQ_ESIM, "diff: %d field(s) past tolerance", bad);
done:
    free(copy);
    if (sref) vt->destroy(sref);
    if (scl) vt->destroy(scl);
    if (ref_open) lq_ctx_close(&cref);
    if (cl_open) lq_ctx_close(&ccl);
    lq_config_free(cfg);
    return rc;
}
