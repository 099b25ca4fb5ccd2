/*
 * heightfield.c — launchers of the height-field operations (see heightfield.h).
 * Each launcher dispatches to the reference twin or binds its arguments and enqueues
 * one kernel; nothing here allocates in the step loop.
 */
#include "ops/hf/heightfield.h"

#include <limits.h>
#include <stdlib.h>

/* Passes of the volume projection: uniform shifts, the last one exact
 * (lq_heightfield_volume_apply_cell). On scenes/validation/conservation.yaml one uniform pass
 * alone drifted 1e-5; with the exact last pass, 6e-8 (docs/VALIDATION.md). */
#define LQ_HEIGHTFIELD_PASSES 2
#include <stdio.h>
#include <string.h>

static const char *const lq_heightfield_sources[] = {
    "kernels/common/lq_shared.h", "kernels/hf/heightfield_cell.h", "kernels/hf/heightfield.cl"};

/* The module's kernels (ops_init creates them, ops_release frees them). */
#define LQ_HEIGHTFIELD_KERNELS(o)                                                                  \
    {                                                                                              \
        {&(o)->residual, "heightfield_residual"}, {&(o)->advect, "heightfield_advect"},            \
            {&(o)->adi_x, "heightfield_adi_x"}, {&(o)->adi_z, "heightfield_adi_z"},                \
            {&(o)->source, "heightfield_source"}, {&(o)->label_init, "heightfield_label_init"},    \
            {&(o)->label_merge, "heightfield_label_merge"},                                        \
            {&(o)->label_compress, "heightfield_label_compress"},                                  \
            {&(o)->volume_reduce, "heightfield_volume_reduce"},                                    \
            {&(o)->volume_apply, "heightfield_volume_apply"},                                      \
            {&(o)->finish, "heightfield_finish"},                                                  \
        {                                                                                          \
            &(o)->stats, "heightfield_stats"                                                       \
        }                                                                                          \
    }

int lq_heightfield_ops_init(lq_heightfield_ops *o, lq_ctx *ctx, int nx, int nz)
{
    int rc = LQ_OK;
    memset(o, 0, sizeof *o);
    o->ctx = ctx;
    o->nx = nx;
    o->nz = nz;
    if (ctx->backend == LQ_BACKEND_REF) return LQ_OK;
    if (!ctx->cl.dev.int64_atomics)
        return lq_error(LQ_EINPUT,
                        "%s lacks cl_khr_int64_base_atomics, which the height-field volume "
                        "correction needs; choose another device or --device ref",
                        ctx->cl.dev.name);
    /* Lines per work-item in the tridiagonal solves (see heightfield.cl): SIMD lanes on
     * CPUs, one line per work-item on GPUs; LIQUIDCL_VEC overrides (1, 4, 8, 16). */
    o->vec = (ctx->cl.dev.type & CL_DEVICE_TYPE_GPU) ? 1 : 16;
    const char *env = getenv("LIQUIDCL_VEC");
    if (env && *env) {
        int v = atoi(env);
        if (v != 1 && v != 4 && v != 8 && v != 16)
            return lq_error(LQ_EINPUT, "LIQUIDCL_VEC=%s: expected 1, 4, 8 or 16", env);
        o->vec = v;
    }
    /* Rows in 8 x 8 register-transposed blocks on CPUs when the rows allow it. */
    o->xblock = !(ctx->cl.dev.type & CL_DEVICE_TYPE_GPU) && nx % 8 == 0 && nx >= 8;
    env = getenv("LIQUIDCL_XBLOCK");
    if (env && *env) o->xblock = atoi(env) != 0 && nx % 8 == 0 && nx >= 8;
    char defines[160];
    snprintf(defines, sizeof defines, "-DNX=%d -DNZ=%d -DLQ_VEC=%d -DLQ_XBLOCK=%d", nx, nz, o->vec,
             o->xblock);
    lq_cl_kernel_name ks[] = LQ_HEIGHTFIELD_KERNELS(o);
    rc = lq_cl_build_kernels(&ctx->cl, (int)LQ_COUNT(lq_heightfield_sources),
                             lq_heightfield_sources, defines, &o->program, (int)LQ_COUNT(ks), ks);
    return rc;
}

void lq_heightfield_ops_release(lq_heightfield_ops *o)
{
    lq_cl_kernel_name ks[] = LQ_HEIGHTFIELD_KERNELS(o);
    lq_cl_release_kernels(&o->program, (int)LQ_COUNT(ks), ks);
}

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

static int lq_heightfield_launch(lq_heightfield_ops *o, cl_kernel k, const char *name, int nargs,
                                 const lq_argv *args, int dims, size_t g0, size_t g1)
{
    return lq_cl_launch(o->ctx, k, name, nargs, args, dims, g0, g1, NULL);
}

/* The line solves have few work-items (one per LQ_VEC lines). On CPUs pick a
 * work-group size that leaves at least four groups per compute unit, or runtimes put
 * them all on one core (PoCL chose 256 of 256 here); round the global size up to it
 * (the kernels return early past the last line). */
static int lq_heightfield_launch_lines(lq_heightfield_ops *o, cl_kernel k, const char *name,
                                       int nargs, const lq_argv *args, size_t items)
{
    for (int i = 0; i < nargs; i++) {
        int rc = lq_cl_arg(k, name, (cl_uint)i, args[i].size, args[i].p);
        if (rc) return rc;
    }
    size_t cu = LQ_MAX(o->ctx->cl.dev.compute_units, 1u), local = 64;
    /* GPUs keep whole groups of 64 (lanes of a warp side by side, coalesced); CPUs
     * trade group size for groups enough to feed every core. */
    if (!(o->ctx->cl.dev.type & CL_DEVICE_TYPE_GPU))
        while (local > 1 && items / local < 4 * cu) local /= 2;
    local = LQ_MIN(local, LQ_MAX(o->ctx->cl.dev.max_work_group, (size_t)1));
    size_t global = (items + local - 1) / local * local;
    return lq_cl_run(o->ctx, k, name, 1, &global, &local);
}

int lq_heightfield_residual(lq_heightfield_ops *o, const lq_field *h1, const lq_field *u,
                            const lq_field *w, const lq_field *b, lq_field *hn, float kappa,
                            float cdt)
{
    if (IS_REF(o)) {
        lq_heightfield_ref_residual(o->nx, o->nz, h1, u, w, b, hn, kappa, cdt);
        return LQ_OK;
    }
    lq_argv a[] = {MEM(h1), MEM(u), MEM(w), MEM(b), MEM(hn), VAL(kappa), VAL(cdt)};
    return lq_heightfield_launch(o, o->residual, "heightfield_residual", 7, a, 2,
                                 ((size_t)o->nx + o->vec - 1) / o->vec, (size_t)o->nz);
}

int lq_heightfield_adi_x(lq_heightfield_ops *o, const lq_field *h1, const lq_field *b, lq_field *hn,
                         lq_field *cp, float kappa)
{
    if (IS_REF(o)) {
        lq_heightfield_ref_adi_x(o->nx, o->nz, h1, b, hn, cp, kappa);
        return LQ_OK;
    }
    lq_argv a[] = {MEM(h1), MEM(b), MEM(hn), MEM(cp), VAL(kappa)};
    size_t rows_per_item = o->xblock ? 8 : 1;
    return lq_heightfield_launch_lines(o, o->adi_x, "heightfield_adi_x", 5, a,
                                       ((size_t)o->nz + rows_per_item - 1) / rows_per_item);
}

int lq_heightfield_adi_z(lq_heightfield_ops *o, const lq_field *h1, const lq_field *b, lq_field *hn,
                         lq_field *cp, float kappa)
{
    if (IS_REF(o)) {
        lq_heightfield_ref_adi_z(o->nx, o->nz, h1, b, hn, cp, kappa);
        return LQ_OK;
    }
    lq_argv a[] = {MEM(h1), MEM(b), MEM(hn), MEM(cp), VAL(kappa)};
    return lq_heightfield_launch_lines(o, o->adi_z, "heightfield_adi_z", 5, a,
                                       ((size_t)o->nx + o->vec - 1) / o->vec);
}

int lq_heightfield_source(lq_heightfield_ops *o, lq_field *h1, const lq_field *b, lq_field *acc_l,
                          int i0, int k0, int ni, int nk, float ci, float ck, float inv_r2,
                          int mode, float amount, float scale)
{
    if (IS_REF(o)) {
        lq_heightfield_ref_source(o->nx, o->nz, h1, b, acc_l, i0, k0, ni, nk, ci, ck, inv_r2, mode,
                                  amount, scale);
        return LQ_OK;
    }
    lq_argv a[] = {MEM(h1), MEM(b),      MEM(acc_l), VAL(i0),     VAL(k0),   VAL(ci),
                   VAL(ck), VAL(inv_r2), VAL(mode),  VAL(amount), VAL(scale)};
    return lq_heightfield_launch(o, o->source, "heightfield_source", 11, a, 2, (size_t)ni,
                                 (size_t)nk);
}

int lq_heightfield_label(lq_heightfield_ops *o, const lq_field *h1, const lq_field *hn,
                         const lq_field *b, lq_field *L, lq_field *old_sum, lq_field *new_sum,
                         lq_field *wet)
{
    if (IS_REF(o)) {
        lq_heightfield_ref_label(o->nx, o->nz, h1, hn, b, L, old_sum, new_sum, wet);
        return LQ_OK;
    }
    size_t n = (size_t)o->nx * (size_t)o->nz;
    lq_argv ai[] = {MEM(h1), MEM(hn), MEM(b), MEM(L)};
    lq_argv am[] = {MEM(L)};
    lq_argv ac[] = {MEM(L), MEM(old_sum), MEM(new_sum), MEM(wet)};
    int rc = lq_heightfield_launch_lines(o, o->label_init, "heightfield_label_init", 4, ai,
                                         (size_t)o->nz);
    if (!rc)
        rc = lq_heightfield_launch(o, o->label_merge, "heightfield_label_merge", 1, am, 2,
                                   (size_t)o->nx, (size_t)o->nz);
    if (!rc)
        rc = lq_heightfield_launch(o, o->label_compress, "heightfield_label_compress", 4, ac, 1, n,
                                   1);
    return rc;
}

int lq_heightfield_volume_reduce(lq_heightfield_ops *o, const lq_field *h1, const lq_field *hn,
                                 const lq_field *b, const lq_field *L, lq_field *old_sum,
                                 lq_field *new_sum, lq_field *wet, float scale, int with_old)
{
    if (IS_REF(o)) {
        lq_heightfield_ref_volume_reduce(o->nx, o->nz, h1, hn, b, L, old_sum, new_sum, wet, scale,
                                         with_old);
        return LQ_OK;
    }
    lq_argv a[] = {MEM(h1),      MEM(hn),  MEM(b),     MEM(L),       MEM(old_sum),
                   MEM(new_sum), MEM(wet), VAL(scale), VAL(with_old)};
    size_t segs = (size_t)(o->nx + LQ_HEIGHTFIELD_SEGMENT - 1) / LQ_HEIGHTFIELD_SEGMENT;
    return lq_heightfield_launch(o, o->volume_reduce, "heightfield_volume_reduce", 9, a, 2, segs,
                                 (size_t)o->nz);
}

int lq_heightfield_volume_apply(lq_heightfield_ops *o, lq_field *hn, const lq_field *b,
                                const lq_field *L, const lq_field *old_sum, const lq_field *new_sum,
                                const lq_field *wet, lq_field *next_new, lq_field *next_wet,
                                lq_field *acc_l, float inv_scale, int last_pass)
{
    if (IS_REF(o)) {
        lq_heightfield_ref_volume_apply(o->nx, o->nz, hn, b, L, old_sum, new_sum, wet, next_new,
                                        next_wet, acc_l, inv_scale, last_pass);
        return LQ_OK;
    }
    lq_argv a[] = {MEM(hn),      MEM(b),         MEM(L),        MEM(old_sum),
                   MEM(new_sum), MEM(wet),       MEM(next_new), MEM(next_wet),
                   MEM(acc_l),   VAL(inv_scale), VAL(last_pass)};
    size_t n = (size_t)o->nx * (size_t)o->nz;
    return lq_heightfield_launch(o, o->volume_apply, "heightfield_volume_apply", 11, a, 1, n, 1);
}

int lq_heightfield_finish(lq_heightfield_ops *o, lq_field *hn, const lq_field *h1,
                          const lq_field *b, lq_field *u, lq_field *w, lq_field *acc_i,
                          float gdt_dx, float keep, float fric, float eps, int step)
{
    if (IS_REF(o)) {
        lq_heightfield_ref_finish(o->nx, o->nz, hn, h1, b, u, w, acc_i, gdt_dx, keep, fric, eps,
                                  step);
        return LQ_OK;
    }
    lq_argv a[] = {MEM(hn),     MEM(h1),   MEM(b),    MEM(u),   MEM(w),   MEM(acc_i),
                   VAL(gdt_dx), VAL(keep), VAL(fric), VAL(eps), VAL(step)};
    return lq_heightfield_launch(o, o->finish, "heightfield_finish", 11, a, 2,
                                 ((size_t)o->nx + o->vec - 1) / o->vec, (size_t)o->nz);
}

int lq_heightfield_advect(lq_heightfield_ops *o, const lq_field *h1, const lq_field *b,
                          const lq_field *u, const lq_field *w, lq_field *ua, lq_field *wa,
                          float dt_dx)
{
    if (IS_REF(o)) {
        lq_heightfield_ref_advect(o->nx, o->nz, h1, b, u, w, ua, wa, dt_dx);
        return LQ_OK;
    }
    lq_argv a[] = {MEM(h1), MEM(b), MEM(u), MEM(w), MEM(ua), MEM(wa), VAL(dt_dx)};
    return lq_heightfield_launch(o, o->advect, "heightfield_advect", 7, a, 2, (size_t)o->nx,
                                 (size_t)o->nz);
}

int lq_heightfield_stats(lq_heightfield_ops *o, const lq_field *h, const lq_field *b,
                         const lq_field *u, const lq_field *w, lq_field *acc_l, lq_field *acc_i,
                         float scale)
{
    if (IS_REF(o)) {
        lq_heightfield_ref_stats(o->nx, o->nz, h, b, u, w, acc_l, acc_i, scale);
        return LQ_OK;
    }
    lq_argv a[] = {MEM(h), MEM(b), MEM(u), MEM(w), MEM(acc_l), MEM(acc_i), VAL(scale)};
    size_t segs = (size_t)(o->nx + LQ_HEIGHTFIELD_SEGMENT - 1) / LQ_HEIGHTFIELD_SEGMENT;
    return lq_heightfield_launch(o, o->stats, "heightfield_stats", 7, a, 2, segs, (size_t)o->nz);
}

int lq_heightfield_state_alloc(lq_heightfield_state *st, lq_ctx *ctx, int nx, int nz)
{
    int rc = LQ_OK;
    memset(st, 0, sizeof *st);
    st->nx = nx;
    st->nz = nz;
    size_t n = (size_t)nx * (size_t)nz, f4 = n * 4, f8 = n * 8;
    size_t fu = (size_t)(nx + 1) * nz * 4, fw = (size_t)nx * (nz + 1) * 4;
    size_t plan[] = {f4, f4, f4, f4, f4, f8, f8, f8, f4, f4, fu, fw, fu, fw};
    rc = lq_ctx_reserve(ctx, "the height-field solver", (int)LQ_COUNT(plan), plan);
    if (rc) return rc;
    const char *hn[2] = {"h_a", "h_b"};
    for (int i = 0; i < 2 && !rc; i++) rc = lq_field_alloc(ctx, &st->h[i], hn[i], nx, nz, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->b, "b", nx, nz, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->cp, "thomas_scratch", nx, nz, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->L, "labels", nx, nz, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->old_sum, "old_sum", nx, nz, 1, 8);
    if (!rc) rc = lq_field_alloc(ctx, &st->new_sum[0], "new_sum0", nx, nz, 1, 8);
    if (!rc) rc = lq_field_alloc(ctx, &st->new_sum[1], "new_sum1", nx, nz, 1, 8);
    if (!rc) rc = lq_field_alloc(ctx, &st->wet[0], "wet0", nx, nz, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->wet[1], "wet1", nx, nz, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->u, "u", nx + 1, nz, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->w, "w", nx, nz + 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->ua, "u_advected", nx + 1, nz, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->wa, "w_advected", nx, nz + 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->acc_l, "acc_l", LQ_HEIGHTFIELD_ACC_L_COUNT, 1, 1, 8);
    if (!rc) rc = lq_field_alloc(ctx, &st->acc_i, "acc_i", LQ_HEIGHTFIELD_ACC_I_COUNT, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->st_l, "stats_l", LQ_HEIGHTFIELD_ACC_L_COUNT, 1, 1, 8);
    if (!rc) rc = lq_field_alloc(ctx, &st->st_i, "stats_i", LQ_HEIGHTFIELD_ACC_I_COUNT, 1, 1, 4);
    int acc_i[LQ_HEIGHTFIELD_ACC_I_COUNT] = {0};
    acc_i[LQ_HEIGHTFIELD_ACC_BADSTEP] = INT_MAX;
    if (!rc) rc = lq_field_upload(&st->acc_i, acc_i);
    st->i1 = 0;
    st->in = 1;
    if (rc) lq_heightfield_state_release(st);
    return rc;
}

void lq_heightfield_state_release(lq_heightfield_state *st)
{
    lq_field *fs[] = {&st->h[0],    &st->h[1],       &st->b,          &st->cp,     &st->L,
                      &st->old_sum, &st->new_sum[0], &st->new_sum[1], &st->wet[0], &st->wet[1],
                      &st->u,       &st->w,          &st->ua,         &st->wa,     &st->acc_l,
                      &st->acc_i,   &st->st_l,       &st->st_i};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
}

int lq_heightfield_advect_velocity(lq_heightfield_ops *o, lq_heightfield_state *st, float dt_dx)
{
    int rc =
        lq_heightfield_advect(o, &st->h[st->i1], &st->b, &st->u, &st->w, &st->ua, &st->wa, dt_dx);
    lq_field t = st->u;
    st->u = st->ua;
    st->ua = t;
    t = st->w;
    st->w = st->wa;
    st->wa = t;
    return rc;
}

int lq_heightfield_project_volume(lq_heightfield_ops *o, lq_heightfield_state *st, float scale)
{
    lq_field *h1 = &st->h[st->i1], *hn = &st->h[st->in];
    float inv_scale = 1.0f / scale;
    /* per connected region of cells wet before or after, spread old − new volume over
     * its wet cells; the last pass closes what the cells the first one dried out left */
    int rc =
        lq_heightfield_label(o, h1, hn, &st->b, &st->L, &st->old_sum, &st->new_sum[0], &st->wet[0]);
    for (int pass = 0; pass < LQ_HEIGHTFIELD_PASSES && !rc; pass++) {
        int cur = pass % 2, nxt = 1 - cur;
        rc = lq_heightfield_volume_reduce(o, h1, hn, &st->b, &st->L, &st->old_sum,
                                          &st->new_sum[cur], &st->wet[cur], scale, pass == 0);
        if (!rc)
            rc = lq_heightfield_volume_apply(o, hn, &st->b, &st->L, &st->old_sum, &st->new_sum[cur],
                                             &st->wet[cur], &st->new_sum[nxt], &st->wet[nxt],
                                             &st->acc_l, inv_scale,
                                             pass == LQ_HEIGHTFIELD_PASSES - 1);
    }
    return rc;
}

void lq_heightfield_rotate(lq_heightfield_state *st)
{
    int old1 = st->i1;
    st->i1 = st->in;
    st->in = old1;
}
