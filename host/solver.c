/*
 * solver.c — the table of solvers and the stats helper.
 */
#include "solver.h"

#include <string.h>

static const lq_solver_vt *const lq_solvers[] = {&lq_shallow_solver, &lq_splash_solver,
                                                 &lq_mac_solver, &lq_pls_solver};

const lq_solver_vt *lq_solver_find(const lq_scene *s)
{
    const char *name = lq_scene_solver(s);
    for (size_t i = 0; i < LQ_COUNT(lq_solvers); i++)
        if (strcmp(lq_solvers[i]->name, name) == 0) return lq_solvers[i];
    lq_scene_error(s, "solver",
                   "solver '%s' is not in this build (available: shallow, splash, mac, pls)", name);
    return NULL;
}

void lq_stats_extra(lq_frame_stats *st, const char *key, double value)
{
    if (st->nextra < LQ_STATS_EXTRA) {
        st->extra[st->nextra].key = key;
        st->extra[st->nextra].value = value;
        st->nextra++;
    }
}

void lq_view_hf(lq_field_view *v, const char *name, int nx, int nz, double ox, double oy, double oz,
                double dx, const float *data)
{
    v->name = name;
    v->dims[0] = nx;
    v->dims[1] = 1;
    v->dims[2] = nz;
    v->origin[0] = ox;
    v->origin[1] = oy;
    v->origin[2] = oz;
    v->spacing[0] = v->spacing[1] = v->spacing[2] = dx;
    v->data = data;
}
