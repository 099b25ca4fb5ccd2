/*
 * volview.h — a rendered PNG preview of a frame of the 3D solvers (mac, pls): the liquid
 * of a scalar field on a box of cells, the solid cells, rigid objects and a floor.
 *
 * Input is a host copy of phi at the nx × ny × nz cell centres, x fastest (index
 * i + nx·(j + ny·k)); cell (i, j, k) sits at origin + ((i + ½) dx, (j + ½) dy, (k + ½) dz)
 * with origin the grid's lower corner and spacing = (dx, dy, dz) (m); y is up. Liquid is
 * where the trilinear phi is negative: a level set as it is, a marker density ρ passed
 * as 0.5 − ρ. When phi is a signed distance (m) the caller may set phi_is_distance after
 * init, and the march sphere-traces by |phi| instead of half-cell steps.
 *
 * A 2D run (nz == 1) is drawn as a flat side-on map instead (lq_volview_render).
 *
 * The preview keeps what a picture needs between frames in lq_volview, which the caller
 * owns: the camera (chosen by the first frame and then fixed, so an animation does not
 * jitter; its direction may be set after init: azimuth, elevation, distance) and the picture's
 * buffers. Rendering never allocates.
 */
#ifndef LQ_VOLVIEW_H
#define LQ_VOLVIEW_H

#include "core/shape.h"
#include "views/texmap.h"

#include <stdint.h>

/* A pinhole camera: pixel (px, py) (continuous, row 0 at the top, pixel centres at
 * +0.5) looks along fwd + ((px − cx) right − (py − cy) up) / focal from eye. */
typedef struct lq_volview_camera {
    double eye[3], fwd[3], right[3], up[3];
    double focal, cx, cy; /* px */
} lq_volview_camera;

typedef struct lq_volview {
    int nx, ny, nz;
    double origin[3], spacing[3]; /* m */
    int width, height;            /* px; height = width · 9 / 16, rounded */
    int phi_is_distance;          /* 0 after init; 1: phi is a signed distance (m) */
    /* camera direction, set after init and before the first frame (3D runs only): the
     * eye sits azimuth degrees about +y from the +z side towards −x, elevation degrees
     * above the horizontal, distance × the automatic distance from the box's centre;
     * init sets the automatic 32, 33, 1 */
    double azimuth, elevation, distance;
    char stamp[64]; /* burnt into the next picture's corner (stamp.h) when not empty */
    int frames;     /* rendered so far */
    lq_volview_camera cam;
    int bx, by, bz;   /* bricks of 8³ cells along each axis */
    float *phi;       /* this frame's phi, non-finite values replaced by air */
    float *brick_min; /* min of phi over each brick and a one-cell rim (bounds every
                         trilinear value inside the brick) */
    uint8_t *rgb;     /* the last picture, width · height · 3 */
    uint8_t *aa;      /* pixels that get extra samples, width · height */
    float *depth;     /* views/raster.h's distances, width · height */
    uint8_t *blocks;  /* views/raster.h's scratch */
    /* points drawn over the next picture (lq_volview_points), not owned */
    int npoints;
    const float *px, *py, *pz, *pkind;
    /* the texture of the next picture (lq_volview_texture), not owned; the rest
     * coordinate at the cell centres (3 floats each) where a frame has needed it
     * (tex_done), reset every frame */
    const lq_texmap *tex;
    const lq_texmap_style *tex_style;
    float *tex_rest;
    _Atomic uint8_t *tex_done; /* 0 not yet, 1 being written, 2 in tex_rest */
} lq_volview;

/* width: 16..16384 px. LQ_OK or LQ_ESIM (bad grid or size, out of memory). */
int lq_volview_init(lq_volview *p, int nx, int ny, int nz, const double origin[3],
                    const double spacing[3], int width);
/* Renders one frame to an 8-bit RGB PNG at path (written atomically: io.h): an oblique
 * 3/4 perspective view of the whole domain box (the first frame fits the camera to the
 * box and the objects), ray-marched through trilinear phi, over a sky gradient.
 *
 * Liquid is shaded as water: a Schlick-Fresnel sky reflection, a sun highlight and the
 * scene behind it seen along the refracted ray, tinted by Beer–Lambert absorption over
 * the thickness of liquid the refracted ray crosses. Solid cells (solid[c] != 0; solid
 * may be NULL) are grey stone cubes; the grid's bottom face is a checkered floor;
 * objects (shape.h; obj may be NULL when nobj is 0) are ray-traced exactly in their rgb
 * colour. Floor, stone and objects are lit by the sun, shadowed by solids and objects
 * and partly by liquid.
 *
 * 2D runs (nz == 1) are drawn side-on instead: an orthographic view along −z of the
 * mid plane of the slab, framing the box's interior in x-y (the box less its outer cell
 * layer, the mac walls, where an axis has >= 3 cells) with a small margin, letterboxed;
 * a thin grey line outlines that interior. Liquid (bilinear phi < 0) is a flat water
 * colour with a dark line along phi = 0 on its inside, solid cells stone grey (dark joints
 * on the solid's outline), objects their x-y cross-section at the mid plane in their
 * colour with a darker rim, all over the sky gradient. The picture stays in p->rgb.
 * LQ_OK or LQ_ESIM. */
int lq_volview_render(lq_volview *p, const char *path, const float *phi, const uint8_t *solid,
                      const lq_view_object *obj, int nobj);
/* Spray and foam to draw over the next lq_volview_render: n points at (x, y, z) (m,
 * world), kind 0 spray (a small blue-white dot), 1 foam (a white dot), others skipped.
 * The arrays must stay valid until that call; n = 0 draws none. No depth test: the
 * points are drawn over everything (spray flies above the liquid, foam rides on it). */
void lq_volview_points(lq_volview *p, int n, const float *x, const float *y, const float *z,
                       const float *kind);
/* Paints the liquid of the next lq_volview_render (3D runs) with the style's texture
 * (texmap.h: a checker in rest space or an image at (s, t)) through the rest coordinate
 * of the texture particles of t (Rasmussen et al. §6): where a primary ray meets the
 * surface, the rest coordinate is interpolated trilinearly between the 8 cell centres
 * around the hit, each the lookup of texmap.h (the k nearest particles, a weighted linear
 * fit) made once per frame when first needed; the surface is then shaded as a painted,
 * glossy liquid: the texture's colour lit by sun and sky (shadowed by solids, objects and
 * liquid) under the water's Fresnel reflection of the sky. Seen through the refraction
 * the liquid stays water. t and s must stay valid until that call; t = NULL paints
 * nothing. LQ_OK, or LQ_ESIM when the cache cannot be allocated. */
int lq_volview_texture(lq_volview *p, const lq_texmap *t, const lq_texmap_style *s);
/* World point → continuous pixel coordinates under the camera (fixed by the first
 * frame; for a 2D run a distant pinhole that maps the slab's mid plane z = origin_z +
 * dz/2 exactly as drawn). Returns 0, or -1 when the point is behind the camera or there
 * is no camera yet. */
int lq_volview_project(const lq_volview *p, const double world[3], double pixel[2]);
void lq_volview_free(lq_volview *p);

#endif
