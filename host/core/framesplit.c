/*
 * framesplit.c — the frame-splitting rule of framesplit.h. The arithmetic is the
 * solvers' own, operation for operation (tools/same-results holds every scene's steps
 * and results to it): do not reorder it.
 */
#include "core/framesplit.h"

#include <math.h>

lq_framesplit lq_framesplit_start(double t, double t_end)
{
    return (lq_framesplit){.t_end = t_end, .span = t_end - t, .dt_min = INFINITY, .dt_max = 0};
}

double lq_framesplit_count(double ratio, double slack)
{
    return fmax(1.0, ceil(ratio - slack));
}

bool lq_framesplit_more(const lq_framesplit *f, double t)
{
    return t < f->t_end - 1e-12;
}

double lq_framesplit_next(const lq_framesplit *f, double t, double dt, double slack, bool whole)
{
    double rest = f->t_end - t, n = lq_framesplit_count(rest / dt, slack);
    double step = n > 1.0 ? rest / n : rest;
    if (whole && n > 1.0 && step >= dt * (1 - 1e-6)) step = dt;
    return step;
}

double lq_framesplit_fixed(const lq_framesplit *f, double t, int i, int n)
{
    return i == n - 1 ? f->t_end - t : f->span / n;
}

void lq_framesplit_took(lq_framesplit *f, double dt)
{
    f->steps++;
    f->dt_min = fmin(f->dt_min, dt);
    f->dt_max = fmax(f->dt_max, dt);
}

void lq_framesplit_report(const lq_framesplit *f, lq_frame_stats *st)
{
    st->steps = f->steps;
    st->dt_min = f->steps ? f->dt_min : 0;
    st->dt_max = f->dt_max;
}
