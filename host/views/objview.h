/*
 * objview.h — the rigid objects of a height-field frame (shape.h; splash) as one
 * triangle mesh for outside renderers.
 */
#ifndef LQ_OBJVIEW_H
#define LQ_OBJVIEW_H

#include "core/shape.h"

/* Tessellation of a sphere or ellipsoid: segments around its body y axis, rings from
 * pole to pole, and the vertices and triangles that makes. */
#define LQ_OBJVIEW_SEGMENTS     24
#define LQ_OBJVIEW_RINGS        12
#define LQ_OBJVIEW_SPHERE_VERTS (2 + (LQ_OBJVIEW_RINGS - 1) * LQ_OBJVIEW_SEGMENTS)
#define LQ_OBJVIEW_SPHERE_TRIS  (2 * (LQ_OBJVIEW_RINGS - 1) * LQ_OBJVIEW_SEGMENTS)

/* Objects → binary PLY (io.h's lq_ply_write): properties x y z nx ny nz id (id: the
 * object's index, as a float). A sphere or ellipsoid is a UV sphere about its body y
 * axis (LQ_OBJVIEW_SPHERE_VERTS vertices, LQ_OBJVIEW_SPHERE_TRIS triangles) with
 * smooth normals of the true surface; a box is 6 quads with flat normals (24 vertices,
 * 12 triangles). Triangles wind counter-clockwise seen from outside; rot must be a
 * rotation. nobj == 0 writes a valid mesh with no vertices. LQ_OK, or LQ_ESIM for a
 * bad list, an unknown shape, a non-finite placement or a non-positive size (naming
 * the object), or a failed write. */
int lq_objview_write_mesh(const char *path, const lq_view_object *obj, int nobj);

#endif
