/*
 * poisson.c — launchers of the `pls` pressure operations (poisson.h; Rasmussen et al.
 * 2004 §3) and the solver loops built on them: red-black SOR, weighted Jacobi and
 * (Jacobi-)preconditioned CG. The loops run on the host and call one operation per
 * kernel, so they are the same on both backends; scalars (α, β, norms) come from the
 * deterministic reductions, added in double on the host in group order.
 */
#include "ops/pls/poisson.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "core/interrupt.h" /* a long solve stops for Ctrl-C (the frame is abandoned) */
#include "core/profile.h"

static const char *const lq_poisson_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", LQ_SCAN_SOURCES,
    "kernels/pls/poisson_cell.h", "kernels/pls/poisson.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

static lq_field *lq_poisson_lmask(lq_poisson_ops *o, int l);
static lq_field *lq_poisson_ldiag(lq_poisson_ops *o, int l);

/* Level l's residual: level 0's is CG's q (free between the update and the next
 * operator, where CG runs the V-cycle; 0 off the unknowns like every list vector). */
static lq_field *lq_poisson_lres(lq_poisson_ops *o, int l)
{
    return l ? &o->lv[l].res : &o->q;
}

/* lq_poisson_solid's mode (poisson_cell.h) */
static int lq_poisson_mode(const lq_field *sdf, const lq_poisson_params *prm)
{
    return !sdf ? 0 : prm->object_air ? LQ_POISSON_OBJECT_AIR : 1;
}

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_poisson_kernels[] = {
    LQ_KERNEL(lq_poisson_ops, setup, "poisson_setup"),
    LQ_KERNEL(lq_poisson_ops, setup_kinds, "poisson_setup_kinds"),
    LQ_KERNEL(lq_poisson_ops, mg_state_kinds, "poisson_mg_state_kinds"),
    LQ_KERNEL(lq_poisson_ops, apply, "poisson_apply"),
    LQ_KERNEL(lq_poisson_ops, residual, "poisson_residual"),
    LQ_KERNEL(lq_poisson_ops, sor, "poisson_sor"),
    LQ_KERNEL(lq_poisson_ops, jacobi, "poisson_jacobi"),
    LQ_KERNEL(lq_poisson_ops, cg_update, "poisson_cg_update"),
    LQ_KERNEL(lq_poisson_ops, cg_direction, "poisson_cg_direction"),
    LQ_KERNEL(lq_poisson_ops, precond_jacobi, "poisson_precond_jacobi"),
    LQ_KERNEL(lq_poisson_ops, reduce, "poisson_reduce"),
    LQ_KERNEL(lq_poisson_ops, rhs, "poisson_rhs"),
    LQ_KERNEL(lq_poisson_ops, project, "poisson_project_list"),
    LQ_KERNEL(lq_poisson_ops, mg_state, "poisson_mg_state"),
    LQ_KERNEL(lq_poisson_ops, mg_coarsen, "poisson_mg_coarsen"),
    LQ_KERNEL(lq_poisson_ops, mg_system, "poisson_mg_system"),
    LQ_KERNEL(lq_poisson_ops, mg_smooth, "poisson_mg_smooth_list"),
    LQ_KERNEL(lq_poisson_ops, mg_residual, "poisson_mg_residual_list"),
    LQ_KERNEL(lq_poisson_ops, mg_restrict, "poisson_mg_restrict_list"),
    LQ_KERNEL(lq_poisson_ops, mg_prolong, "poisson_mg_prolong_list"),
    LQ_KERNEL(lq_poisson_ops, mg_coarse, "poisson_mg_coarse"),
    LQ_KERNEL(lq_poisson_ops, apply_dot, "poisson_apply_dot"),
    LQ_KERNEL(lq_poisson_ops, update_dot, "poisson_update_dot"),
    LQ_KERNEL(lq_poisson_ops, dot_list, "poisson_dot_list"),
    LQ_KERNEL(lq_poisson_ops, direction_list, "poisson_direction_list"),
    LQ_KERNEL(lq_poisson_ops, mg_tail, "poisson_mg_tail"),
    LQ_KERNEL(lq_poisson_ops, mg_smooth_w, "poisson_mg_smooth_half"),
    LQ_KERNEL(lq_poisson_ops, mg_residual_w, "poisson_mg_residual"),
    LQ_KERNEL(lq_poisson_ops, mg_restrict_w, "poisson_mg_restrict"),
    LQ_KERNEL(lq_poisson_ops, mg_prolong_w, "poisson_mg_prolong"),
    LQ_KERNEL(lq_poisson_ops, list_count, "poisson_list_count"),
    LQ_KERNEL(lq_poisson_ops, list_scatter, "poisson_list_scatter"),
    LQ_KERNEL(lq_poisson_ops, cg_stage, "poisson_cg_stage"),
    LQ_KERNEL(lq_poisson_ops, update_dot_s, "poisson_update_dot_s"),
    LQ_KERNEL(lq_poisson_ops, direction_list_s, "poisson_direction_list_s"),
    LQ_SCAN_KERNELS(lq_poisson_ops),
};
static const lq_program lq_poisson_program =
    LQ_PROGRAM("XYZ", lq_poisson_sources, lq_poisson_kernels);

/* Bound once: level 0's mask, diagonal and unknown list, the group sums, the whole-grid
 * reduction's span, and the tail's level table (the launches set the rest). */
static int lq_poisson_bind(lq_poisson_ops *o)
{
    lq_arg mask = LQ_MEM(&o->mask), diag = LQ_MEM(&o->diag), list = LQ_MEM(&o->lv[0].list),
           partial = LQ_MEM(&o->partial);
    int dim3 = o->nz > 1;
    lq_binding b[] = {
        {&o->setup, {[6] = mask, [7] = diag}},
        {&o->setup_kinds, {[3] = mask, [4] = diag}},
        {&o->mg_state_kinds, {[1] = mask, [2] = LQ_MEM(&o->lv[0].state)}},
        {&o->apply, {[1] = mask, [2] = diag}},
        {&o->residual, {[3] = mask, [4] = diag}},
        {&o->sor, {[3] = mask, [4] = diag}},
        {&o->jacobi, {[4] = mask, [5] = diag}},
        {&o->precond_jacobi, {[2] = mask, [3] = diag}},
        {&o->reduce, {[3] = mask, [5] = LQ_VAL(o->span), [6] = partial}},
        {&o->rhs, {[3] = mask}},
        {&o->project, {[3] = mask, [4] = list}},
        {&o->mg_state, {[3] = mask, [4] = LQ_MEM(&o->lv[0].state)}},
        {&o->apply_dot, {[1] = mask, [2] = diag, [4] = list, [7] = partial}},
        {&o->update_dot, {[5] = list, [8] = partial}},
        {&o->dot_list, {[2] = list, [5] = partial}},
        {&o->direction_list, {[3] = list}},
        {&o->cg_stage, {[0] = partial, [2] = LQ_MEM(&o->cg)}},
        {&o->update_dot_s, {[4] = LQ_MEM(&o->cg), [5] = list, [8] = partial}},
        {&o->direction_list_s, {[2] = LQ_MEM(&o->cg), [3] = list}},
        {&o->mg_tail, {[1] = LQ_VAL(dim3), [2] = LQ_MEM(&o->tail_info)}},
    };
    return lq_kernels_bind(LQ_ARGS(b));
}

/* bytes, floats: NULL to allocate the object's own scratch */
static int lq_poisson_init(lq_poisson_ops *o, lq_ctx *ctx, int nx, int ny, int nz,
                           const lq_field *const *bytes, const lq_field *const *floats)
{
    *o = (lq_poisson_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz, .lent = bytes != NULL};
    long n = (long)nx * ny * nz;
    long g = (n + LQ_POISSON_LOCAL - 1) / LQ_POISSON_LOCAL;
    o->groups = (int)(g < LQ_POISSON_GROUPS ? g : LQ_POISSON_GROUPS);
    if (o->groups < 1) o->groups = 1;
    o->span = (int)((n + o->groups - 1) / o->groups);
    lq_field *vec[] = {&o->diag, &o->r, &o->z, &o->d, &o->q};
    static const char *const vname[] = {"poisson.diag", "poisson.r", "poisson.z", "poisson.d",
                                        "poisson.q"};
    int rc = LQ_OK;
    if (o->lent) {
        o->mask = lq_field_alias(bytes[0], "poisson.mask", nx, ny, nz, 1);
        for (int i = 0; i < 5; i++) *vec[i] = lq_field_alias(floats[i], vname[i], nx, ny, nz, 4);
    } else {
        rc = lq_field_alloc(ctx, &o->mask, "poisson.mask", nx, ny, nz, 1);
        for (int i = 0; i < 5 && !rc; i++)
            rc = lq_field_alloc(ctx, vec[i], vname[i], nx, ny, nz, 4);
    }
    if (!rc) rc = lq_field_alloc(ctx, &o->partial, "poisson.partial", o->groups, 1, 1, 4);
    if (!rc) {
        o->partial_host = calloc((size_t)o->groups, sizeof(float));
        if (!o->partial_host) rc = lq_error(LQ_ESIM, "poisson: out of host memory");
    }
    if (!rc)
        rc = lq_field_alloc(ctx, &o->counts, "poisson.counts", 4 * LQ_POISSON_MAX_LEVELS, 1, 1, 4);
    if (!rc) rc = lq_field_zero(&o->counts, 0);
    if (!rc) rc = lq_field_alloc(ctx, &o->cg, "poisson.cg", LQ_CG_N, 1, 1, sizeof(double));
    if (!rc) rc = lq_field_zero(&o->cg, 0);
    o->cg_host = !IS_REF(o) && !ctx->cl.dev.fp64;
    if (!rc) rc = lq_field_alloc(ctx, &o->tail_info, "poisson.tail", 5 * LQ_POISSON_TAIL, 1, 1, 4);
    o->tail = -1;
    o->tail_cells = LQ_POISSON_TAIL_CELLS;
    o->dense_ratio = LQ_POISSON_DENSE;
    if (!rc) rc = lq_field_zero(&o->mask, 0);
    if (!rc) rc = lq_field_zero(&o->diag, 0);
    /* multigrid levels: halve (rounding up) until the longest side is ≤ 4 */
    int lx = nx, ly = ny, lz = nz;
    for (int l = 0; l < LQ_POISSON_MAX_LEVELS && !rc; l++) {
        lq_poisson_level *L = &o->lv[l];
        L->nx = lx;
        L->ny = ly;
        L->nz = lz;
        o->levels = l + 1;
        if (l == 0 && o->lent) {
            L->state = lq_field_alias(bytes[1], "poisson.mg.state", lx, ly, lz, 1);
            L->list = lq_field_alias(floats[5], "poisson.mg.list", lx, ly, lz, 4);
        } else {
            rc = lq_field_alloc(ctx, &L->state, "poisson.mg.state", lx, ly, lz, 1);
            if (!rc) rc = lq_field_alloc(ctx, &L->list, "poisson.mg.list", lx, ly, lz, 4);
        }
        int vb = 3 * lq_scan_blocks_of((long long)lx * ly * lz);
        if (!rc) rc = lq_field_alloc(ctx, &L->bsum, "poisson.mg.scan", vb, 1, 1, 4);
        if (!rc) rc = lq_field_alloc(ctx, &L->boff, "poisson.mg.scan", vb, 1, 1, 4);
        if (l > 0) { /* level 0: the mask and diag above, CG's q as the residual */
            if (!rc) rc = lq_field_alloc(ctx, &L->res, "poisson.mg.res", lx, ly, lz, 4);
            if (!rc) rc = lq_field_alloc(ctx, &L->mask, "poisson.mg.mask", lx, ly, lz, 1);
            if (!rc) rc = lq_field_alloc(ctx, &L->diag, "poisson.mg.diag", lx, ly, lz, 4);
            if (!rc) rc = lq_field_alloc(ctx, &L->x, "poisson.mg.x", lx, ly, lz, 4);
            if (!rc) rc = lq_field_alloc(ctx, &L->b, "poisson.mg.b", lx, ly, lz, 4);
        }
        int longest = lx > ly ? lx : ly;
        if (lz > longest) longest = lz;
        if (longest <= 4) break;
        lx = (lx + 1) / 2;
        ly = (ly + 1) / 2;
        lz = (lz + 1) / 2;
    }
    if (rc || IS_REF(o)) return rc;
    rc = lq_program_build(&lq_poisson_program, o, &o->program, ctx, nx, ny, nz, "");
    return rc ? rc : lq_poisson_bind(o);
}

int lq_poisson_ops_init(lq_poisson_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    return lq_poisson_init(o, ctx, nx, ny, nz, NULL, NULL);
}

int lq_poisson_ops_init_lent(lq_poisson_ops *o, lq_ctx *ctx, int nx, int ny, int nz,
                             const lq_field *const bytes[2], const lq_field *const floats[6])
{
    assert(bytes && floats);
    return lq_poisson_init(o, ctx, nx, ny, nz, bytes, floats);
}

void lq_poisson_ops_release(lq_poisson_ops *o)
{
    lq_program_release(&lq_poisson_program, o, &o->program);
    lq_field *lent[] = {&o->mask, &o->diag, &o->r,           &o->z,
                        &o->d,    &o->q,    &o->lv[0].state, &o->lv[0].list};
    for (size_t i = 0; i < LQ_COUNT(lent); i++) {
        if (!o->lent) lq_field_release(lent[i]);
        *lent[i] = (lq_field){0};
    }
    lq_field *fs[] = {&o->partial, &o->tail_info, &o->counts, &o->cg};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
    for (int l = 0; l < LQ_POISSON_MAX_LEVELS; l++) {
        lq_poisson_level *L = &o->lv[l];
        lq_field *ls[] = {&L->mask, &L->diag, &L->state, &L->x,   &L->b,
                          &L->res,  &L->list, &L->bsum,  &L->boff};
        for (size_t i = 0; i < LQ_COUNT(ls); i++) lq_field_release(ls[i]);
    }
    free(o->partial_host);
    o->partial_host = NULL;
}

static lq_range lq_poisson_cells(const lq_poisson_ops *o)
{
    return lq_range_3d((size_t)o->nx, (size_t)o->ny, (size_t)o->nz);
}

/* The cells of level L (nx × ny × nz of it), or the first half in x. */
static lq_range lq_poisson_level_cells(const lq_poisson_level *L, int half)
{
    return lq_range_3d(half ? (size_t)(L->nx + 1) / 2 : (size_t)L->nx, (size_t)L->ny,
                       (size_t)L->nz);
}

static size_t lq_poisson_count(const lq_poisson_ops *o)
{
    return (size_t)o->nx * o->ny * o->nz;
}

static void lq_poisson_check(const lq_poisson_ops *o, const lq_field *f)
{
    (void)o;
    (void)f;
    assert(f->elem == 4 && f->count == lq_poisson_count(o));
}

/* --- single operations ---------------------------------------------------------------- */

int lq_poisson_setup(lq_poisson_ops *o, const lq_field *phi, const lq_field *sdf,
                     const lq_poisson_params *prm)
{
    lq_poisson_check(o, phi);
    if (sdf) lq_poisson_check(o, sdf);
    if (IS_REF(o)) {
        lq_poisson_ref_setup(o, phi, sdf, prm);
        return LQ_OK;
    }
    int has_sdf = lq_poisson_mode(sdf, prm), wall = prm->wall_dirichlet, ghost = !prm->cell_centre;
    float tmin = lq_poisson_theta_min(prm);
    const lq_field *s = sdf ? sdf : phi;
    lq_arg a[] = {LQ_MEM(phi),   LQ_MEM(s),    LQ_VAL(has_sdf), LQ_VAL(wall),
                  LQ_VAL(ghost), LQ_VAL(tmin), LQ_KEEP,         LQ_KEEP};
    return lq_kernel_launch(&o->setup, lq_poisson_cells(o), LQ_ARGS(a));
}

int lq_poisson_setup_kinds(lq_poisson_ops *o, const lq_field *flags, const lq_field *sw)
{
    assert(flags->count == (size_t)o->nx * o->ny * o->nz && flags->elem == 1);
    assert(!sw || sw->count >= flags->count);
    if (IS_REF(o)) {
        lq_poisson_ref_setup_kinds(o, flags, sw);
        return LQ_OK;
    }
    int has_sw = sw != NULL;
    lq_arg a[] = {LQ_MEM(flags), LQ_MEM(sw ? sw : &o->diag), LQ_VAL(has_sw), LQ_KEEP, LQ_KEEP};
    return lq_kernel_launch(&o->setup_kinds, lq_poisson_cells(o), LQ_ARGS(a));
}

int lq_poisson_apply(lq_poisson_ops *o, const lq_field *x, lq_field *y)
{
    lq_poisson_check(o, x);
    lq_poisson_check(o, y);
    if (IS_REF(o)) {
        lq_poisson_ref_apply(o, x, y);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(x), LQ_KEEP, LQ_KEEP, LQ_MEM(y)};
    return lq_kernel_launch(&o->apply, lq_poisson_cells(o), LQ_ARGS(a));
}

int lq_poisson_residual(lq_poisson_ops *o, const lq_field *b, float shift, const lq_field *p,
                        lq_field *r)
{
    lq_poisson_check(o, b);
    lq_poisson_check(o, p);
    lq_poisson_check(o, r);
    if (IS_REF(o)) {
        lq_poisson_ref_residual(o, b, shift, p, r);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(b), LQ_VAL(shift), LQ_MEM(p), LQ_KEEP, LQ_KEEP, LQ_MEM(r)};
    return lq_kernel_launch(&o->residual, lq_poisson_cells(o), LQ_ARGS(a));
}

int lq_poisson_sor_pass(lq_poisson_ops *o, const lq_field *b, float shift, lq_field *p, int colour,
                        float omega)
{
    lq_poisson_check(o, b);
    lq_poisson_check(o, p);
    if (IS_REF(o)) {
        lq_poisson_ref_sor_pass(o, b, shift, p, colour, omega);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(b), LQ_VAL(shift),  LQ_MEM(p),    LQ_KEEP,
                  LQ_KEEP,   LQ_VAL(colour), LQ_VAL(omega)};
    return lq_kernel_launch(&o->sor, lq_poisson_cells(o), LQ_ARGS(a));
}

int lq_poisson_jacobi_pass(lq_poisson_ops *o, const lq_field *b, float shift, const lq_field *pin,
                           lq_field *pout, float omega)
{
    lq_poisson_check(o, b);
    lq_poisson_check(o, pin);
    lq_poisson_check(o, pout);
    if (IS_REF(o)) {
        lq_poisson_ref_jacobi_pass(o, b, shift, pin, pout, omega);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(b), LQ_VAL(shift), LQ_MEM(pin),  LQ_MEM(pout),
                  LQ_KEEP,   LQ_KEEP,       LQ_VAL(omega)};
    return lq_kernel_launch(&o->jacobi, lq_poisson_cells(o), LQ_ARGS(a));
}

int lq_poisson_cg_update(lq_poisson_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                         const lq_field *q, float alpha)
{
    if (IS_REF(o)) {
        lq_poisson_ref_cg_update(o, x, r, d, q, alpha);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(x), LQ_MEM(r), LQ_MEM(d), LQ_MEM(q), LQ_VAL(alpha)};
    return lq_kernel_launch(&o->cg_update, lq_range_1d(lq_poisson_count(o), 0), LQ_ARGS(a));
}

int lq_poisson_cg_direction(lq_poisson_ops *o, const lq_field *z, lq_field *d, float beta)
{
    if (IS_REF(o)) {
        lq_poisson_ref_cg_direction(o, z, d, beta);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(z), LQ_MEM(d), LQ_VAL(beta)};
    return lq_kernel_launch(&o->cg_direction, lq_range_1d(lq_poisson_count(o), 0), LQ_ARGS(a));
}

int lq_poisson_precond(lq_poisson_ops *o, const lq_field *r, lq_field *z)
{
    if (IS_REF(o)) {
        lq_poisson_ref_precond(o, r, z);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(r), LQ_MEM(z), LQ_KEEP, LQ_KEEP};
    return lq_kernel_launch(&o->precond_jacobi, lq_range_1d(lq_poisson_count(o), 0), LQ_ARGS(a));
}

int lq_poisson_reduce(lq_poisson_ops *o, int mode, const lq_field *a, const lq_field *b,
                      float shift, double *sum)
{
    if (IS_REF(o)) {
        lq_poisson_ref_reduce(o, mode, a, b, shift, sum);
        return LQ_OK;
    }
    const lq_field *pa = a ? a : &o->diag, *pb = b ? b : pa;
    lq_arg av[] = {LQ_VAL(mode), LQ_MEM(pa), LQ_MEM(pb), LQ_KEEP, LQ_VAL(shift), LQ_KEEP, LQ_KEEP};
    lq_range r = lq_range_1d((size_t)o->groups * LQ_POISSON_LOCAL, LQ_POISSON_LOCAL);
    int rc = lq_kernel_launch(&o->reduce, r, LQ_ARGS(av));
    if (!rc) rc = lq_field_download(&o->partial, o->partial_host);
    if (rc) return rc;
    double s = 0;
    for (int g = 0; g < o->groups; g++) s += o->partial_host[g];
    *sum = s;
    return LQ_OK;
}

/* --- unknown lists and the CG's list passes (poisson_cell.h) ---------------------------- */

/* Level l's list by stream compaction (poisson_cell.h, lq_poisson_list_block): the counts
 * land in o->counts[4 l …] (read once for all levels by lq_poisson_lists). */
static int lq_poisson_list_level(lq_poisson_ops *o, int l)
{
    lq_poisson_level *L = &o->lv[l];
    int ncell = L->nx * L->ny * L->nz, nb = lq_scan_blocks_of(ncell), at = 4 * l;
    lq_scan_bufs sb = {.bsum = &L->bsum,
                       .boff = &L->boff,
                       .cnt = &o->counts,
                       .capacity = 3 * nb * LQ_SCAN_BLOCK,
                       .at = {.live = at, .dropped = at + 3, .made = -1, .also = -1}};
    const lq_field *mask = lq_poisson_lmask(o, l);
    lq_arg ca[] = {LQ_MEM(mask),  LQ_VAL(nb),    LQ_VAL(L->nx),
                   LQ_VAL(L->ny), LQ_VAL(ncell), LQ_MEM(&L->bsum)};
    lq_arg sa[] = {LQ_MEM(mask),     LQ_VAL(nb),         LQ_VAL(L->nx),
                   LQ_VAL(L->ny),    LQ_VAL(ncell),      LQ_MEM(&L->boff),
                   LQ_MEM(&L->list), LQ_MEM(&o->counts), LQ_VAL(at)};
    return lq_scan_compact(&o->scan, &sb, 3 * nb * LQ_SCAN_BLOCK, &o->list_count, LQ_ARGS(ca),
                           &o->list_scatter, LQ_ARGS(sa));
}

int lq_poisson_lists(lq_poisson_ops *o)
{
    int rc = LQ_OK, levels = o->mg_ready ? o->levels : 1;
    int *cnt = o->counts_host;
    /* every level's list on the device, then one read of all their counts */
    for (int l = 0; l < levels && !rc; l++) {
        if (IS_REF(o))
            lq_poisson_ref_list(o, l, cnt + 4 * l);
        else
            rc = lq_poisson_list_level(o, l);
    }
    if (!rc && !IS_REF(o)) rc = lq_field_read(&o->counts, 0, (size_t)levels * 4 * sizeof(int), cnt);
    for (int l = 0; l < levels && !rc; l++) {
        lq_poisson_level *L = &o->lv[l];
        const int *c = cnt + 4 * l;
        L->n[0] = c[1];
        L->n[1] = c[2] - c[1];
        L->dense = o->dense_ratio > 0 &&
                   (long)(L->n[0] + L->n[1]) * o->dense_ratio > (long)L->nx * L->ny * L->nz;
        if (l == 0) { /* the counts of lq_poisson_build */
            o->dense = L->dense;
            o->unknowns = c[2];
            o->dirichlet = c[0] - c[2];
        }
        /* the vectors the list passes write only on the unknowns start at 0 elsewhere */
        rc = lq_field_zero(lq_poisson_lres(o, l), 0);
        if (!rc && l == 0) rc = lq_field_zero(&o->r, 0);
        if (!rc && l > 0) rc = lq_field_zero(&L->x, 0);
        if (!rc && l > 0) rc = lq_field_zero(&L->b, 0);
    }
    /* the tail: from the first level with few unknowns, at most LQ_POISSON_TAIL levels */
    o->tail = -1;
    if (rc || IS_REF(o) || !o->mg_ready || o->tail_cells < 0 ||
        o->ctx->cl.dev.max_work_group < LQ_POISSON_TAIL_GROUP)
        return rc;
    for (int l = o->levels > LQ_POISSON_TAIL ? o->levels - LQ_POISSON_TAIL : 0; l < o->levels; l++)
        if (o->lv[l].n[0] + o->lv[l].n[1] <= o->tail_cells) {
            o->tail = l;
            break;
        }
    if (o->tail < 0) return rc;
    int info[5 * LQ_POISSON_TAIL] = {0};
    for (int l = o->tail; l < o->levels; l++) {
        int *e = info + 5 * (l - o->tail);
        e[0] = o->lv[l].nx;
        e[1] = o->lv[l].ny;
        e[2] = o->lv[l].nz;
        e[3] = o->lv[l].n[0];
        e[4] = o->lv[l].n[1];
    }
    /* written without a wait (the queue is in order; tail_host holds still until the next
     * build's counts read has waited for this write), and only when it changed */
    if (o->tail_valid && memcmp(info, o->tail_host, sizeof info) == 0) return rc;
    memcpy(o->tail_host, info, sizeof info);
    o->tail_valid = 1;
    return lq_field_write_async(&o->tail_info, 0, sizeof info, o->tail_host);
}

static int lq_poisson_nlist(const lq_poisson_ops *o)
{
    return o->lv[0].n[0] + o->lv[0].n[1];
}

/* Runs a list-reduction kernel over its groups and sums the group sums. */
static int lq_poisson_list_sum(lq_poisson_ops *o, lq_kernel *k, int nargs, const lq_arg *a,
                               double *sum)
{
    int n = lq_poisson_nlist(o), groups = lq_poisson_list_groups(n);
    if (sum) *sum = 0;
    if (n == 0) return LQ_OK;
    lq_range r = lq_range_1d((size_t)groups * LQ_POISSON_LOCAL, LQ_POISSON_LOCAL);
    int rc = lq_kernel_launch(k, r, nargs, a);
    if (rc || !sum) return rc; /* no sum: the group sums stay on the device */
    rc = lq_field_read(&o->partial, 0, (size_t)groups * sizeof(float), o->partial_host);
    if (rc) return rc;
    double s = 0;
    for (int g = 0; g < groups; g++) s += o->partial_host[g];
    *sum = s;
    return LQ_OK;
}

static int lq_poisson_span(const lq_poisson_ops *o)
{
    int n = lq_poisson_nlist(o), g = lq_poisson_list_groups(n);
    return (n + g - 1) / g;
}

int lq_poisson_apply_dot(lq_poisson_ops *o, const lq_field *x, lq_field *y, double *xy)
{
    lq_poisson_check(o, x);
    lq_poisson_check(o, y);
    if (IS_REF(o)) {
        lq_poisson_ref_apply_dot(o, x, y, xy);
        return LQ_OK;
    }
    int n = lq_poisson_nlist(o), span = lq_poisson_span(o);
    lq_arg a[] = {LQ_MEM(x), LQ_KEEP,   LQ_KEEP,      LQ_MEM(y),
                  LQ_KEEP,   LQ_VAL(n), LQ_VAL(span), LQ_KEEP};
    return lq_poisson_list_sum(o, &o->apply_dot, LQ_ARGS(a), xy);
}

int lq_poisson_update_dot(lq_poisson_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                          const lq_field *q, float alpha, double *rr)
{
    if (IS_REF(o)) {
        lq_poisson_ref_update_dot(o, x, r, d, q, alpha, rr);
        return LQ_OK;
    }
    int n = lq_poisson_nlist(o), span = lq_poisson_span(o);
    lq_arg a[] = {LQ_MEM(x), LQ_MEM(r), LQ_MEM(d),    LQ_MEM(q), LQ_VAL(alpha),
                  LQ_KEEP,   LQ_VAL(n), LQ_VAL(span), LQ_KEEP};
    return lq_poisson_list_sum(o, &o->update_dot, LQ_ARGS(a), rr);
}

int lq_poisson_dot_list(lq_poisson_ops *o, const lq_field *a, const lq_field *b, double *sum)
{
    if (IS_REF(o)) {
        lq_poisson_ref_dot_list(o, a, b, sum);
        return LQ_OK;
    }
    int n = lq_poisson_nlist(o), span = lq_poisson_span(o);
    lq_arg av[] = {LQ_MEM(a), LQ_MEM(b), LQ_KEEP, LQ_VAL(n), LQ_VAL(span), LQ_KEEP};
    return lq_poisson_list_sum(o, &o->dot_list, LQ_ARGS(av), sum);
}

/* A list pass over n cells (fixed groups: the count varies, PoCL would recompile per
 * size). */
static int lq_poisson_list_run(lq_kernel *k, int nargs, const lq_arg *a, int n)
{
    if (n <= 0) return LQ_OK;
    return lq_kernel_launch(k, lq_range_var(k, n), nargs, a);
}

int lq_poisson_residual_list(lq_poisson_ops *o, const lq_field *b, float shift, const lq_field *p,
                             lq_field *r)
{
    if (IS_REF(o)) {
        lq_poisson_ref_residual_list(o, b, shift, p, r);
        return LQ_OK;
    }
    lq_poisson_level *L = &o->lv[0];
    int off = 0, n = L->n[0] + L->n[1];
    lq_arg a[] = {LQ_MEM(b),        LQ_VAL(shift), LQ_MEM(p),        LQ_MEM(&o->mask),
                  LQ_MEM(&o->diag), LQ_MEM(r),     LQ_MEM(&L->list), LQ_VAL(off),
                  LQ_VAL(n),        LQ_VAL(L->nx), LQ_VAL(L->ny),    LQ_VAL(L->nz)};
    return lq_poisson_list_run(&o->mg_residual, LQ_ARGS(a), n);
}

int lq_poisson_direction_list(lq_poisson_ops *o, const lq_field *z, lq_field *d, float beta)
{
    if (IS_REF(o)) {
        lq_poisson_ref_direction_list(o, z, d, beta);
        return LQ_OK;
    }
    int n = lq_poisson_nlist(o);
    lq_arg a[] = {LQ_MEM(z), LQ_MEM(d), LQ_VAL(beta), LQ_KEEP, LQ_VAL(n)};
    return lq_poisson_list_run(&o->direction_list, LQ_ARGS(a), n);
}

/* CG's scalars on the device (poisson_cell.h, lq_poisson_cg_stage): a stage over the last
 * list reduction's group sums, and the passes that read α and β there. */
static int lq_poisson_cg_stage_run(lq_poisson_ops *o, int stage, int pre)
{
    if (IS_REF(o)) {
        lq_poisson_ref_cg_stage(o, stage, pre);
        return LQ_OK;
    }
    int groups = lq_poisson_list_groups(lq_poisson_nlist(o));
    lq_arg a[] = {LQ_KEEP, LQ_VAL(groups), LQ_KEEP, LQ_VAL(stage), LQ_VAL(pre)};
    return lq_kernel_launch(&o->cg_stage, lq_range_1d(1, 1), LQ_ARGS(a));
}

static int lq_poisson_update_dot_s(lq_poisson_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                                   const lq_field *q)
{
    if (IS_REF(o)) {
        lq_poisson_ref_update_dot_s(o, x, r, d, q);
        return LQ_OK;
    }
    int n = lq_poisson_nlist(o), span = lq_poisson_span(o);
    lq_arg a[] = {LQ_MEM(x), LQ_MEM(r), LQ_MEM(d),    LQ_MEM(q), LQ_KEEP,
                  LQ_KEEP,   LQ_VAL(n), LQ_VAL(span), LQ_KEEP};
    return lq_poisson_list_sum(o, &o->update_dot_s, LQ_ARGS(a), NULL);
}

static int lq_poisson_direction_list_s(lq_poisson_ops *o, const lq_field *z, lq_field *d)
{
    if (IS_REF(o)) {
        lq_poisson_ref_direction_list_s(o, z, d);
        return LQ_OK;
    }
    int n = lq_poisson_nlist(o);
    lq_arg a[] = {LQ_MEM(z), LQ_MEM(d), LQ_KEEP, LQ_KEEP, LQ_VAL(n)};
    return lq_poisson_list_run(&o->direction_list_s, LQ_ARGS(a), n);
}

int lq_poisson_rhs(lq_poisson_ops *o, const lq_field *u, const lq_field *v, const lq_field *w,
                   lq_field *b, const lq_poisson_params *prm)
{
    lq_poisson_check(o, b);
    assert(u->count == (size_t)(o->nx + 1) * o->ny * o->nz);
    assert(v->count == (size_t)o->nx * (o->ny + 1) * o->nz);
    if (IS_REF(o)) {
        lq_poisson_ref_rhs(o, u, v, w, b, prm);
        return LQ_OK;
    }
    float scale = lq_poisson_rhs_scale(prm);
    lq_arg a[] = {LQ_MEM(u), LQ_MEM(v), LQ_MEM(w), LQ_KEEP, LQ_MEM(b), LQ_VAL(scale)};
    return lq_kernel_launch(&o->rhs, lq_poisson_cells(o), LQ_ARGS(a));
}

int lq_poisson_project(lq_poisson_ops *o, const lq_field *p, lq_field *u, lq_field *v, lq_field *w,
                       const lq_field *phi, const lq_field *sdf, const lq_poisson_params *prm)
{
    lq_poisson_check(o, p);
    lq_poisson_check(o, phi);
    if (IS_REF(o)) {
        lq_poisson_ref_project(o, p, u, v, w, phi, sdf, prm);
        return LQ_OK;
    }
    int has_sdf = lq_poisson_mode(sdf, prm), wall = prm->wall_dirichlet, ghost = !prm->cell_centre;
    float tmin = lq_poisson_theta_min(prm), dt_h = lq_poisson_dt_h(prm);
    const lq_field *s = sdf ? sdf : phi;
    /* over the unknown list: the faces beside the unknowns (poisson_cell.h) */
    int n = lq_poisson_nlist(o);
    lq_arg a[] = {LQ_MEM(u),    LQ_MEM(v),     LQ_MEM(w),    LQ_KEEP,     LQ_KEEP,
                  LQ_VAL(n),    LQ_MEM(p),     LQ_MEM(phi),  LQ_MEM(s),   LQ_VAL(has_sdf),
                  LQ_VAL(wall), LQ_VAL(ghost), LQ_VAL(tmin), LQ_VAL(dt_h)};
    return lq_poisson_list_run(&o->project, LQ_ARGS(a), n);
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

static int lq_poisson_mg_coarsen(lq_poisson_ops *o, const lq_field *phi0,
                                 const lq_poisson_params *prm);

int lq_poisson_mg_build(lq_poisson_ops *o, const lq_field *phi, const lq_field *sdf,
                        const lq_poisson_params *prm)
{
    o->mg_ready = 1;
    if (IS_REF(o)) {
        lq_poisson_ref_mg_build(o, phi, sdf, prm);
        return LQ_OK;
    }
    int has_sdf = lq_poisson_mode(sdf, prm);
    const lq_field *s = sdf ? sdf : phi;
    lq_arg a[] = {LQ_MEM(phi), LQ_MEM(s), LQ_VAL(has_sdf), LQ_KEEP, LQ_KEEP};
    int rc = lq_kernel_launch(&o->mg_state, lq_range_1d(lq_poisson_count(o), 0), LQ_ARGS(a));
    return rc ? rc : lq_poisson_mg_coarsen(o, phi, prm);
}

/* The coarse levels from level 0's state and φ (both builds; phi0 NULL: the cell kinds';
 * lq_poisson_ref_mg_coarsen). */
static int lq_poisson_mg_coarsen(lq_poisson_ops *o, const lq_field *phi0,
                                 const lq_poisson_params *prm)
{
    int wall = prm->wall_dirichlet, dim3 = o->nz > 1, rc = LQ_OK;
    float tmin = lq_poisson_theta_min(prm);
    for (int l = 1; l < o->levels && !rc; l++) {
        lq_poisson_level *f = &o->lv[l - 1], *c = &o->lv[l];
        /* the fine φ: level 0's, or the finer level's mean in its x (from the states alone:
         * any buffer, unread) */
        const lq_field *fphi = l > 1 ? &f->x : (phi0 ? phi0 : &c->x);
        int from_state = l == 1 && !phi0;
        lq_arg ca[] = {LQ_MEM(&f->state), LQ_MEM(fphi),  LQ_VAL(from_state), LQ_VAL(f->nx),
                       LQ_VAL(f->ny),     LQ_VAL(f->nz), LQ_MEM(&c->state),  LQ_MEM(&c->x),
                       LQ_VAL(c->nx),     LQ_VAL(c->ny), LQ_VAL(c->nz)};
        rc = lq_kernel_launch(&o->mg_coarsen, lq_poisson_level_cells(c, 0), LQ_ARGS(ca));
        lq_arg sa[] = {LQ_MEM(&c->state), LQ_MEM(&c->x),    LQ_VAL(tmin),     LQ_VAL(wall),
                       LQ_VAL(dim3),      LQ_MEM(&c->mask), LQ_MEM(&c->diag), LQ_VAL(c->nx),
                       LQ_VAL(c->ny),     LQ_VAL(c->nz)};
        if (!rc) rc = lq_kernel_launch(&o->mg_system, lq_poisson_level_cells(c, 0), LQ_ARGS(sa));
    }
    return rc;
}

int lq_poisson_mg_smooth(lq_poisson_ops *o, int l, const lq_field *b, lq_field *x, int colour)
{
    if (IS_REF(o)) {
        lq_poisson_ref_mg_smooth(o, l, b, x, colour);
        return LQ_OK;
    }
    lq_poisson_level *L = &o->lv[l];
    if (L->dense) { /* one colour's cells of the whole level */
        lq_arg a[] = {LQ_MEM(b),
                      LQ_MEM(x),
                      LQ_MEM(lq_poisson_lmask(o, l)),
                      LQ_MEM(lq_poisson_ldiag(o, l)),
                      LQ_VAL(colour),
                      LQ_VAL(L->nx),
                      LQ_VAL(L->ny),
                      LQ_VAL(L->nz)};
        return lq_kernel_launch(&o->mg_smooth_w, lq_poisson_level_cells(L, 1), LQ_ARGS(a));
    }
    /* one colour's part of the list */
    int off = colour ? L->n[0] : 0, n = L->n[colour];
    lq_arg a[] = {LQ_MEM(b),
                  LQ_MEM(x),
                  LQ_MEM(lq_poisson_lmask(o, l)),
                  LQ_MEM(lq_poisson_ldiag(o, l)),
                  LQ_VAL(colour),
                  LQ_MEM(&L->list),
                  LQ_VAL(off),
                  LQ_VAL(n),
                  LQ_VAL(L->nx),
                  LQ_VAL(L->ny),
                  LQ_VAL(L->nz)};
    return lq_poisson_list_run(&o->mg_smooth, LQ_ARGS(a), n);
}

int lq_poisson_mg_residual(lq_poisson_ops *o, int l, const lq_field *b, const lq_field *x,
                           lq_field *res)
{
    if (IS_REF(o)) {
        lq_poisson_ref_mg_residual(o, l, b, x, res);
        return LQ_OK;
    }
    lq_poisson_level *L = &o->lv[l];
    if (L->dense) {
        lq_arg a[] = {LQ_MEM(b),
                      LQ_MEM(x),
                      LQ_MEM(lq_poisson_lmask(o, l)),
                      LQ_MEM(lq_poisson_ldiag(o, l)),
                      LQ_MEM(res),
                      LQ_VAL(L->nx),
                      LQ_VAL(L->ny),
                      LQ_VAL(L->nz)};
        return lq_kernel_launch(&o->mg_residual_w, lq_poisson_level_cells(L, 0), LQ_ARGS(a));
    }
    int off = 0, n = L->n[0] + L->n[1];
    float shift = 0.0f;
    lq_arg a[] = {LQ_MEM(b),
                  LQ_VAL(shift),
                  LQ_MEM(x),
                  LQ_MEM(lq_poisson_lmask(o, l)),
                  LQ_MEM(lq_poisson_ldiag(o, l)),
                  LQ_MEM(res),
                  LQ_MEM(&L->list),
                  LQ_VAL(off),
                  LQ_VAL(n),
                  LQ_VAL(L->nx),
                  LQ_VAL(L->ny),
                  LQ_VAL(L->nz)};
    return lq_poisson_list_run(&o->mg_residual, LQ_ARGS(a), n);
}

int lq_poisson_mg_restrict(lq_poisson_ops *o, int l, const lq_field *res, lq_field *bc)
{
    if (IS_REF(o)) {
        lq_poisson_ref_mg_restrict(o, l, res, bc);
        return LQ_OK;
    }
    lq_poisson_level *f = &o->lv[l], *L = &o->lv[l + 1];
    int dim3 = o->nz > 1, off = 0, n = L->n[0] + L->n[1];
    float scale = dim3 ? 0.5f : 1.0f;
    if (L->dense) {
        lq_arg a[] = {LQ_MEM(res),
                      LQ_VAL(f->nx),
                      LQ_VAL(f->ny),
                      LQ_VAL(f->nz),
                      LQ_MEM(lq_poisson_lmask(o, l + 1)),
                      LQ_MEM(bc),
                      LQ_VAL(scale),
                      LQ_VAL(dim3),
                      LQ_VAL(L->nx),
                      LQ_VAL(L->ny),
                      LQ_VAL(L->nz)};
        return lq_kernel_launch(&o->mg_restrict_w, lq_poisson_level_cells(L, 0), LQ_ARGS(a));
    }
    lq_arg a[] = {LQ_MEM(res),
                  LQ_VAL(f->nx),
                  LQ_VAL(f->ny),
                  LQ_VAL(f->nz),
                  LQ_MEM(lq_poisson_lmask(o, l + 1)),
                  LQ_MEM(bc),
                  LQ_VAL(scale),
                  LQ_VAL(dim3),
                  LQ_MEM(&L->list),
                  LQ_VAL(off),
                  LQ_VAL(n),
                  LQ_VAL(L->nx),
                  LQ_VAL(L->ny),
                  LQ_VAL(L->nz)};
    return lq_poisson_list_run(&o->mg_restrict, LQ_ARGS(a), n);
}

int lq_poisson_mg_prolong(lq_poisson_ops *o, int l, const lq_field *ec, lq_field *x)
{
    if (IS_REF(o)) {
        lq_poisson_ref_mg_prolong(o, l, ec, x);
        return LQ_OK;
    }
    lq_poisson_level *L = &o->lv[l], *c = &o->lv[l + 1];
    int dim3 = o->nz > 1, off = 0, n = L->n[0] + L->n[1];
    if (L->dense) {
        lq_arg a[] = {
            LQ_MEM(ec), LQ_VAL(c->nx), LQ_VAL(c->ny), LQ_VAL(c->nz), LQ_MEM(lq_poisson_lmask(o, l)),
            LQ_MEM(x),  LQ_VAL(dim3),  LQ_VAL(L->nx), LQ_VAL(L->ny), LQ_VAL(L->nz)};
        return lq_kernel_launch(&o->mg_prolong_w, lq_poisson_level_cells(L, 0), LQ_ARGS(a));
    }
    lq_arg a[] = {LQ_MEM(ec),
                  LQ_VAL(c->nx),
                  LQ_VAL(c->ny),
                  LQ_VAL(c->nz),
                  LQ_MEM(lq_poisson_lmask(o, l)),
                  LQ_MEM(x),
                  LQ_VAL(dim3),
                  LQ_MEM(&L->list),
                  LQ_VAL(off),
                  LQ_VAL(n),
                  LQ_VAL(L->nx),
                  LQ_VAL(L->ny),
                  LQ_VAL(L->nz)};
    return lq_poisson_list_run(&o->mg_prolong, LQ_ARGS(a), n);
}

/* z = M⁻¹ r: one V-cycle from a zero guess, smoothing mirrored on the way up. */
int lq_poisson_mg_vcycle(lq_poisson_ops *o, const lq_field *r, lq_field *z)
{
    assert(o->mg_ready);
    int L = o->levels, rc = LQ_OK;
    lq_field *X[LQ_POISSON_MAX_LEVELS];
    const lq_field *B[LQ_POISSON_MAX_LEVELS];
    for (int l = 0; l < L; l++) {
        X[l] = l ? &o->lv[l].x : z;
        B[l] = l ? &o->lv[l].b : r;
    }
    int top = o->tail >= 0 && !IS_REF(o) ? o->tail : L - 1; /* the launches' coarsest */
    for (int l = 0; l < top && !rc; l++) {
        rc = lq_field_zero(X[l], 0);
        for (int s = 0; s < LQ_POISSON_MG_SMOOTH && !rc; s++) {
            rc = lq_poisson_mg_smooth(o, l, B[l], X[l], 0);
            if (!rc) rc = lq_poisson_mg_smooth(o, l, B[l], X[l], 1);
        }
        if (!rc) rc = lq_poisson_mg_residual(o, l, B[l], X[l], lq_poisson_lres(o, l));
        if (!rc) rc = lq_poisson_mg_restrict(o, l, lq_poisson_lres(o, l), &o->lv[l + 1].b);
    }
    if (!rc && top < L - 1) {
        /* levels top … L − 1 in one work-group (poisson_mg_tail), bit for bit the
         * launches below */
        if (top == 0) rc = lq_field_zero(X[0], 0); /* z: 0 off the unknowns */
        int nl = L - top;
        lq_arg a[3 + 6 * LQ_POISSON_TAIL];
        int na = 0;
        a[na++] = (lq_arg)LQ_VAL(nl);
        a[na++] = (lq_arg)LQ_KEEP; /* dim3 and the level table: bound */
        a[na++] = (lq_arg)LQ_KEEP;
        for (int t = 0; t < LQ_POISSON_TAIL; t++) {
            int l = top + (t < nl ? t : nl - 1); /* unused slots: the coarsest again */
            a[na++] = (lq_arg)LQ_MEM(lq_poisson_lmask(o, l));
            a[na++] = (lq_arg)LQ_MEM(lq_poisson_ldiag(o, l));
            a[na++] = (lq_arg)LQ_MEM(X[l]);
            a[na++] = (lq_arg)LQ_MEM(B[l]);
            a[na++] = (lq_arg)LQ_MEM(lq_poisson_lres(o, l));
            a[na++] = (lq_arg)LQ_MEM(&o->lv[l].list);
        }
        lq_range one = lq_range_1d(LQ_POISSON_TAIL_GROUP, LQ_POISSON_TAIL_GROUP);
        if (!rc) rc = lq_kernel_launch(&o->mg_tail, one, na, a);
        goto up;
    }
    int cn = o->lv[L - 1].nx * o->lv[L - 1].ny * o->lv[L - 1].nz;
    if (!rc && !IS_REF(o) && cn <= LQ_POISSON_COARSE_GROUP &&
        o->ctx->cl.dev.max_work_group >= LQ_POISSON_COARSE_GROUP) {
        /* the coarsest level's zero start and 2 × LQ_POISSON_MG_COARSE sweeps in one
         * work-group (barriers between the colours), bit for bit the launches below */
        lq_poisson_level *C = &o->lv[L - 1];
        int sweeps = LQ_POISSON_MG_COARSE;
        lq_arg a[] = {LQ_MEM(B[L - 1]),
                      LQ_MEM(X[L - 1]),
                      LQ_MEM(lq_poisson_lmask(o, L - 1)),
                      LQ_MEM(lq_poisson_ldiag(o, L - 1)),
                      LQ_VAL(sweeps),
                      LQ_VAL(C->nx),
                      LQ_VAL(C->ny),
                      LQ_VAL(C->nz)};
        lq_range one = lq_range_1d(LQ_POISSON_COARSE_GROUP, LQ_POISSON_COARSE_GROUP);
        rc = lq_kernel_launch(&o->mg_coarse, one, LQ_ARGS(a));
        goto up;
    }
    if (!rc) rc = lq_field_zero(X[L - 1], 0);
    for (int s = 0; s < LQ_POISSON_MG_COARSE && !rc; s++) {
        rc = lq_poisson_mg_smooth(o, L - 1, B[L - 1], X[L - 1], 0);
        if (!rc) rc = lq_poisson_mg_smooth(o, L - 1, B[L - 1], X[L - 1], 1);
    }
    for (int s = 0; s < LQ_POISSON_MG_COARSE && !rc; s++) {
        rc = lq_poisson_mg_smooth(o, L - 1, B[L - 1], X[L - 1], 1);
        if (!rc) rc = lq_poisson_mg_smooth(o, L - 1, B[L - 1], X[L - 1], 0);
    }
up:
    for (int l = top - 1; l >= 0 && !rc; l--) {
        rc = lq_poisson_mg_prolong(o, l, X[l + 1], X[l]);
        for (int s = 0; s < LQ_POISSON_MG_SMOOTH && !rc; s++) {
            rc = lq_poisson_mg_smooth(o, l, B[l], X[l], 1);
            if (!rc) rc = lq_poisson_mg_smooth(o, l, B[l], X[l], 0);
        }
    }
    return rc;
}

/* --- the system and the solvers --------------------------------------------------------- */

int lq_poisson_build_kinds(lq_poisson_ops *o, const lq_field *flags, const lq_field *sw,
                           const lq_poisson_params *prm)
{
    int rc = lq_poisson_setup_kinds(o, flags, sw);
    o->mg_ready = 0;
    if (!rc && prm->precond == LQ_POISSON_PRECOND_MG) {
        o->mg_ready = 1;
        if (IS_REF(o)) {
            lq_poisson_ref_mg_state_kinds(o, flags);
            lq_poisson_ref_mg_coarsen(o, NULL, prm);
        } else {
            lq_arg a[] = {LQ_MEM(flags), LQ_KEEP, LQ_KEEP};
            rc = lq_kernel_launch(&o->mg_state_kinds, lq_range_1d(lq_poisson_count(o), 0),
                                  LQ_ARGS(a));
            if (!rc) rc = lq_poisson_mg_coarsen(o, NULL, prm);
        }
    }
    if (!rc) rc = lq_poisson_lists(o);
    return rc;
}

int lq_poisson_build(lq_poisson_ops *o, const lq_field *phi, const lq_field *sdf,
                     const lq_poisson_params *prm)
{
    int rc = lq_poisson_setup(o, phi, sdf, prm);
    o->mg_ready = 0;
    if (!rc && prm->precond == LQ_POISSON_PRECOND_MG) rc = lq_poisson_mg_build(o, phi, sdf, prm);
    if (!rc) rc = lq_poisson_lists(o); /* also o->unknowns, o->dirichlet */
    return rc;
}

/* p = 0 off the unknowns, unchanged on them: two SOR colour passes with ω = 0. */
static int lq_poisson_mask(lq_poisson_ops *o, const lq_field *b, lq_field *p)
{
    int rc = lq_poisson_sor_pass(o, b, 0.0f, p, 0, 0.0f);
    if (!rc) rc = lq_poisson_sor_pass(o, b, 0.0f, p, 1, 0.0f);
    return rc;
}

/* CG's passes: over the unknown list, or (o->dense, both backends alike) the whole grid
 * with the whole-grid reductions. */
static int lq_poisson_apply_dq(lq_poisson_ops *o, const lq_field *d, lq_field *q, double *dq)
{
    if (!o->dense) return lq_poisson_apply_dot(o, d, q, dq);
    int rc = lq_poisson_apply(o, d, q);
    return rc ? rc : lq_poisson_reduce(o, LQ_POISSON_RED_DOT, d, q, 0.0f, dq);
}

static int lq_poisson_update_rr(lq_poisson_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                                const lq_field *q, float alpha, double *rr)
{
    if (!o->dense) return lq_poisson_update_dot(o, x, r, d, q, alpha, rr);
    int rc = lq_poisson_cg_update(o, x, r, d, q, alpha);
    return rc ? rc : lq_poisson_reduce(o, LQ_POISSON_RED_DOT, r, r, 0.0f, rr);
}

static int lq_poisson_dot(lq_poisson_ops *o, const lq_field *a, const lq_field *b, double *sum)
{
    return o->dense ? lq_poisson_reduce(o, LQ_POISSON_RED_DOT, a, b, 0.0f, sum)
                    : lq_poisson_dot_list(o, a, b, sum);
}

static int lq_poisson_direction(lq_poisson_ops *o, const lq_field *z, lq_field *d, float beta)
{
    return o->dense ? lq_poisson_cg_direction(o, z, d, beta)
                    : lq_poisson_direction_list(o, z, d, beta);
}

static int lq_poisson_resid(lq_poisson_ops *o, const lq_field *b, float shift, const lq_field *p,
                            lq_field *r)
{
    return o->dense ? lq_poisson_residual(o, b, shift, p, r)
                    : lq_poisson_residual_list(o, b, shift, p, r);
}

static int lq_poisson_rnorm(lq_poisson_ops *o, const lq_field *b, float shift, const lq_field *p,
                            double *norm)
{
    double rr = 0; /* over the unknown list (r is 0 elsewhere) or the whole grid */
    int rc = lq_poisson_resid(o, b, shift, p, &o->r);
    if (!rc) rc = lq_poisson_dot(o, &o->r, &o->r, &rr);
    *norm = sqrt(rr);
    return rc;
}

#define LQ_POISSON_STALL 50

static int lq_poisson_relax(lq_poisson_ops *o, const lq_field *b, float shift, lq_field *p,
                            const lq_poisson_params *prm, double goal, lq_poisson_stats *st)
{
    int sor = prm->solver == LQ_POISSON_SOR;
    int nmax = o->nx > o->ny ? o->nx : o->ny;
    if (o->nz > nmax) nmax = o->nz;
    float omega = prm->omega > 0
                      ? prm->omega
                      : (sor ? (float)(2.0 / (1.0 + sin(3.14159265358979323846 / nmax))) : 0.9f);
    int max_iter = prm->max_iter > 0 ? prm->max_iter : 1000;
    int every = prm->check_every > 0 ? prm->check_every : 1;
    lq_field *cur = p, *other = &o->z;
    double rn = INFINITY, best = INFINITY;
    int rc = LQ_OK, it = 0, stall = 0;
    while (it < max_iter && !rc && !lq_interrupt_due()) {
        it++;
        if (sor) {
            rc = lq_poisson_sor_pass(o, b, shift, p, 0, omega);
            if (!rc) rc = lq_poisson_sor_pass(o, b, shift, p, 1, omega);
        } else {
            rc = lq_poisson_jacobi_pass(o, b, shift, cur, other, omega);
            lq_field *t = cur;
            cur = other;
            other = t;
        }
        if (!rc && (it % every == 0 || it == max_iter)) {
            rc = lq_poisson_rnorm(o, b, shift, cur, &rn);
            if (rn <= goal) break;
            /* float's floor (~ε|p|/|b|): stop when LQ_POISSON_STALL checks in a row bring no
             * new lowest residual */
            if (rn < (1.0 - 1e-5) * best) {
                best = rn;
                stall = 0;
            } else if (++stall >= LQ_POISSON_STALL) {
                snprintf(st->message, sizeof st->message,
                         "%s: %d unknowns, stalled at |r|/|b| = %.3g after %d iterations "
                         "(float round-off floor)",
                         sor ? "SOR" : "Jacobi", o->unknowns, rn / st->b_norm, it);
                break;
            }
        }
    }
    if (!rc && cur != p) rc = lq_poisson_jacobi_pass(o, b, shift, cur, p, 0.0f); /* copy back */
    st->iterations = it;
    st->converged = rn <= goal;
    return rc;
}

#define LQ_POISSON_RESTARTS 4

/* *rn_end: the true residual of the final x when the loop ended on it, else −1. */
static int lq_poisson_cg(lq_poisson_ops *o, const lq_field *b, float shift, lq_field *x,
                         const lq_poisson_params *prm, double goal, lq_poisson_stats *st,
                         double *rn_end)
{
    *rn_end = -1;
    int pre = prm->precond != LQ_POISSON_PRECOND_NONE, mg = prm->precond == LQ_POISSON_PRECOND_MG;
    int max_iter = prm->max_iter > 0 ? prm->max_iter : 1000;
    lq_field *r = &o->r, *z = pre ? &o->z : &o->r, *d = &o->d, *q = &o->q;
    double rr = 0, rz = 0, dq = 0;
    /* the list passes (d, q, x, r on level 0's unknowns) leave 0 elsewhere: d and q start
     * at 0, x (lq_poisson_mask) and the residual r are 0 off the unknowns */
    int rc = lq_field_zero(d, 0), it = 0, restarts = 0;
    if (!rc) rc = lq_field_zero(q, 0);
    if (!rc) rc = lq_poisson_resid(o, b, shift, x, r);
    if (!rc) rc = lq_poisson_dot(o, r, r, &rr);
    st->converged = sqrt(rr) <= goal;
    if (rc || st->converged) goto done;
    if (pre) rc = mg ? lq_poisson_mg_vcycle(o, r, z) : lq_poisson_precond(o, r, z);
    if (!rc) rc = lq_poisson_direction(o, z, d, 0.0f);
    if (!rc && pre) rc = lq_poisson_dot(o, r, z, &rz);
    if (!pre) rz = rr;
    while (!rc && it < max_iter && !lq_interrupt_due()) {
        it++;
        rc = lq_poisson_apply_dq(o, d, q, &dq);
        if (rc) break;
        if (!(dq > 0)) {
            snprintf(st->message, sizeof st->message, "CG breakdown: dᵀAd = %g at iteration %d", dq,
                     it);
            break;
        }
        rc = lq_poisson_update_rr(o, x, r, d, q, (float)(rz / dq), &rr);
        if (rc) break;
        if (sqrt(rr) <= goal) {
            /* The recursive residual drifts from b − Ap in float: confirm with the true
             * one; if it is not there yet, restart from it (residual replacement), at
             * most LQ_POISSON_RESTARTS times (then p is at float's floor, ~ε|p|/|b|). */
            double rn = 0;
            rc = lq_poisson_rnorm(o, b, shift, x, &rn);
            if (rc || rn <= goal || restarts >= LQ_POISSON_RESTARTS) {
                st->converged = rn <= goal;
                *rn_end = rn;
                break;
            }
            restarts++;
            rr = rn * rn;
            if (pre) rc = mg ? lq_poisson_mg_vcycle(o, r, z) : lq_poisson_precond(o, r, z);
            if (!rc) rc = lq_poisson_direction(o, z, d, 0.0f);
            rz = rr;
            if (!rc && pre) rc = lq_poisson_dot(o, r, z, &rz);
            continue;
        }
        double rz_new = rr;
        if (pre) {
            rc = mg ? lq_poisson_mg_vcycle(o, r, z) : lq_poisson_precond(o, r, z);
            if (!rc) rc = lq_poisson_dot(o, r, z, &rz_new);
        }
        if (!rc) rc = lq_poisson_direction(o, z, d, (float)(rz_new / rz));
        rz = rz_new;
    }
done:
    st->iterations = it;
    return rc;
}

/* The same CG with its scalars on the device (poisson_cell.h, lq_poisson_cg_stage): the
 * host enqueues iterations in batches and reads the scalars once a batch; iterations
 * enqueued past the end change nothing (the stages have stopped), so x, the iteration
 * count and the restarts are the host loop's, bit for bit. The first batch is one less
 * than the last solve's count, the next ones what the convergence rate so far predicts
 * (at least one): about two reads a solve and few wasted iterations. Over the unknown
 * list only (o->dense runs the host loop). */
static int lq_poisson_cg_read(lq_poisson_ops *o)
{
    if (IS_REF(o)) {
        memcpy(o->cg_read, o->cg.host, sizeof o->cg_read);
        return LQ_OK;
    }
    return lq_field_read(&o->cg, 0, sizeof o->cg_read, o->cg_read);
}

/* The scalars from o->cg_write (no wait: cg_write holds still until the next read). */
static int lq_poisson_cg_write(lq_poisson_ops *o)
{
    if (IS_REF(o)) {
        memcpy(o->cg.host, o->cg_write, sizeof o->cg_write);
        return LQ_OK;
    }
    return lq_field_write_async(&o->cg, 0, sizeof o->cg_write, o->cg_write);
}

/* z = M⁻¹ r, d = z (β = 0 in the scalars), and r·z into LQ_CG_RZ: CG's (re)start. */
static int lq_poisson_cg_restart(lq_poisson_ops *o, int pre, int mg)
{
    lq_field *r = &o->r, *z = pre ? &o->z : &o->r;
    int rc = LQ_OK;
    if (pre) rc = mg ? lq_poisson_mg_vcycle(o, r, z) : lq_poisson_precond(o, r, z);
    if (!rc) rc = lq_poisson_direction_list_s(o, z, &o->d);
    if (!rc && pre) rc = lq_poisson_dot_list(o, r, z, NULL);
    if (!rc && pre) rc = lq_poisson_cg_stage_run(o, LQ_CG_RESTART_RZ, pre);
    return rc;
}

/* One iteration: q = A d, α; x += α d, r −= α q, the test; z = M⁻¹ r, β; d = z + β d. */
static int lq_poisson_cg_iteration(lq_poisson_ops *o, lq_field *x, int pre, int mg)
{
    lq_field *r = &o->r, *z = pre ? &o->z : &o->r, *d = &o->d, *q = &o->q;
    int rc = lq_poisson_apply_dot(o, d, q, NULL);
    if (!rc) rc = lq_poisson_cg_stage_run(o, LQ_CG_AFTER_DQ, pre);
    if (!rc) rc = lq_poisson_update_dot_s(o, x, r, d, q);
    if (!rc) rc = lq_poisson_cg_stage_run(o, LQ_CG_AFTER_RR, pre);
    if (!rc && pre) rc = mg ? lq_poisson_mg_vcycle(o, r, z) : lq_poisson_precond(o, r, z);
    if (!rc && pre) rc = lq_poisson_dot_list(o, r, z, NULL);
    if (!rc && pre) rc = lq_poisson_cg_stage_run(o, LQ_CG_AFTER_RZ, pre);
    if (!rc) rc = lq_poisson_direction_list_s(o, z, d);
    return rc;
}

/* Iterations to enqueue next: what the mean rate so far needs to reach the goal, at most
 * as many as have run (an early rate can be far too slow: the batches then double). */
static int lq_poisson_cg_predict(const double *s, int left)
{
    double it = s[LQ_CG_ITER], rr = s[LQ_CG_RR], rr0 = s[LQ_CG_RR0], goal = s[LQ_CG_GOAL];
    double k = 1;
    if (it >= 1 && rr > 0 && rr0 > rr && goal > 0) {
        double rate = 0.5 * log(rr / rr0) / it; /* log of the mean factor on |r| */
        double need = ceil(log(goal / sqrt(rr)) / rate);
        k = need < 1 ? 1 : need < it ? need : it;
    }
    return k < left ? (int)k : left;
}

/* bb < 0: ‖b‖ on the device too (b·b, LQ_CG_BNORM: the goal read back with the first
 * batch; b = 0 stops at the start, the caller then zeroes p); else the host's b·b and
 * goal. */
static int lq_poisson_cg_dev(lq_poisson_ops *o, const lq_field *b, float shift, lq_field *x,
                             const lq_poisson_params *prm, double tol, double bb, double goal,
                             lq_poisson_stats *st, double *rn_end)
{
    *rn_end = -1;
    int pre = prm->precond != LQ_POISSON_PRECOND_NONE, mg = prm->precond == LQ_POISSON_PRECOND_MG;
    int max_iter = prm->max_iter > 0 ? prm->max_iter : 1000;
    double *w = o->cg_write, *s = o->cg_read;
    memset(w, 0, sizeof o->cg_write);
    w[LQ_CG_GOAL] = goal;
    w[LQ_CG_TOL] = tol;
    w[LQ_CG_BB] = bb < 0 ? -1 : bb;
    int rc = lq_poisson_cg_write(o), enq = 0, restarts = 0;
    if (!rc && bb < 0) rc = lq_poisson_dot_list(o, b, b, NULL);
    if (!rc && bb < 0) rc = lq_poisson_cg_stage_run(o, LQ_CG_BNORM, pre);
    /* d and q start at 0 (the list passes write only the unknowns), r = b − A x, r·r */
    if (!rc) rc = lq_field_zero(&o->d, 0);
    if (!rc) rc = lq_field_zero(&o->q, 0);
    if (!rc) rc = lq_poisson_resid(o, b, shift, x, &o->r);
    if (!rc) rc = lq_poisson_dot_list(o, &o->r, &o->r, NULL);
    if (!rc) rc = lq_poisson_cg_stage_run(o, LQ_CG_START, pre);
    if (!rc) rc = lq_poisson_cg_restart(o, pre, mg);
    int batch = o->cg_last > 1 ? o->cg_last - 1 : 1;
    while (!rc) {
        if (batch > max_iter - enq) batch = max_iter - enq;
        for (int t = 0; t < batch && !rc; t++, enq++) rc = lq_poisson_cg_iteration(o, x, pre, mg);
        if (!rc) rc = lq_poisson_cg_read(o);
        if (rc) break;
        int state = (int)s[LQ_CG_STATE], it = (int)s[LQ_CG_ITER];
        goal = s[LQ_CG_GOAL]; /* the host's, or tol·‖b‖ from the device */
        st->iterations = it;
        enq = it; /* what ran: the iterations enqueued past the end did nothing */
        if (state == LQ_CG_CONVERGED && it == 0) { /* the start was there already */
            st->converged = 1;
            break;
        }
        if (state == LQ_CG_CONVERGED && prm->trust) {
            st->converged = 1;
            *rn_end = sqrt(s[LQ_CG_RR]);
            break;
        }
        if (state == LQ_CG_CONVERGED) {
            /* the recursive residual drifts from b − Ap in float: confirm with the true
             * one, or restart from it (residual replacement), as lq_poisson_cg */
            double rn = 0;
            rc = lq_poisson_rnorm(o, b, shift, x, &rn);
            if (rc || rn <= goal || restarts >= LQ_POISSON_RESTARTS) {
                st->converged = rn <= goal;
                *rn_end = rn;
                break;
            }
            restarts++;
            memcpy(w, s, sizeof o->cg_write);
            w[LQ_CG_STATE] = LQ_CG_RUN;
            w[LQ_CG_RR] = w[LQ_CG_RZ] = rn * rn;
            w[LQ_CG_BETA] = 0;
            rc = lq_poisson_cg_write(o);
            if (!rc) rc = lq_poisson_cg_restart(o, pre, mg);
            batch = 1;
            continue;
        }
        if (state == LQ_CG_BREAKDOWN) {
            snprintf(st->message, sizeof st->message, "CG breakdown: dᵀAd = %g at iteration %d",
                     s[LQ_CG_DQ], it);
            break;
        }
        if (enq >= max_iter || lq_interrupt_due()) break;
        batch = lq_poisson_cg_predict(s, max_iter - enq);
    }
    o->cg_last = st->iterations;
    return rc;
}

int lq_poisson_solve(lq_poisson_ops *o, const lq_field *b, lq_field *p,
                     const lq_poisson_params *prm, lq_poisson_stats *st)
{
    memset(st, 0, sizeof *st);
    st->unknowns = o->unknowns;
    if (o->unknowns == 0) {
        st->converged = 1;
        snprintf(st->message, sizeof st->message, "no liquid: nothing to solve");
        return lq_field_zero(p, 0);
    }
    double sum = 0, bb = 0, rn_end = -1;
    float shift = 0.0f;
    int rc = LQ_OK;
    if (o->dirichlet == 0) {
        rc = lq_poisson_reduce(o, LQ_POISSON_RED_SUM, b, NULL, 0.0f, &sum);
        shift = (float)(sum / o->unknowns);
        st->singular = 1;
        st->shift = shift;
    }
    if (prm->solver == LQ_POISSON_PCG && prm->precond == LQ_POISSON_PRECOND_MG && !o->mg_ready)
        return lq_error(LQ_ESIM, "poisson: multigrid PCG asked for, but the last "
                                 "lq_poisson_build had another preconditioner");
    /* CG's scalars on the device: b·b there too when it needs no mean removed */
    int dev = prm->solver == LQ_POISSON_PCG && !o->dense && !o->cg_host;
    if (!rc && shift == 0.0f && !o->dense) /* Σ (b − 0)² = b·b over the unknowns */
        rc = dev ? (bb = -1, LQ_OK) : lq_poisson_dot_list(o, b, b, &bb);
    else if (!rc)
        rc = lq_poisson_reduce(o, LQ_POISSON_RED_NORM2, b, NULL, shift, &bb);
    if (!rc) rc = lq_poisson_mask(o, b, p);
    if (rc) return rc;
    st->b_norm = bb < 0 ? 1 : sqrt(bb); /* (bb < 0: set after the solve) */
    double tol = prm->tol > 0 ? prm->tol : 1e-5;
    double floor = prm->goal_abs > 0 ? prm->goal_abs : 0; /* (the device takes the larger) */
    double goal = bb < 0 ? floor : fmax(tol * st->b_norm, floor);
    if (!(st->b_norm > 0)) {
        st->converged = 1;
        rc = lq_field_zero(p, 0);
    } else if (dev) {
        rc = lq_poisson_cg_dev(o, b, shift, p, prm, tol, bb, goal, st, &rn_end);
        if (!rc && bb < 0) { /* the device's ‖b‖; b = 0: p = 0 as above */
            st->b_norm = sqrt(o->cg_read[LQ_CG_BB]);
            if (!(st->b_norm > 0)) {
                st->converged = 1;
                st->iterations = 0;
                rc = lq_field_zero(p, 0);
            }
        }
    } else if (prm->solver == LQ_POISSON_PCG) {
        rc = lq_poisson_cg(o, b, shift, p, prm, goal, st, &rn_end);
    } else {
        rc = lq_poisson_relax(o, b, shift, p, prm, goal, st);
    }
    double rn = rn_end;
    if (!rc && st->b_norm > 0 && rn < 0) rc = lq_poisson_rnorm(o, b, shift, p, &rn);
    if (rc) return rc;
    st->residual = st->b_norm > 0 ? rn / st->b_norm : 0;
    if (!isfinite(st->residual))
        return lq_error(LQ_ESIM, "poisson: the pressure solve diverged (residual %g)", rn);
    if (!st->message[0]) {
        static const char *const names[] = {"PCG", "SOR", "Jacobi"};
        static const char *const pcs[] = {" (multigrid)", " (Jacobi)", " (none)"};
        int len = snprintf(st->message, sizeof st->message,
                           "%s%s: %d unknowns, %d iterations, |r|/|b| = %.3g%s", names[prm->solver],
                           prm->solver == LQ_POISSON_PCG ? pcs[prm->precond] : "", st->unknowns,
                           st->iterations, st->residual, st->converged ? "" : " (not converged)");
        if (st->singular && len > 0 && (size_t)len < sizeof st->message)
            snprintf(st->message + len, sizeof st->message - (size_t)len,
                     "; singular (no air, Neumann walls): mean %.3g removed from b", st->shift);
    }
    return LQ_OK;
}

int lq_poisson_step(lq_poisson_ops *o, const lq_field *phi, const lq_field *sdf, lq_field *u,
                    lq_field *v, lq_field *w, lq_field *b, lq_field *p,
                    const lq_poisson_params *prm, lq_poisson_stats *st)
{
    int rc = LQ_OK; /* stages of LIQUIDCL_PROFILE=1 (core/profile.h), inside the solver's */
    LQ_STAGE(rc, o->ctx, "system built", lq_poisson_build(o, phi, sdf, prm));
    LQ_STAGE(rc, o->ctx, "right-hand side", lq_poisson_rhs(o, u, v, w, b, prm));
    LQ_STAGE(rc, o->ctx, "solved", lq_poisson_solve(o, b, p, prm, st));
    LQ_STAGE(rc, o->ctx, "velocity updated", lq_poisson_project(o, p, u, v, w, phi, sdf, prm));
    return rc;
}
