/*
 * ref/viscosity.c — reference twins of the pls viscosity operations: plain loops over
 * the per-face functions of kernels/pls/viscosity_cell.h. Every face kernel writes only its
 * own face from inputs it does not write, so loop order does not matter; the dot product
 * runs the kernel's groups, items and halving tree in the same order, so the results
 * equal the kernels' bit for bit.
 */
#include "ops/pls/viscosity_ref.h"

#include <string.h>

#define CF(fld) ((const float *)(fld)->host)
#define F(fld)  ((float *)(fld)->host)
#define CU(fld) ((const unsigned char *)(fld)->host)

#define FACE_LOOP(o, a)                                                                            \
    for (int k = 0; k < (o)->nz + ((a) == 2); k++)                                                 \
        for (int j = 0; j < (o)->ny + ((a) == 1); j++)                                             \
            for (int i = 0; i < (o)->nx + ((a) == 0); i++)

void lq_viscosity_ref_fill(lq_viscosity_ops *o, lq_field *nu, float nu0, int nbox, float h)
{
    for (int k = 0; k < o->nz; k++)
        for (int j = 0; j < o->ny; j++)
            for (int i = 0; i < o->nx; i++) F(nu)
    [LQ_MAC_CELL(i, j, k, o->nx, o->ny)] =
        lq_viscosity_fill_cell(i, j, k, o->nz, h, nu0, CF(&o->boxes), nbox);
}

void lq_viscosity_ref_explicit(lq_viscosity_ops *o, const lq_field *u0, const lq_field *v0,
                               const lq_field *w0, lq_field *us, lq_field *vs, lq_field *ws,
                               const lq_field *nu, const lq_field *phi, const lq_field *sdf,
                               const lq_viscosity_params *prm)
{
    int nx = o->nx, ny = o->ny, nz = o->nz, has = sdf != NULL;
    float kk = lq_viscosity_kk(prm);
    const float *sd = sdf ? CF(sdf) : NULL;
    lq_field *out[3] = {us, vs, ws};
    for (int a = 0; a < (nz > 1 ? 3 : 2); a++) {
        float *q = F(out[a]);
        FACE_LOOP(o, a)
        {
            int f = lq_viscosity_fidx(a, i, j, k, nx, ny);
            q[f] = q[f] + lq_viscosity_explicit_face(a, i, j, k, nx, ny, nz, CF(nu), CF(phi), sd,
                                                     has, prm->noslip, prm->cross, CF(u0), CF(v0),
                                                     CF(w0), kk);
        }
    }
}

void lq_viscosity_ref_setup(lq_viscosity_ops *o, int axis, const lq_field *nu, const lq_field *phi,
                            const lq_field *sdf, const lq_viscosity_params *prm)
{
    (void)prm;
    const float *sd = sdf ? CF(sdf) : NULL;
    FACE_LOOP(o, axis)
    lq_viscosity_setup_face(axis, i, j, k, o->nx, o->ny, o->nz, CF(nu), CF(phi), sd, sdf != NULL,
                            o->noslip, (unsigned char *)o->kind.host, F(&o->diag));
}

void lq_viscosity_ref_rhs(lq_viscosity_ops *o, const lq_field *q, lq_field *b)
{
    int a = o->axis;
    FACE_LOOP(o, a)
    F(b)
    [lq_viscosity_fidx(a, i, j, k, o->nx, o->ny)] = lq_viscosity_rhs_face(
        a, i, j, k, o->nx, o->ny, o->nz, CF(o->nu), CU(&o->kind), CF(q), o->kk);
}

void lq_viscosity_ref_apply(lq_viscosity_ops *o, const lq_field *x, lq_field *y)
{
    int a = o->axis;
    FACE_LOOP(o, a)
    F(y)
    [lq_viscosity_fidx(a, i, j, k, o->nx, o->ny)] = lq_viscosity_apply_face(
        a, i, j, k, o->nx, o->ny, o->nz, CF(o->nu), CU(&o->kind), CF(&o->diag), CF(x), o->kk);
}

void lq_viscosity_ref_residual(lq_viscosity_ops *o, const lq_field *b, const lq_field *x,
                               lq_field *r)
{
    int a = o->axis;
    FACE_LOOP(o, a)
    F(r)
    [lq_viscosity_fidx(a, i, j, k, o->nx, o->ny)] =
        lq_viscosity_residual_face(a, i, j, k, o->nx, o->ny, o->nz, CF(o->nu), CU(&o->kind),
                                   CF(&o->diag), CF(b), CF(x), o->kk);
}

void lq_viscosity_ref_cg_update(lq_viscosity_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                                const lq_field *q, float alpha)
{
    int n = lq_viscosity_count(o, o->axis);
    for (int f = 0; f < n; f++) lq_viscosity_cg_update_elem(F(x), F(r), CF(d), CF(q), alpha, f);
}

void lq_viscosity_ref_cg_direction(lq_viscosity_ops *o, const lq_field *z, lq_field *d, float beta)
{
    int n = lq_viscosity_count(o, o->axis);
    for (int f = 0; f < n; f++) lq_viscosity_cg_direction_elem(CF(z), F(d), beta, f);
}

void lq_viscosity_ref_precond(lq_viscosity_ops *o, const lq_field *r, lq_field *z)
{
    int n = lq_viscosity_count(o, o->axis);
    for (int f = 0; f < n; f++)
        lq_viscosity_precond_elem(CF(r), F(z), CU(&o->kind), CF(&o->diag), o->kk, f);
}

void lq_viscosity_ref_dot(lq_viscosity_ops *o, const lq_field *a, const lq_field *b, double *sum)
{
    int n = lq_viscosity_count(o, o->axis), groups, span;
    lq_viscosity_layout(n, &groups, &span);
    float red[LQ_VISCOSITY_LOCAL];
    double s = 0;
    for (int g = 0; g < groups; g++) {
        for (int l = 0; l < LQ_VISCOSITY_LOCAL; l++)
            red[l] = lq_viscosity_red_item(CF(a), CF(b), g, l, span, n);
        for (int h = LQ_VISCOSITY_LOCAL / 2; h > 0; h >>= 1)
            for (int l = 0; l < h; l++) red[l] = red[l] + red[l + h];
        s += red[0];
    }
    *sum = s;
}

/* --- multigrid (level l's dims in o->mg_dim[l]) ----------------------------------------- */

void lq_viscosity_ref_mg_setup(lq_viscosity_ops *o)
{
    int a = o->axis;
    FACE_LOOP(o, a)
    lq_vmg_setup_face(a, i, j, k, o->nx, o->ny, o->nz, CF(o->nu), CU(&o->kind), o->noslip, o->kk,
                      F(&o->mgB[0]), F(&o->mgL[0]));
}

void lq_viscosity_ref_mg_coarsen(lq_viscosity_ops *o, int l)
{
    const int *m = o->mg_dim[l], *c = o->mg_dim[l + 1];
    for (int C = 0; C < c[0] * c[1] * c[2]; C++) {
        int I, J, K;
        lq_vmg_ijk(C, c[0], c[1], &I, &J, &K);
        lq_vmg_coarsen_cell(I, J, K, m[0], m[1], m[2], c[0], c[1], CF(&o->mgB[l]), CF(&o->mgL[l]),
                            F(&o->mgB[l + 1]), F(&o->mgL[l + 1]));
    }
}

void lq_viscosity_ref_mg_smooth(lq_viscosity_ops *o, int l, const lq_field *b, lq_field *x,
                                int color, int first)
{
    const int *m = o->mg_dim[l];
    for (int c = 0; c < m[0] * m[1] * m[2]; c++)
        lq_vmg_smooth_cell(c, m[0], m[1], m[2], CF(&o->mgB[l]), CF(&o->mgL[l]), CF(b), F(x), color,
                           first);
}

void lq_viscosity_ref_mg_residual(lq_viscosity_ops *o, int l, const lq_field *b, const lq_field *x,
                                  lq_field *t)
{
    const int *m = o->mg_dim[l];
    for (int c = 0; c < m[0] * m[1] * m[2]; c++) F(t)
    [c] = lq_vmg_residual_cell(c, m[0], m[1], m[2], CF(&o->mgB[l]), CF(&o->mgL[l]), CF(b), CF(x));
}

void lq_viscosity_ref_mg_restrict(lq_viscosity_ops *o, int l, const lq_field *t, lq_field *bc)
{
    const int *m = o->mg_dim[l], *c = o->mg_dim[l + 1];
    for (int C = 0; C < c[0] * c[1] * c[2]; C++) {
        int I, J, K;
        lq_vmg_ijk(C, c[0], c[1], &I, &J, &K);
        F(bc)[C] = lq_vmg_restrict_cell(I, J, K, m[0], m[1], m[2], CF(t));
    }
}

void lq_viscosity_ref_mg_prolong(lq_viscosity_ops *o, int l, const lq_field *xc, lq_field *xf)
{
    const int *m = o->mg_dim[l], *c = o->mg_dim[l + 1];
    for (int f = 0; f < m[0] * m[1] * m[2]; f++)
        lq_vmg_prolong_cell(f, m[0], m[1], c[0], c[1], CF(&o->mgB[l]), CF(xc), F(xf));
}
