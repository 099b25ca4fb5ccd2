/*
 * volview.c — previews of 3D frames (volview.h).
 *
 * Camera. As hfview.c: a pinhole placed by the first frame above and in front of the
 * domain (azimuth 32°, elevation 33°), looking at the centre of the box that holds the
 * domain and the first frame's objects, with the focal length and image centre chosen
 * so that box fills the frame; the caller may set another direction (volview.h). One ray
 * per pixel centre; pixels that differ sharply from a neighbour get four more rays
 * (rotated grid), averaged in linear light.
 *
 * Liquid. phi is sampled trilinearly between cell centres, clamped to the outermost
 * centres, so the liquid reaches the box faces and a pool is cut off by them (the face
 * is then the drawn surface). A ray enters the domain box and marches in steps of half
 * the smallest cell edge, or by 0.8 |phi| (at least a quarter cell) when phi is a
 * distance; a brick of 8³ cells whose minimum (over the brick and a one-cell rim, which
 * bounds every trilinear value inside it) is not negative is crossed in one jump. At the
 * first sample with phi < 0, bisection between it and the last sample with phi >= 0
 * refines the crossing; the normal is the central-difference gradient of trilinear phi
 * half a cell apart. A feature thinner than the step may be missed.
 *
 * Solids are the cells with solid[c] != 0, drawn as cubes by a voxel walk (Amanatides &
 * Woo) with the normal of the face entered; stone colour varies a little per cell and a
 * dark joint runs along cube edges so blocks read as blocks. The floor is the box's
 * bottom face, a checker of squares about 1/12 of the domain. Objects (shape.h) are
 * ray-traced exactly, with the math of hfview.c (copied, so the two stay independent).
 *
 * Shading is in linear RGB, written out as sRGB. Water: reflected sky weighted by
 * Schlick's Fresnel term; the refracted ray (η = 1/1.33) is marched through the liquid
 * to where it leaves it (phi >= 0, a solid cell, or the box), and what lies beyond
 * (floor, stone, object or sky, without further liquid) is dimmed by exp(−σ L) over
 * that thickness L toward a blue scattering colour lit by Lambert sun and sky; plus a
 * sun highlight. Absorption lengths scale with the domain, so a tank and a pond both
 * read as water. Floor, stone and objects: sky ambient plus Lambert sun, times the
 * sun's transmittance (0 past a solid or object, 0.55 past liquid).
 *
 * Texture (lq_volview_texture, Rasmussen et al. §6). A primary ray's liquid hit takes
 * the rest coordinate trilinearly from the cell centres around it (each centre's the
 * texture particles' lookup, texmap.h, made when a frame first needs it and kept for
 * that frame: the cost follows the visible surface, not the pixels), and is shaded as a
 * painted surface: the style's colour there, lit by sun and sky, under the water's
 * Fresnel sky reflection. Refracted and shadow rays, and the liquid cut by the box's
 * faces, see plain water. Not in 2D runs.
 *
 * 2D runs (nz == 1). A slab seen at an angle is hard to read, so the view is side-on
 * and flat: pixels map linearly (orthographic, one scale for x and y) to the slab's mid
 * plane, framing the x-y interior (the walls' cell layer left out) in 94 % of the width
 * or 90 % of the height. Each sample is painted back to front (vv_pixel_2d) with no
 * lighting; the same edge pass supersamples where neighbours differ sharply. The
 * contour line's width comes from |phi| / |∇phi| (∇ by central differences half a cell
 * apart), so it is smooth without supersampling.
 *
 * Invariants: every value the marcher reads is finite (non-finite phi is air), every
 * trilinear lookup clamps to the grid, and a render touches only memory allocated by
 * lq_volview_init plus its inputs.
 */
#include "views/volview.h"

#include "core/common.h"
#include "core/parallel.h"
#include "io/io.h"
#include "views/raster.h"
#include "views/srgb.h"
#include "views/stamp.h"
#include "core/vec3.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define VV_BRICK 8
#define VV_SKY_T 1e30 /* distance returned for rays that see nothing */

/* --- state ----------------------------------------------------------------------------- */

int lq_volview_init(lq_volview *p, int nx, int ny, int nz, const double origin[3],
                    const double spacing[3], int width)
{
    memset(p, 0, sizeof *p);
    if (nx < 1 || ny < 1 || nz < 1 || (double)nx * ny * nz > 2e9 || !origin || !spacing)
        return lq_error(LQ_ESIM, "preview: bad grid (%d x %d x %d cells)", nx, ny, nz);
    for (int a = 0; a < 3; a++)
        if (!isfinite(origin[a]) || !(spacing[a] > 0) || !isfinite(spacing[a]))
            return lq_error(LQ_ESIM, "preview: bad grid origin or spacing along axis %d", a);
    if (width < 16 || width > 16384)
        return lq_error(LQ_ESIM, "preview: width %d px out of range (16..16384)", width);
    p->nx = nx;
    p->ny = ny;
    p->nz = nz;
    memcpy(p->origin, origin, sizeof p->origin);
    memcpy(p->spacing, spacing, sizeof p->spacing);
    p->width = width;
    p->height = (width * 9 + 8) / 16;
    p->azimuth = 32;
    p->elevation = 33;
    p->distance = 1;
    p->bx = (nx + VV_BRICK - 1) / VV_BRICK;
    p->by = (ny + VV_BRICK - 1) / VV_BRICK;
    p->bz = (nz + VV_BRICK - 1) / VV_BRICK;
    p->phi = lq_alloc((size_t)nx * (size_t)ny * (size_t)nz * sizeof *p->phi);
    p->brick_min = lq_alloc((size_t)p->bx * (size_t)p->by * (size_t)p->bz * sizeof(float));
    p->rgb = lq_alloc((size_t)p->width * (size_t)p->height * 3);
    p->aa = lq_alloc((size_t)p->width * (size_t)p->height);
    p->depth = lq_alloc((size_t)p->width * (size_t)p->height * sizeof *p->depth);
    p->blocks = lq_alloc(lq_raster_blocks(p->width, p->height));
    if (!p->phi || !p->brick_min || !p->rgb || !p->aa || !p->depth || !p->blocks) goto fail;
    return LQ_OK;
fail:
    lq_volview_free(p);
    return LQ_ESIM;
}

void lq_volview_free(lq_volview *p)
{
    free(p->tex_rest);
    free((void *)p->tex_done);
    free(p->phi);
    free(p->brick_min);
    free(p->rgb);
    free(p->aa);
    free(p->depth);
    free(p->blocks);
    memset(p, 0, sizeof *p);
}

/* The points of lq_volview_points as soft dots (radius ~1.2 px, scaled with the picture),
 * blended over the picture; then forgotten. */
static void vv_draw_points(lq_volview *p)
{
    const lq_volview_camera *c = &p->cam;
    int w = p->width, h = p->height;
    double r = lq_max(0.8, w / 800.0);
    for (int q = 0; q < p->npoints; q++) {
        int kind = (int)p->pkind[q];
        if (kind != 0 && kind != 1) continue;
        double x[3] = {p->px[q], p->py[q], p->pz[q]}, rel[3], pix[2];
        for (int a = 0; a < 3; a++) rel[a] = x[a] - c->eye[a];
        double zf = lq_dot3(rel, c->fwd);
        if (!(zf > 0)) continue;
        pix[0] = c->cx + c->focal * lq_dot3(rel, c->right) / zf; /* as lq_volview_project */
        pix[1] = c->cy - c->focal * lq_dot3(rel, c->up) / zf;
        const double col[2][3] = {{0.86, 0.93, 1.0}, {1.0, 1.0, 1.0}};
        double alpha = kind ? 0.85 : 0.7;
        int y0 = lq_int_clamp(floor(pix[1] - r), -1, h), y1 = lq_int_clamp(ceil(pix[1] + r), -1, h);
        int x0 = lq_int_clamp(floor(pix[0] - r), -1, w), x1 = lq_int_clamp(ceil(pix[0] + r), -1, w);
        for (int yy = y0; yy <= y1; yy++)
            for (int xx = x0; xx <= x1; xx++) {
                if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
                double dx = xx + 0.5 - pix[0], dy = yy + 0.5 - pix[1];
                double a = alpha * lq_max(0, 1 - sqrt(dx * dx + dy * dy) / (r + 0.5));
                if (a <= 0) continue;
                uint8_t *px = p->rgb + 3 * ((size_t)yy * w + xx);
                for (int k = 0; k < 3; k++)
                    px[k] = (uint8_t)lround((1 - a) * px[k] + a * 255.0 * col[kind][k]);
            }
    }
    p->npoints = 0;
}

int lq_volview_project(const lq_volview *p, const double world[3], double pixel[2])
{
    const lq_volview_camera *c = &p->cam;
    double rel[3] = {world[0] - c->eye[0], world[1] - c->eye[1], world[2] - c->eye[2]};
    double zf = lq_dot3(rel, c->fwd);
    if (p->frames == 0 || !(zf > 0)) return -1;
    pixel[0] = c->cx + c->focal * lq_dot3(rel, c->right) / zf;
    pixel[1] = c->cy - c->focal * lq_dot3(rel, c->up) / zf;
    return 0;
}

/* Places the camera so the box lo..hi fills the frame, seen from p->azimuth, p->elevation
 * (by default above, in front (+z) and to the left (−x)) at p->distance × 2.6 box radii. */
static void vv_camera_fit(lq_volview *p, const double lo[3], const double hi[3])
{
    const double az = p->azimuth * LQ_PI / 180, el = p->elevation * LQ_PI / 180, Y[3] = {0, 1, 0};
    lq_volview_camera *c = &p->cam;
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
        double rel[3], zf, u, v;
        for (int a = 0; a < 3; a++) rel[a] = (corner >> a & 1 ? hi[a] : lo[a]) - c->eye[a];
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

/* 2D runs: the interior of the box in x and y (the box less its outer layer of cells,
 * a mac grid's walls, along an axis with at least 3 cells). */
static void vv_flat_interior(const lq_volview *p, double lo[2], double hi[2])
{
    const int n[2] = {p->nx, p->ny};
    for (int a = 0; a < 2; a++) {
        int wall = n[a] >= 3;
        lo[a] = p->origin[a] + wall * p->spacing[a];
        hi[a] = p->origin[a] + (n[a] - wall) * p->spacing[a];
    }
}

/* 2D runs: looks along −z straight at the x-y plane through the middle of the slab, the
 * interior centred with a small margin (letterboxed to the picture's aspect). The map is
 * orthographic; the camera records it as a pinhole far away (100 × the interior's size)
 * so that lq_volview_project maps the mid plane exactly. */
static void vv_camera_fit_2d(lq_volview *p)
{
    lq_volview_camera *c = &p->cam;
    double lo[2], hi[2];
    vv_flat_interior(p, lo, hi);
    double wx = hi[0] - lo[0], wy = hi[1] - lo[1];
    double mpp = lq_max(wx / (0.94 * p->width), wy / (0.90 * p->height)); /* m per px */
    double dist = 100 * lq_max(wx, wy);
    memset(c, 0, sizeof *c);
    c->eye[0] = 0.5 * (lo[0] + hi[0]);
    c->eye[1] = 0.5 * (lo[1] + hi[1]);
    c->eye[2] = p->origin[2] + 0.5 * p->spacing[2] + dist;
    c->fwd[2] = -1;
    c->right[0] = 1;
    c->up[1] = 1;
    c->focal = dist / mpp;
    c->cx = 0.5 * p->width;
    c->cy = 0.5 * p->height;
}

/* --- objects: host/core/shape.c ----------------------------------------------------------- */

/* --- one frame's view of the field ---------------------------------------------------- */

typedef struct vv_frame {
    const lq_volview *p;
    const float *phi;
    const uint8_t *solid; /* NULL: no solid cells */
    const lq_view_object *obj;
    int nobj;
    int n[3];
    size_t stride[3];
    double lo[3], hi[3], sp[3], inv[3]; /* m: the domain box; spacing and its inverse */
    double h;                           /* m, smallest cell edge */
    double checker;                     /* m, floor square */
    double sun[3];                      /* unit, towards the sun */
    double sigma[3];                    /* 1/m, absorption of water */
    double sky_zenith[3], sky_horizon[3], bg_top[3], bg_bottom[3], sun_light[3], ambient[3];
    double floor_a[3], floor_b[3], stone[3], deep[3];
    /* 2D runs (nz == 1): the side-on map */
    double mpp;                    /* m per pixel on the mid plane */
    double zmid;                   /* m, the plane z = zmid the map shows */
    double flat_lo[2], flat_hi[2]; /* m, the framed interior (x, y) */
    double water[3], contour[3], frame_line[3];
    /* the texture (lq_volview_texture; NULL: none) and the rest-coordinate cache */
    const lq_texmap *tex;
    const lq_texmap_style *tex_style;
    float *tex_rest;
    _Atomic uint8_t *tex_done;
} vv_frame;

/* Trilinear phi at world point x, clamped to the outermost cell centres. */
static double vv_phi(const vv_frame *F, const double x[3])
{
    size_t c = 0, s[3];
    double t[3];
    for (int a = 0; a < 3; a++) {
        int n = F->n[a];
        double g = (x[a] - F->lo[a]) * F->inv[a] - 0.5;
        g = g > 0 ? (g < n - 1 ? g : n - 1) : 0; /* NaN → 0 */
        int i = (int)g;
        if (i > n - 2) i = n > 1 ? n - 2 : 0;
        t[a] = g - i;
        c += (size_t)i * F->stride[a];
        s[a] = n > 1 ? F->stride[a] : 0;
    }
    const float *f = F->phi + c;
    double a00 = f[0] + (f[s[0]] - f[0]) * t[0];
    double a10 = f[s[1]] + (f[s[1] + s[0]] - f[s[1]]) * t[0];
    double a01 = f[s[2]] + (f[s[2] + s[0]] - f[s[2]]) * t[0];
    double a11 = f[s[2] + s[1]] + (f[s[2] + s[1] + s[0]] - f[s[2] + s[1]]) * t[0];
    double b0 = a00 + (a10 - a00) * t[1], b1 = a01 + (a11 - a01) * t[1];
    return b0 + (b1 - b0) * t[2];
}

/* Outward unit normal of the liquid at x: the gradient of trilinear phi. */
static void vv_phi_normal(const vv_frame *F, const double x[3], double n[3])
{
    for (int a = 0; a < 3; a++) {
        double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
        xp[a] += 0.5 * F->sp[a];
        xm[a] -= 0.5 * F->sp[a];
        n[a] = (vv_phi(F, xp) - vv_phi(F, xm)) * F->inv[a];
    }
    if (!(lq_dot3(n, n) > 0)) n[1] = 1;
    lq_norm3(n);
}

/* The rest coordinate of the texture particles at x: trilinear between the cell centres
 * around it (clamped as vv_phi), each looked up once per frame. */
static void vv_rest(const vv_frame *F, const double x[3], double rest[3])
{
    int i0[3], s[3];
    double t[3];
    for (int a = 0; a < 3; a++) {
        int n = F->n[a];
        double g = (x[a] - F->lo[a]) * F->inv[a] - 0.5;
        g = g > 0 ? (g < n - 1 ? g : n - 1) : 0; /* NaN → 0 */
        i0[a] = (int)g;
        if (i0[a] > n - 2) i0[a] = n > 1 ? n - 2 : 0;
        t[a] = g - i0[a];
        s[a] = n > 1 ? 1 : 0;
    }
    rest[0] = rest[1] = rest[2] = 0;
    for (int corner = 0; corner < 8; corner++) {
        int ijk[3];
        double w = 1;
        for (int a = 0; a < 3; a++) {
            int up = (corner >> a) & 1;
            ijk[a] = i0[a] + up * s[a];
            w *= up ? t[a] : 1 - t[a];
        }
        size_t c = (size_t)ijk[0] + F->stride[1] * (size_t)ijk[1] + F->stride[2] * (size_t)ijk[2];
        /* Rows render on several threads: the first to claim a cell stores its value,
         * the others compute the same value for themselves until it is stored. */
        float *r = F->tex_rest + 3 * c, mine[3];
        if (atomic_load_explicit(&F->tex_done[c], memory_order_acquire) != 2) {
            double q[3], v[3];
            uint8_t none = 0;
            for (int a = 0; a < 3; a++) q[a] = F->lo[a] + (ijk[a] + 0.5) * F->sp[a];
            lq_texmap_rest(F->tex, q, v);
            for (int a = 0; a < 3; a++) mine[a] = (float)v[a];
            if (atomic_compare_exchange_strong(&F->tex_done[c], &none, 1)) {
                memcpy(r, mine, sizeof mine);
                atomic_store_explicit(&F->tex_done[c], 2, memory_order_release);
            }
            r = mine;
        }
        for (int a = 0; a < 3; a++) rest[a] += w * r[a];
    }
}

static void vv_at(const double o[3], const double d[3], double t, double q[3])
{
    for (int a = 0; a < 3; a++) q[a] = o[a] + t * d[a];
}

/* Ray against the domain box: entry/exit t (entry clamped to 0) and the axis of the
 * entry face (-1: the ray starts inside). Returns 0 when it misses. */
static int vv_box(const vv_frame *F, const double o[3], const double d[3], double *t0, double *t1,
                  int *axis)
{
    *t0 = 0;
    *t1 = INFINITY;
    *axis = -1;
    for (int a = 0; a < 3; a++) {
        if (fabs(d[a]) < 1e-300) {
            if (o[a] < F->lo[a] || o[a] > F->hi[a]) return 0;
            continue;
        }
        double ta = (F->lo[a] - o[a]) / d[a], tb = (F->hi[a] - o[a]) / d[a];
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

/* First t in [ta, tb] where the ray is in liquid (trilinear phi < 0), or -1. */
static double vv_march_liquid(const vv_frame *F, const double o[3], const double d[3], double ta,
                              double tb)
{
    const lq_volview *p = F->p;
    const double step = 0.5 * F->h, minstep = 0.25 * F->h, nudge = 1e-4 * F->h;
    double t = ta, q[3];
    vv_at(o, d, t, q);
    double f = vv_phi(F, q);
    if (f < 0) return ta;
    while (t < tb) {
        double tn;
        int b[3];
        for (int a = 0; a < 3; a++) {
            int nb = a == 0 ? p->bx : a == 1 ? p->by : p->bz;
            int i = lq_int_clamp(floor((q[a] - F->lo[a]) * F->inv[a] / VV_BRICK), -1, nb);
            b[a] = i < 0 ? 0 : i >= nb ? nb - 1 : i;
        }
        size_t bi = (size_t)b[0] + (size_t)p->bx * ((size_t)b[1] + (size_t)p->by * (size_t)b[2]);
        if (p->brick_min[bi] >= 0) {
            /* No liquid anywhere in this brick: jump to where the ray leaves it. */
            double te = INFINITY;
            for (int a = 0; a < 3; a++) {
                if (fabs(d[a]) < 1e-300) continue;
                double edge = F->lo[a] + (b[a] + (d[a] > 0)) * VV_BRICK * F->sp[a];
                te = lq_min(te, (edge - o[a]) / d[a]);
            }
            tn = te > t ? te + nudge : t + minstep;
        } else if (p->phi_is_distance) {
            tn = t + lq_max(0.8 * f, minstep);
        } else {
            tn = t + step;
        }
        if (tn > tb) tn = tb;
        double qn[3];
        vv_at(o, d, tn, qn);
        double fn = vv_phi(F, qn);
        if (fn < 0) {
            double tp = t; /* phi >= 0 there */
            for (int it = 0; it < 14; it++) {
                double tm = 0.5 * (tp + tn), qm[3];
                vv_at(o, d, tm, qm);
                if (vv_phi(F, qm) < 0)
                    tn = tm;
                else
                    tp = tm;
            }
            return tn;
        }
        if (tn >= tb) break;
        t = tn;
        f = fn;
        memcpy(q, qn, sizeof q);
    }
    return -1;
}

/* Length of the ray inside liquid from ta (inside) to where it leaves: phi >= 0, a solid
 * cell or the box exit tb. Steps of one smallest cell edge (a thickness, not a surface). */
static double vv_thickness(const vv_frame *F, const double o[3], const double d[3], double ta,
                           double tb)
{
    double t = ta;
    while (t < tb) {
        double tn = lq_min(t + F->h, tb), q[3];
        vv_at(o, d, tn, q);
        if (vv_phi(F, q) >= 0) return tn - ta;
        if (F->solid) {
            size_t c = 0;
            for (int a = 0; a < 3; a++) {
                int i = lq_int_clamp(floor((q[a] - F->lo[a]) * F->inv[a]), 0, F->n[a] - 1);
                c += (size_t)i * F->stride[a];
            }
            if (F->solid[c]) return tn - ta;
        }
        t = tn;
    }
    return tb - ta;
}

/* First solid cell the ray enters in [ta, tb] (voxel walk), or -1; the entered face's
 * normal into n and the cell into *cell. entry_axis: the box face at ta (-1: none). */
static double vv_march_solid(const vv_frame *F, const double o[3], const double d[3], double ta,
                             double tb, int entry_axis, double n[3], size_t *cell)
{
    int i[3], st[3];
    double tmax[3], tdel[3], q[3];
    if (!F->solid) return -1;
    vv_at(o, d, ta, q);
    for (int a = 0; a < 3; a++) {
        double g = (q[a] - F->lo[a]) * F->inv[a];
        i[a] = lq_int_clamp(floor(g), 0, F->n[a] - 1);
        st[a] = d[a] > 0 ? 1 : -1;
        if (fabs(d[a]) < 1e-300) {
            tmax[a] = tdel[a] = INFINITY;
        } else {
            double edge = F->lo[a] + (i[a] + (d[a] > 0)) * F->sp[a];
            tmax[a] = (edge - o[a]) / d[a];
            tdel[a] = F->sp[a] / fabs(d[a]);
        }
    }
    int axis = entry_axis;
    double t = ta;
    for (;;) {
        size_t c = (size_t)i[0] + F->stride[1] * (size_t)i[1] + F->stride[2] * (size_t)i[2];
        if (F->solid[c]) {
            n[0] = n[1] = n[2] = 0;
            if (axis >= 0)
                n[axis] = d[axis] > 0 ? -1 : 1;
            else
                for (int a = 0; a < 3; a++) n[a] = -d[a];
            *cell = c;
            return t;
        }
        axis = tmax[0] <= tmax[1] ? (tmax[0] <= tmax[2] ? 0 : 2) : (tmax[1] <= tmax[2] ? 1 : 2);
        t = tmax[axis];
        if (t > tb) return -1;
        i[axis] += st[axis];
        if (i[axis] < 0 || i[axis] >= F->n[axis]) return -1;
        tmax[axis] += tdel[axis];
    }
}

/* The nearest object the ray enters in (tmin, tmax), other than skip: its index (-1:
 * none), with the distance in *t and the normal in n. */
static int vv_objects_hit(const vv_frame *F, const double o[3], const double d[3], double tmin,
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

/* Fraction of sunlight that reaches q (offset off its surface by the caller): 0 past an
 * object other than skip or a solid cell, 0.55 past liquid, else 1. */
static double vv_sunlight(const vv_frame *F, const double q[3], int skip)
{
    double t, n[3], t0, t1;
    size_t c;
    int axis;
    if (vv_objects_hit(F, q, F->sun, 0, INFINITY, skip, &t, n) >= 0) return 0;
    if (!vv_box(F, q, F->sun, &t0, &t1, &axis)) return 1;
    if (vv_march_solid(F, q, F->sun, t0, t1, axis, n, &c) >= 0) return 0;
    return vv_march_liquid(F, q, F->sun, t0, t1) >= 0 ? 0.55 : 1;
}

/* --- shading --------------------------------------------------------------------------- */

static void vv_sky(const vv_frame *F, const double d[3], double out[3])
{
    lq_mix3(out, F->sky_horizon, F->sky_zenith, sqrt(lq_clamp01(d[1])));
}

/* Diffuse surface of colour base with normal n, seen along d, sunlight fraction sun. */
static void vv_lit(const vv_frame *F, const double base[3], const double n[3], const double d[3],
                   double sun, double gloss, double out[3])
{
    double lambert = sun * lq_max(lq_dot3(n, F->sun), 0), sky = 0.55 + 0.45 * n[1], r[3];
    double dn = lq_dot3(d, n);
    for (int c = 0; c < 3; c++) r[c] = d[c] - 2 * dn * n[c];
    double spec = lambert > 0 ? gloss * lq_powi(lq_max(lq_dot3(r, F->sun), 0), 40) : 0;
    for (int c = 0; c < 3; c++)
        out[c] =
            base[c] * (F->ambient[c] * sky + F->sun_light[c] * lambert) + F->sun_light[c] * spec;
}

/* Stone cube face at q of solid cell c, normal n. */
static void vv_shade_stone(const vv_frame *F, const double q[3], size_t c, const double n[3],
                           const double d[3], double out[3])
{
    double base[3], lift[3], v;
    int cell[3], axis = 0;
    /* A fixed per-cell hash varies the stone's brightness by ±6 %. */
    uint32_t hsh = (uint32_t)(c * 2654435761u);
    hsh ^= hsh >> 15;
    v = 0.94 + 0.12 * (hsh & 255) / 255.0;
    for (int a = 0; a < 3; a++) {
        cell[a] = (int)((c / F->stride[a]) % (size_t)F->n[a]);
        if (fabs(n[a]) > fabs(n[axis])) axis = a;
    }
    /* A dark joint where the face meets a face of the solid's outline: near a cell edge
     * whose neighbour across it is not solid, so a block of cells reads as one block;
     * 8 % of a cell wide, or 0.4 % of the domain when cells are small (≤ 0.4 cell). */
    for (int a = 0; a < 3; a++) {
        if (a == axis) continue;
        double g = (q[a] - F->lo[a]) * F->inv[a] - cell[a];
        int side = g < 0.5 ? -1 : 1, e = cell[a] + side;
        double near = g < 0.5 ? g : 1 - g;
        double width = lq_min(lq_max(0.08, 0.004 * (F->hi[a] - F->lo[a]) * F->inv[a]), 0.4);
        if (near > width) continue;
        if (e < 0 || e >= F->n[a] || !F->solid[(size_t)((long)c + side * (long)F->stride[a])])
            v *= 0.6;
    }
    for (int a = 0; a < 3; a++) {
        base[a] = F->stone[a] * v;
        lift[a] = q[a] + n[a] * 1e-3 * F->h;
    }
    vv_lit(F, base, n, d, vv_sunlight(F, lift, -1), 0.05, out);
}

static void vv_shade_floor(const vv_frame *F, const double q[3], const double d[3], double out[3])
{
    const double up[3] = {0, 1, 0};
    double lift[3] = {q[0], q[1] + 1e-3 * F->h, q[2]};
    /* the checker's parity; past 2^30 squares (rays grazing the floor) it is one colour */
    long cx = lq_int_clamp(floor((q[0] - F->lo[0]) / F->checker), -(1 << 30), 1 << 30);
    long cz = lq_int_clamp(floor((q[2] - F->lo[2]) / F->checker), -(1 << 30), 1 << 30);
    vv_lit(F, (cx + cz) & 1 ? F->floor_a : F->floor_b, up, d, vv_sunlight(F, lift, -1), 0, out);
}

static double vv_trace(const vv_frame *F, const double o[3], const double d[3], int liquid,
                       double out[3]);

/* Water surface at q with outward normal n, seen along d. */
static void vv_shade_water(const vv_frame *F, const double q[3], const double n[3],
                           const double d[3], double out[3])
{
    const double eta = 1 / 1.33;
    double v[3] = {-d[0], -d[1], -d[2]}, r[3], tr[3], sky[3], behind[3], body[3];
    double ci = lq_clamp01(lq_dot3(n, v)), fres = 0.02 + 0.98 * lq_powi(1 - ci, 5);
    for (int c = 0; c < 3; c++) r[c] = d[c] + 2 * ci * n[c];
    lq_norm3(r);
    vv_sky(F, r, sky);
    /* The refracted ray goes through the liquid; beyond, the scene without liquid. */
    double k = 1 - eta * eta * (1 - ci * ci), ct = sqrt(lq_max(k, 0)), t0, t1, len = 0;
    int axis;
    for (int c = 0; c < 3; c++) tr[c] = eta * d[c] + (eta * ci - ct) * n[c];
    lq_norm3(tr);
    double qi[3];
    for (int a = 0; a < 3; a++) qi[a] = q[a] - n[a] * 1e-3 * F->h;
    if (vv_box(F, qi, tr, &t0, &t1, &axis)) len = vv_thickness(F, qi, tr, t0, t1);
    double qe[3];
    vv_at(qi, tr, lq_max(len - 1e-3 * F->h, 0), qe);
    if (vv_trace(F, qe, tr, 0, behind) >= VV_SKY_T) vv_sky(F, tr, behind);
    /* The liquid's own colour: blue scattering lit by sun and sky. */
    double lambert = lq_max(lq_dot3(n, F->sun), 0);
    for (int c = 0; c < 3; c++)
        body[c] = F->deep[c] * (F->ambient[c] * (0.6 + 0.4 * n[1]) + F->sun_light[c] * lambert);
    double rs = lq_max(lq_dot3(r, F->sun), 0),
           spec = 1.2 * lq_powi(rs, 300) + 0.12 * lq_powi(rs, 24);
    for (int c = 0; c < 3; c++) {
        double trans = exp(-F->sigma[c] * len);
        double under = behind[c] * trans + body[c] * (1 - trans);
        out[c] = under * (1 - fres) + sky[c] * fres + F->sun_light[c] * spec;
    }
}

/* Textured liquid at q (lq_volview_texture), outward normal n, seen along d: the
 * texture's colour lit by sun and sky under the Fresnel reflection of the sky. */
static void vv_shade_painted(const vv_frame *F, const double q[3], const double n[3],
                             const double d[3], double out[3])
{
    double rest[3], albedo[3], lit[3], sky[3], r[3], lift[3];
    vv_rest(F, q, rest);
    lq_texmap_albedo(F->tex_style, rest, albedo);
    double ci = lq_clamp01(-lq_dot3(n, d)), fres = 0.02 + 0.98 * lq_powi(1 - ci, 5);
    for (int c = 0; c < 3; c++) {
        r[c] = d[c] + 2 * ci * n[c];
        lift[c] = q[c] + n[c] * 1e-3 * F->h;
    }
    lq_norm3(r);
    vv_sky(F, r, sky);
    vv_lit(F, albedo, n, d, vv_sunlight(F, lift, -1), 0.35, lit);
    for (int c = 0; c < 3; c++) out[c] = lit[c] * (1 - fres) + sky[c] * fres;
}

/* Colour seen along the ray (d unit) into out; returns the distance to what it sees
 * (VV_SKY_T: nothing, out untouched). liquid: 0 looks through liquid. */
static double vv_trace(const vv_frame *F, const double o[3], const double d[3], int liquid,
                       double out[3])
{
    double t0, t1, tbest = VV_SKY_T, nobj[3], nsol[3], q[3], tobj = VV_SKY_T;
    int axis, what = 0; /* 1 object, 2 solid, 3 liquid, 4 floor */
    size_t cell = 0;
    int j = vv_objects_hit(F, o, d, 0, INFINITY, -1, &tobj, nobj);
    if (j >= 0) {
        tbest = tobj;
        what = 1;
    }
    if (vv_box(F, o, d, &t0, &t1, &axis) && t0 < tbest) {
        double tend = lq_min(t1, tbest);
        double ts = vv_march_solid(F, o, d, t0, tend, axis, nsol, &cell);
        if (ts >= 0) {
            tbest = tend = ts;
            what = 2;
        }
        double tl = liquid ? vv_march_liquid(F, o, d, t0, tend) : -1;
        if (tl >= 0 && (tl < tend || what == 0)) {
            tbest = tl;
            what = 3;
        }
    }
    /* The floor: the box's bottom face, seen from above. */
    if (d[1] < 0 && o[1] >= F->lo[1] - 1e-9 * F->h) {
        double tf = (F->lo[1] - o[1]) / d[1];
        vv_at(o, d, tf, q);
        if (tf < tbest && q[0] >= F->lo[0] && q[0] <= F->hi[0] && q[2] >= F->lo[2] &&
            q[2] <= F->hi[2]) {
            tbest = tf;
            what = 4;
        }
    }
    if (what == 0) return VV_SKY_T;
    vv_at(o, d, tbest, q);
    if (what == 1) {
        double lift[3];
        for (int a = 0; a < 3; a++) lift[a] = q[a] + nobj[a] * 1e-3 * F->h;
        double base[3];
        for (int c = 0; c < 3; c++) base[c] = lq_clamp01(F->obj[j].rgb[c]);
        vv_lit(F, base, nobj, d, vv_sunlight(F, lift, j), 0.25, out);
    } else if (what == 2) {
        vv_shade_stone(F, q, cell, nsol, d, out);
    } else if (what == 3) {
        double n[3] = {0, 0, 0};
        int cut = tbest == t0 && axis >= 0;
        if (cut)
            n[axis] = d[axis] > 0 ? -1 : 1; /* liquid cut by the box face */
        else
            vv_phi_normal(F, q, n);
        if (liquid && F->tex && !cut) /* the texture is on the surface, not on the cut */
            vv_shade_painted(F, q, n, d, out);
        else
            vv_shade_water(F, q, n, d, out);
    } else {
        vv_shade_floor(F, q, d, out);
    }
    return tbest;
}

/* --- one frame ------------------------------------------------------------------------- */

/* Copies phi (non-finite → air), computes the brick minima and (first frame) camera. */
static void vv_prepare(lq_volview *p, const float *phi, const lq_view_object *obj, int nobj)
{
    const int nx = p->nx, ny = p->ny, nz = p->nz;
    const size_t n = (size_t)nx * (size_t)ny * (size_t)nz, sy = (size_t)nx;
    const size_t sz = (size_t)nx * (size_t)ny;
    const float air = (float)lq_min(lq_min(p->spacing[0], p->spacing[1]), p->spacing[2]);
    for (size_t c = 0; c < n; c++) p->phi[c] = isfinite(phi[c]) ? phi[c] : air;
    for (int bk = 0; bk < p->bz; bk++)
        for (int bj = 0; bj < p->by; bj++)
            for (int bi = 0; bi < p->bx; bi++) {
                float m = INFINITY;
                int i0 = LQ_MAX(bi * VV_BRICK - 1, 0), i1 = LQ_MIN((bi + 1) * VV_BRICK, nx - 1);
                int j0 = LQ_MAX(bj * VV_BRICK - 1, 0), j1 = LQ_MIN((bj + 1) * VV_BRICK, ny - 1);
                int k0 = LQ_MAX(bk * VV_BRICK - 1, 0), k1 = LQ_MIN((bk + 1) * VV_BRICK, nz - 1);
                for (int k = k0; k <= k1; k++)
                    for (int j = j0; j <= j1; j++) {
                        const float *row = p->phi + (size_t)k * sz + (size_t)j * sy;
                        for (int i = i0; i <= i1; i++) m = fminf(m, row[i]);
                    }
                p->brick_min[(size_t)bi + (size_t)p->bx * ((size_t)bj + (size_t)p->by * bk)] = m;
            }
    if (p->frames == 0) {
        double lo[3], hi[3];
        const int cells[3] = {nx, ny, nz};
        for (int a = 0; a < 3; a++) {
            lo[a] = p->origin[a];
            hi[a] = p->origin[a] + cells[a] * p->spacing[a];
        }
        for (int j = 0; j < nobj; j++) lq_shape_grow(&obj[j], lo, hi);
        if (nz == 1)
            vv_camera_fit_2d(p);
        else
            vv_camera_fit(p, lo, hi);
    }
}

static void vv_frame_setup(vv_frame *F, const lq_volview *p, const uint8_t *solid,
                           const lq_view_object *obj, int nobj)
{
    double ext = 0;
    memset(F, 0, sizeof *F);
    F->p = p;
    F->phi = p->phi;
    F->solid = solid;
    F->obj = obj;
    F->nobj = nobj;
    F->n[0] = p->nx;
    F->n[1] = p->ny;
    F->n[2] = p->nz;
    F->stride[0] = 1;
    F->stride[1] = (size_t)p->nx;
    F->stride[2] = (size_t)p->nx * (size_t)p->ny;
    F->h = INFINITY;
    for (int a = 0; a < 3; a++) {
        F->sp[a] = p->spacing[a];
        F->inv[a] = 1 / p->spacing[a];
        F->lo[a] = p->origin[a];
        F->hi[a] = p->origin[a] + F->n[a] * p->spacing[a];
        F->h = lq_min(F->h, p->spacing[a]);
        ext = lq_max(ext, F->hi[a] - F->lo[a]);
    }
    F->checker = lq_max(F->hi[0] - F->lo[0], F->hi[2] - F->lo[2]) / 12;
    /* Sun high on the left, a little behind the domain (as hfview.c). */
    F->sun[0] = -0.15;
    F->sun[1] = 0.62;
    F->sun[2] = -0.77;
    lq_norm3(F->sun);
    /* Light crossing a quarter of the domain keeps ~ 30 % red, 67 % green, 80 % blue. */
    double absorb = 0.25 * ext;
    F->sigma[0] = 1.2 / absorb;
    F->sigma[1] = 0.40 / absorb;
    F->sigma[2] = 0.22 / absorb;
    lq_lin3(F->sky_zenith, 0.36, 0.56, 0.86);
    lq_lin3(F->sky_horizon, 0.80, 0.87, 0.95);
    lq_lin3(F->bg_top, 0.46, 0.64, 0.88);
    lq_lin3(F->bg_bottom, 0.88, 0.92, 0.97);
    lq_lin3(F->sun_light, 1.10, 1.06, 0.98);
    lq_lin3(F->ambient, 0.55, 0.62, 0.74);
    lq_lin3(F->floor_a, 0.78, 0.76, 0.72);
    lq_lin3(F->floor_b, 0.52, 0.50, 0.48);
    lq_lin3(F->stone, 0.58, 0.57, 0.55);
    lq_lin3(F->deep, 0.10, 0.38, 0.62);
    if (p->tex && p->nz > 1) {
        F->tex = p->tex;
        F->tex_style = p->tex_style;
        F->tex_rest = p->tex_rest;
        F->tex_done = p->tex_done;
    }
    if (p->nz == 1) {
        F->zmid = p->origin[2] + 0.5 * p->spacing[2];
        F->mpp = (p->cam.eye[2] - F->zmid) / p->cam.focal;
        vv_flat_interior(p, F->flat_lo, F->flat_hi);
        lq_lin3(F->water, 0.20, 0.50, 0.80);
        lq_lin3(F->contour, 0.04, 0.20, 0.40);
        lq_lin3(F->frame_line, 0.36, 0.35, 0.34);
    }
}

/* --- 2D runs: a flat side-on map --------------------------------------------------------- */

/* 1 when the world point q lies inside the object (shape.h: world = rot · body + pos). */
static int vv_object_inside(const lq_view_object *ob, const double q[3])
{
    double r[3], b[3], s = 0;
    for (int a = 0; a < 3; a++) r[a] = q[a] - ob->pos[a];
    for (int a = 0; a < 3; a++) /* body = rotᵀ · (q − pos) */
        b[a] = ob->rot[a] * r[0] + ob->rot[3 + a] * r[1] + ob->rot[6 + a] * r[2];
    if (ob->shape == LQ_SHAPE_BOX)
        return fabs(b[0]) <= ob->half[0] && fabs(b[1]) <= ob->half[1] && fabs(b[2]) <= ob->half[2];
    for (int a = 0; a < 3; a++) s += b[a] / ob->half[a] * (b[a] / ob->half[a]);
    return s <= 1;
}

/* Linear colour of the map at world (x, y) on the mid plane, back to front: the sky
 * gradient; liquid (bilinear phi < 0) in water colour, with a dark line ~2 px wide along
 * phi = 0 on its inside, at distance |phi| / |∇phi| (phi need not be a distance: a
 * marker density's phi that touches 0 without liquid on either side draws nothing, and
 * the liquid's edge is the line, not a jagged fill boundary); a thin line around
 * the framed interior; solid cells in stone grey with a dark joint along the solid's
 * outline; objects' cross-sections at the mid plane in their colour with a darker rim. */
static void vv_pixel_2d(const vv_frame *F, double sy, double x, double y, double col[3])
{
    const double q[3] = {x, y, F->zmid}, px = F->mpp;
    lq_mix3(col, F->bg_top, F->bg_bottom, lq_clamp01(sy / F->p->height));
    int inbox = x >= F->lo[0] && x <= F->hi[0] && y >= F->lo[1] && y <= F->hi[1];
    if (inbox) {
        double f = vv_phi(F, q), g[2];
        for (int a = 0; a < 2; a++) {
            double qp[3] = {x, y, F->zmid}, qm[3] = {x, y, F->zmid};
            qp[a] += 0.5 * F->sp[a];
            qm[a] -= 0.5 * F->sp[a];
            g[a] = (vv_phi(F, qp) - vv_phi(F, qm)) * F->inv[a];
        }
        double gl = sqrt(g[0] * g[0] + g[1] * g[1]);
        if (f < 0) {
            memcpy(col, F->water, sizeof F->water);
            if (gl > 0) lq_mix3(col, col, F->contour, lq_clamp01(1.8 - fabs(f) / gl / px));
        }
    }
    /* The interior's outline, just outside it. */
    double ox = lq_max(lq_max(F->flat_lo[0] - x, x - F->flat_hi[0]), 0);
    double oy = lq_max(lq_max(F->flat_lo[1] - y, y - F->flat_hi[1]), 0),
           od = sqrt(ox * ox + oy * oy);
    if (od > 0) lq_mix3(col, col, F->frame_line, lq_clamp01(1.5 - od / px));
    if (inbox && F->solid) {
        int cell[2];
        for (int a = 0; a < 2; a++) {
            cell[a] = lq_int_clamp(floor((q[a] - F->lo[a]) * F->inv[a]), 0, F->n[a] - 1);
        }
        size_t c = (size_t)cell[0] + F->stride[1] * (size_t)cell[1];
        if (F->solid[c]) {
            uint32_t hsh = (uint32_t)(c * 2654435761u); /* ±6 % per cell, as in 3D */
            hsh ^= hsh >> 15;
            double v = 0.94 + 0.12 * (hsh & 255) / 255.0;
            /* A dark joint ~1.5 px (at most 0.2 cell) wide where the neighbour across a
             * cell edge is not solid. */
            for (int a = 0; a < 2; a++) {
                double g = (q[a] - F->lo[a]) * F->inv[a] - cell[a];
                int side = g < 0.5 ? -1 : 1, e = cell[a] + side;
                double near = (g < 0.5 ? g : 1 - g) * F->sp[a];
                if (near > lq_min(1.5 * px, 0.2 * F->sp[a])) continue;
                if (e < 0 || e >= F->n[a] ||
                    !F->solid[(size_t)((long)c + side * (long)F->stride[a])])
                    v *= 0.6;
            }
            for (int k = 0; k < 3; k++) col[k] = F->stone[k] * v;
        }
    }
    for (int j = 0; j < F->nobj; j++) {
        const lq_view_object *ob = &F->obj[j];
        if (!lq_shape_ok(ob) || !vv_object_inside(ob, q)) continue;
        /* A darker rim where a point 1.5 px away is outside. */
        static const double off[4][2] = {{1.5, 0}, {-1.5, 0}, {0, 1.5}, {0, -1.5}};
        double v = 1;
        for (int k = 0; k < 4 && v == 1; k++) {
            double r[3] = {x + off[k][0] * px, y + off[k][1] * px, F->zmid};
            if (!vv_object_inside(ob, r)) v = 0.45;
        }
        for (int k = 0; k < 3; k++) col[k] = lq_clamp01(ob->rgb[k]) * v;
    }
}

/* Linear colour seen through the continuous pixel position (sx, sy) (views/raster.h);
 * returns the distance to what it sees (INFINITY: the background; 0 in 2D). */
static double vv_pixel(const void *ctx, double sx, double sy, double col[3])
{
    const vv_frame *F = ctx;
    const lq_volview_camera *cam = &F->p->cam;
    if (F->p->nz == 1) {
        vv_pixel_2d(F, sy, cam->eye[0] + (sx - cam->cx) * F->mpp,
                    cam->eye[1] + (cam->cy - sy) * F->mpp, col);
        return 0;
    }
    double d[3], u = (sx - cam->cx) / cam->focal, v = (cam->cy - sy) / cam->focal;
    for (int a = 0; a < 3; a++) d[a] = cam->fwd[a] + u * cam->right[a] + v * cam->up[a];
    lq_norm3(d);
    double t = vv_trace(F, cam->eye, d, 1, col);
    if (t < VV_SKY_T) return t;
    lq_mix3(col, F->bg_top, F->bg_bottom, lq_clamp01(sy / F->p->height));
    return INFINITY;
}

int lq_volview_render(lq_volview *p, const char *path, const float *phi, const uint8_t *solid,
                      const lq_view_object *obj, int nobj)
{
    vv_frame F;
    if (!p->rgb) return lq_error(LQ_ESIM, "%s: preview used before lq_volview_init", path);
    if (!phi) return lq_error(LQ_ESIM, "%s: no field to render", path);
    if (nobj < 0 || (nobj > 0 && !obj))
        return lq_error(LQ_ESIM, "%s: bad object list (%d objects)", path, nobj);
    for (int j = 0; j < nobj; j++)
        if (obj[j].shape != LQ_SHAPE_SPHERE && obj[j].shape != LQ_SHAPE_ELLIPSOID &&
            obj[j].shape != LQ_SHAPE_BOX)
            return lq_error(LQ_ESIM, "%s: object %d has unknown shape %d", path, j, obj[j].shape);
    vv_prepare(p, phi, obj, nobj);
    if (p->tex) memset((void *)p->tex_done, 0, (size_t)p->nx * p->ny * p->nz);
    vv_frame_setup(&F, p, solid, obj, nobj);
    /* Every pixel traced: a thin stream or sheet of liquid can be narrower than the
     * adaptive sampling's coarse step, which only the height fields can afford. */
    memset(p->blocks, 0, lq_raster_blocks(p->width, p->height));
    lq_raster_render(p->width, p->height, vv_pixel, &F, false, p->rgb, p->depth, p->aa, p->blocks);
    vv_draw_points(p);
    p->tex = NULL; /* one picture only, as the points */
    lq_stamp_draw(p->rgb, p->width, p->height, p->stamp);
    p->frames++;
    return lq_png_write_rgb(path, p->width, p->height, p->rgb);
}

void lq_volview_points(lq_volview *p, int n, const float *x, const float *y, const float *z,
                       const float *kind)
{
    p->npoints = n;
    p->px = x;
    p->py = y;
    p->pz = z;
    p->pkind = kind;
}

int lq_volview_texture(lq_volview *p, const lq_texmap *t, const lq_texmap_style *s)
{
    size_t n = (size_t)p->nx * p->ny * p->nz;
    if (t && (!p->tex_rest || !p->tex_done)) {
        free(p->tex_rest);
        free((void *)p->tex_done);
        p->tex_rest = lq_alloc(3 * n * sizeof *p->tex_rest);
        p->tex_done = lq_alloc(n);
        if (!p->tex_rest || !p->tex_done) {
            free(p->tex_rest);
            free((void *)p->tex_done);
            p->tex_rest = NULL;
            p->tex_done = NULL;
            return LQ_ESIM;
        }
    }
    p->tex = t;
    p->tex_style = s;
    return LQ_OK;
}
