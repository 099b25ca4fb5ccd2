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

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_heightfield_kernels[] = {
    LQ_KERNEL(lq_heightfield_ops, residual, "heightfield_residual"),
    LQ_KERNEL(lq_heightfield_ops, defect, "heightfield_defect"),
    LQ_KERNEL(lq_heightfield_ops, open, "heightfield_open"),
    LQ_KERNEL(lq_heightfield_ops, advect, "heightfield_advect"),
    LQ_KERNEL(lq_heightfield_ops, adi_x, "heightfield_adi_x"),
    LQ_KERNEL(lq_heightfield_ops, adi_z, "heightfield_adi_z"),
    LQ_KERNEL(lq_heightfield_ops, pcr_x, "heightfield_pcr_x"),
    LQ_KERNEL(lq_heightfield_ops, pcr_z, "heightfield_pcr_z"),
    LQ_KERNEL(lq_heightfield_ops, source, "heightfield_source"),
    LQ_KERNEL(lq_heightfield_ops, label_init, "heightfield_label_init"),
    LQ_KERNEL(lq_heightfield_ops, label_merge, "heightfield_label_merge"),
    LQ_KERNEL(lq_heightfield_ops, label_compress, "heightfield_label_compress"),
    LQ_KERNEL(lq_heightfield_ops, volume_reduce, "heightfield_volume_reduce"),
    LQ_KERNEL(lq_heightfield_ops, volume_apply, "heightfield_volume_apply"),
    LQ_KERNEL(lq_heightfield_ops, finish, "heightfield_finish"),
    LQ_KERNEL(lq_heightfield_ops, stats, "heightfield_stats"),
};
static const lq_program lq_heightfield_program =
    LQ_PROGRAM("XZ", lq_heightfield_sources, lq_heightfield_kernels);

bool lq_heightfield_pcr_fits(const lq_ctx *ctx, int nx, int nz, char *why, size_t len)
{
    if (ctx->backend == LQ_BACKEND_REF) return true;
    int n = LQ_MAX(nx, nz), n2 = LQ_MAX(n / 2, 1);
    size_t need = (size_t)n2 * sizeof(lq_heightfield_eq), w = (size_t)lq_heightfield_pcr_width(n2);
    size_t have = ctx->cl.dev.local_mem > 1024 ? (size_t)ctx->cl.dev.local_mem - 1024 : 0;
    if (!why) len = 0;
    if (need > have)
        snprintf(why, len, "lines of %d cells need %zu bytes of local memory; %.64s has %zu", n,
                 need + 1024, ctx->cl.dev.name, (size_t)ctx->cl.dev.local_mem);
    else if (w > ctx->cl.dev.max_work_group)
        snprintf(why, len, "it needs work-groups of %zu; %.64s allows %zu", w, ctx->cl.dev.name,
                 ctx->cl.dev.max_work_group);
    else
        return true;
    return false;
}

/* After the build: the runtime may allow a kernel smaller groups than the device (registers). */
static int lq_heightfield_pcr_check(const lq_heightfield_ops *o, const lq_kernel *k, int n)
{
    size_t allowed = 0, w = (size_t)lq_heightfield_pcr_width(LQ_MAX(n / 2, 1));
    cl_int e = clGetKernelWorkGroupInfo(k->k, o->ctx->cl.dev.device, CL_KERNEL_WORK_GROUP_SIZE,
                                        sizeof allowed, &allowed, NULL);
    if (e != CL_SUCCESS)
        return lq_cl_fail(__FILE__, __LINE__, "clGetKernelWorkGroupInfo", k->name, e);
    if (allowed < w)
        return lq_error(LQ_EINPUT,
                        "%s: %s runs work-groups of at most %zu, the parallel line solve needs "
                        "%zu; set shallow.line_solve: thomas",
                        o->ctx->cl.dev.name, k->name, allowed, w);
    return LQ_OK;
}

int lq_heightfield_line_solve(const lq_ctx *ctx, int nx, int nz, int line_solve)
{
    if (line_solve != LQ_HEIGHTFIELD_SOLVE_AUTO) return line_solve;
    char why[256];
    bool gpu = ctx->backend == LQ_BACKEND_CL &&
               (ctx->cl.dev.type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR));
    return gpu && lq_heightfield_pcr_fits(ctx, nx, nz, why, sizeof why)
               ? LQ_HEIGHTFIELD_SOLVE_PCR
               : LQ_HEIGHTFIELD_SOLVE_THOMAS;
}

int lq_heightfield_ops_init(lq_heightfield_ops *o, lq_ctx *ctx, int nx, int nz, int line_solve)
{
    *o = (lq_heightfield_ops){.ctx = ctx, .nx = nx, .nz = nz};
    if (ctx->backend == LQ_BACKEND_REF) {
        o->pcr = line_solve == LQ_HEIGHTFIELD_SOLVE_PCR; /* auto: Thomas, as on CPUs */
        return LQ_OK;
    }
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
    /* The parallel line solve: asked for, or on GPUs and accelerators where it fits. */
    char why[256];
    if (line_solve == LQ_HEIGHTFIELD_SOLVE_PCR &&
        !lq_heightfield_pcr_fits(ctx, nx, nz, why, sizeof why))
        return lq_error(LQ_EINPUT, "shallow.line_solve: pcr: %s; set it to thomas", why);
    o->pcr = lq_heightfield_line_solve(ctx, nx, nz, line_solve) == LQ_HEIGHTFIELD_SOLVE_PCR;
    char extra[192];
    int len = snprintf(extra, sizeof extra, "-DLQ_VEC=%d -DLQ_XBLOCK=%d", o->vec, o->xblock);
    if (o->pcr) {
        int x2 = LQ_MAX(nx / 2, 1), z2 = LQ_MAX(nz / 2, 1);
        int wx = lq_heightfield_pcr_width(x2), wz = lq_heightfield_pcr_width(z2);
        int p = LQ_MAX((x2 + wx - 1) / wx, (z2 + wz - 1) / wz);
        snprintf(extra + len, sizeof extra - (size_t)len,
                 " -DLQ_PCR_P=%d -DLQ_PCR_CAP_X=%d -DLQ_PCR_CAP_Z=%d -DLQ_PCR_WX=%d -DLQ_PCR_WZ=%d",
                 p, x2, z2, wx, wz);
    }
    int rc = lq_program_build(&lq_heightfield_program, o, &o->program, ctx, nx, 0, nz, extra);
    if (rc) return rc;
    if (o->pcr) rc = lq_heightfield_pcr_check(o, &o->pcr_x, nx);
    if (!rc && o->pcr) rc = lq_heightfield_pcr_check(o, &o->pcr_z, nz);
    if (rc) lq_heightfield_ops_release(o);
    if (rc == LQ_EINPUT && line_solve == LQ_HEIGHTFIELD_SOLVE_AUTO) {
        lq_error_clear(); /* auto: the kernels cannot run their groups here, so Thomas */
        return lq_heightfield_ops_init(o, ctx, nx, nz, LQ_HEIGHTFIELD_SOLVE_THOMAS);
    }
    return rc;
}

void lq_heightfield_ops_release(lq_heightfield_ops *o)
{
    lq_program_release(&lq_heightfield_program, o, &o->program);
}

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

/* The line solves have few work-items (one per LQ_VEC lines). On CPUs pick a
 * work-group size that leaves at least four groups per compute unit, or runtimes put
 * them all on one core (PoCL chose 256 of 256 here); round the global size up to it
 * (the kernels return early past the last line). */
static lq_range lq_heightfield_lines(const lq_heightfield_ops *o, const lq_kernel *k, size_t items)
{
    size_t cu = LQ_MAX(o->ctx->cl.dev.compute_units, 1u), local = 64;
    /* GPUs keep whole groups of 64 (lanes of a warp side by side, coalesced); CPUs
     * trade group size for groups enough to feed every core. */
    if (!(o->ctx->cl.dev.type & CL_DEVICE_TYPE_GPU))
        while (local > 1 && items / local < 4 * cu) local /= 2;
    return lq_range_1d(items, lq_kernel_group(k, local));
}

/* Columns of LQ_VEC cells by rows, segments of LQ_HEIGHTFIELD_SEGMENT cells by rows. */
static lq_range lq_heightfield_vec_rows(const lq_heightfield_ops *o)
{
    return lq_range_2d(((size_t)o->nx + o->vec - 1) / o->vec, (size_t)o->nz, 0, 0);
}

static lq_range lq_heightfield_segments(const lq_heightfield_ops *o)
{
    size_t segs = (size_t)(o->nx + LQ_HEIGHTFIELD_SEGMENT - 1) / LQ_HEIGHTFIELD_SEGMENT;
    return lq_range_2d(segs, (size_t)o->nz, 0, 0);
}

int lq_heightfield_residual(lq_heightfield_ops *o, const lq_field *h1, const lq_field *u,
                            const lq_field *w, const lq_field *b, const lq_field *href,
                            lq_field *hn, float kappa, float cdt, const lq_heightfield_walls *wl)
{
    if (IS_REF(o)) {
        lq_heightfield_ref_residual(o->nx, o->nz, h1, u, w, b, href, hn, kappa, cdt, wl);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(h1), LQ_MEM(u),     LQ_MEM(w),   LQ_MEM(b),        LQ_MEM(href),
                  LQ_MEM(hn), LQ_VAL(kappa), LQ_VAL(cdt), LQ_VAL(wl->open), LQ_VAL(wl->cb)};
    return lq_kernel_launch(&o->residual, lq_heightfield_vec_rows(o), LQ_ARGS(a));
}

int lq_heightfield_adi_x(lq_heightfield_ops *o, const lq_field *h1, const lq_field *b, lq_field *hn,
                         lq_field *cp, float kappa, float e_lo, float e_hi)
{
    if (IS_REF(o)) {
        if (o->pcr)
            return lq_heightfield_ref_pcr(o->nx, o->nz, 0, h1, b, h1, hn, kappa, e_lo, e_hi);
        lq_heightfield_ref_adi_x(o->nx, o->nz, h1, b, hn, cp, kappa, e_lo, e_hi);
        return LQ_OK;
    }
    if (o->pcr) {
        lq_arg p[] = {LQ_MEM(h1), LQ_MEM(b), LQ_MEM(hn), LQ_VAL(kappa), LQ_VAL(e_lo), LQ_VAL(e_hi)};
        size_t w = (size_t)lq_heightfield_pcr_width(LQ_MAX(o->nx / 2, 1));
        return lq_kernel_launch(&o->pcr_x, lq_range_1d((size_t)o->nz * w, w), LQ_ARGS(p));
    }
    lq_arg a[] = {LQ_MEM(h1),    LQ_MEM(b),    LQ_MEM(hn),  LQ_MEM(cp),
                  LQ_VAL(kappa), LQ_VAL(e_lo), LQ_VAL(e_hi)};
    size_t rows_per_item = o->xblock ? 8 : 1;
    size_t items = ((size_t)o->nz + rows_per_item - 1) / rows_per_item;
    return lq_kernel_launch(&o->adi_x, lq_heightfield_lines(o, &o->adi_x, items), LQ_ARGS(a));
}

int lq_heightfield_adi_z(lq_heightfield_ops *o, const lq_field *h1, const lq_field *b,
                         const lq_field *base, lq_field *hn, lq_field *cp, float kappa, float e_lo,
                         float e_hi)
{
    if (IS_REF(o)) {
        if (o->pcr)
            return lq_heightfield_ref_pcr(o->nx, o->nz, 1, h1, b, base, hn, kappa, e_lo, e_hi);
        lq_heightfield_ref_adi_z(o->nx, o->nz, h1, b, base, hn, cp, kappa, e_lo, e_hi);
        return LQ_OK;
    }
    if (o->pcr) {
        lq_arg p[] = {LQ_MEM(h1),    LQ_MEM(b),    LQ_MEM(base), LQ_MEM(hn),
                      LQ_VAL(kappa), LQ_VAL(e_lo), LQ_VAL(e_hi)};
        size_t w = (size_t)lq_heightfield_pcr_width(LQ_MAX(o->nz / 2, 1));
        return lq_kernel_launch(&o->pcr_z, lq_range_1d((size_t)o->nx * w, w), LQ_ARGS(p));
    }
    lq_arg a[] = {LQ_MEM(h1), LQ_MEM(b),     LQ_MEM(base), LQ_MEM(hn),
                  LQ_MEM(cp), LQ_VAL(kappa), LQ_VAL(e_lo), LQ_VAL(e_hi)};
    size_t items = ((size_t)o->nx + o->vec - 1) / o->vec;
    return lq_kernel_launch(&o->adi_z, lq_heightfield_lines(o, &o->adi_z, items), LQ_ARGS(a));
}

int lq_heightfield_defect(lq_heightfield_ops *o, const lq_field *h1, const lq_field *hn,
                          const lq_field *u, const lq_field *w, const lq_field *b,
                          const lq_field *href, lq_field *out, float kappa, float cdt,
                          float kappa_s, const lq_heightfield_walls *wl)
{
    if (IS_REF(o)) {
        lq_heightfield_ref_defect(o->nx, o->nz, h1, hn, u, w, b, href, out, kappa, cdt, kappa_s,
                                  wl);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(h1),       LQ_MEM(hn),     LQ_MEM(u),      LQ_MEM(w),   LQ_MEM(b),
                  LQ_MEM(href),     LQ_MEM(out),    LQ_VAL(kappa),  LQ_VAL(cdt), LQ_VAL(kappa_s),
                  LQ_VAL(wl->open), LQ_VAL(wl->cb), LQ_VAL(wl->cbt)};
    return lq_kernel_launch(&o->defect, lq_range_2d(o->nx, o->nz, 0, 0), LQ_ARGS(a));
}

int lq_heightfield_open(lq_heightfield_ops *o, const lq_field *h1, const lq_field *hn,
                        const lq_field *b, const lq_field *href, const lq_field *L,
                        lq_field *old_sum, lq_field *acc_l, const lq_heightfield_walls *wl,
                        float scale, int project)
{
    if (!wl->open) return LQ_OK;
    if (IS_REF(o)) {
        lq_heightfield_ref_open(o->nx, o->nz, h1, hn, b, href, L, old_sum, acc_l, wl, scale,
                                project);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(h1),     LQ_MEM(hn),        LQ_MEM(b),     LQ_MEM(href),
                  LQ_MEM(L),      LQ_MEM(old_sum),   LQ_MEM(acc_l), LQ_VAL(wl->open),
                  LQ_VAL(wl->cb), LQ_VAL(wl->theta), LQ_VAL(scale), LQ_VAL(project)};
    size_t n = 2 * ((size_t)o->nx + (size_t)o->nz);
    return lq_kernel_launch(&o->open, lq_range_1d(n, 0), LQ_ARGS(a));
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
    lq_arg a[] = {LQ_MEM(h1),   LQ_MEM(b),      LQ_MEM(acc_l), LQ_VAL(i0),
                  LQ_VAL(k0),   LQ_VAL(ci),     LQ_VAL(ck),    LQ_VAL(inv_r2),
                  LQ_VAL(mode), LQ_VAL(amount), LQ_VAL(scale)};
    return lq_kernel_launch(&o->source, lq_range_2d((size_t)ni, (size_t)nk, 0, 0), LQ_ARGS(a));
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
    lq_arg ai[] = {LQ_MEM(h1), LQ_MEM(hn), LQ_MEM(b), LQ_MEM(L)};
    lq_arg am[] = {LQ_MEM(L)};
    lq_arg ac[] = {LQ_MEM(L), LQ_MEM(old_sum), LQ_MEM(new_sum), LQ_MEM(wet)};
    lq_range rows = lq_heightfield_lines(o, &o->label_init, (size_t)o->nz);
    int rc = lq_kernel_launch(&o->label_init, rows, LQ_ARGS(ai));
    if (!rc) rc = lq_kernel_launch(&o->label_merge, lq_range_2d(o->nx, o->nz, 0, 0), LQ_ARGS(am));
    if (!rc) rc = lq_kernel_launch(&o->label_compress, lq_range_1d(n, 0), LQ_ARGS(ac));
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
    lq_arg a[] = {LQ_MEM(h1),      LQ_MEM(hn),  LQ_MEM(b),     LQ_MEM(L),       LQ_MEM(old_sum),
                  LQ_MEM(new_sum), LQ_MEM(wet), LQ_VAL(scale), LQ_VAL(with_old)};
    return lq_kernel_launch(&o->volume_reduce, lq_heightfield_segments(o), LQ_ARGS(a));
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
    lq_arg a[] = {LQ_MEM(hn),      LQ_MEM(b),         LQ_MEM(L),        LQ_MEM(old_sum),
                  LQ_MEM(new_sum), LQ_MEM(wet),       LQ_MEM(next_new), LQ_MEM(next_wet),
                  LQ_MEM(acc_l),   LQ_VAL(inv_scale), LQ_VAL(last_pass)};
    size_t n = (size_t)o->nx * (size_t)o->nz;
    return lq_kernel_launch(&o->volume_apply, lq_range_1d(n, 0), LQ_ARGS(a));
}

int lq_heightfield_finish(lq_heightfield_ops *o, lq_field *hn, const lq_field *h1,
                          const lq_field *b, lq_field *u, lq_field *w, lq_field *acc_i, float g_new,
                          float g_old, float keep, float fric, float grav, float thin, float eps,
                          int step, const lq_heightfield_walls *wl)
{
    if (IS_REF(o)) {
        lq_heightfield_ref_finish(o->nx, o->nz, hn, h1, b, u, w, acc_i, g_new, g_old, keep, fric,
                                  grav, thin, eps, step, wl);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(hn),        LQ_MEM(h1),    LQ_MEM(b),          LQ_MEM(u),
                  LQ_MEM(w),         LQ_MEM(acc_i), LQ_VAL(g_new),      LQ_VAL(g_old),
                  LQ_VAL(keep),      LQ_VAL(fric),  LQ_VAL(grav),       LQ_VAL(thin),
                  LQ_VAL(eps),       LQ_VAL(step),  LQ_VAL(wl->absorb), LQ_VAL(wl->aw),
                  LQ_VAL(wl->sponge)};
    return lq_kernel_launch(&o->finish, lq_heightfield_vec_rows(o), LQ_ARGS(a));
}

int lq_heightfield_advect(lq_heightfield_ops *o, const lq_field *h1, const lq_field *b,
                          const lq_field *u, const lq_field *w, lq_field *ua, lq_field *wa,
                          float dt_dx)
{
    if (IS_REF(o)) {
        lq_heightfield_ref_advect(o->nx, o->nz, h1, b, u, w, ua, wa, dt_dx);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(h1), LQ_MEM(b),  LQ_MEM(u),    LQ_MEM(w),
                  LQ_MEM(ua), LQ_MEM(wa), LQ_VAL(dt_dx)};
    return lq_kernel_launch(&o->advect, lq_range_2d(o->nx, o->nz, 0, 0), LQ_ARGS(a));
}

int lq_heightfield_stats(lq_heightfield_ops *o, const lq_field *h, const lq_field *b,
                         const lq_field *u, const lq_field *w, lq_field *acc_l, lq_field *acc_i,
                         float scale)
{
    if (IS_REF(o)) {
        lq_heightfield_ref_stats(o->nx, o->nz, h, b, u, w, acc_l, acc_i, scale);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(h),     LQ_MEM(b),     LQ_MEM(u),    LQ_MEM(w),
                  LQ_MEM(acc_l), LQ_MEM(acc_i), LQ_VAL(scale)};
    return lq_kernel_launch(&o->stats, lq_heightfield_segments(o), LQ_ARGS(a));
}

int lq_heightfield_state_alloc(lq_heightfield_state *st, lq_ctx *ctx, int nx, int nz)
{
    int rc = LQ_OK;
    memset(st, 0, sizeof *st);
    st->nx = nx;
    st->nz = nz;
    size_t n = (size_t)nx * (size_t)nz, f4 = n * 4, f8 = n * 8;
    size_t fu = (size_t)(nx + 1) * nz * 4, fw = (size_t)nx * (nz + 1) * 4;
    size_t plan[] = {f4, f4, f4, f4, f4, f4, f4, f8, f8, f8, f4, f4, fu, fw, fu, fw};
    rc = lq_ctx_reserve(ctx, "the height-field solver", (int)LQ_COUNT(plan), plan);
    if (rc) return rc;
    const char *hn[2] = {"h_a", "h_b"};
    for (int i = 0; i < 2 && !rc; i++) rc = lq_field_alloc(ctx, &st->h[i], hn[i], nx, nz, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->hx, "h_iterate", nx, nz, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &st->href, "h_open_reference", nx, nz, 1, 4);
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
    lq_field *fs[] = {&st->h[0],   &st->h[1],   &st->hx,      &st->href,       &st->b,
                      &st->cp,     &st->L,      &st->old_sum, &st->new_sum[0], &st->new_sum[1],
                      &st->wet[0], &st->wet[1], &st->u,       &st->w,          &st->ua,
                      &st->wa,     &st->acc_l,  &st->acc_i,   &st->st_l,       &st->st_i};
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

int lq_heightfield_project_volume(lq_heightfield_ops *o, lq_heightfield_state *st, float scale,
                                  const lq_heightfield_walls *wl)
{
    lq_field *h1 = &st->h[st->i1], *hn = &st->h[st->in];
    float inv_scale = 1.0f / scale;
    /* per connected region of cells wet before or after, spread old − new volume over
     * its wet cells (less what open walls let out); the last pass closes what the cells
     * the first one dried out left */
    int rc =
        lq_heightfield_label(o, h1, hn, &st->b, &st->L, &st->old_sum, &st->new_sum[0], &st->wet[0]);
    if (!rc)
        rc = lq_heightfield_open(o, h1, hn, &st->b, &st->href, &st->L, &st->old_sum, &st->acc_l, wl,
                                 scale, 1);
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

int lq_heightfield_iterate(lq_heightfield_ops *o, lq_heightfield_state *st,
                           const lq_heightfield_step_params *p)
{
    lq_field *h1 = &st->h[st->i1];
    int rc = LQ_OK;
    /* the split solve of what the unsplit system still lacks, added to the iterate;
     * the new iterate takes h[in]'s place */
    for (int m = 1; m < p->iterations && !rc; m++) {
        lq_field *hn = &st->h[st->in];
        float xl, xh, zl, zh;
        lq_heightfield_line_ends(&p->walls, 0, &xl, &xh);
        lq_heightfield_line_ends(&p->walls, 1, &zl, &zh);
        rc = lq_heightfield_defect(o, h1, hn, &st->u, &st->w, &st->b, &st->href, &st->hx, p->kappa,
                                   p->cdt, p->kappa_s, &p->walls);
        if (!rc) rc = lq_heightfield_adi_x(o, h1, &st->b, &st->hx, &st->cp, p->kappa_s, xl, xh);
        if (!rc) rc = lq_heightfield_adi_z(o, h1, &st->b, hn, &st->hx, &st->cp, p->kappa_s, zl, zh);
        lq_field t = *hn;
        *hn = st->hx;
        st->hx = t;
    }
    return rc;
}

void lq_heightfield_rotate(lq_heightfield_state *st)
{
    int old1 = st->i1;
    st->i1 = st->in;
    st->in = old1;
}
