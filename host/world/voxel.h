/*
 * voxel.h — obstacles and terrain of a 3D scene as solid cells (Foster & Metaxas §3.2.1:
 * obstacle walls coincide with cell faces, so a cell is either solid or not).
 *
 * A cell is solid when its centre lies inside a shape: `obstacles` items (box, sphere,
 * cylinder, mask image stack, OBJ mesh) and the ground of `terrain` (cells whose centre
 * is below the ground height b(x, z) of host/world/hfinit.c). This is a setup-time host
 * operation, run once when a solver is created: there is no OpenCL kernel and no twin.
 *
 * 2D grids (nz == 1): the inside test ignores z; each shape is taken at its own middle
 * z (box and mask: the middle of min/max z, sphere and cylinder: the centre, mesh: the
 * middle of its bounds), so a 2D scene sees every shape's full cross-section.
 *
 * Mesh inside test: one ray per (y, z) row of cell centres along +x, crossing points
 * collected from every triangle whose (y, z) shadow holds the row, sorted, and cells
 * between the 1st and 2nd, 3rd and 4th, ... crossings filled (parity). Vertex (y, z)
 * are snapped to 2^-20 of a cell and tested with exact integer orientations and a
 * fixed infinitesimal shift of the ray (the rasteriser's top-left rule), so a ray
 * through an edge or a vertex counts each sheet of surface exactly once. The parity
 * needs no consistent face winding, only a closed surface: every edge (after welding
 * vertices at identical positions) must be shared by an even number of faces.
 */
#ifndef LQ_VOXEL_H
#define LQ_VOXEL_H

#include "scene/config.h"

/* Marks the solid cells of the scene's `obstacles` and `terrain` on an nx·ny·nz grid
 * of cubic cells of edge dx whose lower corner is `origin` (cell c =
 * LQ_MAC_CELL(i, j, k, nx, ny), centre origin + (i + ½, j + ½, k + ½)·dx): solid[c] = 1
 * and noslip[c] = 1 for a no-slip shape, 0 for a free-slip one (a later item wins where
 * items overlap; terrain comes first). Cells no shape holds are left untouched (the
 * caller marks the wall layer before or after). Returns LQ_OK, LQ_EINPUT with one line
 * ("FILE:LINE:COL: ..." for scene keys, "PATH:LINE:COL: ..." or "PATH: ..." for a bad
 * mesh or mask file), or LQ_ESIM when out of memory. */
int lq_voxel_obstacles(const lq_config *cfg, int nx, int ny, int nz, double dx,
                       const double origin[3], unsigned char *solid, unsigned char *noslip);

/* A triangle mesh read from an OBJ file (welded, checked closed). */
typedef struct lq_voxel_mesh {
    int nverts, ntris;
    double *v; /* 3 per vertex */
    int *tri;  /* 3 vertex indices (0-based) per triangle */
} lq_voxel_mesh;

/* Reads `path` (OBJ: `v` and `f` statements; polygons fan-triangulated; `f a/b/c`
 * forms and negative indices; vn/vt/vp/o/g/s/l/p/usemtl/mtllib and comments ignored),
 * welds vertices at identical positions and checks the surface is closed. LQ_OK, or
 * LQ_EINPUT with "PATH:LINE:COL: problem" or "PATH: problem". */
int lq_voxel_mesh_read(const char *path, lq_voxel_mesh *m);
void lq_voxel_mesh_free(lq_voxel_mesh *m);
/* Volume enclosed by a closed mesh (divergence theorem, |sum| of signed tetrahedra;
 * meaningful for consistently wound meshes). For tests and reports. */
double lq_voxel_mesh_volume(const lq_voxel_mesh *m);

/* Sets inside[c] = 1 for the cells whose centre the closed mesh encloses (scanline
 * parity, above); 2D grids (nz == 1) test at z = zmid. Other cells are untouched.
 * LQ_OK, LQ_EINPUT when a vertex lies absurdly far (2^40 cells) from the grid, or
 * LQ_ESIM when out of memory. */
int lq_voxel_mesh_fill(const lq_voxel_mesh *m, int nx, int ny, int nz, double dx,
                       const double origin[3], double zmid, unsigned char *inside);

#endif
