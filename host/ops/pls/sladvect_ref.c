/*
 * ref/sladvect.c — reference twins of semi-Lagrangian advection: plain loops over the
 * per-face and per-cell functions the kernels call (kernels/pls/sladvect_cell.h). Every
 * output value depends only on the old fields, so the serial loops give the kernels'
 * results exactly.
 */
#include "ops/pls/sladvect_ref.h"

#include <stdlib.h>

#define F(fld)  ((float *)(fld)->host)
#define CF(fld) ((const float *)(fld)->host)

/* BODY at every face (i, j, k) of component comp's lattice (the grid nx, ny, nz read off
 * u and v), in the kernels' index order. */
#define LQ_SLADVECT_FACES(comp, u, v, BODY)                                                        \
    do {                                                                                           \
        int nx = (v)->nx, ny = (u)->ny, nz = (u)->nz;                                              \
        int mx = nx + ((comp) == 0), my = ny + ((comp) == 1), mz = nz + ((comp) == 2);             \
        for (int k = 0; k < mz; k++)                                                               \
            for (int j = 0; j < my; j++)                                                           \
                for (int i = 0; i < mx; i++) BODY;                                                 \
    } while (0)

void lq_sladvect_ref_velocity_pass(lq_field *out, const lq_field *f, const lq_field *u,
                                   const lq_field *v, const lq_field *w, int comp,
                                   const lq_sladvect_params *prm, float dt)
{
    lq_sladvect_coef c = lq_sladvect_coef_of(prm, v->nx, u->ny, u->nz);
    LQ_SLADVECT_FACES(comp, u, v,
                      lq_sladvect_face_pass(F(out), CF(f), CF(u), CF(v), CF(w), comp, i, j, k, nx,
                                            ny, nz, c.h, c.ih, c.lx, c.ly, c.lz, dt, prm->noslip));
}

void lq_sladvect_ref_velocity_maccormack(lq_field *qn, const lq_field *q, const lq_field *qt,
                                         const lq_field *u, const lq_field *v, const lq_field *w,
                                         int comp, const lq_sladvect_params *prm)
{
    lq_sladvect_coef c = lq_sladvect_coef_of(prm, v->nx, u->ny, u->nz);
    LQ_SLADVECT_FACES(comp, u, v,
                      lq_sladvect_velocity_maccormack_face(
                          F(qn), CF(q), CF(qt), CF(u), CF(v), CF(w), comp, i, j, k, nx, ny, nz, c.h,
                          c.ih, c.lx, c.ly, c.lz, c.dt, prm->noslip));
}

void lq_sladvect_ref_velocity_bfecc(lq_field *qn, const lq_field *q, const lq_field *qt,
                                    const lq_field *u, const lq_field *v, const lq_field *w,
                                    int comp, const lq_sladvect_params *prm)
{
    lq_sladvect_coef c = lq_sladvect_coef_of(prm, v->nx, u->ny, u->nz);
    LQ_SLADVECT_FACES(comp, u, v,
                      lq_sladvect_velocity_bfecc_face(F(qn), CF(q), CF(qt), CF(u), CF(v), CF(w),
                                                      comp, i, j, k, nx, ny, nz, c.h, c.ih, c.lx,
                                                      c.ly, c.lz, c.dt, prm->noslip));
}

void lq_sladvect_ref_advect_velocity(const lq_field *u, const lq_field *v, const lq_field *w,
                                     lq_field *un, lq_field *vn, lq_field *wn,
                                     const lq_sladvect_params *prm)
{
    lq_sladvect_scheme sc = lq_sladvect_velocity_scheme_of(prm);
    const lq_field *ins[3] = {u, v, w};
    lq_field *outs[3] = {un, vn, wn};
    for (int comp = 0; comp < 3; comp++)
        lq_sladvect_ref_velocity_pass(outs[comp], ins[comp], u, v, w, comp, prm, prm->dt);
    if (sc != LQ_SLADVECT_MACCORMACK && sc != LQ_SLADVECT_BFECC) return;
    for (int comp = 0; comp < 3; comp++) {
        lq_field t = *ins[comp]; /* a host scratch of the component's shape */
        t.host = malloc(t.count * sizeof(float));
        if (!t.host) abort(); /* a few MB at most on the reference path */
        lq_sladvect_ref_velocity_pass(&t, outs[comp], u, v, w, comp, prm, -prm->dt);
        if (sc == LQ_SLADVECT_MACCORMACK)
            lq_sladvect_ref_velocity_maccormack(outs[comp], ins[comp], &t, u, v, w, comp, prm);
        else
            lq_sladvect_ref_velocity_bfecc(outs[comp], ins[comp], &t, u, v, w, comp, prm);
        free(t.host);
    }
}

void lq_sladvect_ref_scalar_pass(const lq_field *q, lq_field *qn, const lq_field *u,
                                 const lq_field *v, const lq_field *w,
                                 const lq_sladvect_params *prm, float dt)
{
    int nx = q->nx, ny = q->ny, nz = q->nz;
    lq_sladvect_coef c = lq_sladvect_coef_of(prm, nx, ny, nz);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_sladvect_scalar_cell(F(qn), CF(q), CF(u), CF(v), CF(w), i, j, k, nx, ny, nz, c.h,
                                        c.ih, c.lx, c.ly, c.lz, dt);
}

void lq_sladvect_ref_maccormack(lq_field *qn, const lq_field *q, const lq_field *qt,
                                const lq_field *u, const lq_field *v, const lq_field *w,
                                const lq_sladvect_params *prm)
{
    int nx = q->nx, ny = q->ny, nz = q->nz;
    lq_sladvect_coef c = lq_sladvect_coef_of(prm, nx, ny, nz);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_sladvect_maccormack_cell(F(qn), CF(q), CF(qt), CF(u), CF(v), CF(w), i, j, k, nx,
                                            ny, nz, c.h, c.ih, c.lx, c.ly, c.lz, c.dt);
}

void lq_sladvect_ref_bfecc(lq_field *qn, const lq_field *q, const lq_field *qt, const lq_field *u,
                           const lq_field *v, const lq_field *w, const lq_sladvect_params *prm)
{
    int nx = q->nx, ny = q->ny, nz = q->nz;
    lq_sladvect_coef c = lq_sladvect_coef_of(prm, nx, ny, nz);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_sladvect_bfecc_cell(F(qn), CF(q), CF(qt), CF(u), CF(v), CF(w), i, j, k, nx, ny,
                                       nz, c.h, c.ih, c.lx, c.ly, c.lz, c.dt);
}

void lq_sladvect_ref_advect_scalar(const lq_field *q, lq_field *qn, const lq_field *u,
                                   const lq_field *v, const lq_field *w,
                                   const lq_sladvect_params *prm)
{
    lq_sladvect_scheme sc = lq_sladvect_scheme_of(prm);
    lq_sladvect_ref_scalar_pass(q, qn, u, v, w, prm, prm->dt);
    if (sc != LQ_SLADVECT_MACCORMACK && sc != LQ_SLADVECT_BFECC) return;
    lq_field t = *q; /* a host scratch of q's shape */
    t.host = malloc(q->count * sizeof(float));
    if (!t.host) abort(); /* a few MB at most on the reference path */
    lq_sladvect_ref_scalar_pass(qn, &t, u, v, w, prm, -prm->dt);
    if (sc == LQ_SLADVECT_MACCORMACK)
        lq_sladvect_ref_maccormack(qn, q, &t, u, v, w, prm);
    else
        lq_sladvect_ref_bfecc(qn, q, &t, u, v, w, prm);
    free(t.host);
}
