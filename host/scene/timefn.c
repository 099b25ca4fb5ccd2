/*
 * timefn.c — scalars of time (timefn.h).
 */
#include "scene/timefn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/common.h"

int lq_timefn_init(const lq_config *cfg, const lq_config_profile *p, double base, lq_timefn *f)
{
    memset(f, 0, sizeof *f);
    f->base = base;
    switch (p->profile) {
    case LQ_CONFIG_PROFILE_CONSTANT:
        f->kind = LQ_TIMEFN_CONSTANT;
        break;
    case LQ_CONFIG_PROFILE_DECAY:
        f->kind = LQ_TIMEFN_DECAY;
        f->rate = p->rate;
        break;
    case LQ_CONFIG_PROFILE_WAVE:
        f->kind = LQ_TIMEFN_WAVE;
        f->amplitude = p->amplitude;
        f->omega = p->omega;
        break;
    case LQ_CONFIG_PROFILE_TABLE: {
        f->kind = LQ_TIMEFN_TABLE;
        if (!p->has_table)
            return lq_config_error(cfg, p->at,
                                   "profile 'table' needs `table: [t0, f0, t1, f1, ...]`");
        const double *v = p->table;
        int n = p->ntable;
        if (n < 2 || n % 2)
            return lq_config_error(cfg, p->at_table,
                                   "a table is pairs `t, factor` (%d numbers given)", n);
        if (n > 2 * LQ_TIMEFN_MAX_KEYS) /* the key table allows no more */
            return lq_config_error(cfg, p->at_table, "a table holds at most %d pairs",
                                   LQ_TIMEFN_MAX_KEYS);
        for (int i = 2; i < n; i += 2)
            if (!(v[i] > v[i - 2]))
                return lq_config_error(cfg, p->at_table,
                                       "the table's times must increase (%g after %g)", v[i],
                                       v[i - 2]);
        f->nkeys = n / 2;
        memcpy(f->keys, v, (size_t)n * sizeof(double));
        break;
    }
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
