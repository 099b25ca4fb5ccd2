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

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_viscosity_kernels[] = {
    LQ_KERNEL(lq_viscosity_ops, fill, "viscosity_fill"),
    LQ_KERNEL(lq_viscosity_ops, expl, "viscosity_explicit"),
    LQ_KERNEL(lq_viscosity_ops, setup, "viscosity_setup"),
    LQ_KERNEL(lq_viscosity_ops, apply, "viscosity_apply"),
    LQ_KERNEL(lq_viscosity_ops, rhs, "viscosity_rhs"),
    LQ_KERNEL(lq_viscosity_ops, residual, "viscosity_residual"),
    LQ_KERNEL(lq_viscosity_ops, cg_update, "viscosity_cg_update"),
    LQ_KERNEL(lq_viscosity_ops, cg_direction, "viscosity_cg_direction"),
    LQ_KERNEL(lq_viscosity_ops, precond, "viscosity_precond"),
    LQ_KERNEL(lq_viscosity_ops, reduce, "viscosity_reduce"),
    LQ_KERNEL(lq_viscosity_ops, mg_setup, "viscosity_mg_setup"),
    LQ_KERNEL(lq_viscosity_ops, mg_coarsen, "viscosity_mg_coarsen"),
    LQ_KERNEL(lq_viscosity_ops, mg_smooth, "viscosity_mg_smooth"),
    LQ_KERNEL(lq_viscosity_ops, mg_residual, "viscosity_mg_residual"),
    LQ_KERNEL(lq_viscosity_ops, mg_restrict, "viscosity_mg_restrict"),
    LQ_KERNEL(lq_viscosity_ops, mg_prolong, "viscosity_mg_prolong"),
};
static const lq_program lq_viscosity_program =
    LQ_PROGRAM("", lq_viscosity_sources, lq_viscosity_kernels);

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

/* The largest level-l cell count over the three components' lattices. */
static size_t lq_viscosity_mg_count(int nx, int ny, int nz, int l, int *levels)
{
    size_t n = 0;
    int lv = 0;
    for (int a = 0; a < (nz > 1 ? 3 : 2); a++) {
        int dims[LQ_VISCOSITY_MG_LEVELS][3];
        int L = lq_viscosity_mg_dims(nx + (a == 0), ny + (a == 1), nz + (a == 2), dims);
        lv = L > lv ? L : lv;
        size_t c = l < L ? (size_t)dims[l][0] * dims[l][1] * dims[l][2] : 0;
        n = c > n ? c : n;
    }
    if (levels) *levels = lv;
    return n;
}

size_t lq_viscosity_mg_bytes(int nx, int ny, int nz)
{
    int levels;
    size_t b = lq_viscosity_mg_count(nx, ny, nz, 0, &levels) * 5 * 4;
    for (int l = 1; l < levels; l++) b += lq_viscosity_mg_count(nx, ny, nz, l, NULL) * 7 * 4;
    return b;
}

/* The multigrid levels' buffers (once, on the first setup that asks for them). */
static int lq_viscosity_mg_alloc(lq_viscosity_ops *o)
{
    if (o->mg_alloc) return LQ_OK;
    int levels, rc = LQ_OK;
    lq_viscosity_mg_count(o->nx, o->ny, o->nz, 0, &levels);
    for (int l = 0; l < levels && !rc; l++) {
        int n = (int)lq_viscosity_mg_count(o->nx, o->ny, o->nz, l, NULL);
        rc = lq_field_alloc(o->ctx, &o->mgB[l], "visc.mg.B", n, 1, 1, 4);
        if (!rc) rc = lq_field_alloc(o->ctx, &o->mgL[l], "visc.mg.L", 3 * n, 1, 1, 4);
        if (!rc) rc = lq_field_alloc(o->ctx, &o->mgt[l], "visc.mg.t", n, 1, 1, 4);
        if (!rc && l > 0) rc = lq_field_alloc(o->ctx, &o->mgx[l], "visc.mg.x", n, 1, 1, 4);
        if (!rc && l > 0) rc = lq_field_alloc(o->ctx, &o->mgb[l], "visc.mg.b", n, 1, 1, 4);
        /* zeroed: the tails beyond a shorter axis' count compare equal in the twin tests */
        lq_field *zs[5] = {&o->mgB[l], &o->mgL[l], &o->mgt[l], &o->mgx[l], &o->mgb[l]};
        for (int i = 0; i < (l > 0 ? 5 : 3) && !rc; i++) rc = lq_field_zero(zs[i], 0);
    }
    o->mg_alloc = !rc;
    return rc;
}

/* Bound once: the grid's size, and the object's face kinds, diagonal, boxes and group
 * sums (the launches set the rest). */
static int lq_viscosity_bind(lq_viscosity_ops *o)
{
    lq_arg nx = LQ_VAL(o->nx), ny = LQ_VAL(o->ny), nz = LQ_VAL(o->nz), kind = LQ_MEM(&o->kind),
           diag = LQ_MEM(&o->diag);
    lq_binding b[] = {
        {&o->fill, {[1] = nx, [2] = ny, [3] = nz, [6] = LQ_MEM(&o->boxes)}},
        {&o->expl, {[2] = nx, [3] = ny, [4] = nz}},
        {&o->setup, {[1] = nx, [2] = ny, [3] = nz, [9] = kind, [10] = diag}},
        {&o->rhs, {[1] = nx, [2] = ny, [3] = nz, [5] = kind}},
        {&o->apply, {[1] = nx, [2] = ny, [3] = nz, [5] = kind, [6] = diag}},
        {&o->residual, {[1] = nx, [2] = ny, [3] = nz, [5] = kind, [6] = diag}},
        {&o->precond, {[2] = kind, [3] = diag}},
        {&o->reduce, {[4] = LQ_MEM(&o->partial)}},
    };
    return lq_kernels_bind(LQ_ARGS(b));
}

int lq_viscosity_ops_init(lq_viscosity_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    *o = (lq_viscosity_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz};
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
    rc = lq_program_build(&lq_viscosity_program, o, &o->program, ctx, nx, ny, nz, "");
    return rc ? rc : lq_viscosity_bind(o);
}

void lq_viscosity_ops_release(lq_viscosity_ops *o)
{
    lq_program_release(&lq_viscosity_program, o, &o->program);
    lq_field *fs[9] = {&o->kind, &o->diag, &o->b,       &o->r,    &o->z,
                       &o->d,    &o->q,    &o->partial, &o->boxes};
    for (int i = 0; i < 9; i++) lq_field_release(fs[i]);
    for (int l = 0; l < LQ_VISCOSITY_MG_LEVELS; l++) {
        lq_field *ms[5] = {&o->mgB[l], &o->mgL[l], &o->mgx[l], &o->mgb[l], &o->mgt[l]};
        for (int i = 0; i < 5; i++) lq_field_release(ms[i]);
    }
    o->mg_alloc = 0;
    free(o->partial_host);
    o->partial_host = NULL;
}

/* The unknowns of the current axis, one work-item each. */
static lq_range lq_viscosity_list(const lq_viscosity_ops *o)
{
    return lq_range_1d((size_t)lq_viscosity_count(o, o->axis), 0);
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
    lq_arg a[] = {LQ_MEM(nu), LQ_KEEP,     LQ_KEEP, LQ_KEEP,
                  LQ_VAL(h),  LQ_VAL(nu0), LQ_KEEP, LQ_VAL(nbox)};
    return lq_kernel_launch(&o->fill, lq_range_faces(o->nx, o->ny, o->nz, -1), LQ_ARGS(a));
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
    int nz = o->nz, has = sdf != NULL, fs = prm->noslip, cross = prm->cross;
    float kk = lq_viscosity_kk(prm);
    const lq_field *sd = sdf ? sdf : phi; /* any buffer: read only with an sdf */
    lq_field *out[3] = {us, vs, ws};
    int rc = LQ_OK;
    for (int a = 0; a < (nz > 1 ? 3 : 2) && !rc; a++) {
        lq_arg full[] = {LQ_MEM(out[a]), LQ_VAL(a),   LQ_KEEP,    LQ_KEEP,     LQ_KEEP,
                         LQ_MEM(nu),     LQ_MEM(phi), LQ_MEM(sd), LQ_VAL(has), LQ_VAL(fs),
                         LQ_VAL(cross),  LQ_MEM(u0),  LQ_MEM(v0), LQ_MEM(w0),  LQ_VAL(kk)};
        rc = lq_kernel_launch(&o->expl, lq_range_faces(o->nx, o->ny, o->nz, a), LQ_ARGS(full));
    }
    return rc;
}

/* --- multigrid preconditioner (viscosity_cell.h) --------------------------------------- */

static lq_range lq_viscosity_mg_range(const lq_viscosity_ops *o, int l)
{
    const int *m = o->mg_dim[l];
    return lq_range_1d((size_t)m[0] * m[1] * m[2], 0);
}

int lq_viscosity_mg_setup(lq_viscosity_ops *o)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_mg_setup(o);
        return LQ_OK;
    }
    int a = o->axis, nx = o->nx, ny = o->ny, nz = o->nz, ns = o->noslip;
    float kk = o->kk;
    lq_arg av[] = {LQ_VAL(a),          LQ_VAL(nx),        LQ_VAL(ny), LQ_VAL(nz),
                   LQ_MEM(o->nu),      LQ_MEM(&o->kind),  LQ_VAL(ns), LQ_VAL(kk),
                   LQ_MEM(&o->mgB[0]), LQ_MEM(&o->mgL[0])};
    return lq_kernel_launch(&o->mg_setup, lq_range_faces(nx, ny, nz, a), LQ_ARGS(av));
}

int lq_viscosity_mg_coarsen(lq_viscosity_ops *o, int l)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_mg_coarsen(o, l);
        return LQ_OK;
    }
    const int *m = o->mg_dim[l], *c = o->mg_dim[l + 1];
    lq_arg av[] = {LQ_VAL(m[0]),          LQ_VAL(m[1]),       LQ_VAL(m[2]),
                   LQ_VAL(c[0]),          LQ_VAL(c[1]),       LQ_VAL(c[2]),
                   LQ_MEM(&o->mgB[l]),    LQ_MEM(&o->mgL[l]), LQ_MEM(&o->mgB[l + 1]),
                   LQ_MEM(&o->mgL[l + 1])};
    return lq_kernel_launch(&o->mg_coarsen, lq_viscosity_mg_range(o, l + 1), LQ_ARGS(av));
}

int lq_viscosity_mg_smooth(lq_viscosity_ops *o, int l, const lq_field *b, lq_field *x, int color,
                           int first)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_mg_smooth(o, l, b, x, color, first);
        return LQ_OK;
    }
    const int *m = o->mg_dim[l];
    lq_arg av[] = {LQ_VAL(m[0]),       LQ_VAL(m[1]),       LQ_VAL(m[2]),
                   LQ_MEM(&o->mgB[l]), LQ_MEM(&o->mgL[l]), LQ_MEM(b),
                   LQ_MEM(x),          LQ_VAL(color),      LQ_VAL(first)};
    return lq_kernel_launch(&o->mg_smooth, lq_viscosity_mg_range(o, l), LQ_ARGS(av));
}

int lq_viscosity_mg_residual(lq_viscosity_ops *o, int l, const lq_field *b, const lq_field *x,
                             lq_field *t)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_mg_residual(o, l, b, x, t);
        return LQ_OK;
    }
    const int *m = o->mg_dim[l];
    lq_arg av[] = {LQ_VAL(m[0]),       LQ_VAL(m[1]), LQ_VAL(m[2]), LQ_MEM(&o->mgB[l]),
                   LQ_MEM(&o->mgL[l]), LQ_MEM(b),    LQ_MEM(x),    LQ_MEM(t)};
    return lq_kernel_launch(&o->mg_residual, lq_viscosity_mg_range(o, l), LQ_ARGS(av));
}

int lq_viscosity_mg_restrict(lq_viscosity_ops *o, int l, const lq_field *t, lq_field *bc)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_mg_restrict(o, l, t, bc);
        return LQ_OK;
    }
    const int *m = o->mg_dim[l], *c = o->mg_dim[l + 1];
    lq_arg av[] = {LQ_VAL(m[0]), LQ_VAL(m[1]), LQ_VAL(m[2]), LQ_VAL(c[0]),
                   LQ_VAL(c[1]), LQ_VAL(c[2]), LQ_MEM(t),    LQ_MEM(bc)};
    return lq_kernel_launch(&o->mg_restrict, lq_viscosity_mg_range(o, l + 1), LQ_ARGS(av));
}

int lq_viscosity_mg_prolong(lq_viscosity_ops *o, int l, const lq_field *xc, lq_field *xf)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_mg_prolong(o, l, xc, xf);
        return LQ_OK;
    }
    const int *m = o->mg_dim[l], *c = o->mg_dim[l + 1];
    lq_arg av[] = {LQ_VAL(m[0]), LQ_VAL(m[1]),       LQ_VAL(m[2]), LQ_VAL(c[0]),
                   LQ_VAL(c[1]), LQ_MEM(&o->mgB[l]), LQ_MEM(xc),   LQ_MEM(xf)};
    return lq_kernel_launch(&o->mg_prolong, lq_viscosity_mg_range(o, l), LQ_ARGS(av));
}

/* The hierarchy of the current axis: level 0 from the setup's kinds, then the Galerkin
 * coarsening level by level. */
static int lq_viscosity_mg_build(lq_viscosity_ops *o)
{
    int a = o->axis, rc = lq_viscosity_mg_alloc(o);
    o->mg_levels =
        lq_viscosity_mg_dims(o->nx + (a == 0), o->ny + (a == 1), o->nz + (a == 2), o->mg_dim);
    if (!rc) rc = lq_viscosity_mg_setup(o);
    for (int l = 0; l + 1 < o->mg_levels && !rc; l++) rc = lq_viscosity_mg_coarsen(o, l);
    return rc;
}

/* z = V(r): one V-cycle from z = 0, LQ_VISCOSITY_MG_SWEEPS red-black sweeps before (red
 * first) and after (black first) each coarse correction; the coarsest level (one cell
 * unless LQ_VISCOSITY_MG_LEVELS cut the hierarchy short) by LQ_VISCOSITY_MG_COARSEST
 * symmetric sweeps. */
#define LQ_VISCOSITY_MG_SWEEPS   2
#define LQ_VISCOSITY_MG_COARSEST 8
static int lq_viscosity_mg_vcycle(lq_viscosity_ops *o, const lq_field *r, lq_field *z)
{
    int L = o->mg_levels, rc = LQ_OK;
    const lq_field *bl[LQ_VISCOSITY_MG_LEVELS];
    lq_field *xl[LQ_VISCOSITY_MG_LEVELS];
    for (int l = 0; l < L; l++) {
        bl[l] = l ? &o->mgb[l] : r;
        xl[l] = l ? &o->mgx[l] : z;
    }
    for (int l = 0; l + 1 < L && !rc; l++) {
        for (int s = 0; s < LQ_VISCOSITY_MG_SWEEPS && !rc; s++) {
            rc = lq_viscosity_mg_smooth(o, l, bl[l], xl[l], 0, s == 0);
            if (!rc) rc = lq_viscosity_mg_smooth(o, l, bl[l], xl[l], 1, 0);
        }
        if (!rc) rc = lq_viscosity_mg_residual(o, l, bl[l], xl[l], &o->mgt[l]);
        if (!rc) rc = lq_viscosity_mg_restrict(o, l, &o->mgt[l], &o->mgb[l + 1]);
    }
    const int *m = o->mg_dim[L - 1];
    int sweeps = m[0] * m[1] * m[2] == 1 ? 1 : LQ_VISCOSITY_MG_COARSEST;
    for (int s = 0; s < sweeps && !rc; s++) {
        rc = lq_viscosity_mg_smooth(o, L - 1, bl[L - 1], xl[L - 1], 0, s == 0);
        if (!rc) rc = lq_viscosity_mg_smooth(o, L - 1, bl[L - 1], xl[L - 1], 1, 0);
        if (!rc) rc = lq_viscosity_mg_smooth(o, L - 1, bl[L - 1], xl[L - 1], 1, 0);
        if (!rc) rc = lq_viscosity_mg_smooth(o, L - 1, bl[L - 1], xl[L - 1], 0, 0);
    }
    for (int l = L - 2; l >= 0 && !rc; l--) {
        rc = lq_viscosity_mg_prolong(o, l, xl[l + 1], xl[l]);
        for (int s = 0; s < LQ_VISCOSITY_MG_SWEEPS && !rc; s++) {
            rc = lq_viscosity_mg_smooth(o, l, bl[l], xl[l], 1, 0);
            if (!rc) rc = lq_viscosity_mg_smooth(o, l, bl[l], xl[l], 0, 0);
        }
    }
    return rc;
}

int lq_viscosity_setup(lq_viscosity_ops *o, int axis, const lq_field *nu, const lq_field *phi,
                       const lq_field *sdf, const lq_viscosity_params *prm)
{
    o->axis = axis;
    o->noslip = prm->noslip;
    o->kk = lq_viscosity_kk(prm);
    o->nu = nu;
    o->pc = prm->precond;
    int rc = LQ_OK;
    if (IS_REF(o)) {
        lq_viscosity_ref_setup(o, axis, nu, phi, sdf, prm);
    } else {
        int a = axis, has = sdf != NULL, fs = prm->noslip;
        const lq_field *sd = sdf ? sdf : phi;
        lq_arg av[] = {LQ_VAL(a),  LQ_KEEP,     LQ_KEEP,    LQ_KEEP, LQ_MEM(nu), LQ_MEM(phi),
                       LQ_MEM(sd), LQ_VAL(has), LQ_VAL(fs), LQ_KEEP, LQ_KEEP};
        rc = lq_kernel_launch(&o->setup, lq_range_faces(o->nx, o->ny, o->nz, a), LQ_ARGS(av));
    }
    if (!rc && o->pc == LQ_VISCOSITY_PRECOND_MG) rc = lq_viscosity_mg_build(o);
    return rc;
}

int lq_viscosity_rhs(lq_viscosity_ops *o, const lq_field *q, lq_field *b)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_rhs(o, q, b);
        return LQ_OK;
    }
    int a = o->axis;
    float kk = o->kk;
    lq_arg av[] = {LQ_VAL(a), LQ_KEEP,   LQ_KEEP,    LQ_KEEP,  LQ_MEM(o->nu),
                   LQ_KEEP,   LQ_MEM(q), LQ_VAL(kk), LQ_MEM(b)};
    return lq_kernel_launch(&o->rhs, lq_range_faces(o->nx, o->ny, o->nz, a), LQ_ARGS(av));
}

int lq_viscosity_apply(lq_viscosity_ops *o, const lq_field *x, lq_field *y)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_apply(o, x, y);
        return LQ_OK;
    }
    int a = o->axis;
    float kk = o->kk;
    lq_arg av[] = {LQ_VAL(a), LQ_KEEP, LQ_KEEP,   LQ_KEEP,    LQ_MEM(o->nu),
                   LQ_KEEP,   LQ_KEEP, LQ_MEM(x), LQ_VAL(kk), LQ_MEM(y)};
    return lq_kernel_launch(&o->apply, lq_range_faces(o->nx, o->ny, o->nz, a), LQ_ARGS(av));
}

int lq_viscosity_residual(lq_viscosity_ops *o, const lq_field *b, const lq_field *x, lq_field *r)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_residual(o, b, x, r);
        return LQ_OK;
    }
    int a = o->axis;
    float kk = o->kk;
    lq_arg av[] = {LQ_VAL(a), LQ_KEEP,   LQ_KEEP,   LQ_KEEP,    LQ_MEM(o->nu), LQ_KEEP,
                   LQ_KEEP,   LQ_MEM(b), LQ_MEM(x), LQ_VAL(kk), LQ_MEM(r)};
    return lq_kernel_launch(&o->residual, lq_range_faces(o->nx, o->ny, o->nz, a), LQ_ARGS(av));
}

int lq_viscosity_cg_update(lq_viscosity_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                           const lq_field *q, float alpha)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_cg_update(o, x, r, d, q, alpha);
        return LQ_OK;
    }
    int n = lq_viscosity_count(o, o->axis);
    lq_arg av[] = {LQ_MEM(x), LQ_MEM(r), LQ_MEM(d), LQ_MEM(q), LQ_VAL(alpha), LQ_VAL(n)};
    return lq_kernel_launch(&o->cg_update, lq_viscosity_list(o), LQ_ARGS(av));
}

int lq_viscosity_cg_direction(lq_viscosity_ops *o, const lq_field *z, lq_field *d, float beta)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_cg_direction(o, z, d, beta);
        return LQ_OK;
    }
    int n = lq_viscosity_count(o, o->axis);
    lq_arg av[] = {LQ_MEM(z), LQ_MEM(d), LQ_VAL(beta), LQ_VAL(n)};
    return lq_kernel_launch(&o->cg_direction, lq_viscosity_list(o), LQ_ARGS(av));
}

int lq_viscosity_precond(lq_viscosity_ops *o, const lq_field *r, lq_field *z)
{
    if (o->pc == LQ_VISCOSITY_PRECOND_MG) return lq_viscosity_mg_vcycle(o, r, z);
    if (IS_REF(o)) {
        lq_viscosity_ref_precond(o, r, z);
        return LQ_OK;
    }
    int n = lq_viscosity_count(o, o->axis);
    float kk = o->kk;
    lq_arg av[] = {LQ_MEM(r), LQ_MEM(z), LQ_KEEP, LQ_KEEP, LQ_VAL(kk), LQ_VAL(n)};
    return lq_kernel_launch(&o->precond, lq_viscosity_list(o), LQ_ARGS(av));
}

int lq_viscosity_dot(lq_viscosity_ops *o, const lq_field *a, const lq_field *b, double *sum)
{
    if (IS_REF(o)) {
        lq_viscosity_ref_dot(o, a, b, sum);
        return LQ_OK;
    }
    int n = lq_viscosity_count(o, o->axis), groups, span;
    lq_viscosity_layout(n, &groups, &span);
    lq_arg av[] = {LQ_MEM(a), LQ_MEM(b), LQ_VAL(span), LQ_VAL(n), LQ_KEEP};
    lq_range r = lq_range_1d((size_t)groups * LQ_VISCOSITY_LOCAL, LQ_VISCOSITY_LOCAL);
    int rc = lq_kernel_launch(&o->reduce, r, LQ_ARGS(av));
    if (!rc) rc = lq_field_read(&o->partial, 0, (size_t)groups * sizeof(float), o->partial_host);
    if (rc) return rc;
    double s = 0;
    for (int g = 0; g < groups; g++) s += o->partial_host[g];
    *sum = s;
    return LQ_OK;
}

/* PCG (Jacobi or multigrid, prm->precond) on the system of the last setup, x in place (the warm
 * start: u*). */
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
