/*
 * plssource.c — launchers of the pls solver's sources and sinks (plssource.h), the scene's
 * inlets and outlets read into items, and the stage that runs them each step.
 *
 * Regions. A shape becomes cells the way an obstacle does (host/world/voxel.c: the cells
 * whose centres it holds); the static obstacles' cells are left out. Each region's cells
 * then get the exact signed distance to the union of its cells' cubes (a search of
 * LQ_PLSSOURCE_BAND cells around each), stored with the item's number in the cells a
 * region holds or nears (plssource_cell.h: an inlet or outlet holding a cell wins over one
 * near it, a later one over an earlier one, the nearer among those near it).
 */
#include "ops/pls/plssource.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#include "core/common.h"
#include "io/checkpoint.h"
#include "ops/pls/plsparticles_ref.h"
#include "world/voxel.h"

_Static_assert(LQ_PLSSOURCE_PSTRIDE == LQ_PLSPARTICLES_STRIDE &&
                   LQ_PLSSOURCE_PR == LQ_PLSPARTICLES_R,
               "plssource_cell.h reads the particles of plsparticles_cell.h");

static const char *const lq_plssource_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", "kernels/pls/plssource_cell.h",
    "kernels/pls/plssource.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

static const lq_kernel_slot lq_plssource_kernels[] = {
    LQ_KERNEL(lq_plssource_ops, cells, "plssource_cells"),
    LQ_KERNEL(lq_plssource_ops, faces, "plssource_faces"),
    LQ_KERNEL(lq_plssource_ops, kill, "plssource_kill"),
    LQ_KERNEL(lq_plssource_ops, content, "plssource_content"),
};
static const lq_program lq_plssource_program =
    LQ_PROGRAM("XYZ", lq_plssource_sources, lq_plssource_kernels);

static bool lq_plssource_inlets(const lq_config *cfg)
{
    for (int i = 0; i < cfg->nsources; i++)
        if (cfg->sources[i].kind == LQ_CONFIG_SOURCE_INLET) return true;
    return false;
}

size_t lq_plssource_ops_bytes(int nx, int ny, int nz, bool with_solid)
{
    size_t C = (size_t)nx * ny * nz;
    return C * (12 + (with_solid ? 4 : 0)) + LQ_PLSSOURCE_MAX * (LQ_PLSSOURCE_STRIDE * 4 + 8) + 8;
}

/* Bound once: the regions, the table, the solid field, the sums and the cell size. */
static int lq_plssource_bind(lq_plssource_ops *o)
{
    float h = o->h, ih = 1.0f / o->h, far = LQ_PLSSOURCE_FAR;
    lq_arg rid = LQ_MEM(&o->rid), ed = LQ_MEM(&o->ed), sd = LQ_MEM(&o->sd), tab = LQ_MEM(&o->tab);
    lq_field *solid = o->inlets ? &o->solid : &o->ed; /* written only with inlets */
    lq_binding b[] = {
        {&o->cells,
         {[1] = rid,
          [2] = ed,
          [3] = sd,
          [4] = tab,
          [8] = LQ_MEM(solid),
          [10] = LQ_VAL(h),
          [11] = LQ_VAL(ih),
          [12] = LQ_VAL(far),
          [13] = LQ_MEM(&o->sink)}},
        {&o->faces, {[3] = rid, [4] = ed, [5] = tab}},
        {&o->kill, {[4] = rid, [5] = ed, [6] = sd, [7] = tab, [9] = LQ_VAL(ih)}},
        {&o->content, {[1] = rid, [2] = ed, [3] = LQ_VAL(ih), [4] = LQ_MEM(&o->red)}},
    };
    return lq_kernels_bind(LQ_ARGS(b));
}

int lq_plssource_ops_init(lq_plssource_ops *o, lq_ctx *ctx, int nx, int ny, int nz, float h,
                          bool with_solid)
{
    *o = (lq_plssource_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz, .h = h, .inlets = with_solid};
    o->facea = nz == 1 ? h : (double)h * h;
    o->cellv = o->facea * h;
    int rc = lq_field_alloc(ctx, &o->rid, "ps_rid", nx, ny, nz, sizeof(int));
    if (!rc) rc = lq_field_alloc(ctx, &o->ed, "ps_ed", nx, ny, nz, sizeof(float));
    if (!rc) rc = lq_field_alloc(ctx, &o->sd, "ps_sd", nx, ny, nz, sizeof(float));
    if (!rc)
        rc = lq_field_alloc(ctx, &o->tab, "ps_tab", LQ_PLSSOURCE_MAX * LQ_PLSSOURCE_STRIDE, 1, 1,
                            sizeof(float));
    if (!rc) rc = lq_field_alloc(ctx, &o->sink, "ps_sink", 1, 1, 1, sizeof(lq_long));
    if (!rc) rc = lq_field_alloc(ctx, &o->red, "ps_red", LQ_PLSSOURCE_MAX, 1, 1, sizeof(lq_long));
    if (!rc && with_solid) rc = lq_field_alloc(ctx, &o->solid, "ps_solid", nx, ny, nz, 4);
    lq_field *z[] = {&o->rid, &o->ed, &o->sd, &o->tab, &o->sink, &o->red};
    for (size_t i = 0; i < LQ_COUNT(z) && !rc; i++) rc = lq_field_zero(z[i], 0);
    if (rc || IS_REF(o)) return rc;
    rc = lq_program_build(&lq_plssource_program, o, &o->program, ctx, nx, ny, nz, "");
    return rc ? rc : lq_plssource_bind(o);
}

void lq_plssource_ops_release(lq_plssource_ops *o)
{
    lq_program_release(&lq_plssource_program, o, &o->program);
    lq_field *fs[] = {&o->rid, &o->ed, &o->sd, &o->tab, &o->sink, &o->red, &o->solid};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
}

/* --- the scene's items ---------------------------------------------------------------- */

/* The cells of region r (its shape as an obstacle of a one-obstacle copy of the scene, so
 * that voxel.c's checks and messages are the obstacles'), less the static solids. */
static int lq_plssource_cells_of(const lq_plssource_set *o, const lq_config *cfg,
                                 const lq_config_region *r, const double origin[3],
                                 const float *solid0, unsigned char *in, unsigned char *scratch)
{
    size_t n = (size_t)o->nx * o->ny * o->nz;
    lq_config one = *cfg;
    one.obstacles = &r->shape;
    one.nobstacles = 1;
    one.nterrain = 0;
    memset(in, 0, n);
    int rc = lq_voxel_obstacles(&one, o->nx, o->ny, o->nz, o->h, origin, in, scratch);
    for (size_t c = 0; c < n && !rc && solid0; c++)
        if (solid0[c] <= 0) in[c] = 0;
    return rc;
}

/* Region `item`'s cells (in) into rid's bits at `shift` and dist: the exact distance to
 * the union of its cells' cubes out to LQ_PLSSOURCE_BAND cells, by the priority rules of
 * the file's header. */
static void lq_plssource_merge(const lq_plssource_set *o, const unsigned char *in, int item,
                               int shift, int *rid, float *dist)
{
    int nx = o->nx, ny = o->ny, nz = o->nz, B = LQ_PLSSOURCE_BAND;
    int lo[3] = {nx, ny, nz}, hi[3] = {-1, -1, -1}, dim[3] = {nx, ny, nz};
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                if (in[LQ_MAC_CELL(i, j, k, nx, ny)]) {
                    int x[3] = {i, j, k};
                    for (int a = 0; a < 3; a++) {
                        lo[a] = LQ_MIN(lo[a], x[a]);
                        hi[a] = LQ_MAX(hi[a], x[a]);
                    }
                }
    for (int a = 0; a < 3; a++) {
        lo[a] = LQ_MAX(lo[a] - B, 0);
        hi[a] = LQ_MIN(hi[a] + B, dim[a] - 1);
    }
    int bz = nz > 1 ? B : 0;
    for (int k = lo[2]; k <= hi[2]; k++)
        for (int j = lo[1]; j <= hi[1]; j++)
            for (int i = lo[0]; i <= hi[0]; i++) {
                int c = LQ_MAC_CELL(i, j, k, nx, ny);
                bool inside = in[c] != 0;
                double best = INFINITY;
                for (int dk = -bz; dk <= bz; dk++)
                    for (int dj = -B; dj <= B; dj++)
                        for (int di = -B; di <= B; di++) {
                            int a = i + di, b = j + dj, e = k + dk;
                            if (a < 0 || b < 0 || e < 0 || a >= nx || b >= ny || e >= nz) continue;
                            if ((in[LQ_MAC_CELL(a, b, e, nx, ny)] != 0) == inside) continue;
                            double ox = fmax(abs(di) - 0.5, 0), oy = fmax(abs(dj) - 0.5, 0),
                                   oz = fmax(abs(dk) - 0.5, 0);
                            best = fmin(best, sqrt(ox * ox + oy * oy + oz * oz));
                        }
                if (!inside && !isfinite(best)) continue; /* beyond the band */
                double d = (inside ? -(isfinite(best) ? best : B + 1.0) : best) * o->h;
                int cur = (rid[c] >> shift) & 0xff;
                if (inside || cur == 0 || (dist[c] > 0 && d < dist[c])) {
                    rid[c] = (rid[c] & ~(0xff << shift)) | ((item + 1) << shift);
                    dist[c] = (float)d;
                }
            }
}

/* Inlet e's cell count and the area of its open faces per side (toward a cell in the
 * domain that is neither an inlet's nor a static solid). */
static void lq_plssource_faces_of(lq_plssource_set *o, int e, const int *rid, const float *ed,
                                  const float *solid0)
{
    int nx = o->nx, ny = o->ny, nz = o->nz;
    lq_plssource_item *it = &o->item[e];
    for (int a = 0; a < 3; a++) it->lo[a] = 1 << 30, it->hi[a] = -1;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                int c = LQ_MAC_CELL(i, j, k, nx, ny), x[3] = {i, j, k};
                if ((rid[c] & 0xff) != e + 1 || ed[c] > 0) continue;
                it->cells++;
                for (int a = 0; a < 3; a++) {
                    it->lo[a] = LQ_MIN(it->lo[a], x[a]);
                    it->hi[a] = LQ_MAX(it->hi[a], x[a]);
                }
                for (int s = 0; s < (nz > 1 ? 6 : 4); s++) {
                    int a = i + (s == 0 ? -1 : s == 1), b = j + (s == 2 ? -1 : s == 3),
                        q = k + (s == 4 ? -1 : s == 5);
                    if (a < 0 || b < 0 || q < 0 || a >= nx || b >= ny || q >= nz) continue;
                    int cn = LQ_MAC_CELL(a, b, q, nx, ny);
                    if (((rid[cn] & 0xff) != 0 && ed[cn] <= 0) || (solid0 && solid0[cn] <= 0))
                        continue;
                    it->open[s] += o->facea;
                }
            }
    for (int a = 0; a < 3; a++)
        it->area +=
            it->dir[a] > 0 ? it->dir[a] * it->open[2 * a + 1] : -it->dir[a] * it->open[2 * a];
}

/* Inlet q's velocity, flow and window into it. */
static int lq_plssource_inlet(const lq_plssource_set *o, const lq_config *cfg,
                              const lq_config_source *q, lq_plssource_item *it)
{
    double m = 0, v[3];
    memcpy(v, q->inlet.velocity, sizeof v);
    if (o->nz == 1) v[2] = 0;
    for (int a = 0; a < 3; a++) m += v[a] * v[a];
    m = sqrt(m);
    if (m == 0)
        return lq_config_error(cfg, q->inlet.at_velocity,
                               "a `pls` inlet needs a nonzero velocity (its direction%s)",
                               o->nz == 1 ? " in x and y: the grid is 2D" : "");
    for (int a = 0; a < 3; a++) it->dir[a] = v[a] / m;
    it->by_flow = q->inlet.has_flow;
    it->start = q->inlet.start;
    it->stop = q->inlet.stop;
    return lq_timefn_init(cfg, &q->inlet.speed, it->by_flow ? q->inlet.flow : m, &it->profile);
}

/* Item i's kind, region checks and window. */
static int lq_plssource_item_of(lq_plssource_set *o, const lq_config *cfg, int i,
                                const double origin[3])
{
    const lq_config_source *q = &cfg->sources[i];
    lq_plssource_item *it = &o->item[i];
    bool inlet = q->kind == LQ_CONFIG_SOURCE_INLET;
    if (!inlet && q->kind != LQ_CONFIG_SOURCE_OUTLET)
        return lq_config_error(cfg, q->at_kind,
                               "source '%s' is not supported by solver 'pls' (inlet and outlet "
                               "are)",
                               q->kind_word);
    const lq_config_region *r = inlet ? &q->inlet.region : &q->outlet.region;
    if (r->nshapes != 1)
        return lq_config_error(cfg, r->nshapes ? r->shape.at_kind : q->at_kind,
                               "a `pls` %s takes one shape: `min` and `max` (a box), `sphere`, "
                               "`cylinder`%s (this one has %d)",
                               q->kind_word, inlet ? " or `mesh`" : ", `mesh` or `level`",
                               r->nshapes);
    if (r->has_min != r->has_max && !r->has_level)
        return lq_config_error(cfg, r->shape.at_kind, "a box %s needs both `min` and `max`",
                               q->kind_word);
    it->c_off = -1; /* not closed yet */
    it->kind = inlet ? LQ_PLSSOURCE_ITEM_INLET
                     : (r->has_level ? LQ_PLSSOURCE_ITEM_LEVEL : LQ_PLSSOURCE_ITEM_OUTLET);
    it->level = r->level - origin[1];
    int rc = inlet ? lq_plssource_inlet(o, cfg, q, it) : LQ_OK;
    if (!inlet) {
        it->start = q->outlet.start;
        it->stop = q->outlet.stop;
    }
    if (!rc && !(it->stop > it->start))
        rc = lq_config_error(cfg, q->at_kind, "the %s's stop (%g s) is not after its start (%g s)",
                             q->kind_word, it->stop, it->start);
    return rc;
}

/* Every item's region into rid, ed, sd; then the inlets' faces and (unless placing a
 * moved grid) the regions' checks. */
static int lq_plssource_regions(lq_plssource_set *o, const lq_config *cfg, const double origin[3],
                                const float *solid0, bool placing, int *rid, float *ed, float *sd)
{
    size_t n = (size_t)o->nx * o->ny * o->nz;
    unsigned char *in = lq_alloc(n), *scratch = lq_alloc(n);
    int rc = in && scratch ? LQ_OK : LQ_ESIM;
    for (int i = 0; i < o->n && !rc; i++) {
        const lq_config_source *q = &cfg->sources[i];
        bool inlet = o->item[i].kind == LQ_PLSSOURCE_ITEM_INLET;
        if (o->item[i].kind == LQ_PLSSOURCE_ITEM_LEVEL) continue;
        rc = lq_plssource_cells_of(o, cfg, inlet ? &q->inlet.region : &q->outlet.region, origin,
                                   solid0, in, scratch);
        if (!rc) lq_plssource_merge(o, in, i, inlet ? 0 : 8, rid, inlet ? ed : sd);
    }
    for (int i = 0; i < o->n && !rc; i++) {
        lq_plssource_item *it = &o->item[i];
        const lq_config_source *q = &cfg->sources[i];
        if (it->kind == LQ_PLSSOURCE_ITEM_INLET) lq_plssource_faces_of(o, i, rid, ed, solid0);
        for (size_t c = 0; c < n && it->kind == LQ_PLSSOURCE_ITEM_OUTLET; c++)
            it->cells += ((rid[c] >> 8) & 0xff) == i + 1 && sd[c] <= 0;
        if (placing) continue;
        if (it->kind != LQ_PLSSOURCE_ITEM_LEVEL && it->cells == 0)
            rc = lq_config_error(cfg, q->at_kind,
                                 "the %s's shape holds no cell centre (outside the grid, inside "
                                 "an obstacle, or held by a later inlet or outlet)",
                                 q->kind_word);
        else if (it->kind == LQ_PLSSOURCE_ITEM_INLET && !(it->area > 0))
            rc = lq_config_error(cfg, q->inlet.at_velocity,
                                 "the inlet has no open face its velocity points out of (all "
                                 "toward the domain edge, obstacles or other inlets)");
    }
    free(in);
    free(scratch);
    return rc;
}

int lq_plssource_read(const lq_config *cfg, int nx, int ny, int nz, float h, const double origin[3],
                      const float *solid0, lq_plssource_set *o)
{
    *o = (lq_plssource_set){.nx = nx, .ny = ny, .nz = nz, .h = h};
    o->facea = nz == 1 ? h : (double)h * h;
    if (cfg->nsources > LQ_PLSSOURCE_MAX)
        return lq_config_error(cfg, cfg->at_sources, "solver 'pls' takes at most %d sources",
                               LQ_PLSSOURCE_MAX);
    o->n = cfg->nsources;
    o->inlets = lq_plssource_inlets(cfg);
    int rc = LQ_OK;
    for (int i = 0; i < o->n && !rc; i++) rc = lq_plssource_item_of(o, cfg, i, origin);
    size_t n = (size_t)nx * ny * nz;
    o->rid = rc ? NULL : lq_calloc(n, sizeof *o->rid);
    o->ed = rc ? NULL : lq_alloc(n * sizeof *o->ed);
    o->sd = rc ? NULL : lq_alloc(n * sizeof *o->sd);
    if (!rc && (!o->rid || !o->ed || !o->sd)) rc = LQ_ESIM;
    for (size_t c = 0; c < n && !rc; c++) o->ed[c] = o->sd[c] = LQ_PLSSOURCE_FAR;
    if (!rc) rc = lq_plssource_regions(o, cfg, origin, solid0, false, o->rid, o->ed, o->sd);
    if (rc) lq_plssource_set_free(o);
    return rc;
}

int lq_plssource_place(lq_plssource_ops *o, const lq_config *cfg, const double origin[3],
                       const float *solid0)
{
    size_t n = (size_t)o->nx * o->ny * o->nz;
    lq_plssource_set set = {.nx = o->nx,
                            .ny = o->ny,
                            .nz = o->nz,
                            .h = o->h,
                            .n = o->n,
                            .facea = o->facea,
                            .inlets = o->inlets};
    for (int i = 0; i < o->n; i++) { /* the state kept, the geometry the new grid's */
        lq_plssource_item *it = &set.item[i];
        *it = o->item[i];
        it->cells = 0;
        it->area = 0;
        memset(it->open, 0, sizeof it->open);
        const lq_config_source *q = &cfg->sources[i];
        if (it->kind == LQ_PLSSOURCE_ITEM_LEVEL) it->level = q->outlet.region.level - origin[1];
    }
    set.rid = lq_calloc(n, sizeof *set.rid);
    set.ed = lq_alloc(n * sizeof *set.ed);
    set.sd = lq_alloc(n * sizeof *set.sd);
    int rc = set.rid && set.ed && set.sd ? LQ_OK : LQ_ESIM;
    for (size_t c = 0; c < n && !rc; c++) set.ed[c] = set.sd[c] = LQ_PLSSOURCE_FAR;
    if (!rc) rc = lq_plssource_regions(&set, cfg, origin, solid0, true, set.rid, set.ed, set.sd);
    if (!rc) rc = lq_plssource_add(o, &set);
    lq_plssource_set_free(&set);
    return rc;
}

void lq_plssource_set_free(lq_plssource_set *set)
{
    free(set->rid);
    free(set->ed);
    free(set->sd);
    set->rid = NULL;
    set->ed = set->sd = NULL;
}

int lq_plssource_add(lq_plssource_ops *o, const lq_plssource_set *set)
{
    assert(set->nx == o->nx && set->ny == o->ny && set->nz == o->nz && (!set->inlets || o->inlets));
    o->n = set->n;
    memcpy(o->item, set->item, sizeof o->item);
    int rc = lq_field_upload(&o->rid, set->rid);
    if (!rc) rc = lq_field_upload(&o->ed, set->ed);
    return rc ? rc : lq_field_upload(&o->sd, set->sd);
}

/* --- the operations ------------------------------------------------------------------- */

int lq_plssource_table(lq_plssource_ops *o)
{
    return lq_field_upload(&o->tab, o->tab_host);
}

static lq_range lq_plssource_blocks(const lq_plssource_ops *o)
{
    size_t nc = (size_t)o->nx * o->ny * o->nz;
    return lq_range_1d((nc + LQ_PLSSOURCE_BLOCK - 1) / LQ_PLSSOURCE_BLOCK, 0);
}

int lq_plssource_cells(lq_plssource_ops *o, lq_field *phi, const lq_field *sdf)
{
    assert(phi->count == (size_t)o->nx * o->ny * o->nz);
    if (IS_REF(o)) {
        lq_plssource_ref_cells(o, phi, sdf);
        return LQ_OK;
    }
    int n = o->n, has_sdf = sdf != NULL, has_solid = o->inlets;
    const lq_field *sd = sdf ? sdf : phi; /* read only with an sdf */
    lq_arg a[] = {LQ_MEM(phi), LQ_KEEP,    LQ_KEEP,         LQ_KEEP, LQ_KEEP,
                  LQ_VAL(n),   LQ_MEM(sd), LQ_VAL(has_sdf), LQ_KEEP, LQ_VAL(has_solid),
                  LQ_KEEP,     LQ_KEEP,    LQ_KEEP,         LQ_KEEP};
    return lq_kernel_launch(&o->cells, lq_plssource_blocks(o), LQ_ARGS(a));
}

int lq_plssource_faces(lq_plssource_ops *o, lq_field *u, lq_field *v, lq_field *w)
{
    if (IS_REF(o)) {
        lq_plssource_ref_faces(o, u, v, w);
        return LQ_OK;
    }
    int nz = o->nz;
    lq_arg a[] = {LQ_MEM(u), LQ_MEM(v), LQ_MEM(w), LQ_KEEP, LQ_KEEP, LQ_KEEP};
    lq_range faces = lq_range_3d((size_t)o->nx + 1, (size_t)o->ny + 1, (size_t)nz + (nz > 1));
    return lq_kernel_launch(&o->faces, faces, LQ_ARGS(a));
}

int lq_plssource_kill(lq_plssource_ops *o, lq_field *part, int np)
{
    assert(part->count >= (size_t)np * LQ_PLSSOURCE_PSTRIDE);
    if (np <= 0) return LQ_OK;
    if (IS_REF(o)) {
        lq_plssource_ref_kill(o, part, np);
        return LQ_OK;
    }
    int n = o->n, use = o->count != NULL;
    lq_arg a[] = {LQ_MEM(part), LQ_VAL(np), LQ_MEM(use ? o->count : part),
                  LQ_VAL(use),  LQ_KEEP,    LQ_KEEP,
                  LQ_KEEP,      LQ_KEEP,    LQ_VAL(n),
                  LQ_KEEP};
    return lq_kernel_launch(&o->kill, lq_range_var(&o->kill, np), LQ_ARGS(a));
}

int lq_plssource_content(lq_plssource_ops *o, const lq_field *phi, double *vol)
{
    int rc = lq_field_zero(&o->red, 0);
    if (!rc && IS_REF(o))
        lq_plssource_ref_content(o, phi);
    else if (!rc) {
        lq_arg a[] = {LQ_MEM(phi), LQ_KEEP, LQ_KEEP, LQ_KEEP, LQ_KEEP};
        rc = lq_kernel_launch(&o->content, lq_plssource_blocks(o), LQ_ARGS(a));
    }
    lq_long r[LQ_PLSSOURCE_MAX];
    if (!rc) rc = lq_field_download(&o->red, r);
    for (int e = 0; e < LQ_PLSSOURCE_MAX && !rc; e++)
        vol[e] = (double)r[LQ_PLSSOURCE_RED_CONTENT + e] / LQ_PLSSOURCE_FIXED * o->cellv;
    return rc;
}

int lq_plssource_sunk(lq_plssource_ops *o, double *vol)
{
    lq_long s = 0;
    int rc = lq_field_download(&o->sink, &s);
    *vol = (double)s / LQ_PLSSOURCE_FIXED * o->cellv;
    return rc;
}

/* --- the stage ------------------------------------------------------------------------ */

/* Item e's row of the table for time t (its state moves on: opening, closing). */
static void lq_plssource_row(lq_plssource_ops *o, int e, double t, bool *opening, bool *closing)
{
    lq_plssource_item *it = &o->item[e];
    float *row = o->tab_host + e * LQ_PLSSOURCE_STRIDE;
    bool want = t >= it->start && t < it->stop;
    float mode = LQ_PLSSOURCE_IDLE;
    memset(row, 0, LQ_PLSSOURCE_STRIDE * sizeof *row);
    row[LQ_PLSSOURCE_KIND] = it->kind == LQ_PLSSOURCE_ITEM_INLET    ? LQ_PLSSOURCE_INLET
                             : it->kind == LQ_PLSSOURCE_ITEM_OUTLET ? LQ_PLSSOURCE_OUTLET
                                                                    : LQ_PLSSOURCE_LEVELK;
    row[LQ_PLSSOURCE_LEVEL] = (float)it->level;
    if (it->kind != LQ_PLSSOURCE_ITEM_INLET) {
        mode = want ? LQ_PLSSOURCE_ACT : LQ_PLSSOURCE_IDLE;
    } else if (want && it->state != LQ_PLSSOURCE_CLOSED) {
        *opening = *opening || it->state == LQ_PLSSOURCE_WAITING;
        double f = fmax(lq_timefn_eval(&it->profile, t - it->start), 0);    /* no suction */
        double speed = it->by_flow ? (it->area > 0 ? f / it->area : 0) : f; /* 0: outside */
        it->flux = speed * it->area;
        for (int a = 0; a < 3; a++) row[LQ_PLSSOURCE_VEL + a] = (float)(it->dir[a] * speed);
        mode = LQ_PLSSOURCE_ACT;
        o->modes_open++;
    } else if (!want && it->state == LQ_PLSSOURCE_OPEN) {
        *closing = true; /* its cells' liquid measured, then left as it is */
        it->state = LQ_PLSSOURCE_CLOSED;
    }
    row[LQ_PLSSOURCE_MODE] = mode;
    o->acting = o->acting || mode != LQ_PLSSOURCE_IDLE;
}

/* The liquid in the inlets' cells into c_on of those opening now (waiting, their row
 * open) and c_off of those closing now (closed, c_off < 0 until then). */
static int lq_plssource_measure(lq_plssource_ops *o, const lq_field *phi)
{
    double vol[LQ_PLSSOURCE_MAX];
    int rc = lq_plssource_content(o, phi, vol);
    for (int e = 0; e < o->n && !rc; e++) {
        lq_plssource_item *it = &o->item[e];
        bool open = o->tab_host[e * LQ_PLSSOURCE_STRIDE + LQ_PLSSOURCE_MODE] == LQ_PLSSOURCE_ACT;
        if (it->state == LQ_PLSSOURCE_WAITING && open) {
            it->c_on = vol[e];
            it->state = LQ_PLSSOURCE_OPEN;
        } else if (it->state == LQ_PLSSOURCE_CLOSED && it->c_off < 0) {
            it->c_off = vol[e];
        }
    }
    return rc;
}

int lq_plssource_step(lq_plssource_ops *o, double t, double dt, lq_field *phi, lq_field *u,
                      lq_field *v, lq_field *w, lq_field *part, int np, const lq_field *sdf)
{
    bool opening = false, closing = false;
    o->acting = false;
    o->modes_open = 0;
    for (int e = 0; e < o->n; e++) {
        o->item[e].delivered += o->item[e].flux * dt; /* moved by this step's advection */
        o->item[e].flux = 0;
        lq_plssource_row(o, e, t + dt, &opening, &closing);
    }
    o->holding = o->modes_open > 0;
    int rc = opening || closing ? lq_plssource_measure(o, phi) : LQ_OK;
    if (rc || !o->acting) return rc;
    rc = lq_plssource_table(o);
    if (!rc) rc = lq_plssource_cells(o, phi, sdf);
    if (!rc && o->holding) rc = lq_plssource_faces(o, u, v, w);
    if (!rc) rc = lq_plssource_kill(o, part, np);
    return rc;
}

const lq_field *lq_plssource_solid(const lq_plssource_ops *o, const lq_field *sdf)
{
    return o->holding ? &o->solid : sdf;
}

int lq_plssource_totals(lq_plssource_ops *o, const lq_field *phi, double *source, double *sink)
{
    double vol[LQ_PLSSOURCE_MAX] = {0};
    bool open = false;
    for (int e = 0; e < o->n; e++) open = open || o->item[e].state == LQ_PLSSOURCE_OPEN;
    int rc = open ? lq_plssource_content(o, phi, vol) : LQ_OK;
    if (!rc) rc = lq_plssource_sunk(o, sink);
    *source = 0;
    for (int e = 0; e < o->n && !rc; e++) {
        const lq_plssource_item *it = &o->item[e];
        *source += it->delivered;
        if (it->state == LQ_PLSSOURCE_OPEN) *source += vol[e] - it->c_on;
        if (it->state == LQ_PLSSOURCE_CLOSED) *source += it->c_off - it->c_on;
    }
    return rc;
}

/* What a checkpoint keeps of an item. */
typedef struct lq_plssource_saved {
    double c_on, c_off, flux, delivered;
    int32_t state, pad;
} lq_plssource_saved;

int lq_plssource_checkpoint(lq_plssource_ops *o, FILE *f, bool save)
{
    lq_plssource_saved sv[LQ_PLSSOURCE_MAX];
    lq_long sunk = 0;
    memset(sv, 0, sizeof sv);
    int rc = LQ_OK;
    if (save) {
        for (int e = 0; e < o->n; e++) {
            const lq_plssource_item *it = &o->item[e];
            sv[e] =
                (lq_plssource_saved){it->c_on, it->c_off, it->flux, it->delivered, it->state, 0};
        }
        rc = lq_field_download(&o->sink, &sunk);
        if (!rc) rc = lq_checkpoint_put(f, sv, (size_t)o->n * sizeof *sv);
        return rc ? rc : lq_checkpoint_put(f, &sunk, sizeof sunk);
    }
    rc = lq_checkpoint_get(f, sv, (size_t)o->n * sizeof *sv);
    if (!rc) rc = lq_checkpoint_get(f, &sunk, sizeof sunk);
    /* checked before any is used (docs/RELIABILITY.md): the state picks the branch of
     * every later step, and the volumes enter the stats and the next openings */
    for (int e = 0; e < o->n && !rc; e++) {
        rc = lq_checkpoint_count(f, "source state", sv[e].state, LQ_PLSSOURCE_WAITING,
                                 LQ_PLSSOURCE_CLOSED, 0);
        if (!rc && !(isfinite(sv[e].c_on) && isfinite(sv[e].c_off) && isfinite(sv[e].flux) &&
                     isfinite(sv[e].delivered)))
            rc = lq_error(LQ_EINPUT, "the checkpoint's source %d holds a volume that is not finite",
                          e + 1);
    }
    for (int e = 0; e < o->n && !rc; e++) {
        lq_plssource_item *it = &o->item[e];
        it->c_on = sv[e].c_on;
        it->c_off = sv[e].c_off;
        it->flux = sv[e].flux;
        it->delivered = sv[e].delivered;
        it->state = sv[e].state;
    }
    return rc ? rc : lq_field_upload(&o->sink, &sunk);
}
