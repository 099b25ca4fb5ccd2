/*
 * framesplit.c — the frame-splitting rule of framesplit.h. The arithmetic is the
 * solvers' own, operation for operation (tools/same-results holds every scene's steps
 * and results to it): do not reorder it.
 */
#include "core/framesplit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/common.h"
#include "core/interrupt.h"
#include "core/profile.h"

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

/* --- guards: nothing here changes a step that passes them ----------------------------- */

static void lq_framesplit_reason(lq_framesplit_why *why, void *state, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (why) why(state, buf, cap);
    if (!buf[0]) snprintf(buf, cap, "no field named");
}

int lq_framesplit_guard(const lq_framesplit *f, int step, double t, double dt, int max_steps,
                        lq_framesplit_why *why, void *state)
{
    char reason[256];
    if (lq_interrupt_due()) {
        lq_interrupt_abandon();
        return lq_error(LQ_ESIM, "interrupted by %s at step %d (t = %.6g s)", lq_interrupt_name(),
                        step, t);
    }
    if (!(dt > 0) || !isfinite(dt) || t + dt == t) {
        lq_framesplit_reason(why, state, reason, sizeof reason);
        return lq_error_replace(LQ_ESIM,
                                "simulation blew up at step %d (t = %.6g s): the time step %.3g s "
                                "underflows (%s)",
                                step, t, dt, reason);
    }
    double need = (double)f->steps + ceil((f->t_end - t) / dt - LQ_FRAMESPLIT_ROUNDOFF);
    if (need > max_steps) {
        lq_framesplit_reason(why, state, reason, sizeof reason);
        return lq_error_replace(
            LQ_ESIM,
            "simulation blew up at step %d (t = %.6g s): the time step fell to %.3g s "
            "(%s), so the frame needs %.3g steps, more than time.max_steps (%d)",
            step, t, dt, reason, need, max_steps);
    }
    return LQ_OK;
}

int lq_framesplit_count_checked(double n, int step, double t, int max_steps, lq_framesplit_why *why,
                                void *state, int *out)
{
    char reason[256];
    if (!(n >= 1 && n <= max_steps)) {
        lq_framesplit_reason(why, state, reason, sizeof reason);
        return lq_error_replace(
            LQ_ESIM,
            "simulation blew up at step %d (t = %.6g s): the frame needs %.3g steps "
            "(%s), more than time.max_steps (%d)",
            step, t, n, reason, max_steps);
    }
    *out = (int)n;
    return LQ_OK;
}

int lq_framesplit_failed(int rc, int step, double t, const char *const (*fields)[2])
{
    const char *msg = lq_error_message();
    if (rc != LQ_ESIM || strstr(msg, "at step ") || strncmp(msg, "interrupted", 11) == 0) return rc;
    const char *stage = lq_profile_failed_stage(0), *field = NULL;
    for (int i = 0; !field && lq_profile_failed_stage(i); i++)
        for (int r = 0; fields && fields[r][0] && !field; r++)
            if (strcmp(fields[r][0], lq_profile_failed_stage(i)) == 0) field = fields[r][1];
    bool numeric = strstr(msg, "not finite") || strstr(msg, "diverged") || strstr(msg, "blew up");
    if (numeric)
        return lq_error_replace(rc,
                                "simulation blew up at step %d (t = %.6g s) in stage '%s' "
                                "(field %s): %s",
                                step, t, stage ? stage : "?", field ? field : "?", msg);
    return lq_error_replace(rc, "at step %d (t = %.6g s) in stage '%s': %s", step, t,
                            stage ? stage : "?", msg);
}

const char *lq_framesplit_speeds(const float sm[3], const double g[3], double gmag)
{
    static char buf[160];
    int a = sm[1] > sm[0] ? 1 : 0;
    if (sm[2] > sm[a]) a = 2;
    if (!(sm[a] > 0)) /* at rest (or not a number): the component gravity drives */
        a = fabs(g[1]) >= fabs(g[0]) && fabs(g[1]) >= fabs(g[2]) ? 1
            : fabs(g[0]) >= fabs(g[2])                           ? 0
                                                                 : 2;
    snprintf(buf, sizeof buf, "field %c: max speed %.3g m/s, gravity %.3g m/s^2", "uvw"[a],
             (double)sm[a], gmag);
    return buf;
}
