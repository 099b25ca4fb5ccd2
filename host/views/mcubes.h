/*
 * mcubes.h — the liquid surface of the 3D solvers (`mac`, `pls`) as an indexed triangle
 * mesh with per-vertex normals, written per frame as mesh/NNNN.ply (DESIGN.md,
 * "Outputs").
 *
 * Input: a scalar field sampled at cell centres (kernels/common/mac_grid.h: cell (i, j, k),
 * x fastest, c = i + nx (j + ny k)); sample (i, j, k) sits at
 * origin + ((i + ½) dx, (j + ½) dy, (k + ½) dz), origin being the grid's lower corner.
 * The liquid is where phi < iso (inside_negative, a level set) or phi > iso (a density).
 * NaN samples are outside.
 *
 * Invariants of the mesh: closed and watertight (each undirected edge in exactly two
 * triangles, each directed edge once), triangles counter-clockwise seen from outside
 * the liquid, so geometric and vertex normals point out of the liquid; vertices shared
 * (one per crossed lattice edge). The lattice is padded with outside samples, so a liquid
 * touching the domain boundary is closed at the domain's faces. Output is deterministic.
 */
#ifndef LQ_MCUBES_H
#define LQ_MCUBES_H

#include <stdbool.h>
#include <stdint.h>

typedef struct lq_mcubes_mesh {
    int nverts, ntris;
    float *pos;     /* 3 * nverts, x y z interleaved, world units (m) */
    float *normal;  /* 3 * nverts, unit, out of the liquid */
    uint32_t *tris; /* 3 * ntris vertex indices */
} lq_mcubes_mesh;

/* Extracts the iso-surface into *out (zeroed first; on error left empty). nx, ny,
 * nz >= 1, spacing > 0. LQ_OK, or LQ_ESIM for bad arguments, overflow or memory. Free
 * with lq_mcubes_free. */
int lq_mcubes_extract(int nx, int ny, int nz, const double origin[3], const double spacing[3],
                      const float *phi, float iso, bool inside_negative, lq_mcubes_mesh *out);
void lq_mcubes_free(lq_mcubes_mesh *m);

#endif
