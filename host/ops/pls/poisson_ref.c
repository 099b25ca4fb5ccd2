/*
 * ref/poisson.c — reference twins of the `pls` pressure operations: plain loops over the
 * per-cell functions the kernels call (kernels/pls/poisson_cell.h). Cell passes write only
 * their own cell and read cells no other item of the pass writes (one colour of SOR,
 * Jacobi from pin into pout), so the serial loops give the kernels' results exactly; the
 * reduction walks the kernel's groups, items and tree in the same order.
 */
#include "ops/pls/poisson_ref.h"

#define F(fld)   ((float *)(fld)->host)
#define CF(fld)  ((const float *)(fld)->host)
#define UC(fld)  ((unsigned char *)(fld)->host)
#define CUC(fld) ((const unsigned char *)(fld)->host)

#define FOR_CELLS(o)                                                                               \
    for (int k = 0; k < (o)->nz; k++)                                                              \
        for (int j = 0; j < (o)->ny; j++)                                                          \
            for (int i = 0; i < (o)->nx; i++)

void lq_poisson_ref_setup(lq_poisson_ops *o, const lq_field *phi, const lq_field *sdf,
                          const lq_poisson_params *prm)
{
    const float *s = sdf ? CF(sdf) : CF(phi);
    float tmin = lq_poisson_theta_min(prm);
    FOR_CELLS(o)
    lq_poisson_setup_cell(CF(phi), s,
                          !sdf              ? 0
                          : prm->object_air ? LQ_POISSON_OBJECT_AIR
                                            : 1,
                          prm->wall_dirichlet, !prm->cell_centre, tmin, i, j, k, o->nx, o->ny,
                          o->nz, UC(&o->mask), F(&o->diag));
}

void lq_poisson_ref_setup_kinds(lq_poisson_ops *o, const lq_field *flags, const lq_field *sw)
{
    FOR_CELLS(o)
    lq_poisson_setup_kind_cell(CUC(flags), sw ? CF(sw) : NULL, i, j, k, o->nx, o->ny, o->nz,
                               UC(&o->mask), F(&o->diag));
}

void lq_poisson_ref_apply(lq_poisson_ops *o, const lq_field *x, lq_field *y)
{
    FOR_CELLS(o)
    lq_poisson_apply_cell(CF(x), UC(&o->mask), CF(&o->diag), F(y), i, j, k, o->nx, o->ny, o->nz);
}

void lq_poisson_ref_residual(lq_poisson_ops *o, const lq_field *b, float shift, const lq_field *p,
                             lq_field *r)
{
    FOR_CELLS(o)
    lq_poisson_residual_cell(CF(b), shift, CF(p), UC(&o->mask), CF(&o->diag), F(r), i, j, k, o->nx,
                             o->ny, o->nz);
}

void lq_poisson_ref_sor_pass(lq_poisson_ops *o, const lq_field *b, float shift, lq_field *p,
                             int colour, float omega)
{
    FOR_CELLS(o)
    lq_poisson_sor_cell(CF(b), shift, F(p), UC(&o->mask), CF(&o->diag), colour, omega, i, j, k,
                        o->nx, o->ny, o->nz);
}

void lq_poisson_ref_jacobi_pass(lq_poisson_ops *o, const lq_field *b, float shift,
                                const lq_field *pin, lq_field *pout, float omega)
{
    FOR_CELLS(o)
    lq_poisson_jacobi_cell(CF(b), shift, CF(pin), F(pout), UC(&o->mask), CF(&o->diag), omega, i, j,
                           k, o->nx, o->ny, o->nz);
}

void lq_poisson_ref_cg_update(lq_poisson_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                              const lq_field *q, float alpha)
{
    int n = o->nx * o->ny * o->nz;
    for (int c = 0; c < n; c++) lq_poisson_cg_update_cell(F(x), F(r), CF(d), CF(q), alpha, c);
}

void lq_poisson_ref_cg_direction(lq_poisson_ops *o, const lq_field *z, lq_field *d, float beta)
{
    int n = o->nx * o->ny * o->nz;
    for (int c = 0; c < n; c++) lq_poisson_cg_direction_cell(CF(z), F(d), beta, c);
}

void lq_poisson_ref_precond(lq_poisson_ops *o, const lq_field *r, lq_field *z)
{
    int n = o->nx * o->ny * o->nz;
    for (int c = 0; c < n; c++)
        lq_poisson_precond_jacobi_cell(CF(r), F(z), UC(&o->mask), CF(&o->diag), c);
}

void lq_poisson_ref_reduce(lq_poisson_ops *o, int mode, const lq_field *a, const lq_field *b,
                           float shift, double *sum)
{
    int n = o->nx * o->ny * o->nz;
    const float *pa = a ? CF(a) : CF(&o->diag), *pb = b ? CF(b) : pa;
    float red[LQ_POISSON_LOCAL];
    double s = 0;
    for (int g = 0; g < o->groups; g++) {
        for (int l = 0; l < LQ_POISSON_LOCAL; l++)
            red[l] = lq_poisson_red_item(mode, pa, pb, UC(&o->mask), shift, g, l, o->span, n);
        for (int h = LQ_POISSON_LOCAL / 2; h > 0; h >>= 1)
            for (int l = 0; l < h; l++) red[l] = red[l] + red[l + h];
        o->partial_host[g] = red[0];
        s += red[0];
    }
    *sum = s;
}

void lq_poisson_ref_rhs(lq_poisson_ops *o, const lq_field *u, const lq_field *v, const lq_field *w,
                        lq_field *b, const lq_poisson_params *prm)
{
    float scale = lq_poisson_rhs_scale(prm);
    FOR_CELLS(o)
    lq_poisson_rhs_cell(CF(u), CF(v), CF(w), UC(&o->mask), F(b), scale, i, j, k, o->nx, o->ny,
                        o->nz);
}

void lq_poisson_ref_project(lq_poisson_ops *o, const lq_field *p, lq_field *u, lq_field *v,
                            lq_field *w, const lq_field *phi, const lq_field *sdf,
                            const lq_poisson_params *prm)
{
    const float *s = sdf ? CF(sdf) : CF(phi);
    float tmin = lq_poisson_theta_min(prm), dt_h = lq_poisson_dt_h(prm);
    lq_field *f[3] = {u, v, w};
    int nx = o->nx, ny = o->ny, nz = o->nz;
    for (int a = 0; a < (nz > 1 ? 3 : 2); a++)
        for (int k = 0; k < nz + (a == 2); k++)
            for (int j = 0; j < ny + (a == 1); j++)
                for (int i = 0; i < nx + (a == 0); i++)
                    lq_poisson_project_face(F(f[a]), a, i, j, k, nx, ny, nz, CF(p), CF(phi), s,
                                            !sdf              ? 0
                                            : prm->object_air ? LQ_POISSON_OBJECT_AIR
                                                              : 1,
                                            prm->wall_dirichlet, !prm->cell_centre, tmin, dt_h);
}

/* --- multigrid ------------------------------------------------------------------------- */

static lq_field *lq_poisson_lmask(lq_poisson_ops *o, int l)
{
    return l ? &o->lv[l].mask : &o->mask;
}

static lq_field *lq_poisson_ldiag(lq_poisson_ops *o, int l)
{
    return l ? &o->lv[l].diag : &o->diag;
}

void lq_poisson_ref_mg_build(lq_poisson_ops *o, const lq_field *phi, const lq_field *sdf,
                             const lq_poisson_params *prm)
{
    const float *s = sdf ? CF(sdf) : CF(phi);
    int n = o->nx * o->ny * o->nz;
    for (int c = 0; c < n; c++)
        lq_poisson_state_cell(CF(phi), s,
                              !sdf              ? 0
                              : prm->object_air ? LQ_POISSON_OBJECT_AIR
                                                : 1,
                              UC(&o->mask), UC(&o->lv[0].state), c);
    lq_poisson_ref_mg_coarsen(o, phi, prm);
}

void lq_poisson_ref_mg_state_kinds(lq_poisson_ops *o, const lq_field *flags)
{
    int n = o->nx * o->ny * o->nz;
    for (int c = 0; c < n; c++)
        lq_poisson_state_kind_cell(CUC(flags), UC(&o->mask), UC(&o->lv[0].state), c);
}

void lq_poisson_ref_mg_coarsen(lq_poisson_ops *o, const lq_field *phi0,
                               const lq_poisson_params *prm)
{
    int dim3 = o->nz > 1;
    float tmin = lq_poisson_theta_min(prm);
    for (int l = 1; l < o->levels; l++) {
        lq_poisson_level *f = &o->lv[l - 1], *c = &o->lv[l];
        const float *fphi = l > 1 ? CF(&f->x) : (phi0 ? CF(phi0) : NULL);
        int from_state = l == 1 && !phi0;
        for (int k = 0; k < c->nz; k++)
            for (int j = 0; j < c->ny; j++)
                for (int i = 0; i < c->nx; i++)
                    lq_poisson_coarsen_cell(UC(&f->state), fphi, from_state, f->nx, f->ny, f->nz,
                                            UC(&c->state), F(&c->x), i, j, k, c->nx, c->ny);
        for (int k = 0; k < c->nz; k++)
            for (int j = 0; j < c->ny; j++)
                for (int i = 0; i < c->nx; i++)
                    lq_poisson_coarse_system_cell(UC(&c->state), CF(&c->x), tmin,
                                                  prm->wall_dirichlet, dim3, i, j, k, c->nx, c->ny,
                                                  c->nz, UC(&c->mask), F(&c->diag));
    }
}

/* Entry t of level L's unknown list as (c, i, j, k). */
#define FOR_LIST(L, off, n)                                                                        \
    for (int t = (off), c, i, j, k;                                                                \
         t < (off) + (n) && (c = ((const int *)(L)->list.host)[t],                                 \
                            lq_poisson_cell_ijk(c, (L)->nx, (L)->ny, &i, &j, &k), 1);              \
         t++)

void lq_poisson_ref_mg_smooth(lq_poisson_ops *o, int l, const lq_field *b, lq_field *x, int colour)
{
    lq_poisson_level *L = &o->lv[l];
    FOR_LIST(L, colour ? L->n[0] : 0, L->n[colour])
    lq_poisson_sor_cell(CF(b), 0.0f, F(x), UC(lq_poisson_lmask(o, l)), CF(lq_poisson_ldiag(o, l)),
                        colour, 1.0f, i, j, k, L->nx, L->ny, L->nz);
}

void lq_poisson_ref_mg_residual(lq_poisson_ops *o, int l, const lq_field *b, const lq_field *x,
                                lq_field *res)
{
    lq_poisson_level *L = &o->lv[l];
    FOR_LIST(L, 0, L->n[0] + L->n[1])
    lq_poisson_residual_cell(CF(b), 0.0f, CF(x), UC(lq_poisson_lmask(o, l)),
                             CF(lq_poisson_ldiag(o, l)), F(res), i, j, k, L->nx, L->ny, L->nz);
}

void lq_poisson_ref_mg_restrict(lq_poisson_ops *o, int l, const lq_field *res, lq_field *bc)
{
    lq_poisson_level *f = &o->lv[l], *L = &o->lv[l + 1];
    int dim3 = o->nz > 1;
    float scale = dim3 ? 0.5f : 1.0f;
    FOR_LIST(L, 0, L->n[0] + L->n[1])
    lq_poisson_restrict_cell(CF(res), f->nx, f->ny, f->nz, UC(lq_poisson_lmask(o, l + 1)), F(bc),
                             scale, dim3, i, j, k, L->nx, L->ny, L->nz);
}

void lq_poisson_ref_mg_prolong(lq_poisson_ops *o, int l, const lq_field *ec, lq_field *x)
{
    lq_poisson_level *L = &o->lv[l], *C = &o->lv[l + 1];
    FOR_LIST(L, 0, L->n[0] + L->n[1])
    lq_poisson_prolong_cell(CF(ec), C->nx, C->ny, C->nz, UC(lq_poisson_lmask(o, l)), F(x),
                            o->nz > 1, i, j, k, L->nx, L->ny);
}

/* --- the CG's list passes: the kernels' groups, items and tree, in order ---------------- */

#define LQ_POISSON_REF_LIST_SUM(item_call)                                                         \
    do {                                                                                           \
        int n = o->lv[0].n[0] + o->lv[0].n[1], groups = lq_poisson_list_groups(n);                 \
        int span = (n + groups - 1) / groups;                                                      \
        float red[LQ_POISSON_LOCAL];                                                               \
        double s = 0;                                                                              \
        for (int g = 0; n > 0 && g < groups; g++) {                                                \
            for (int l = 0; l < LQ_POISSON_LOCAL; l++) red[l] = (item_call);                       \
            for (int h = LQ_POISSON_LOCAL / 2; h > 0; h >>= 1)                                     \
                for (int l = 0; l < h; l++) red[l] = red[l] + red[l + h];                          \
            o->partial_host[g] = red[0];                                                           \
            s += red[0];                                                                           \
        }                                                                                          \
        if (sum) *sum = s;                                                                         \
    } while (0)

void lq_poisson_ref_apply_dot(lq_poisson_ops *o, const lq_field *x, lq_field *y, double *sum)
{
    const int *list = o->lv[0].list.host;
    LQ_POISSON_REF_LIST_SUM(lq_poisson_apply_dot_item(CF(x), UC(&o->mask), CF(&o->diag), F(y), list,
                                                      g, l, span, n, o->nx, o->ny, o->nz));
}

void lq_poisson_ref_update_dot(lq_poisson_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                               const lq_field *q, float alpha, double *sum)
{
    const int *list = o->lv[0].list.host;
    LQ_POISSON_REF_LIST_SUM(
        lq_poisson_update_dot_item(F(x), F(r), CF(d), CF(q), alpha, list, g, l, span, n));
}

void lq_poisson_ref_dot_list(lq_poisson_ops *o, const lq_field *a, const lq_field *b, double *sum)
{
    const int *list = o->lv[0].list.host;
    LQ_POISSON_REF_LIST_SUM(lq_poisson_dot_item(CF(a), CF(b), list, g, l, span, n));
}

void lq_poisson_ref_direction_list(lq_poisson_ops *o, const lq_field *z, lq_field *d, float beta)
{
    const int *list = o->lv[0].list.host;
    int n = o->lv[0].n[0] + o->lv[0].n[1];
    for (int t = 0; t < n; t++) lq_poisson_cg_direction_cell(CF(z), F(d), beta, list[t]);
}

void lq_poisson_ref_residual_list(lq_poisson_ops *o, const lq_field *b, float shift,
                                  const lq_field *p, lq_field *r)
{
    lq_poisson_level *L = &o->lv[0];
    FOR_LIST(L, 0, L->n[0] + L->n[1])
    lq_poisson_residual_cell(CF(b), shift, CF(p), UC(&o->mask), CF(&o->diag), F(r), i, j, k, L->nx,
                             L->ny, L->nz);
}

/* --- the unknown lists: poisson_list_count, the scan, poisson_list_scatter ------------- */

void lq_poisson_ref_list(lq_poisson_ops *o, int l, int cnt[3])
{
    lq_poisson_level *L = &o->lv[l];
    int ncell = L->nx * L->ny * L->nz, nb = lq_scan_blocks_of(ncell);
    const unsigned char *m = UC(lq_poisson_lmask(o, l));
    int *bsum = L->bsum.host, *boff = L->boff.host, *list = L->list.host;
    for (int q = 0; q < 3 * nb; q++)
        bsum[q] = lq_poisson_list_block(m, q, nb, L->nx, L->ny, ncell, 0, list, 0);
    cnt[0] = lq_scan_serial(boff, bsum, 3 * nb, 0);
    cnt[1] = boff[nb];
    cnt[2] = boff[2 * nb];
    for (int q = 0; q < 2 * nb; q++)
        lq_poisson_list_block(m, q, nb, L->nx, L->ny, ncell, 1, list, boff[q]);
}

/* --- CG's scalars: poisson_cg_stage, poisson_update_dot_s, poisson_direction_list_s ------- */

void lq_poisson_ref_cg_stage(lq_poisson_ops *o, int stage, int pre)
{
    int n = o->lv[0].n[0] + o->lv[0].n[1];
    lq_poisson_cg_stage(o->partial_host, lq_poisson_list_groups(n), o->cg.host, stage, pre);
}

void lq_poisson_ref_update_dot_s(lq_poisson_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                                 const lq_field *q)
{
    const double *s = o->cg.host;
    double rr;
    if (s[LQ_CG_STATE] == LQ_CG_RUN)
        lq_poisson_ref_update_dot(o, x, r, d, q, (float)s[LQ_CG_ALPHA], &rr);
}

void lq_poisson_ref_direction_list_s(lq_poisson_ops *o, const lq_field *z, lq_field *d)
{
    const double *s = o->cg.host;
    if (s[LQ_CG_STATE] == LQ_CG_RUN) lq_poisson_ref_direction_list(o, z, d, (float)s[LQ_CG_BETA]);
}
