/*
 * texparticles_ref.c — reference twins of the texture particles: plain loops over the
 * per-particle functions the kernels call (kernels/pls/texparticles_cell.h). Particles
 * move independently, so the serial loops give the kernels' results bit for bit.
 */
#include "ops/pls/texparticles_ref.h"

#define CF(fld)     ((const float *)(fld)->host)
#define TPART(b, p) ((b) + (size_t)(p)*LQ_TEXPARTICLES_STRIDE)

void lq_texparticles_ref_settle(lq_texparticles_state *st, const lq_field *phi,
                                lq_texparticles_coef c)
{
    float *part = (float *)st->part.host;
    for (int p = 0; p < st->n; p++)
        lq_texparticles_settle_one(TPART(part, p), CF(phi), st->nx, st->ny, st->nz, c);
}

void lq_texparticles_ref_project(lq_texparticles_state *st, const lq_field *phi,
                                 lq_texparticles_coef c)
{
    float *part = (float *)st->part.host;
    for (int p = 0; p < st->n; p++)
        lq_texparticles_project_one(TPART(part, p), CF(phi), st->nx, st->ny, st->nz, c);
}

void lq_texparticles_ref_advect(lq_texparticles_state *st, const lq_field *u, const lq_field *v,
                                const lq_field *w, lq_texparticles_coef c)
{
    float *part = (float *)st->part.host;
    for (int p = 0; p < st->n; p++)
        lq_texparticles_advect_one(TPART(part, p), CF(u), CF(v), CF(w), st->nx, st->ny, st->nz, c);
}
