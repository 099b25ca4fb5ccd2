/*
 * hfview.c — meshes and previews of height-field frames (hfview.h).
 *
 * Meshes. Vertices are cell centres; the quad of cells (i, k), (i+1, k), (i, k+1),
 * (i+1, k+1) becomes two triangles ordered (i,k) → (i,k+1) → (i+1,k) and so on, which
 * is counter-clockwise seen from +y, so every face normal has a positive y component
 * for any heights (the triangles' (x, z) projections never flip). Each quad is split
 * along the diagonal whose ends differ least in height. The water mesh keeps only the
 * vertices its quads use, renumbered in cell order. A wet vertex's normal comes from
 * central differences of h over its wet neighbours (one-sided at a shoreline or the
 * domain edge, flat when it has none), a dry vertex's from its placed heights, so
 * normals follow the drawn surface.
 *
 * Preview. A pinhole camera placed by the first frame: above and in front of the
 * domain (azimuth 32°, elevation 33°), looking at the centre of the domain's box, with
 * the focal length and image centre chosen so the box fills the frame. The ground is
 * drawn as a block: its top is the bilinear height field and its two visible sides are
 * cross-sections down to `base`. Pixels are sampled adaptively (views/raster.h): one ray
 * per 4 × 4 block where the picture is smooth, every pixel near edges and over objects'
 * boxes, and four more rays where a pixel differs sharply from a neighbour.
 *
 * A ray enters the block's bounding box and walks the (x, z) plane tile by tile (8 × 8
 * cells); a tile whose maximum (over the tile and a one-cell rim, which bounds every
 * bilinear value inside it) lies below the ray is skipped whole. In the others it walks
 * the bilinear patches between cell centres, passes any whose highest corner lies below
 * it, and meets the surface exactly: along the ray each bilinear field is a quadratic in
 * t. The surface is max(ground, level), both bilinear: `level` is h on wet
 * cells and, on a dry cell beside wet ones, their mean h capped at the cell's own
 * ground, so the drawn shoreline runs smoothly between cell centres where the level
 * meets the ground, and water never shows at a dry cell's centre.
 *
 * Shading is in linear RGB, written out as sRGB. Ground: sand up to a little above the
 * first frame's mean water level (30 % up the ground's height range when it has no
 * water), grass above, earth on the top quarter, rock where the slope passes ~40°;
 * Lambert sun (shadowed by a second march toward the sun) plus sky ambient; darkened by
 * about half (a little more in blue) times the wetness, which is 1 while a cell is wet
 * and falls smoothly to 0 over wet_fade seconds after it dries. Water: the ground
 * under it, seen along the refracted ray, is dimmed by Beer–Lambert absorption over
 * the path through water (down to the ground and the light's way down), which tints
 * toward a deep-blue scattering colour; the surface adds a Schlick-Fresnel sky
 * reflection and a sun highlight, both fading in over the thinnest film so shorelines
 * have no hard edge. Absorption lengths scale with the deepest water of the first frame
 * that has water, so a tank and a lake both show depth as colour.
 *
 * Objects (shape.h) are ray-traced exactly in their body frame: an ellipsoid (or sphere)
 * as the unit sphere after scaling by 1/half, with the closest approach computed
 * directly so a small far object keeps its digits; a box by slabs. A bounding sphere
 * rejects most rays first. The terrain march stops at the nearest object hit, so depth
 * order is exact. Objects are lit like the ground (sky ambient, Lambert sun, shadowed
 * by the terrain) plus a small Phong highlight, and shadow the ground (dry, and the
 * bottom under water). Under water an object is the floor the refracted ray meets
 * before the ground: it takes the same Beer–Lambert tint over its path through water.
 * Every pixel keeps the distance to its centre ray's first hit (depth). Spray points
 * are splatted after anti-aliasing as soft discs of one colour, each pixel of a disc
 * depth-tested on its own; their coverages multiply into a transparency per pixel, so
 * the result does not depend on the order of the points, and pixels no point reaches
 * keep their bytes exactly.
 *
 * Invariants: every array the marcher reads is finite (non-finite inputs are replaced
 * or treated as dry), every bilinear lookup clamps to the grid, and the only memory
 * a render touches was allocated by lq_hfview_preview_init.
 */
#include "views/hfview.h"

#include "core/common.h"
#include "core/parallel.h"
#include "io/io.h"
#include "views/raster.h"
#include "views/srgb.h"
#include "views/stamp.h"
#include "core/vec3.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HF_TILE        8
#define HF_PI          3.14159265358979323846
#define HF_DRY_DIP     0.05 /* dry vertices of the water mesh sit this many dx below b */
#define HF_NEVER       1e30f
#define HF_SPRAY_PX    4.0  /* px, largest drawn radius of a spray disc (bounds the work) */
#define HF_SPRAY_ALPHA 0.85 /* opacity of a disc's centre */

static int hf_check_grid(const char *what, int nx, int nz, double dx, const double origin[3])
{
    if (nx < 1 || nz < 1 || (double)nx * (double)nz > 4e8 || !(dx > 0) || !isfinite(dx) ||
        !origin || !isfinite(origin[0]) || !isfinite(origin[1]) || !isfinite(origin[2]))
        return lq_error(LQ_ESIM, "%s: bad height-field grid (%d x %d cells, dx %g)", what, nx, nz,
                        dx);
    return LQ_OK;
}

/* Smooth normal at cell (i, k) of heights y: central differences over the neighbours
 * with use != 0 (use == NULL: all), one-sided with one, flat with none. */
static void hf_normal(const float *y, const uint8_t *use, int nx, int nz, double dx, int i, int k,
                      float out[3])
{
    size_t c = (size_t)i + (size_t)nx * (size_t)k;
    double g[2];
    for (int a = 0; a < 2; a++) {
        size_t s = a == 0 ? 1 : (size_t)nx;
        int lo = a == 0 ? i > 0 : k > 0, hi = a == 0 ? i < nx - 1 : k < nz - 1;
        if (use) {
            lo = lo && use[c - s];
            hi = hi && use[c + s];
        }
        if (lo && hi)
            g[a] = ((double)y[c + s] - y[c - s]) / (2 * dx);
        else if (lo)
            g[a] = ((double)y[c] - y[c - s]) / dx;
        else if (hi)
            g[a] = ((double)y[c + s] - y[c]) / dx;
        else
            g[a] = 0;
    }
    double len = sqrt(g[0] * g[0] + 1 + g[1] * g[1]);
    out[0] = (float)(-g[0] / len);
    out[1] = (float)(1 / len);
    out[2] = (float)(-g[1] / len);
}

/* The two triangles of the quad with lower corner c, into t[0..5]. */
static void hf_quad(const float *y, const uint32_t *idx, size_t c, size_t nx, uint32_t *t)
{
    size_t c10 = c + 1, c01 = c + nx, c11 = c + nx + 1;
    if (fabsf(y[c] - y[c11]) <= fabsf(y[c10] - y[c01])) {
        const uint32_t q[6] = {idx[c], idx[c01], idx[c11], idx[c], idx[c11], idx[c10]};
        memcpy(t, q, sizeof q);
    } else {
        const uint32_t q[6] = {idx[c], idx[c01], idx[c10], idx[c10], idx[c01], idx[c11]};
        memcpy(t, q, sizeof q);
    }
}

/* Writes the mesh of the cells whose index idx[c] is not UINT32_MAX, with the quads
 * flagged in quad[] (indexed by lower corner), heights y and normals from y/use. */
static int hf_write_mesh(const char *path, int nx, int nz, double dx, const double origin[3],
                         const float *y, const uint8_t *use, const uint8_t *quad,
                         const uint32_t *idx, int nverts, int nquads, int nextra,
                         const char *const *extra_names, const float *const *extra)
{
    const char *names[10] = {"x", "y", "z", "nx", "ny", "nz"};
    float *cols[10] = {NULL};
    uint32_t *tris = NULL;
    int ncols = 6 + nextra, rc = LQ_ESIM;
    for (int e = 0; e < nextra; e++) names[6 + e] = extra_names[e];
    for (int p = 0; p < ncols; p++)
        if (!(cols[p] = lq_alloc((size_t)nverts * sizeof(float)))) goto fail;
    if (!(tris = lq_alloc((size_t)nquads * 6 * sizeof *tris))) goto fail;
    for (int k = 0, v = 0; k < nz; k++) {
        for (int i = 0; i < nx; i++) {
            size_t c = (size_t)i + (size_t)nx * (size_t)k;
            float n[3];
            if (idx[c] == UINT32_MAX) continue;
            hf_normal(y, use && use[c] ? use : NULL, nx, nz, dx, i, k, n);
            cols[0][v] = (float)(origin[0] + (i + 0.5) * dx);
            cols[1][v] = y[c];
            cols[2][v] = (float)(origin[2] + (k + 0.5) * dx);
            for (int a = 0; a < 3; a++) cols[3 + a][v] = n[a];
            for (int e = 0; e < nextra; e++) cols[6 + e][v] = extra[e][c];
            v++;
        }
    }
    for (int k = 0, q = 0; k + 1 < nz; k++)
        for (int i = 0; i + 1 < nx; i++) {
            size_t c = (size_t)i + (size_t)nx * (size_t)k;
            if (quad[c]) hf_quad(y, idx, c, (size_t)nx, tris + 6 * (size_t)q++);
        }
    rc = lq_ply_write(path, nverts, ncols, names, (const float *const *)cols, 2 * nquads, tris);
fail:
    for (int p = 0; p < ncols; p++) free(cols[p]);
    free(tris);
    return rc;
}

int lq_hfview_write_surface(const char *path, int nx, int nz, double dx, const double origin[3],
                            const float *h, const float *b, float eps, const float *u,
                            const float *w)
{
    size_t n = (size_t)nx * (size_t)nz;
    uint8_t *wet = NULL, *quad = NULL;
    uint32_t *idx = NULL;
    float *y = NULL, *depth = NULL;
    const char *extra_names[3] = {"depth"};
    const float *extra[3];
    int nextra = 1, nverts = 0, nquads = 0, rc = LQ_ESIM;
    if (hf_check_grid(path, nx, nz, dx, origin)) return LQ_ESIM;
    if (!h || !b) return lq_error(LQ_ESIM, "%s: no height field to write", path);
    wet = lq_alloc(n);
    quad = lq_calloc(n, 1);
    idx = lq_alloc(n * sizeof *idx);
    y = lq_alloc(n * sizeof *y);
    depth = lq_alloc(n * sizeof *depth);
    if (!wet || !quad || !idx || !y || !depth) goto fail;
    for (size_t c = 0; c < n; c++) {
        wet[c] = h[c] > b[c] + eps;
        y[c] = wet[c] ? h[c] : (float)(b[c] - HF_DRY_DIP * dx);
        depth[c] = h[c] > b[c] ? h[c] - b[c] : 0.0f;
        idx[c] = UINT32_MAX;
    }
    for (int k = 0; k + 1 < nz; k++)
        for (int i = 0; i + 1 < nx; i++) {
            size_t c = (size_t)i + (size_t)nx * (size_t)k;
            if (!(wet[c] || wet[c + 1] || wet[c + (size_t)nx] || wet[c + (size_t)nx + 1])) continue;
            quad[c] = 1;
            nquads++;
            idx[c] = idx[c + 1] = idx[c + (size_t)nx] = idx[c + (size_t)nx + 1] = 0;
        }
    for (size_t c = 0; c < n; c++)
        if (idx[c] == 0) idx[c] = (uint32_t)nverts++;
    extra[0] = depth;
    if (u) {
        extra_names[nextra] = "u";
        extra[nextra++] = u;
    }
    if (w) {
        extra_names[nextra] = "w";
        extra[nextra++] = w;
    }
    rc = hf_write_mesh(path, nx, nz, dx, origin, y, wet, quad, idx, nverts, nquads, nextra,
                       extra_names, extra);
fail:
    free(wet);
    free(quad);
    free(idx);
    free(y);
    free(depth);
    return rc;
}

int lq_hfview_write_terrain(const char *path, int nx, int nz, double dx, const double origin[3],
                            const float *b)
{
    size_t n = (size_t)nx * (size_t)nz;
    uint8_t *quad = NULL;
    uint32_t *idx = NULL;
    int nquads = 0, rc = LQ_ESIM;
    if (hf_check_grid(path, nx, nz, dx, origin)) return LQ_ESIM;
    if (!b) return lq_error(LQ_ESIM, "%s: no ground heights to write", path);
    quad = lq_calloc(n, 1);
    idx = lq_alloc(n * sizeof *idx);
    if (!quad || !idx) goto fail;
    for (size_t c = 0; c < n; c++) idx[c] = (uint32_t)c;
    for (int k = 0; k + 1 < nz; k++)
        for (int i = 0; i + 1 < nx; i++, nquads++) quad[(size_t)i + (size_t)nx * k] = 1;
    rc = hf_write_mesh(path, nx, nz, dx, origin, b, NULL, quad, idx, (int)n, nquads, 0, NULL, NULL);
fail:
    free(quad);
    free(idx);
    return rc;
}

static double smooth(double e0, double e1, double x)
{
    double t = lq_clamp01((x - e0) / (e1 - e0));
    return t * t * (3 - 2 * t);
}

/* --- preview: state ------------------------------------------------------------------ */

int lq_hfview_preview_init(lq_hfview_preview *p, int nx, int nz, double dx, const double origin[3],
                           int width, double wet_fade)
{
    size_t n = (size_t)nx * (size_t)nz, ntiles;
    memset(p, 0, sizeof *p);
    if (hf_check_grid("preview", nx, nz, dx, origin)) return LQ_ESIM;
    if (width < 16 || width > 16384)
        return lq_error(LQ_ESIM, "preview: width %d px out of range (16..16384)", width);
    p->nx = nx;
    p->nz = nz;
    p->dx = dx;
    memcpy(p->origin, origin, sizeof p->origin);
    p->width = width;
    p->height = (width * 9 + 8) / 16;
    p->azimuth = 32;
    p->elevation = 33;
    p->distance = 1;
    p->wet_fade = wet_fade > 0 ? wet_fade : 3.0;
    ntiles = (size_t)((nx + HF_TILE - 1) / HF_TILE) * (size_t)((nz + HF_TILE - 1) / HF_TILE);
    p->dry_for = lq_alloc(n * sizeof *p->dry_for);
    p->wet = lq_alloc(n * sizeof *p->wet);
    p->ground = lq_alloc(n * sizeof *p->ground);
    p->level = lq_alloc(n * sizeof *p->level);
    p->wet_now = lq_alloc(n);
    p->tile_max = lq_alloc(ntiles * sizeof *p->tile_max);
    p->patch_max = lq_alloc((size_t)(nx + 1) * (size_t)(nz + 1) * sizeof *p->patch_max);
    p->rgb = lq_alloc((size_t)p->width * (size_t)p->height * 3);
    p->aa = lq_alloc((size_t)p->width * (size_t)p->height);
    p->blocks = lq_alloc(lq_raster_blocks(p->width, p->height));
    p->depth = lq_alloc((size_t)p->width * (size_t)p->height * sizeof *p->depth);
    p->spray = lq_alloc((size_t)p->width * (size_t)p->height * sizeof *p->spray);
    if (!p->aa || !p->blocks || !p->depth || !p->spray || !p->dry_for || !p->wet || !p->ground ||
        !p->level || !p->wet_now || !p->tile_max || !p->patch_max || !p->rgb)
        goto fail;
    for (size_t c = 0; c < n; c++) p->dry_for[c] = HF_NEVER;
    return LQ_OK;
fail:
    lq_hfview_preview_free(p);
    return LQ_ESIM;
}

void lq_hfview_preview_free(lq_hfview_preview *p)
{
    free(p->dry_for);
    free(p->wet);
    free(p->ground);
    free(p->level);
    free(p->wet_now);
    free(p->tile_max);
    free(p->patch_max);
    free(p->blocks);
    free(p->rgb);
    free(p->aa);
    free(p->depth);
    free(p->spray);
    memset(p, 0, sizeof *p);
}

/* World point → pixel under camera c, and its depth along the view axis; -1 behind. */
static int hf_project(const lq_hfview_camera *c, const double world[3], double pixel[2], double *zf)
{
    double rel[3] = {world[0] - c->eye[0], world[1] - c->eye[1], world[2] - c->eye[2]};
    *zf = lq_dot3(rel, c->fwd);
    if (!(*zf > 0)) return -1;
    pixel[0] = c->cx + c->focal * lq_dot3(rel, c->right) / *zf;
    pixel[1] = c->cy - c->focal * lq_dot3(rel, c->up) / *zf;
    return 0;
}

int lq_hfview_preview_project(const lq_hfview_preview *p, const double world[3], double pixel[2])
{
    double zf;
    if (p->frames == 0) return -1;
    return hf_project(&p->cam, world, pixel, &zf);
}

/* Places the camera so the box lo..hi fills the frame, seen from p->azimuth, p->elevation
 * (by default above, in front (+z) and to the left (−x)) at p->distance × 2.6 box radii. */
static void hf_camera_fit(lq_hfview_preview *p, const double lo[3], const double hi[3])
{
    const double az = p->azimuth * HF_PI / 180, el = p->elevation * HF_PI / 180, Y[3] = {0, 1, 0};
    lq_hfview_camera *c = &p->cam;
    double mid[3], off[3] = {-sin(az) * cos(el), sin(el), cos(az) * cos(el)}, r2 = 0;
    double umin = INFINITY, umax = -INFINITY, vmin = INFINITY, vmax = -INFINITY;
    for (int a = 0; a < 3; a++) {
        mid[a] = 0.5 * (lo[a] + hi[a]);
        r2 += 0.25 * (hi[a] - lo[a]) * (hi[a] - lo[a]);
    }
    for (int a = 0; a < 3; a++) {
        c->eye[a] = mid[a] + 2.6 * p->distance * sqrt(r2) * off[a];
        c->fwd[a] = -off[a];
    }
    lq_cross3(c->fwd, Y, c->right);
    lq_norm3(c->right);
    lq_cross3(c->right, c->fwd, c->up);
    for (int corner = 0; corner < 8; corner++) {
        double q[3], rel[3], zf, u, v;
        for (int a = 0; a < 3; a++) q[a] = corner >> a & 1 ? hi[a] : lo[a];
        for (int a = 0; a < 3; a++) rel[a] = q[a] - c->eye[a];
        zf = lq_dot3(rel, c->fwd);
        u = lq_dot3(rel, c->right) / zf;
        v = lq_dot3(rel, c->up) / zf;
        umin = lq_min(umin, u);
        umax = lq_max(umax, u);
        vmin = lq_min(vmin, v);
        vmax = lq_max(vmax, v);
    }
    c->focal = lq_min(0.94 * p->width / (umax - umin), 0.90 * p->height / (vmax - vmin));
    c->cx = 0.5 * p->width - c->focal * 0.5 * (umin + umax);
    c->cy = 0.5 * p->height + c->focal * 0.5 * (vmin + vmax);
}

/* --- preview: sampling and marching -------------------------------------------------- */

/* Everything one frame's rays read. */
typedef struct hf_frame {
    const lq_hfview_preview *p;
    int nx, nz, ntx;
    double dx, x0, z0, x1, z1, base, top; /* m: the block's bounding box */
    double inv_dx;                        /* 1/m */
    double sun[3];                        /* unit, towards the sun */
    double sigma[3];                      /* 1/m, absorption of water */
    double sky_zenith[3], sky_horizon[3], bg_top[3], bg_bottom[3], sun_light[3], ambient[3];
    double sand[3], grass[3], earth[3], rock[3], soil[3], deep[3], shallow[3];
    double wet_dark[3];        /* darkening of fully wet ground, per channel (warmer when wet) */
    const lq_view_object *obj; /* the frame's objects (shape codes checked) */
    int nobj;
} hf_frame;

/* Bilinear value of a cell-centred field at grid coordinates (gx, gz) (cells from the
 * lower corner), clamped to the outermost centres. */
/* Where a bilinear lookup at grid coordinates (gx, gz) reads: the lower corner's index,
 * the steps to its neighbours and the weights. */
typedef struct hf_corner {
    size_t c, di, dk;
    double tx, tz;
} hf_corner;

static inline hf_corner hf_corner_at(int nx, int nz, double gx, double gz)
{
    double fx = gx - 0.5, fz = gz - 0.5; /* clamped to the centres' range; NaN → 0 */
    fx = fx > 0 ? (fx < nx - 1 ? fx : nx - 1) : 0;
    fz = fz > 0 ? (fz < nz - 1 ? fz : nz - 1) : 0;
    int i = (int)fx, k = (int)fz;
    if (i > nx - 2) i = nx > 1 ? nx - 2 : 0;
    if (k > nz - 2) k = nz > 1 ? nz - 2 : 0;
    return (hf_corner){.c = (size_t)i + (size_t)nx * (size_t)k,
                       .di = nx > 1,
                       .dk = nz > 1 ? (size_t)nx : 0,
                       .tx = fx - i,
                       .tz = fz - k};
}

static inline double hf_corner_lerp(const float *f, const hf_corner *q)
{
    size_t c = q->c, di = q->di, dk = q->dk;
    double a = f[c] + (f[c + di] - f[c]) * q->tx;
    double b = f[c + dk] + (f[c + dk + di] - f[c + dk]) * q->tx;
    return a + (b - a) * q->tz;
}

static inline hf_corner hf_corner_of(const hf_frame *F, double x, double z)
{
    return hf_corner_at(F->nx, F->nz, (x - F->x0) * F->inv_dx, (z - F->z0) * F->inv_dx);
}

static double hf_at(const hf_frame *F, const float *f, double x, double z)
{
    hf_corner q = hf_corner_of(F, x, z);
    return hf_corner_lerp(f, &q);
}

/* Unit normal of the bilinear field f at (x, z), central differences one cell apart. */
static void hf_field_normal(const hf_frame *F, const float *f, double x, double z, double n[3])
{
    double h = F->dx;
    hf_corner q = hf_corner_of(F, x, z);
    const size_t i = q.c % (size_t)F->nx, k = q.c / (size_t)F->nx;
    if (i >= 1 && i + 2 < (size_t)F->nx && k >= 1 && k + 2 < (size_t)F->nz) {
        /* away from the edges the four lookups one cell off share this one's weights:
         * the same values as hf_at's, for a quarter of the index work */
        const size_t nx = (size_t)F->nx;
        hf_corner e = q, w = q, s = q, t = q;
        e.c += 1;
        w.c -= 1;
        s.c += nx;
        t.c -= nx;
        n[0] = -(hf_corner_lerp(f, &e) - hf_corner_lerp(f, &w)) / (2 * h);
        n[1] = 1;
        n[2] = -(hf_corner_lerp(f, &s) - hf_corner_lerp(f, &t)) / (2 * h);
        lq_norm3(n);
        return;
    }
    n[0] = -(hf_at(F, f, x + h, z) - hf_at(F, f, x - h, z)) / (2 * h);
    n[1] = 1;
    n[2] = -(hf_at(F, f, x, z + h) - hf_at(F, f, x, z - h)) / (2 * h);
    lq_norm3(n);
}

/* Ray against the block's box: entry/exit t and the axis of the entry face (-1: the ray
 * starts inside). Returns 0 when it misses. */
static int hf_box(const hf_frame *F, const double o[3], const double d[3], double *t0, double *t1,
                  int *axis)
{
    const double lo[3] = {F->x0, F->base, F->z0}, hi[3] = {F->x1, F->top, F->z1};
    *t0 = 0;
    *t1 = INFINITY;
    *axis = -1;
    for (int a = 0; a < 3; a++) {
        if (fabs(d[a]) < 1e-300) {
            if (o[a] < lo[a] || o[a] > hi[a]) return 0;
            continue;
        }
        double ta = (lo[a] - o[a]) / d[a], tb = (hi[a] - o[a]) / d[a];
        if (ta > tb) {
            double s = ta;
            ta = tb;
            tb = s;
        }
        if (ta > *t0) {
            *t0 = ta;
            *axis = a;
        }
        if (tb < *t1) *t1 = tb;
    }
    return *t0 <= *t1;
}

/* Height of the drawn surface (ground or water, whichever is higher) at (x, z). */
static double hf_top(const hf_frame *F, double x, double z)
{
    hf_corner q = hf_corner_of(F, x, z); /* one lookup, two fields */
    return lq_max(hf_corner_lerp(F->p->ground, &q), hf_corner_lerp(F->p->level, &q));
}

/* First s in [0, len] where c0 + c1 s + c2 s² <= 0, given c0 > 0; -1 when none. The
 * roots come from the cancellation-free pair (q/c2, c0/q); when rounding loses a
 * crossing the end value still reports it, so no ray slips between two patches. */
static double hf_first_root(double c0, double c1, double c2, double len)
{
    double best = INFINITY;
    if (fabs(c2) * len <= 1e-12 * (fabs(c1) + fabs(c0) / lq_max(len, 1e-300))) {
        if (c1 < 0) best = -c0 / c1;
    } else {
        double disc = c1 * c1 - 4 * c2 * c0;
        if (disc >= 0) {
            double q = -0.5 * (c1 + copysign(sqrt(disc), c1)), r[2] = {q / c2, c0 / q};
            for (int j = 0; j < 2; j++)
                if (r[j] >= 0 && r[j] < best) best = r[j];
        }
    }
    if (best <= len) return best;
    return c0 + len * (c1 + len * c2) <= 0 ? len : -1;
}

/* First t in [ta, tb] where the ray meets the surface, or -1: a 2D DDA over the
 * bilinear patches between cell centres (the outermost half cells are patches whose
 * corners repeat the edge centres, as the clamped lookup reads them). A patch whose
 * highest corner of either field lies below the ray is passed over; in one it might
 * touch, the ray's height above each bilinear field is a quadratic in t, solved
 * exactly, and the surface max(ground, level) is met at the earlier of the two roots. */
static double hf_march_segment(const hf_frame *F, const double o[3], const double d[3], double ta,
                               double tb)
{
    const lq_hfview_preview *p = F->p;
    const int nx = F->nx, nz = F->nz;
    /* lattice coordinates: centre (i, k) at (i, k) */
    double fx0 = (o[0] - F->x0) * F->inv_dx - 0.5, fz0 = (o[2] - F->z0) * F->inv_dx - 0.5;
    double dfx = d[0] * F->inv_dx, dfz = d[2] * F->inv_dx;
    double tm = 0.5 * (ta + tb), t = ta;
    /* the patch of the segment's start, found at a point just inside the segment so a
     * start on a patch boundary takes the patch the ray goes on into */
    double fxs = fx0 + dfx * lq_min(ta + 1e-9 * (tb - ta), tm);
    double fzs = fz0 + dfz * lq_min(ta + 1e-9 * (tb - ta), tm);
    int px = (int)lq_min(lq_max(floor(fxs), -1), nx - 1),
        pz = (int)lq_min(lq_max(floor(fzs), -1), nz - 1);
    const int sx = dfx > 0 ? 1 : -1, sz = dfz > 0 ? 1 : -1;
    const int movx = fabs(dfx) > 1e-12, movz = fabs(dfz) > 1e-12;
    const double idx = movx ? 1 / dfx : 0, idz = movz ? 1 / dfz : 0;
    const double stx = fabs(idx), stz = fabs(idz); /* t per patch along x, z */
    /* where the ray leaves the start patch along x and along z; each later boundary is
     * one patch further */
    double tx = movx ? ((sx > 0 ? px + 1 : px) - fx0) * idx : INFINITY;
    double tz = movz ? ((sz > 0 ? pz + 1 : pz) - fz0) * idz : INFINITY;
    for (;;) {
        /* the outermost patches reach past the box: the ray leaves them at tb */
        if ((sx > 0 && px >= nx - 1) || (sx < 0 && px <= -1)) tx = INFINITY;
        if ((sz > 0 && pz >= nz - 1) || (sz < 0 && pz <= -1)) tz = INFINITY;
        double te = tx < tz ? tx : tz;
        te = te < tb ? te : tb;
        if (te < t) te = t;
        double ymin = o[1] + d[1] * (d[1] < 0 ? te : t);
        if (ymin <= p->patch_max[(size_t)(pz + 1) * (size_t)(nx + 1) + (size_t)(px + 1)]) {
            const int ia = LQ_MAX(px, 0), ib = LQ_MIN(px + 1, nx - 1);
            const int ka = LQ_MAX(pz, 0), kb = LQ_MIN(pz + 1, nz - 1);
            const size_t c00 = (size_t)ia + (size_t)nx * (size_t)ka;
            const size_t c10 = (size_t)ib + (size_t)nx * (size_t)ka;
            const size_t c01 = (size_t)ia + (size_t)nx * (size_t)kb;
            const size_t c11 = (size_t)ib + (size_t)nx * (size_t)kb;
            const double u0 = fx0 + dfx * t - px, v0 = fz0 + dfz * t - pz, len = te - t;
            const double y0 = o[1] + d[1] * t;
            double best = -1;
            for (int f = 0; f < 2; f++) {
                const float *v = f ? p->level : p->ground;
                /* a field whose corners all lie below the ray cannot be met here */
                float vmax = v[c00] > v[c10] ? v[c00] : v[c10];
                vmax = vmax > v[c01] ? vmax : v[c01];
                vmax = vmax > v[c11] ? vmax : v[c11];
                if (ymin > vmax) continue;
                double e1 = v[c10] - v[c00], e2 = v[c01] - v[c00];
                double e3 = v[c11] - v[c10] - v[c01] + v[c00];
                double c0 = y0 - (v[c00] + e1 * u0 + e2 * v0 + e3 * u0 * v0);
                double c1 = d[1] - (e1 * dfx + e2 * dfz + e3 * (u0 * dfz + v0 * dfx));
                double c2 = -e3 * dfx * dfz;
                double s = c0 <= 0 ? 0 : hf_first_root(c0, c1, c2, len);
                if (s >= 0 && (best < 0 || s < best)) best = s;
            }
            if (best >= 0) return t + best;
        }
        if (te >= tb) return -1;
        t = te;
        if (tx <= tz) {
            px += sx;
            tx += stx;
        } else {
            pz += sz;
            tz += stz;
        }
    }
}

/* First hit of the surface along the ray between t0 and t1, or -1: a 2D DDA over the
 * tiles that skips any tile whose maximum the ray segment stays above. */
static double hf_march(const hf_frame *F, const double o[3], const double d[3], double t0,
                       double t1)
{
    const double T = HF_TILE, inv = 1 / F->dx;
    const int ntz = (F->nz + HF_TILE - 1) / HF_TILE;
    double gx0 = (o[0] - F->x0) * inv, gz0 = (o[2] - F->z0) * inv;
    double ddx = d[0] * inv, ddz = d[2] * inv;
    /* The start lies on or in the box; clamping only absorbs rounding. */
    double gx = lq_min(lq_max(gx0 + t0 * ddx, 0), F->nx),
           gz = lq_min(lq_max(gz0 + t0 * ddz, 0), F->nz);
    int tx = LQ_MIN((int)(gx / T), F->ntx - 1), tz = LQ_MIN((int)(gz / T), ntz - 1);
    int sx = ddx > 0 ? 1 : -1, sz = ddz > 0 ? 1 : -1;
    double dtx = fabs(ddx) > 1e-12 ? T / fabs(ddx) : INFINITY;
    double dtz = fabs(ddz) > 1e-12 ? T / fabs(ddz) : INFINITY;
    double ntx_t = fabs(ddx) > 1e-12 ? ((tx + (ddx > 0)) * T - gx0) / ddx : INFINITY;
    double ntz_t = fabs(ddz) > 1e-12 ? ((tz + (ddz > 0)) * T - gz0) / ddz : INFINITY;
    double t = t0;
    for (;;) {
        double te = lq_min(lq_min(ntx_t, ntz_t), t1);
        double ymin = o[1] + d[1] * (d[1] < 0 ? te : t);
        if (te > t && ymin <= F->p->tile_max[(size_t)tz * (size_t)F->ntx + (size_t)tx]) {
            double hit = hf_march_segment(F, o, d, t, te);
            if (hit >= 0) return hit;
        }
        if (te >= t1) return -1;
        t = te;
        if (ntx_t <= ntz_t) {
            tx += sx;
            ntx_t += dtx;
        } else {
            tz += sz;
            ntz_t += dtz;
        }
        if (tx < 0 || tx >= F->ntx || tz < 0 || tz >= ntz) return -1;
    }
}

/* --- preview: objects ---------------------------------------------------------------- */

/* The nearest object the ray enters in (tmin, tmax), tmin >= 0, other than `skip`: its
 * index (-1: none), with the distance in *t and the normal in n. */
static int hf_objects_hit(const hf_frame *F, const double o[3], const double d[3], double tmin,
                          double tmax, int skip, double *t, double n[3])
{
    int hit = -1;
    for (int j = 0; j < F->nobj; j++) {
        double nj[3], tj = j == skip ? -1 : lq_shape_hit(&F->obj[j], o, d, tmin, tmax, nj);
        if (tj < 0) continue;
        hit = j;
        *t = tmax = tj;
        memcpy(n, nj, sizeof nj);
    }
    return hit;
}

/* 1 when an object other than `skip` stands between q and the sun. */
static int hf_obj_shadow(const hf_frame *F, const double q[3], int skip)
{
    double t, n[3];
    return hf_objects_hit(F, q, F->sun, 0, INFINITY, skip, &t, n) >= 0;
}

/* 1 when the point sees the sun over the surface and past the objects but `skip`. */
static int hf_sunlit(const hf_frame *F, const double q[3], int skip)
{
    double o[3] = {q[0], q[1] + 0.02 * F->dx, q[2]}, t0, t1;
    int axis;
    if (hf_obj_shadow(F, q, skip)) return 0;
    if (!hf_box(F, o, F->sun, &t0, &t1, &axis)) return 1;
    /* Start half a cell away, past the bilinear patch the point lies on. */
    return hf_march(F, o, F->sun, lq_max(t0, 0.5 * F->dx), t1) < 0;
}

/* --- preview: shading ---------------------------------------------------------------- */

static void hf_sky(const hf_frame *F, const double d[3], double out[3])
{
    lq_mix3(out, F->sky_horizon, F->sky_zenith, sqrt(lq_clamp01(d[1])));
}

/* Lit colour of an object's surface with outward normal n, seen along d. */
static void hf_object_colour(const hf_frame *F, const lq_view_object *ob, const double n[3],
                             const double d[3], int sunlit, double out[3])
{
    double lambert = sunlit ? lq_max(lq_dot3(n, F->sun), 0) : 0, sky = 0.55 + 0.45 * n[1], r[3];
    double dn = lq_dot3(d, n);
    for (int c = 0; c < 3; c++) r[c] = d[c] - 2 * dn * n[c];
    double spec = lambert > 0 ? 0.25 * lq_powi(lq_max(lq_dot3(r, F->sun), 0), 40) : 0;
    for (int c = 0; c < 3; c++)
        out[c] = lq_clamp01(ob->rgb[c]) * (F->ambient[c] * sky + F->sun_light[c] * lambert) +
                 F->sun_light[c] * spec;
}

/* Lit colour of the ground at q with normal n; wetness in [0, 1]. */
static void hf_ground_colour(const hf_frame *F, const double q[3], const double n[3],
                             double wetness, int sunlit, double out[3])
{
    const lq_hfview_preview *p = F->p;
    double range = lq_max(p->b_hi - p->b_lo, 1e-9), hn = (q[1] - p->b_lo) / range, base[3];
    double lambert = sunlit ? lq_max(lq_dot3(n, F->sun), 0) : 0, sky = 0.55 + 0.45 * n[1];
    lq_mix3(base, F->sand, F->grass, smooth(0, 0.12, (q[1] - p->shore) / range));
    lq_mix3(base, base, F->earth, smooth(0.72, 0.95, hn));
    lq_mix3(base, base, F->rock, 1 - smooth(0.62, 0.78, n[1]));
    for (int c = 0; c < 3; c++)
        out[c] = base[c] * (F->ambient[c] * sky + F->sun_light[c] * lambert) *
                 (1 - wetness * F->wet_dark[c]);
}

static void hf_shade_water(const hf_frame *F, const double q[3], const double d[3], double depth,
                           double out[3])
{
    const lq_hfview_preview *p = F->p;
    double n[3], v[3] = {-d[0], -d[1], -d[2]}, r[3], t[3], bottom[3], nb[3], under[3], sky[3];
    const double eta = 1 / 1.33;
    hf_field_normal(F, p->level, q[0], q[2], n);
    double ci = lq_clamp01(lq_dot3(n, v)), fres = 0.02 + 0.98 * lq_powi(1 - ci, 5);
    for (int c = 0; c < 3; c++) r[c] = d[c] + 2 * ci * n[c];
    if (r[1] < 0.02) r[1] = 0.02;
    lq_norm3(r);
    hf_sky(F, r, sky);
    /* Refracted view ray; the ground beneath is taken where it meets a flat bottom. */
    double k = 1 - eta * eta * (1 - ci * ci), ct = sqrt(lq_max(k, 0));
    for (int c = 0; c < 3; c++) t[c] = eta * d[c] + (eta * ci - ct) * n[c];
    double down = lq_max(-t[1], 0.2), len = depth / down, path, tobj, nobj[3];
    /* An object the refracted ray enters before it reaches the bottom is the floor. */
    int j = hf_objects_hit(F, q, t, 0, len, -1, &tobj, nobj);
    if (j >= 0) {
        double qo[3] = {q[0] + t[0] * tobj, q[1] + t[1] * tobj, q[2] + t[2] * tobj};
        hf_object_colour(F, &F->obj[j], nobj, t, 1, bottom);
        path = tobj + lq_max(hf_at(F, p->level, qo[0], qo[2]) - qo[1], 0) / lq_max(F->sun[1], 0.2);
    } else {
        double b[3] = {q[0] + t[0] * len, 0, q[2] + t[2] * len};
        b[0] = lq_min(lq_max(b[0], F->x0), F->x1);
        b[2] = lq_min(lq_max(b[2], F->z0), F->z1);
        b[1] = hf_at(F, p->ground, b[0], b[2]);
        hf_field_normal(F, p->ground, b[0], b[2], nb);
        hf_ground_colour(F, b, nb, 1, !hf_obj_shadow(F, b, -1), bottom);
        path = len + lq_max(hf_at(F, p->level, b[0], b[2]) - b[1], 0) / lq_max(F->sun[1], 0.2);
    }
    /* Relief shading of the surface itself, as a map's hillshade: small ripples
     * (a raindrop's rings are millimetres high) tilt the reflection too little to show
     * against a smooth sky, so the surface's slope toward the sun lightens it. */
    double relief = 1 + 4 * (n[0] * F->sun[0] + n[2] * F->sun[2]);
    relief = lq_min(lq_max(relief, 0.6), 1.5);
    for (int c = 0; c < 3; c++) {
        double tr = exp(-F->sigma[c] * path);
        under[c] = (bottom[c] * tr + F->deep[c] * (1 - tr)) * relief;
    }
    /* Reflection and glint fade in over the thinnest film (5 % of the absorption
     * depth), so a shoreline has no hard edge. */
    double film = smooth(0, 0.05 * p->absorb, depth), rs = lq_max(lq_dot3(r, F->sun), 0);
    double spec = film * (1.5 * lq_powi(rs, 400) + 0.10 * lq_powi(rs, 30));
    for (int c = 0; c < 3; c++)
        out[c] = under[c] * (1 - fres * film) + sky[c] * fres * film + F->sun_light[c] * spec;
}

/* Side of the block at q (a cross-section of ground and water), face normal nf. */
static void hf_shade_side(const hf_frame *F, const double q[3], const double nf[3], double out[3])
{
    const lq_hfview_preview *p = F->p;
    double g = hf_at(F, p->ground, q[0], q[2]), s = hf_top(F, q[0], q[2]);
    double light[3], lambert = lq_max(lq_dot3(nf, F->sun), 0);
    for (int c = 0; c < 3; c++) light[c] = F->ambient[c] * 0.8 + F->sun_light[c] * lambert;
    if (q[1] <= g) {
        double shade = 1 - 0.4 * lq_clamp01((g - q[1]) / lq_max(g - F->base, 1e-9));
        for (int c = 0; c < 3; c++) out[c] = F->soil[c] * light[c] * shade;
    } else {
        /* Water against the side: light from above, absorbed on its way down. */
        for (int c = 0; c < 3; c++) {
            double tr = exp(-F->sigma[c] * (s - q[1]));
            out[c] = F->shallow[c] * light[c] * tr + F->deep[c] * (1 - tr);
        }
    }
}

/* Colour seen along the ray (d unit) into out, out[0] = -1 when it sees nothing; returns
 * the distance to what it sees (INFINITY: nothing). */
static double hf_shade_ray(const hf_frame *F, const double o[3], const double d[3], double out[3])
{
    const lq_hfview_preview *p = F->p;
    double t0, t1, q[3], tobj = INFINITY, nobj[3], t = -1;
    int axis, j = hf_objects_hit(F, o, d, 0, INFINITY, -1, &tobj, nobj);
    /* The block is looked at only when no object stands in front of it. */
    if (hf_box(F, o, d, &t0, &t1, &axis) && !(tobj < t0)) {
        if (axis == 0 || axis == 2) {
            /* Entering through a side: below the surface there, the ray sees the block's
             * cross-section. */
            for (int a = 0; a < 3; a++) q[a] = o[a] + t0 * d[a];
            if (q[1] < hf_top(F, q[0], q[2])) {
                double nf[3] = {0, 0, 0};
                nf[axis] = d[axis] > 0 ? -1 : 1;
                hf_shade_side(F, q, nf, out);
                return t0;
            }
        }
        t = hf_march(F, o, d, t0, lq_min(t1, tobj));
    }
    if (t < 0 && j >= 0) {
        for (int a = 0; a < 3; a++) q[a] = o[a] + tobj * d[a];
        hf_object_colour(F, &F->obj[j], nobj, d, hf_sunlit(F, q, j), out);
        return tobj;
    }
    if (t < 0) {
        out[0] = -1;
        return INFINITY;
    }
    for (int a = 0; a < 3; a++) q[a] = o[a] + t * d[a];
    double g = hf_at(F, p->ground, q[0], q[2]), depth = hf_at(F, p->level, q[0], q[2]) - g;
    if (depth > 0) {
        hf_shade_water(F, q, d, depth, out);
    } else {
        double n[3];
        hf_field_normal(F, p->ground, q[0], q[2], n);
        hf_ground_colour(F, q, n, hf_at(F, p->wet, q[0], q[2]), hf_sunlit(F, q, -1), out);
    }
    return t;
}

/* --- preview: one frame ---------------------------------------------------------------- */

/* Water level: h on wet cells; on a dry cell beside wet ones their mean level, but
 * never above the cell's own ground, so the drawn shoreline runs between cell centres
 * where the bilinear level meets the bilinear ground. Rows [k0, k1), any thread. */
typedef struct hf_levels {
    lq_hfview_preview *p;
    const float *h;
} hf_levels;

static void hf_level_rows(void *ctx, int k0, int k1)
{
    const hf_levels *L = ctx;
    lq_hfview_preview *p = L->p;
    const float *h = L->h;
    const size_t nx = (size_t)p->nx;
    for (int k = k0; k < k1; k++)
        for (int i = 0; i < p->nx; i++) {
            size_t c = (size_t)i + nx * (size_t)k;
            double sum = 0;
            int count = 0;
            if (p->wet_now[c]) {
                p->level[c] = h[c];
                continue;
            }
            for (int dk = -1; dk <= 1; dk++)
                for (int di = -1; di <= 1; di++) {
                    int ii = i + di, kk = k + dk;
                    if (ii < 0 || ii >= p->nx || kk < 0 || kk >= p->nz) continue;
                    size_t e = (size_t)ii + nx * (size_t)kk;
                    if (p->wet_now[e]) {
                        sum += h[e];
                        count++;
                    }
                }
            p->level[c] = count ? (float)lq_min(sum / count, p->ground[c]) : p->ground[c];
        }
}

/* patch_max of the patch rows [k0 - 1, k1 - 1) (hfview.h), any thread */
static void hf_patch_rows(void *ctx, int k0, int k1)
{
    lq_hfview_preview *p = ctx;
    const size_t nx = (size_t)p->nx;
    for (int pk = k0 - 1; pk < k1 - 1; pk++)
        for (int pi = -1; pi < p->nx; pi++) {
            int ia = LQ_MAX(pi, 0), ib = LQ_MIN(pi + 1, p->nx - 1);
            int ka = LQ_MAX(pk, 0), kb = LQ_MIN(pk + 1, p->nz - 1);
            const size_t cs[4] = {(size_t)ia + nx * (size_t)ka, (size_t)ib + nx * (size_t)ka,
                                  (size_t)ia + nx * (size_t)kb, (size_t)ib + nx * (size_t)kb};
            float m = -INFINITY;
            for (int j = 0; j < 4; j++) m = fmaxf(m, fmaxf(p->level[cs[j]], p->ground[cs[j]]));
            p->patch_max[(size_t)(pk + 1) * (nx + 1) + (size_t)(pi + 1)] = m;
        }
}

/* tile_max of the tile rows [tz0, tz1), any thread */
static void hf_tile_rows(void *ctx, int tz0, int tz1)
{
    lq_hfview_preview *p = ctx;
    const size_t nx = (size_t)p->nx;
    const int ntx = (p->nx + HF_TILE - 1) / HF_TILE;
    for (int tz = tz0; tz < tz1; tz++)
        for (int tx = 0; tx < ntx; tx++) {
            float m = -INFINITY;
            int i0 = LQ_MAX(tx * HF_TILE - 1, 0), i1 = LQ_MIN((tx + 1) * HF_TILE, p->nx - 1);
            int k0 = LQ_MAX(tz * HF_TILE - 1, 0), k1 = LQ_MIN((tz + 1) * HF_TILE, p->nz - 1);
            for (int k = k0; k <= k1; k++)
                for (int i = i0; i <= i1; i++) {
                    size_t c = (size_t)i + nx * (size_t)k;
                    m = fmaxf(m, fmaxf(p->level[c], p->ground[c]));
                }
            p->tile_max[(size_t)tz * ntx + tx] = m;
        }
}

/* Updates wetness, the sanitised ground and surface, the tile maxima and (first frame)
 * camera, framing the objects too, and colour scales. */
static void hf_prepare(lq_hfview_preview *p, double time, const float *h, const float *b, float eps,
                       const lq_view_object *obj, int nobj, double *top)
{
    size_t n = (size_t)p->nx * (size_t)p->nz;
    double dt = p->frames > 0 && time > p->time ? time - p->time : 0;
    double lo = INFINITY, hi = -INFINITY, smax = -INFINITY, dmax = 0, wsum = 0;
    size_t wcount = 0;
    const int ntz = (p->nz + HF_TILE - 1) / HF_TILE;
    for (size_t c = 0; c < n; c++)
        if (isfinite(b[c])) {
            lo = lq_min(lo, b[c]);
            hi = lq_max(hi, b[c]);
        }
    if (!(lo <= hi)) lo = hi = p->origin[1];
    for (size_t c = 0; c < n; c++) {
        float g = isfinite(b[c]) ? b[c] : (float)lo;
        p->ground[c] = g;
        p->wet_now[c] = isfinite(h[c]) && h[c] > g + eps;
        smax = lq_max(smax, p->wet_now[c] ? h[c] : g);
        if (p->wet_now[c]) {
            p->dry_for[c] = 0;
            dmax = lq_max(dmax, h[c] - g);
            wsum += h[c];
            wcount++;
        } else if (p->dry_for[c] < HF_NEVER) {
            p->dry_for[c] += (float)dt;
        }
        p->wet[c] = (float)(1 - smooth(0, p->wet_fade, p->dry_for[c]));
    }
    hf_levels L = {p, h};
    lq_parallel_for(p->nz, 16, hf_level_rows, &L);
    lq_parallel_for(p->nz + 1, 16, hf_patch_rows, p);
    lq_parallel_for(ntz, 4, hf_tile_rows, p);
    if (p->frames == 0) {
        double size = lq_max(p->nx, p->nz) * p->dx;
        p->b_lo = lo;
        p->b_hi = hi;
        p->shore = wcount ? wsum / (double)wcount + 0.03 * (hi - lo) : lo + 0.3 * (hi - lo);
        p->base = lo - 0.12 * (hi - lo) - 0.03 * size;
        double box_lo[3] = {p->origin[0], p->base, p->origin[2]};
        double box_hi[3] = {p->origin[0] + p->nx * p->dx, lq_max(smax, hi),
                            p->origin[2] + p->nz * p->dx};
        /* the block, and the objects: wholly (frame_all) or only where they come within
         * a tenth of the block's size of it, so the liquid fills the picture */
        double m = 0.1 * size, near_lo[3], near_hi[3];
        for (int a = 0; a < 3; a++) {
            near_lo[a] = box_lo[a] - m;
            near_hi[a] = box_hi[a] + m;
        }
        for (int j = 0; j < nobj; j++) {
            double olo[3] = {INFINITY, INFINITY, INFINITY},
                   ohi[3] = {-INFINITY, -INFINITY, -INFINITY};
            lq_shape_grow(&obj[j], olo, ohi);
            int near = 1;
            for (int a = 0; a < 3 && !p->frame_all; a++) {
                olo[a] = lq_max(olo[a], near_lo[a]);
                ohi[a] = lq_min(ohi[a], near_hi[a]);
                near &= olo[a] <= ohi[a];
            }
            if (!near || !(olo[0] <= ohi[0])) continue;
            for (int a = 0; a < 3; a++) {
                box_lo[a] = lq_min(box_lo[a], olo[a]);
                box_hi[a] = lq_max(box_hi[a], ohi[a]);
            }
        }
        hf_camera_fit(p, box_lo, box_hi);
    }
    if (p->absorb <= 0 && dmax > 0) p->absorb = lq_max(0.5 * dmax, 0.01 * p->dx);
    *top = smax + 1e-6 * (fabs(smax) + p->dx);
    p->time = time;
}

static void hf_frame_setup(hf_frame *F, const lq_hfview_preview *p, double top,
                           const lq_view_object *obj, int nobj)
{
    memset(F, 0, sizeof *F);
    F->p = p;
    F->obj = obj;
    F->nobj = nobj;
    F->nx = p->nx;
    F->nz = p->nz;
    F->ntx = (p->nx + HF_TILE - 1) / HF_TILE;
    F->dx = p->dx;
    F->inv_dx = 1 / p->dx;
    F->x0 = p->origin[0];
    F->z0 = p->origin[2];
    F->x1 = F->x0 + p->nx * p->dx;
    F->z1 = F->z0 + p->nz * p->dx;
    F->base = p->base;
    F->top = lq_max(top, p->base + 1e-6 * p->dx);
    /* Sun high on the left, a little behind the domain, so relief casts short shadows
     * towards the viewer's right and water glints in the back half. */
    F->sun[0] = -0.15;
    F->sun[1] = 0.62;
    F->sun[2] = -0.77;
    lq_norm3(F->sun);
    double absorb = p->absorb > 0 ? p->absorb : 0.02 * lq_max(p->nx, p->nz) * p->dx;
    F->sigma[0] = 1.2 / absorb;
    F->sigma[1] = 0.40 / absorb;
    F->sigma[2] = 0.22 / absorb;
    lq_lin3(F->sky_zenith, 0.36, 0.56, 0.86);
    lq_lin3(F->sky_horizon, 0.80, 0.87, 0.95);
    lq_lin3(F->bg_top, 0.46, 0.64, 0.88);
    lq_lin3(F->bg_bottom, 0.88, 0.92, 0.97);
    lq_lin3(F->sun_light, 1.10, 1.06, 0.98);
    lq_lin3(F->ambient, 0.55, 0.62, 0.74);
    lq_lin3(F->sand, 0.86, 0.78, 0.60);
    lq_lin3(F->grass, 0.42, 0.55, 0.26);
    lq_lin3(F->earth, 0.55, 0.45, 0.33);
    lq_lin3(F->rock, 0.56, 0.54, 0.52);
    lq_lin3(F->soil, 0.50, 0.38, 0.27);
    lq_lin3(F->deep, 0.05, 0.25, 0.44);
    lq_lin3(F->shallow, 0.42, 0.68, 0.76);
    F->wet_dark[0] = 0.50;
    F->wet_dark[1] = 0.53;
    F->wet_dark[2] = 0.58;
}

/* Linear colour seen through the continuous pixel position (sx, sy); returns the
 * distance from the eye to what it sees (INFINITY: the sky). */
static double hf_pixel(const void *ctx, double sx, double sy, double col[3])
{
    const hf_frame *F = ctx;
    const lq_hfview_camera *cam = &F->p->cam;
    double d[3], u = (sx - cam->cx) / cam->focal, v = (cam->cy - sy) / cam->focal;
    for (int a = 0; a < 3; a++) d[a] = cam->fwd[a] + u * cam->right[a] + v * cam->up[a];
    lq_norm3(d);
    double t = hf_shade_ray(F, cam->eye, d, col);
    if (col[0] < 0) lq_mix3(col, F->bg_top, F->bg_bottom, lq_clamp01(sy / F->p->height));
    return t;
}

/* Spray over the finished picture (see the top of the file). */
static void hf_splat(lq_hfview_preview *p, const float *px, const float *py, const float *pz,
                     int npts, double radius)
{
    const size_t w = (size_t)p->width, hgt = (size_t)p->height;
    const double X = (double)w, Y = (double)hgt;
    double spray[3], lut[256];
    int any = 0;
    radius = radius > 0 && radius < INFINITY ? radius : 0;
    for (size_t c = 0; c < w * hgt; c++) p->spray[c] = 1;
    for (int j = 0; j < npts; j++) {
        double q[3] = {px[j], py[j], pz[j]}, pix[2], zf, rel[3];
        if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2])) continue;
        if (hf_project(&p->cam, q, pix, &zf)) continue;
        double r = lq_min(lq_max(radius * p->cam.focal / zf, 1), HF_SPRAY_PX), reach = r + 0.5;
        if (!(pix[0] > -reach && pix[0] < X + reach && pix[1] > -reach && pix[1] < Y + reach))
            continue;
        for (int a = 0; a < 3; a++) rel[a] = q[a] - p->cam.eye[a];
        double dist = sqrt(lq_dot3(rel, rel)) - radius; /* the drop's near side */
        int x0 = LQ_MAX((int)floor(pix[0] - reach), 0),
            x1 = LQ_MIN((int)(pix[0] + reach), (int)w - 1);
        int y0 = LQ_MAX((int)floor(pix[1] - reach), 0),
            y1 = LQ_MIN((int)(pix[1] + reach), (int)hgt - 1);
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                size_t c = (size_t)y * w + (size_t)x;
                double ex = x + 0.5 - pix[0], ey = y + 0.5 - pix[1];
                double a = HF_SPRAY_ALPHA * (1 - smooth(0, reach, sqrt(ex * ex + ey * ey)));
                if (a <= 0 || !(dist < p->depth[c])) continue;
                p->spray[c] *= (float)(1 - a);
                any = 1;
            }
    }
    if (!any) return;
    lq_lin3(spray, 0.93, 0.95, 0.98);
    for (int v = 0; v < 256; v++) lut[v] = pow(v / 255.0, 2.2);
    for (size_t c = 0; c < w * hgt; c++) {
        double keep = p->spray[c], col[3];
        uint8_t *o = p->rgb + 3 * c;
        if (keep >= 1) continue;
        for (int k = 0; k < 3; k++) col[k] = lut[o[k]] * keep + spray[k] * (1 - keep);
        lq_srgb_encode(col, o);
    }
}

/* The 4 × 4 blocks (views/raster.h) that an object's box covers on the screen, a block
 * more around, are traced pixel by pixel: a small or distant ball must not fall between
 * the coarse samples. An object partly behind the camera marks the whole picture. */
static void hf_mark_objects(lq_hfview_preview *p, const lq_view_object *obj, int nobj)
{
    const int bw = (p->width + 3) / 4, bh = (p->height + 3) / 4;
    memset(p->blocks, 0, lq_raster_blocks(p->width, p->height));
    for (int j = 0; j < nobj; j++) {
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        double plo[2] = {INFINITY, INFINITY}, phi[2] = {-INFINITY, -INFINITY};
        int behind = 0;
        lq_shape_grow(&obj[j], lo, hi);
        if (!(lo[0] <= hi[0] && lo[1] <= hi[1] && lo[2] <= hi[2])) continue; /* skipped */
        for (int c = 0; c < 8; c++) {
            double q[3] = {c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2]};
            double px[2], zf;
            if (hf_project(&p->cam, q, px, &zf)) {
                behind = 1;
                break;
            }
            for (int a = 0; a < 2; a++) {
                plo[a] = lq_min(plo[a], px[a]);
                phi[a] = lq_max(phi[a], px[a]);
            }
        }
        int i0 = 0, i1 = bw - 1, k0 = 0, k1 = bh - 1;
        if (!behind) {
            if (!(phi[0] >= 0 && plo[0] <= p->width && phi[1] >= 0 && plo[1] <= p->height))
                continue; /* off the picture */
            i0 = LQ_MAX((int)floor(plo[0] / 4) - 1, 0);
            i1 = LQ_MIN((int)floor(phi[0] / 4) + 1, bw - 1);
            k0 = LQ_MAX((int)floor(plo[1] / 4) - 1, 0);
            k1 = LQ_MIN((int)floor(phi[1] / 4) + 1, bh - 1);
        }
        for (int k = k0; k <= k1; k++)
            memset(p->blocks + (size_t)k * (size_t)bw + (size_t)i0, 1, (size_t)(i1 - i0 + 1));
    }
}

int lq_hfview_preview_render(lq_hfview_preview *p, const char *path, double time, const float *h,
                             const float *b, float eps)
{
    return lq_hfview_preview_render_scene(p, path, time, h, b, eps, NULL, 0, NULL, NULL, NULL, 0,
                                          0);
}

int lq_hfview_preview_render_scene(lq_hfview_preview *p, const char *path, double time,
                                   const float *h, const float *b, float eps,
                                   const lq_view_object *obj, int nobj, const float *px,
                                   const float *py, const float *pz, int npts, float point_radius)
{
    hf_frame F;
    double top;
    if (!p->rgb) return lq_error(LQ_ESIM, "%s: preview used before lq_hfview_preview_init", path);
    if (!h || !b) return lq_error(LQ_ESIM, "%s: no height field to render", path);
    if (nobj < 0 || (nobj > 0 && !obj))
        return lq_error(LQ_ESIM, "%s: bad object list (%d objects)", path, nobj);
    if (npts < 0 || (npts > 0 && (!px || !py || !pz)))
        return lq_error(LQ_ESIM, "%s: bad spray point list (%d points)", path, npts);
    for (int j = 0; j < nobj; j++)
        if (obj[j].shape != LQ_SHAPE_SPHERE && obj[j].shape != LQ_SHAPE_ELLIPSOID &&
            obj[j].shape != LQ_SHAPE_BOX)
            return lq_error(LQ_ESIM, "%s: object %d has unknown shape %d", path, j, obj[j].shape);
    hf_prepare(p, time, h, b, eps, obj, nobj, &top);
    hf_frame_setup(&F, p, top, obj, nobj);
    hf_mark_objects(p, obj, nobj);
    lq_raster_render(p->width, p->height, hf_pixel, &F, true, p->rgb, p->depth, p->aa, p->blocks);
    /* Spray last: it lies over the finished picture. */
    if (npts > 0) hf_splat(p, px, py, pz, npts, point_radius);
    lq_stamp_draw(p->rgb, p->width, p->height, p->stamp);
    p->frames++;
    return lq_png_write_rgb(path, p->width, p->height, p->rgb);
}
