/*
 * plscontrol.c — launchers of the control particles (plscontrol.h): the binning's
 * passes (keys, tile counts and block marks, the shared block scan, tile starts, scatter,
 * per-tile sort, the scan and list of the active blocks) and the per-cell gathers of each
 * kind; the projection with hard control.
 *
 * The binning's geometry is the host's: the largest extent e of the records (widened by
 * 1e-3 h so that float rounding never drops a tile), the tile side T = max(1, ⌈e/h⌉)
 * cells so that a cell visits at most two tiles per axis, and 1/(T h) rounded once. A
 * particle far larger than the rest (a big eraser) coarsens the tiles for all of them:
 * the gathers then visit more particles per cell, never fewer than they must. Tiles of
 * one cell (the paper's particles of radius ½–1 cell) hold about one particle each, so
 * a cell's gather reads about 8; tiles of 4 cells read ~170 at one particle per cell
 * (measured: 191 ms against 20 ms for the 128³ bench's 100 k particles, with the
 * whole-grid passes that the active blocks replaced).
 *
 * Lists: the last binning's active blocks are in list[lcur]; the velocity pass writes
 * the projection's solid field in those blocks and remembers them (lw), so that the next
 * pass first puts the base value back there (without objects; with objects the base is
 * rewritten everywhere, since their sdf moves; and once more after the last pass with an
 * sdf, since the base it wrote everywhere is not the +h of a pass without one: the
 * solver's open inlets come and go as an sdf). A binning never overwrites list[lw].
 */
#include "ops/pls/plscontrol.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#include "core/common.h"
#include "core/profile.h"

static const char *const lq_plscontrol_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", LQ_SCAN_SOURCES,
    "kernels/pls/plscontrol_cell.h", "kernels/pls/plscontrol.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

static const lq_kernel_slot lq_plscontrol_kernels[] = {
    LQ_KERNEL(lq_plscontrol_ops, key, "plscontrol_key"),
    LQ_KERNEL(lq_plscontrol_ops, start, "plscontrol_start"),
    LQ_KERNEL(lq_plscontrol_ops, scatter, "plscontrol_scatter"),
    LQ_KERNEL(lq_plscontrol_ops, sort, "plscontrol_sort"),
    LQ_KERNEL(lq_plscontrol_ops, listk, "plscontrol_list"),
    LQ_KERNEL(lq_plscontrol_ops, base, "plscontrol_base"),
    LQ_KERNEL(lq_plscontrol_ops, velocity, "plscontrol_velocity"),
    LQ_KERNEL(lq_plscontrol_ops, faces, "plscontrol_faces"),
    LQ_KERNEL(lq_plscontrol_ops, phi, "plscontrol_phi"),
    LQ_KERNEL(lq_plscontrol_ops, viscosity, "plscontrol_viscosity"),
    LQ_KERNEL(lq_plscontrol_ops, divergence, "plscontrol_divergence"),
    LQ_SCAN_KERNELS(lq_plscontrol_ops),
};
static const lq_program lq_plscontrol_program =
    LQ_PROGRAM("XYZ", lq_plscontrol_sources, lq_plscontrol_kernels);

static int lq_plscontrol_ceil_div(int a, int b)
{
    return (a + b - 1) / b;
}

static int lq_plscontrol_maxtiles(int nx, int ny, int nz)
{
    int t = LQ_PLSCONTROL_TILE;
    return lq_plscontrol_ceil_div(nx, t) * lq_plscontrol_ceil_div(ny, t) *
           lq_plscontrol_ceil_div(nz, t);
}

static void lq_plscontrol_blocks(int nx, int ny, int nz, int bn[3])
{
    bn[0] = lq_plscontrol_ceil_div(nx, LQ_PLSCONTROL_BLOCK);
    bn[1] = lq_plscontrol_ceil_div(ny, LQ_PLSCONTROL_BLOCK);
    bn[2] = lq_plscontrol_ceil_div(nz, LQ_PLSCONTROL_BLOCK);
}

#define LQ_PLSCONTROL_HAS(kinds, k) (((kinds) >> (k)) & 1u)

size_t lq_plscontrol_ops_bytes(int nx, int ny, int nz, int capacity, unsigned kinds)
{
    size_t C = (size_t)nx * ny * nz, P = (size_t)LQ_MAX(capacity, 1);
    size_t T = (size_t)lq_plscontrol_maxtiles(nx, ny, nz);
    int bn[3];
    lq_plscontrol_blocks(nx, ny, nz, bn);
    size_t B = (size_t)bn[0] * bn[1] * bn[2];
    size_t b = P * (LQ_PLSCONTROL_STRIDE * 4 + 8) + T * 12 +
               (size_t)LQ_MAX(lq_scan_blocks_of((long long)T), 1) * 8 + B * 12 +
               (size_t)LQ_MAX(lq_scan_blocks_of((long long)B), 1) * 8 + LQ_PLSCONTROL_CNT_COUNT * 4;
    if (LQ_PLSCONTROL_HAS(kinds, LQ_PLSCONTROL_VELOCITY)) b += C * 20;
    if (LQ_PLSCONTROL_HAS(kinds, LQ_PLSCONTROL_PHI) ||
        LQ_PLSCONTROL_HAS(kinds, LQ_PLSCONTROL_ERASER))
        b += C * 4;
    if (LQ_PLSCONTROL_HAS(kinds, LQ_PLSCONTROL_VISCOSITY)) b += C * 4;
    return b;
}

/* Bound once: the fixed buffers of each kernel. */
static int lq_plscontrol_bind(lq_plscontrol_ops *o)
{
    lq_binding b[] = {
        {&o->key,
         {[0] = LQ_MEM(&o->part),
          [2] = LQ_MEM(&o->keys),
          [3] = LQ_MEM(&o->tcount),
          [9] = LQ_MEM(&o->map)}},
        {&o->start,
         {[0] = LQ_MEM(&o->tcount),
          [1] = LQ_MEM(&o->boff),
          [2] = LQ_MEM(&o->tstart),
          [3] = LQ_MEM(&o->tfill)}},
        {&o->scatter,
         {[0] = LQ_MEM(&o->keys),
          [2] = LQ_MEM(&o->tstart),
          [3] = LQ_MEM(&o->tfill),
          [4] = LQ_MEM(&o->order)}},
        {&o->sort, {[0] = LQ_MEM(&o->order), [1] = LQ_MEM(&o->tstart), [2] = LQ_MEM(&o->tcount)}},
        {&o->listk, {[0] = LQ_MEM(&o->map), [1] = LQ_MEM(&o->boff2)}},
    };
    int rc = lq_kernels_bind(LQ_ARGS(b));
    lq_kernel *gathers[5] = {&o->velocity, &o->faces, &o->phi, &o->viscosity, &o->divergence};
    for (int g = 0; g < 5 && !rc; g++) {
        lq_binding bg[] = {{gathers[g],
                            {[0] = LQ_MEM(&o->part),
                             [1] = LQ_MEM(&o->order),
                             [2] = LQ_MEM(&o->tstart),
                             [3] = LQ_MEM(&o->tcount),
                             [9] = LQ_MEM(&o->map)}}};
        rc = lq_kernels_bind(LQ_ARGS(bg));
    }
    return rc;
}

/* The per-cell scratch of the kinds asked for. */
static int lq_plscontrol_scratch(lq_plscontrol_ops *o)
{
    int nx = o->nx, ny = o->ny, nz = o->nz, rc = LQ_OK;
    if (LQ_PLSCONTROL_HAS(o->kinds, LQ_PLSCONTROL_VELOCITY)) {
        rc = lq_field_alloc(o->ctx, &o->ca, "pc_alpha", nx, ny, nz, 4);
        if (!rc) rc = lq_field_alloc(o->ctx, &o->cv, "pc_vel", 3 * nx, ny, nz, 4);
        if (!rc) rc = lq_field_alloc(o->ctx, &o->solid, "pc_solid", nx, ny, nz, 4);
        if (!rc) rc = lq_field_zero(&o->ca, 0);
        if (!rc) rc = lq_field_zero(&o->cv, 0);
    }
    if (!rc && (LQ_PLSCONTROL_HAS(o->kinds, LQ_PLSCONTROL_PHI) ||
                LQ_PLSCONTROL_HAS(o->kinds, LQ_PLSCONTROL_ERASER)))
        rc = lq_field_alloc(o->ctx, &o->kill, "pc_kill", nx, ny, nz, 4);
    if (!rc && LQ_PLSCONTROL_HAS(o->kinds, LQ_PLSCONTROL_VISCOSITY))
        rc = lq_field_alloc(o->ctx, &o->nu, "pc_nu", nx, ny, nz, 4);
    return rc;
}

/* The solid field's base (the objects' sdf, or +h without them): every cell (l < 0), or
 * the cells of list[l] (OpenCL; the twin's is in plscontrol_ref.c). */
static int lq_plscontrol_base(lq_plscontrol_ops *o, int l, const lq_field *sdf, float h)
{
    int full = l < 0, li = l < 0 ? 0 : l, n = l < 0 ? 0 : o->nlist[l], has = sdf != NULL;
    const lq_field *sd = sdf ? sdf : &o->solid;
    lq_arg a[] = {LQ_MEM(&o->list[li]), LQ_VAL(n),        LQ_VAL(full),
                  LQ_VAL(o->bn[0]),     LQ_VAL(o->bn[1]), LQ_MEM(sd),
                  LQ_VAL(has),          LQ_VAL(h),        LQ_MEM(&o->solid)};
    size_t items = full ? (size_t)o->nx * o->ny * o->nz : (size_t)n * LQ_PLSCONTROL_BLOCK3;
    return lq_kernel_launch(&o->base, lq_range_var(&o->base, (int)items), LQ_ARGS(a));
}

int lq_plscontrol_ops_init(lq_plscontrol_ops *o, lq_ctx *ctx, int nx, int ny, int nz, int capacity,
                           unsigned kinds)
{
    capacity = LQ_MAX(capacity, 1);
    int T = lq_plscontrol_maxtiles(nx, ny, nz), nb = LQ_MAX(lq_scan_blocks_of(T), 1);
    *o = (lq_plscontrol_ops){.ctx = ctx,
                             .nx = nx,
                             .ny = ny,
                             .nz = nz,
                             .capacity = capacity,
                             .kinds = kinds,
                             .maxtiles = T,
                             .lw = -1};
    lq_plscontrol_blocks(nx, ny, nz, o->bn);
    o->nblocks = o->bn[0] * o->bn[1] * o->bn[2];
    int B = o->nblocks, nb2 = LQ_MAX(lq_scan_blocks_of(B), 1);
    int rc = lq_field_alloc(ctx, &o->part, "pc_part", LQ_PLSCONTROL_STRIDE * capacity, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->keys, "pc_keys", capacity, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->order, "pc_order", capacity, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->tcount, "pc_tcount", T, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->tstart, "pc_tstart", T, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->tfill, "pc_tfill", T, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->bsum, "pc_bsum", nb, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->boff, "pc_boff", nb, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->counters, "pc_cnt", LQ_PLSCONTROL_CNT_COUNT, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->map, "pc_map", B, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->list[0], "pc_list0", B, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->list[1], "pc_list1", B, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->bsum2, "pc_bsum2", nb2, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &o->boff2, "pc_boff2", nb2, 1, 1, 4);
    if (!rc) rc = lq_field_zero(&o->map, 0);
    if (!rc) rc = lq_plscontrol_scratch(o);
    if (!rc && !IS_REF(o)) {
        rc = lq_program_build(&lq_plscontrol_program, o, &o->program, ctx, nx, ny, nz, "");
        if (!rc) rc = lq_plscontrol_bind(o);
    }
    if (rc) lq_plscontrol_ops_release(o);
    return rc;
}

void lq_plscontrol_ops_release(lq_plscontrol_ops *o)
{
    lq_program_release(&lq_plscontrol_program, o, &o->program);
    lq_field *fs[] = {&o->part,    &o->keys,    &o->order, &o->tcount,   &o->tstart,
                      &o->tfill,   &o->bsum,    &o->boff,  &o->counters, &o->map,
                      &o->list[0], &o->list[1], &o->bsum2, &o->boff2,    &o->ca,
                      &o->cv,      &o->solid,   &o->kill,  &o->nu};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
}

/* The binning's geometry from the records (the file's header). */
static void lq_plscontrol_geometry(lq_plscontrol_ops *o, const float *rec, int n, float h)
{
    double e = 0;
    o->present = 0;
    for (int i = 0; i < n; i++) {
        const float *r = rec + (size_t)i * LQ_PLSCONTROL_STRIDE;
        if (!(r[LQ_PLSCONTROL_STRENGTH] > 0.0f)) continue;
        e = fmax(e, r[LQ_PLSCONTROL_EXTENT]);
        o->present |= 1u << lq_plscontrol_kind(r);
    }
    e += 1e-3 * h;
    int T = LQ_MAX(LQ_PLSCONTROL_TILE, (int)ceil(e / h));
    int dims[3] = {o->nx, o->ny, o->nz};
    o->tile = T;
    for (int a = 0; a < 3; a++) o->tn[a] = lq_plscontrol_ceil_div(dims[a], T);
    o->ntiles = o->tn[0] * o->tn[1] * o->tn[2];
    o->ith = (float)(1.0 / ((double)T * h));
    o->reach = (float)e;
    o->n = n;
    o->lcur = o->lw >= 0 ? 1 - o->lw : 0; /* never the list the solid field was written in */
}

/* The device binning of the o->n records uploaded. */
static int lq_plscontrol_bin_cl(lq_plscontrol_ops *o, float h)
{
    int n = o->n, nt = o->ntiles, nb = lq_scan_blocks_of(nt), B = o->nblocks;
    int nb2 = lq_scan_blocks_of(B);
    float ih = (float)(1.0 / h);
    int cnt[LQ_PLSCONTROL_CNT_COUNT] = {0};
    int rc = lq_field_zero(&o->tcount, (size_t)nt * sizeof(int));
    if (!rc) rc = lq_field_zero(&o->map, 0);
    if (!rc) rc = lq_field_upload(&o->counters, cnt);
    lq_arg ak[] = {LQ_KEEP,          LQ_VAL(n),      LQ_KEEP,          LQ_KEEP,
                   LQ_VAL(h),        LQ_VAL(o->ith), LQ_VAL(o->tn[0]), LQ_VAL(o->tn[1]),
                   LQ_VAL(o->tn[2]), LQ_KEEP,        LQ_VAL(o->bn[0]), LQ_VAL(o->bn[1]),
                   LQ_VAL(ih)};
    if (!rc) rc = lq_kernel_launch(&o->key, lq_range_var(&o->key, n), LQ_ARGS(ak));
    lq_scan_bufs sb = lq_plscontrol_scan_bufs(o);
    if (!rc) rc = lq_scan_append(&o->scan, &sb, &o->tcount, nt);
    lq_arg as[] = {LQ_KEEP, LQ_KEEP, LQ_KEEP, LQ_KEEP, LQ_VAL(nb), LQ_VAL(nt)};
    if (!rc) rc = lq_kernel_launch(&o->start, lq_range_var(&o->start, nb), LQ_ARGS(as));
    lq_arg ac[] = {LQ_KEEP, LQ_VAL(n), LQ_KEEP, LQ_KEEP, LQ_KEEP};
    if (!rc) rc = lq_kernel_launch(&o->scatter, lq_range_var(&o->scatter, n), LQ_ARGS(ac));
    lq_arg ao[] = {LQ_KEEP, LQ_KEEP, LQ_KEEP, LQ_VAL(nt)};
    if (!rc) rc = lq_kernel_launch(&o->sort, lq_range_var(&o->sort, nt), LQ_ARGS(ao));
    lq_scan_bufs bb = lq_plscontrol_block_bufs(o);
    if (!rc) rc = lq_scan_append(&o->scan, &bb, &o->map, B);
    lq_arg al[] = {LQ_KEEP, LQ_KEEP, LQ_MEM(&o->list[o->lcur]), LQ_VAL(nb2), LQ_VAL(B)};
    if (!rc) rc = lq_kernel_launch(&o->listk, lq_range_var(&o->listk, nb2), LQ_ARGS(al));
    return rc;
}

int lq_plscontrol_rebin(lq_plscontrol_ops *o, float h)
{
    int cnt[LQ_PLSCONTROL_CNT_COUNT];
    if (IS_REF(o)) {
        lq_plscontrol_ref_bin(o, h);
    } else {
        int rc = lq_plscontrol_bin_cl(o, h);
        if (rc) return rc;
    }
    int rc = lq_field_download(&o->counters, cnt);
    if (rc) return rc;
    o->binned = cnt[LQ_PLSCONTROL_CNT_LIVE];
    o->nlist[o->lcur] = cnt[LQ_PLSCONTROL_CNT_BLOCKS];
    return LQ_OK;
}

int lq_plscontrol_bin(lq_plscontrol_ops *o, const float *rec, int n, float h)
{
    assert(n >= 0 && n <= o->capacity);
    lq_plscontrol_geometry(o, rec, n, h);
    int rc =
        n > 0 ? lq_field_write(&o->part, 0, (size_t)n * LQ_PLSCONTROL_STRIDE * sizeof(float), rec)
              : LQ_OK;
    return rc ? rc : lq_plscontrol_rebin(o, h);
}

/* The bins' arguments of a gather (0–11; part … tcount and map bound): the last binning's. */
#define LQ_PLSCONTROL_BIN_ARGS(o)                                                                  \
    LQ_KEEP, LQ_KEEP, LQ_KEEP, LQ_KEEP, LQ_VAL((o)->tn[0]), LQ_VAL((o)->tn[1]),                    \
        LQ_VAL((o)->tn[2]), LQ_VAL((o)->ith), LQ_VAL((o)->reach), LQ_KEEP, LQ_VAL((o)->bn[0]),     \
        LQ_VAL((o)->bn[1])

/* Zeroes counter `slot` (before a pass that counts into it). */
static int lq_plscontrol_zero_counter(lq_plscontrol_ops *o, int slot)
{
    int z = 0;
    return lq_field_write(&o->counters, (size_t)slot * sizeof(int), sizeof z, &z);
}

static int lq_plscontrol_counter(lq_plscontrol_ops *o, int slot, int *out)
{
    return lq_field_read(&o->counters, (size_t)slot * sizeof(int), sizeof *out, out);
}

int lq_plscontrol_phi(lq_plscontrol_ops *o, lq_field *phi, const lq_field *sdf, float h, int *moved)
{
    assert(o->kill.count > 0);
    int rc = lq_plscontrol_zero_counter(o, LQ_PLSCONTROL_CNT_MOVED);
    if (rc) return rc;
    if (IS_REF(o)) {
        lq_plscontrol_ref_phi(o, phi, sdf, h);
    } else {
        int has = sdf != NULL, kinds = (int)o->present;
        const lq_field *sd = sdf ? sdf : phi;
        lq_arg a[] = {LQ_PLSCONTROL_BIN_ARGS(o),
                      LQ_VAL(kinds),
                      LQ_MEM(phi),
                      LQ_MEM(sd),
                      LQ_VAL(has),
                      LQ_VAL(h),
                      LQ_MEM(&o->kill),
                      LQ_MEM(&o->counters)};
        rc = lq_kernel_launch(&o->phi, lq_range_3d(o->nx, o->ny, o->nz), LQ_ARGS(a));
    }
    if (!rc) rc = lq_plscontrol_counter(o, LQ_PLSCONTROL_CNT_MOVED, &o->moved);
    if (!rc && moved) *moved = o->moved;
    return rc;
}

int lq_plscontrol_viscosity(lq_plscontrol_ops *o, const lq_field *nu_in, float scale, float h)
{
    assert(o->nu.count > 0);
    if (IS_REF(o)) {
        lq_plscontrol_ref_viscosity(o, nu_in, scale, h);
        return LQ_OK;
    }
    int has = nu_in != NULL;
    const lq_field *ni = nu_in ? nu_in : &o->nu;
    lq_arg a[] = {LQ_PLSCONTROL_BIN_ARGS(o),
                  LQ_MEM(ni),
                  LQ_VAL(has),
                  LQ_VAL(scale),
                  LQ_VAL(h),
                  LQ_MEM(&o->nu)};
    return lq_kernel_launch(&o->viscosity, lq_range_3d(o->nx, o->ny, o->nz), LQ_ARGS(a));
}

/* The velocity gather and the faces over list[lcur] (the base of the solid field put
 * back first). */
static int lq_plscontrol_velocity_cl(lq_plscontrol_ops *o, lq_field *u, lq_field *v, lq_field *w,
                                     const lq_field *phi, const lq_field *sdf, float h)
{
    int has = sdf != NULL, l = o->lcur, n = o->nlist[l], items = n * LQ_PLSCONTROL_BLOCK3;
    const lq_field *sd = sdf ? sdf : phi;
    lq_arg a[] = {LQ_PLSCONTROL_BIN_ARGS(o),
                  LQ_MEM(&o->list[l]),
                  LQ_VAL(n),
                  LQ_MEM(phi),
                  LQ_MEM(sd),
                  LQ_VAL(has),
                  LQ_VAL(h),
                  LQ_MEM(&o->ca),
                  LQ_MEM(&o->cv),
                  LQ_MEM(&o->solid),
                  LQ_MEM(&o->counters)};
    int rc = lq_kernel_launch(&o->velocity, lq_range_var(&o->velocity, items), LQ_ARGS(a));
    lq_arg af[] = {LQ_PLSCONTROL_BIN_ARGS(o),
                   LQ_MEM(&o->list[l]),
                   LQ_VAL(n),
                   LQ_MEM(u),
                   LQ_MEM(v),
                   LQ_MEM(w),
                   LQ_MEM(&o->ca),
                   LQ_MEM(&o->cv),
                   LQ_MEM(phi),
                   LQ_MEM(sd),
                   LQ_VAL(has)};
    if (!rc) rc = lq_kernel_launch(&o->faces, lq_range_var(&o->faces, items), LQ_ARGS(af));
    return rc;
}

int lq_plscontrol_velocity(lq_plscontrol_ops *o, lq_field *u, lq_field *v, lq_field *w,
                           const lq_field *phi, const lq_field *sdf, float h, int *hard)
{
    assert(o->ca.count > 0);
    int rc = lq_plscontrol_zero_counter(o, LQ_PLSCONTROL_CNT_HARD);
    if (rc) return rc;
    if (!sdf && o->lsdf) o->lw = -1; /* the base the last pass wrote everywhere: redo it */
    o->lsdf = sdf != NULL;
    if (IS_REF(o)) {
        lq_plscontrol_ref_velocity(o, u, v, w, phi, sdf, h);
    } else {
        /* the base: everywhere with objects (their sdf moves) and the first time, else
         * where the last pass wrote (the twin does the same inside) */
        rc = lq_plscontrol_base(o, sdf || o->lw < 0 ? -1 : o->lw, sdf, h);
        if (!rc) rc = lq_plscontrol_velocity_cl(o, u, v, w, phi, sdf, h);
    }
    o->lw = o->lcur;
    if (!rc) rc = lq_plscontrol_counter(o, LQ_PLSCONTROL_CNT_HARD, &o->hard);
    if (!rc && hard) *hard = o->hard;
    return rc;
}

int lq_plscontrol_divergence(lq_plscontrol_ops *o, lq_field *rhs, const lq_field *mask, int unknown,
                             float h, float dt)
{
    float scale = (float)((double)h * h / dt);
    if (IS_REF(o)) {
        lq_plscontrol_ref_divergence(o, rhs, mask, unknown, scale, h);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_PLSCONTROL_BIN_ARGS(o),
                  LQ_MEM(mask),
                  LQ_VAL(unknown),
                  LQ_VAL(scale),
                  LQ_VAL(h),
                  LQ_MEM(rhs)};
    return lq_kernel_launch(&o->divergence, lq_range_3d(o->nx, o->ny, o->nz), LQ_ARGS(a));
}

const lq_field *lq_plscontrol_solid(const lq_plscontrol_ops *o, const lq_field *sdf)
{
    /* §4.3: the hard cells are solid (Neumann; their faces' fixed flux enters b) */
    return o->hard > 0 ? &o->solid : sdf;
}

int lq_plscontrol_project(lq_plscontrol_ops *o, lq_poisson_ops *po, const lq_field *phi,
                          const lq_field *solid, lq_field *u, lq_field *v, lq_field *w, lq_field *b,
                          lq_field *p, const lq_poisson_params *prm, lq_poisson_stats *st)
{
    bool div = LQ_PLSCONTROL_HAS(o->present, LQ_PLSCONTROL_DIVERGENCE) && o->binned > 0;
    int rc = LQ_OK;
    LQ_STAGE(rc, o->ctx, "system built", lq_poisson_build(po, phi, solid, prm));
    LQ_STAGE(rc, o->ctx, "right-hand side", lq_poisson_rhs(po, u, v, w, b, prm));
    if (div)
        LQ_STAGE(rc, o->ctx, "divergence targets",
                 lq_plscontrol_divergence(o, b, &po->mask, LQ_POISSON_UNKNOWN, prm->h, prm->dt));
    LQ_STAGE(rc, o->ctx, "solved", lq_poisson_solve(po, b, p, prm, st));
    LQ_STAGE(rc, o->ctx, "velocity updated", lq_poisson_project(po, p, u, v, w, phi, solid, prm));
    return rc;
}
