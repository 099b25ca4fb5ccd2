/*
 * solver_api.c — helpers on the solver interface's types (see solver_api.h).
 */
#include "core/solver_api.h"

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
