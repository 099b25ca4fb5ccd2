/*
 * hfview.h — outputs of the height-field solvers (shallow, splash): the water surface
 * and the terrain as binary PLY meshes, and a rendered PNG preview of a frame.
 *
 * Inputs are host copies on an nx × nz grid of cell centres, x fastest (index
 * i + nx·k): h is the water surface height and b the ground height, both along y (m).
 * Cell (i, k) sits at (origin[0] + (i + ½) dx, height, origin[2] + (k + ½) dx); origin
 * is the grid's lower corner and dx the cell edge (m). A cell is wet when h > b + eps.
 *
 * The mesh writers are pure (inputs in, file out, errors recorded, no globals). The
 * preview keeps what a picture needs between frames in lq_hfview_preview, which the
 * caller owns: the camera (chosen by the first frame and then fixed, so an animation
 * does not jitter) and a wetness map (ground that is or was recently wet is drawn
 * darker, fading over `wet_fade` seconds of simulated time after it dries).
 *
 * A scene may add rigid objects (shape.h: spheres, ellipsoids, boxes; splash) and
 * spray particles to the picture; lq_hfview_preview_render is the scene with neither.
 */
#ifndef LQ_HFVIEW_H
#define LQ_HFVIEW_H

#include "core/shape.h"

#include <stdint.h>

/* Water surface → binary PLY (io.h's lq_ply_write). One vertex per cell centre used by
 * an emitted quad; a quad of 4 neighbouring cells is emitted (two triangles, wound so
 * their normals face +y) when at least one of its cells is wet. Wet vertices sit at h,
 * dry ones at b − 0.05·dx, just below the ground, so a renderer draws a clean
 * shoreline. Properties: x y z nx ny nz (smooth normals from central differences of
 * the surface) depth (max(h − b, 0)), then u and w (m/s, cell-centred velocities) when
 * those arrays are not NULL. Returns LQ_OK or LQ_ESIM. */
int lq_hfview_write_surface(const char *path, int nx, int nz, double dx, const double origin[3],
                            const float *h, const float *b, float eps, const float *u,
                            const float *w);

/* Terrain → binary PLY: every cell centre at height b, every quad, x y z nx ny nz. */
int lq_hfview_write_terrain(const char *path, int nx, int nz, double dx, const double origin[3],
                            const float *b);

/* A pinhole camera: pixel (px, py) (continuous, row 0 at the top, pixel centres at
 * +0.5) looks along fwd + ((px − cx) right − (py − cy) up) / focal from eye. */
typedef struct lq_hfview_camera {
    double eye[3], fwd[3], right[3], up[3];
    double focal, cx, cy; /* px */
} lq_hfview_camera;

typedef struct lq_hfview_preview {
    int nx, nz;
    double dx, origin[3];
    int width, height; /* px; height = width · 9 / 16, rounded */
    double wet_fade;   /* s */
    int frames;        /* rendered so far */
    double time;       /* s, simulated time of the last frame */
    lq_hfview_camera cam;
    /* camera direction as lq_volview's (volview.h): set after init, before the first
     * frame; init sets the automatic 32, 33, 1 */
    double azimuth, elevation, distance;
    int frame_all;     /* 1: the first frame's camera frames every object wholly; 0 (init):
                          only objects near the block, clipped to it grown by a tenth of its
                          size (output.preview_framing) */
    char stamp[64];    /* burnt into the next picture's corner (stamp.h) when not empty */
    double base;       /* m, bottom of the drawn block of ground */
    double absorb;     /* m, water depth that takes most of the light (set by the first
                          frame with water) */
    double b_lo, b_hi; /* m, ground height range for colouring (first frame) */
    double shore;      /* m, sand below, grass above (first frame's water level) */
    float *dry_for;    /* s since each cell was last wet (large: never) */
    float *wet;        /* darkening weight of each cell: 1 while wet, 0 wet_fade after */
    float *ground;     /* b with non-finite values replaced */
    float *level;      /* water level: h on wet cells; on a dry cell beside wet ones
                          their mean h capped at the cell's ground; else ground */
    uint8_t *wet_now;  /* h > b + eps this frame */
    float *tile_max;   /* max of ground and level over each 8 × 8 tile and a one-cell rim */
    float *patch_max;  /* max of ground and level over each bilinear patch's four corners,
                          (nx + 1) × (nz + 1): patch (i, k), i in [-1, nx - 1], at
                          (i + 1) + (nx + 1)(k + 1) */
    uint8_t *rgb;      /* the last picture, width · height · 3 */
    uint8_t *aa;       /* pixels that get extra samples, width · height */
    uint8_t *blocks;   /* views/raster.h's scratch */
    float *depth;      /* m, eye to the first hit of each pixel centre's ray (ground, water,
                          block side or object; INFINITY: sky), width · height */
    float *spray;      /* transparency left by the spray over each pixel, width · height */
} lq_hfview_preview;

/* wet_fade <= 0 picks 3 s. LQ_OK or LQ_ESIM (out of memory, bad size). */
int lq_hfview_preview_init(lq_hfview_preview *p, int nx, int nz, double dx, const double origin[3],
                           int width, double wet_fade);
/* Renders the frame at simulated time `time` (s) to an 8-bit RGB PNG at path: an
 * oblique 3/4 perspective view of the whole domain, ray-marched through bilinear
 * h and b, with a sky gradient behind, terrain coloured by height and slope and lit by
 * the sun, wet ground darker, and water shaded by depth (Beer–Lambert tint over the
 * ground seen through it), a Fresnel-weighted sky reflection and a sun highlight.
 * On every host core (core/parallel.h), sampled adaptively (views/raster.h); the picture
 * stays in p->rgb. LQ_OK or LQ_ESIM. */
int lq_hfview_preview_render(lq_hfview_preview *p, const char *path, double time, const float *h,
                             const float *b, float eps);
/* The same picture with rigid objects and spray particles in it.
 *
 * Objects (obj[0..nobj), world placement as in shape.h, rot a rotation) are ray-traced
 * exactly, hidden where ground or water is nearer, and lit like the ground (sun,
 * sky ambient, a small highlight) in their rgb colour; terrain shadows them and they
 * shadow the ground, dry or under water. A part under water is seen through it: the
 * refracted ray that would reach the bottom meets the object instead and its colour
 * takes the same Beer–Lambert tint as the ground would. An object with a non-finite
 * or non-positive size or placement is skipped; an unknown shape is an error. When
 * this is the first frame, the camera frames the objects' boxes too.
 *
 * Spray: the points (px[j], py[j], pz[j]) (m) are drawn after the picture as soft
 * white discs of radius point_radius (m) seen from the camera, at least 1 px and at
 * most 4 px, each hidden per pixel where the scene is nearer (p->depth); the discs
 * blend, so a single drop is a dot and a dense cloud turns to white mist. O(npts)
 * work plus a pass over the pixels. Non-finite points are skipped; px, py, pz may be
 * NULL when npts is 0. LQ_OK or LQ_ESIM. */
int lq_hfview_preview_render_scene(lq_hfview_preview *p, const char *path, double time,
                                   const float *h, const float *b, float eps,
                                   const lq_view_object *obj, int nobj, const float *px,
                                   const float *py, const float *pz, int npts, float point_radius);
/* World point → continuous pixel coordinates under the preview's camera (fixed by the
 * first frame). Returns 0, or -1 when the point is behind the camera or there is no
 * camera yet. */
int lq_hfview_preview_project(const lq_hfview_preview *p, const double world[3], double pixel[2]);
void lq_hfview_preview_free(lq_hfview_preview *p);

#endif
