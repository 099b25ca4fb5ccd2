/*
 * viscosity.c — launchers of the pls viscosity operations and the Jacobi-PCG loop
 * (viscosity.h; Rasmussen et al. 2004 §5.1).
 */
#include "ops/pls/viscosity.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"

static const char *const lq_viscosity_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", "kernels/pls/viscosity_cell.h",
    "kernels/pls/viscosity.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

#define LQ_VISCOSITY_KERNELS(o)                                                                    \
    {                                                                                              \
        {&(o)->fill, "viscosity_fill"}, {&(o)->expl, "viscosity_explicit"},                        \
            {&(o)->setup, "viscosity_setup"}, {&(o)->apply, "viscosity_apply"},                    \
            {&(o)->rhs, "viscosity_rhs"}, {&(o)->residual, "viscosity_residual"},                  \
            {&(o)->cg_update, "viscosity_cg_update"},                                              \
            {&(o)->cg_direction, "viscosity_cg_direction"}, {&(o)->precond, "viscosity_precond"},  \
        {                                                                                          \
            &(o)->reduce, "viscosity_reduce"                                                       \
        }                                                                                          \
    }

size_t lq_viscosity_ops_bytes(int nx, int ny, int nz)
{
    size_t n = 0;
    for (int a = 0; a < 3; a++) {
        size_t c = (size_t)(nx + (a == 0)) * (ny + (a == 1)) * (nz + (a == 2));
        n = c > n ? c : n;
    }
    return n * (1 + 6 * 4) + LQ_VISCOSITY_GROUPS * 4 +
           LQ_VISCOSITY_MAX_BOXES * LQ_VISCOSITY_BOX_FLOATS * 4;
}

int lq_viscosity_ops_init(lq_viscosity_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    memset(o, 0, sizeof *o);
    o->ctx = ctx;
    o->nx = nx;
    o->ny = ny;
    o->nz = nz;
    int n = 0;
    for (int a = 0; a < 3; a++) n = lq_viscosity_count(o, a) > n ? lq_viscosity_count(o, a) : n;
    int rc = lq_field_alloc(ctx, &o->kind, "visc.kind", n, 1, 1, 1);
    lq_field *vs[6] = {&o->diag, &o->b, &o->r, &o->z, &o->d, &o->q};
    const char *names[6] = {"visc.diag", "visc.b", "visc.r", "visc.z", "visc.d", "visc.q"};
    for (int i = 0; i < 6 && !rc; i++) rc = lq_field_alloc(ctx, vs[i], names[i], n, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->partial, "visc.partial", LQ_VISCOSITY_GROUPS, 1, 1, 4);
    if (!rc)
        rc = lq_field_alloc(ctx, &o->boxes, "visc.boxes",
                            LQ_VISCOSITY_MAX_BOXES * LQ_VISCOSITY_BOX_FLOATS, 1, 1, 4);
    if (!rc) {
        o->partial_host = calloc(LQ_VISCOSITY_GROUPS, sizeof(float));
        if (!o->partial_host) rc = lq_error(LQ_ESIM, "viscosity: out of host memory");
    }
    for (int i = 0; i < 6 && !rc; i++) rc = lq_field_zero(vs[i], 0);
    if (!rc) rc = lq_field_zero(&o->kind, 0);
    if (!rc) rc = lq_field_zero(&o->boxes, 0);
    if (rc || IS_REF(o)) return rc;
    lq_cl_kernel_name ks[] = LQ_VISCOSITY_KERNELS(o);
    return lq_cl_build_kernels(&ctx->cl, (int)LQ_COUNT(lq_viscosity_sources), lq_viscosity_sources,
                               "", &o->program, (int)LQ_COUNT(ks), ks);
}

void lq_viscosity_ops_release(lq_viscosity_ops *o)
{
    lq_cl_kernel_name ks[] = LQ_VISCOSITY_KERNELS(o);
    lq_cl_release_kernels(&o->program, (int)LQ_COUNT(ks), ks);
    lq_field *fs[9] = {&o->kind, &o->diag, &o->b,       &o->r,    &o->z,
                       &o->d,    &o->q,    &o->partial, &o->boxes};
    for (int i = 0; i < 9; i++) lq_field_release(fs[i]);
    free(o->partial_host);
    o->partial_host = NULL;
}

/* Binds args and runs over the face box of `axis` (or the cells when axis < 0). */
static int lq_viscosity_run_faces(lq_viscosity_ops *o, cl_kernel k, const char *name, int nargs,
                                  const lq_argv *a, int axis)
{
    for (int i = 0; i < nargs; i++) {
        int rc = lq_cl_arg(k, name, (cl_uint)i, a[i].size, a[i].p);
        if (rc) return rc;
    }
    size_t g[3] = {(size_t)o->nx + (axis == 0), (size_t)o->ny + (axis == 1),
                   (size_t)o->nz + (axis == 2)};
    return lq_cl_run(o->ctx, k, name, 3, g, NULL);
}

int lq_viscosity_fill(lq_viscosity_ops *o, lq_field *nu, float nu0, const lq_viscosity_box *boxes,
                      int nbox, float h)
{
    assert(nu->count == (size_t)o->nx * o->ny * o->nz);
    if (nbox < 0 || nbox > LQ_VISCOSITY_MAX_BOXES)
        return lq_error(LQ_EINPUT, "viscosity: %d boxes (at most %d)", nbox,
                        LQ_VISCOSITY_MAX_BOXES);
    float bx[LQ_VISCOSITY_MAX_BOXES * LQ_VISCOSITY_BOX_FLOATS];
    memset(bx, 0, sizeof bx);
    for (int b = 0; b < nbox; b++) {
        float *B = bx + LQ_VISCOSITY_BOX_FLOATS * b;
        for (int c = 0; c < 3; c++) {
            B[c] = boxes[b].lo[c];
            B[3 + c] = boxes[b].hi[c];
        }
        B[6] = boxes[b].nu;
    }
    int rc = lq_field_upload(&o->boxes, bx);
    if (rc) return rc;
    if (IS_REF(o)) {
        lq_viscosity_ref_fill(o, nu, nu0, nbox, h);
        return LQ_OK;
    }
    int nx = o->nx, ny = o->ny, nz = o->nz;
    lq_argv a[] = {MEM(nu), VAL(nx), VAL(ny), VAL(nz), VAL(h), VAL(nu0), MEM(&o->boxes), VAL(nbox)};
    return lq_viscosity_run_faces(o, o->fill, "viscosity_fill", (int)LQ_COUNT(a), a, -1);
}

int lq_viscosity_explicit(lq_viscosity_ops *o, const lq_field *u0, const lq_field *v0,
                          const lq_field *w0, lq_field *us, lq_field *vs, lq_field *ws,
                          const lq_field *nu, const lq_field *phi, const lq_field *sdf,
                          const lq_viscosity_params *prm)
{
    assert(u0->count == (size_t)lq_viscosity_count(o, 0) && us->count == u0->count);
    assert(v0->count == (size_t)lq_viscosity_count(o, 1) && vs->count == v0->count);
    if (IS_REF(o)) {
        lq_viscosity_ref_explicit(o, u0, v0, w0, us, vs, ws, nu, phi, sdf, prm);
        return LQ_OK;
    }
    int nx = o->nx, ny = o->ny, nz = o->nz, has = sdf != NULL, fs = prm->free_slip,
        cross = prm->cross;
    float kk = lq_viscosity_kk(prm);
    const lq_field *sd = sdf ? sdf : phi; /* any buffer: read only with an sdf */
    lq_field *out[3] = {us, vs, ws};
    int rc = LQ_OK;
    for (int a = 0; a < (nz > 1 ? 3 : 2) && !rc; a++) {
        lq_argv full[] = {MEM(out[a]), VAL(a),   VAL(nx), VAL(ny),  VAL(nz),
                          MEM(nu),     MEM(phi), MEM(sd), VAL(has), VAL(fs),
                          VAL(cross),  MEM(u0),  MEM(v0), MEM(w0),  VAL(kk)};
        rc = lq_viscosity_run_faces(o, o->expl, "viscosity_explicit", (int)LQ_COUNT(full), full, a);
    }
    return rc;
}

int lq_viscosity_setup(lq_viscosity_ops *o, int axis, const lq_field *nu, const lq_field *phi,
                       const lq_field *sdf, const lq_viscosity_params *prm)
{
    o->axis = axis;
    o->free_slip = prm->free_slip;
    o->kk = lq_viscosity_kk(prm);
    o->nu = nu;
    if (IS_REF(o)) {
        lq_viscosity_ref_setup(o, axis, nu, phi, sdf, prm);
        return LQ_OK;
    }
    int a = axis, nx = o->nx, ny = o->ny, nz = o->nz, has = sdf != NULL, fs = prm->free_slip;
    const lq_field *sd = sdf ? sdf : phi;
    lq_argv av[] = {VAL(a),  VAL(nx),  VAL(ny), VAL(nz),       MEM(nu),      MEM(phi),
                    MEM(sd), VAL(has), VAL(fs), MEM(&o->kind), MEM(&o->diag)};
    return lq_viscosity_run_faces(o, o->setup, "viscosity_setup", (int)LQ_COUNT(av), av, a);
}

int lq_viscosity_rhs(lq_viscosity_ops *o, const lq_field *q, lq_field *b)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_rhs(o, q, b);
        return LQ_OK;
    }
    int a = o->axis, nx = o->nx, ny = o->ny, nz = o->nz;
    float kk = o->kk;
    lq_argv av[] = {VAL(a),        VAL(nx), VAL(ny), VAL(nz), MEM(o->nu),
                    MEM(&o->kind), MEM(q),  VAL(kk), MEM(b)};
    return lq_viscosity_run_faces(o, o->rhs, "viscosity_rhs", (int)LQ_COUNT(av), av, a);
}

int lq_viscosity_apply(lq_viscosity_ops *o, const lq_field *x, lq_field *y)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_apply(o, x, y);
        return LQ_OK;
    }
    int a = o->axis, nx = o->nx, ny = o->ny, nz = o->nz;
    float kk = o->kk;
    lq_argv av[] = {VAL(a),        VAL(nx),       VAL(ny), VAL(nz), MEM(o->nu),
                    MEM(&o->kind), MEM(&o->diag), MEM(x),  VAL(kk), MEM(y)};
    return lq_viscosity_run_faces(o, o->apply, "viscosity_apply", (int)LQ_COUNT(av), av, a);
}

int lq_viscosity_residual(lq_viscosity_ops *o, const lq_field *b, const lq_field *x, lq_field *r)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_residual(o, b, x, r);
        return LQ_OK;
    }
    int a = o->axis, nx = o->nx, ny = o->ny, nz = o->nz;
    float kk = o->kk;
    lq_argv av[] = {VAL(a),        VAL(nx), VAL(ny), VAL(nz), MEM(o->nu), MEM(&o->kind),
                    MEM(&o->diag), MEM(b),  MEM(x),  VAL(kk), MEM(r)};
    return lq_viscosity_run_faces(o, o->residual, "viscosity_residual", (int)LQ_COUNT(av), av, a);
}

int lq_viscosity_cg_update(lq_viscosity_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                           const lq_field *q, float alpha)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_cg_update(o, x, r, d, q, alpha);
        return LQ_OK;
    }
    int n = lq_viscosity_count(o, o->axis);
    lq_argv av[] = {MEM(x), MEM(r), MEM(d), MEM(q), VAL(alpha), VAL(n)};
    return lq_cl_launch(o->ctx, o->cg_update, "viscosity_cg_update", (int)LQ_COUNT(av), av, 1,
                        (size_t)n, 1, NULL);
}

int lq_viscosity_cg_direction(lq_viscosity_ops *o, const lq_field *z, lq_field *d, float beta)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_cg_direction(o, z, d, beta);
        return LQ_OK;
    }
    int n = lq_viscosity_count(o, o->axis);
    lq_argv av[] = {MEM(z), MEM(d), VAL(beta), VAL(n)};
    return lq_cl_launch(o->ctx, o->cg_direction, "viscosity_cg_direction", (int)LQ_COUNT(av), av, 1,
                        (size_t)n, 1, NULL);
}

int lq_viscosity_precond(lq_viscosity_ops *o, const lq_field *r, lq_field *z)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_precond(o, r, z);
        return LQ_OK;
    }
    int n = lq_viscosity_count(o, o->axis);
    float kk = o->kk;
    lq_argv av[] = {MEM(r), MEM(z), MEM(&o->kind), MEM(&o->diag), VAL(kk), VAL(n)};
    return lq_cl_launch(o->ctx, o->precond, "viscosity_precond", (int)LQ_COUNT(av), av, 1,
                        (size_t)n, 1, NULL);
}

int lq_viscosity_dot(lq_viscosity_ops *o, const lq_field *a, const lq_field *b, double *sum)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_dot(o, a, b, sum);
        return LQ_OK;
    }
    int n = lq_viscosity_count(o, o->axis), groups, span;
    lq_viscosity_layout(n, &groups, &span);
    lq_argv av[] = {MEM(a), MEM(b), VAL(span), VAL(n), MEM(&o->partial)};
    size_t local = LQ_VISCOSITY_LOCAL;
    int rc = lq_cl_launch(o->ctx, o->reduce, "viscosity_reduce", (int)LQ_COUNT(av), av, 1,
                          (size_t)groups * LQ_VISCOSITY_LOCAL, 1, &local);
    if (!rc) rc = lq_field_read(&o->partial, 0, (size_t)groups * sizeof(float), o->partial_host);
    if (rc) return rc;
    double s = 0;
    for (int g = 0; g < groups; g++) s += o->partial_host[g];
    *sum = s;
    return LQ_OK;
}

/* Jacobi-PCG on the system of the last setup, x in place (the warm start: u*). */
static int lq_viscosity_pcg(lq_viscosity_ops *o, const lq_field *b, lq_field *x,
                            const lq_viscosity_params *prm, lq_viscosity_stats *st)
{
    int a = o->axis, max_iter = prm->max_iter > 0 ? prm->max_iter : 500;
    double tol = prm->tol > 0 ? prm->tol : 1e-6;
    lq_field *r = &o->r, *z = &o->z, *d = &o->d, *q = &o->q;
    double bb = 0, rr = 0, rz = 0, dq = 0;
    int rc = lq_viscosity_dot(o, b, b, &bb), it = 0;
    double goal = tol * sqrt(bb);
    if (!rc) rc = lq_viscosity_residual(o, b, x, r);
    if (!rc) rc = lq_viscosity_dot(o, r, r, &rr);
    if (!rc) rc = lq_viscosity_precond(o, r, z);
    if (!rc) rc = lq_viscosity_cg_direction(o, z, d, 0.0f);
    if (!rc) rc = lq_viscosity_dot(o, r, z, &rz);
    while (!rc && sqrt(rr) > goal && it < max_iter) {
        it++;
        rc = lq_viscosity_apply(o, d, q);
        if (!rc) rc = lq_viscosity_dot(o, d, q, &dq);
        if (rc) break;
        if (!(dq > 0)) {
            snprintf(st->message, sizeof st->message,
                     "viscosity CG (axis %d): breakdown dᵀAd = %g at iteration %d", a, dq, it);
            break;
        }
        rc = lq_viscosity_cg_update(o, x, r, d, q, (float)(rz / dq));
        if (!rc) rc = lq_viscosity_dot(o, r, r, &rr);
        if (!rc) rc = lq_viscosity_precond(o, r, z);
        double rz_new = 0;
        if (!rc) rc = lq_viscosity_dot(o, r, z, &rz_new);
        if (!rc) rc = lq_viscosity_cg_direction(o, z, d, (float)(rz_new / rz));
        rz = rz_new;
    }
    /* the true residual, for the stats */
    double tr = 0;
    if (!rc) rc = lq_viscosity_residual(o, b, x, r);
    if (!rc) rc = lq_viscosity_dot(o, r, r, &tr);
    st->iterations[a] = it;
    st->residual[a] = bb > 0 ? sqrt(tr / bb) : 0.0;
    if (!(sqrt(rr) <= goal)) st->converged = 0;
    return rc;
}

int lq_viscosity_solve(lq_viscosity_ops *o, int axis, lq_field *q, const lq_field *nu,
                       const lq_field *phi, const lq_field *sdf, const lq_viscosity_params *prm,
                       lq_viscosity_stats *st)
{
    assert(q->count == (size_t)lq_viscosity_count(o, axis));
    int rc = lq_viscosity_setup(o, axis, nu, phi, sdf, prm);
    if (!rc) rc = lq_viscosity_rhs(o, q, &o->b);
    if (!rc) rc = lq_viscosity_pcg(o, &o->b, q, prm, st);
    return rc;
}

/* UNKNOWN faces of the current setup (host count over the kinds). */
static int lq_viscosity_unknowns(lq_viscosity_ops *o, int *count)
{
    int n = lq_viscosity_count(o, o->axis);
    unsigned char *k = malloc((size_t)n);
    if (!k) return lq_error(LQ_ESIM, "viscosity: out of host memory");
    int rc = lq_field_read(&o->kind, 0, (size_t)n, k), c = 0;
    for (int f = 0; f < n && !rc; f++) c += k[f] == LQ_VISCOSITY_UNKNOWN;
    free(k);
    *count = c;
    return rc;
}

int lq_viscosity_step(lq_viscosity_ops *o, const lq_field *u0, const lq_field *v0,
                      const lq_field *w0, lq_field *us, lq_field *vs, lq_field *ws,
                      const lq_field *nu, const lq_field *phi, const lq_field *sdf,
                      const lq_viscosity_params *prm, lq_viscosity_stats *st)
{
    memset(st, 0, sizeof *st);
    st->converged = 1;
    int rc = LQ_OK;
    if (prm->cross != LQ_VISCOSITY_CROSS_NONE)
        rc = lq_viscosity_explicit(o, u0, v0, w0, us, vs, ws, nu, phi, sdf, prm);
    lq_field *qs[3] = {us, vs, ws};
    for (int a = 0; a < (o->nz > 1 ? 3 : 2) && !rc; a++) {
        rc = lq_viscosity_solve(o, a, qs[a], nu, phi, sdf, prm, st);
        if (!rc) rc = lq_viscosity_unknowns(o, &st->unknowns[a]);
    }
    if (!rc && !st->message[0])
        snprintf(st->message, sizeof st->message,
                 "viscosity CG: iterations %d/%d/%d, residual %.2g/%.2g/%.2g%s", st->iterations[0],
                 st->iterations[1], st->iterations[2], st->residual[0], st->residual[1],
                 st->residual[2], st->converged ? "" : " (not converged)");
    return rc;
}
