/*
 * timefn.c — scalars of time (timefn.h).
 */
#include "scene/timefn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/common.h"

int lq_timefn_read(const lq_scene *sc, const char *prefix, double base, lq_timefn *f)
{
    char p[160];
    memset(f, 0, sizeof *f);
    f->base = base;
    snprintf(p, sizeof p, "%s.profile", prefix);
    const char *kind = lq_scene_enum(sc, p);
    if (!kind || strcmp(kind, "constant") == 0) {
        f->kind = LQ_TIMEFN_CONSTANT;
    } else if (strcmp(kind, "decay") == 0) {
        f->kind = LQ_TIMEFN_DECAY;
        snprintf(p, sizeof p, "%s.rate", prefix);
        f->rate = lq_scene_float(sc, p);
    } else if (strcmp(kind, "wave") == 0) {
        f->kind = LQ_TIMEFN_WAVE;
        snprintf(p, sizeof p, "%s.amplitude", prefix);
        f->amplitude = lq_scene_float(sc, p);
        snprintf(p, sizeof p, "%s.omega", prefix);
        f->omega = lq_scene_float(sc, p);
    } else {
        f->kind = LQ_TIMEFN_TABLE;
        snprintf(p, sizeof p, "%s.table", prefix);
        if (!lq_scene_has(sc, p))
            return lq_scene_error(sc, prefix,
                                  "profile 'table' needs `table: [t0, f0, t1, f1, ...]`");
        double v[2 * LQ_TIMEFN_MAX_KEYS];
        int n = lq_scene_floats(sc, p, v, 2 * LQ_TIMEFN_MAX_KEYS);
        if (n < 2 || n % 2)
            return lq_scene_error(sc, p, "a table is pairs `t, factor` (%d numbers given)", n);
        for (int i = 2; i < n; i += 2)
            if (!(v[i] > v[i - 2]))
                return lq_scene_error(sc, p, "the table's times must increase (%g after %g)", v[i],
                                      v[i - 2]);
        f->nkeys = n / 2;
        memcpy(f->keys, v, (size_t)n * sizeof(double));
    }
    return LQ_OK;
}

double lq_timefn_eval(const lq_timefn *f, double tau)
{
    switch (f->kind) {
    case LQ_TIMEFN_DECAY:
        return f->base * exp(-f->rate * tau);
    case LQ_TIMEFN_WAVE:
        return f->base + f->amplitude * f->omega * sin(f->omega * tau);
    case LQ_TIMEFN_TABLE: {
        const double *k = f->keys;
        int n = f->nkeys;
        if (tau <= k[0]) return f->base * k[1];
        for (int i = 1; i < n; i++)
            if (tau <= k[2 * i]) {
                double s = (tau - k[2 * i - 2]) / (k[2 * i] - k[2 * i - 2]);
                return f->base * (k[2 * i - 1] + s * (k[2 * i + 1] - k[2 * i - 1]));
            }
        return f->base * k[2 * n - 1];
    }
    default:
        return f->base;
    }
}
