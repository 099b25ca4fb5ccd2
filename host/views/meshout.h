/*
 * meshout.h — the liquid surface of a 3D frame as a binary PLY (mesh/NNNN.ply of mac and
 * pls): the zero surface of phi (negative inside) as mcubes.h extracts it, with per-vertex
 * columns in this order:
 *   x y z nx ny nz         always (m; unit normals out of the liquid);
 *   vx vy vz               with a velocity (m/s): the staggered face velocities sampled
 *                          trilinearly at the vertex (each component on its own face grid,
 *                          clamped to it), for motion blur in a renderer;
 *   rest_x rest_y rest_z s t  with texture particles (texmap.h): the rest coordinate (m)
 *                          and its (s, t) in the style's plane.
 * An empty surface writes a PLY with no vertices and no faces.
 */
#ifndef LQ_MESHOUT_H
#define LQ_MESHOUT_H

#include "views/texmap.h"

/* The face velocities of the grid: u (nx+1)·ny·nz, v nx·(ny+1)·nz, w nx·ny·(nz+1), x
 * fastest, face (i, j, k) of u at origin + (i, j + ½, k + ½)·spacing (and so on). */
typedef struct lq_meshout_vel {
    const float *u, *v, *w;
} lq_meshout_vel;

/* origin: the grid's lower corner (cell (0, 0, 0)'s centre is origin + spacing/2). vel,
 * t and s may be NULL (t and s together). */
int lq_meshout_write(const char *path, int nx, int ny, int nz, const double origin[3],
                     const double spacing[3], const float *phi, const lq_meshout_vel *vel,
                     const lq_texmap *t, const lq_texmap_style *s);
/* The velocity at world point q (m/s), as the mesh's vx vy vz. */
void lq_meshout_velocity(const lq_meshout_vel *vel, int nx, int ny, int nz, const double origin[3],
                         const double spacing[3], const double q[3], double out[3]);

#endif
