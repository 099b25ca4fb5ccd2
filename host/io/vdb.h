/*
 * vdb.h — OpenVDB files of a frame's volumes (docs/README.md, output.vdb): a level set, fog
 * volumes and vector grids on one cell grid, through a small C interface to the OpenVDB
 * library (host/io/vdb_openvdb.cpp, the only C++ in liquidcl; built when Debian's
 * libopenvdb-dev is present, CMakeLists.txt). Without it lq_vdb_available() is false and
 * lq_vdb_write refuses with a message naming the missing library.
 *
 * Conventions (those of Houdini, Blender and renderers that read VDB):
 * - every grid has the transform of the cell grid: voxel (i, j, k) is the cell whose
 *   centre is origin + (i, j, k)·voxel (m), y up; with z_up (output.up z, io.h) that
 *   point turned +90° about x, (x, y, z) → (x, −z, y), by the grid's transform (the voxels
 *   stay the cells: a rotated linear map, which every VDB reader applies) and vector
 *   values turned the same way;
 * - LQ_VDB_LEVEL_SET: a narrow-band signed distance (m, negative inside the liquid),
 *   class "level set", background +band·voxel; voxels with |φ| < band·voxel active,
 *   the rest inactive with ±background by their sign (what OpenVDB's level-set tools
 *   expect);
 * - LQ_VDB_FOG: a scalar, active where `mask` (if given) is nonzero, background 0;
 * - LQ_VDB_VECTOR: xyz per cell (interleaved), a cell-centred vector grid ("vel" is the
 *   velocity in m/s), active where `mask` is nonzero, background 0.
 * - Values are float32 and written uncompressed-exact (Blosc or zip compression of the
 *   file, as OpenVDB chooses by default, is lossless).
 */
#ifndef LQ_VDB_H
#define LQ_VDB_H

#include <stdbool.h>

typedef enum lq_vdb_kind { LQ_VDB_LEVEL_SET, LQ_VDB_FOG, LQ_VDB_VECTOR } lq_vdb_kind;

typedef struct lq_vdb_grid {
    const char *name;
    lq_vdb_kind kind;
    int dims[3];               /* cells, x fastest */
    double origin[3];          /* m: the centre of cell (0, 0, 0) */
    double voxel;              /* m */
    const float *data;         /* dims[0]·dims[1]·dims[2] values (vectors: 3 each, xyz) */
    const unsigned char *mask; /* fog and vectors: active cells (NULL: every cell) */
    float band;                /* level set: active half-width in voxels (≥ 1) */
    int z_up;                  /* the world turned to z up (above) */
} lq_vdb_grid;

/* Whether this build writes VDB files. */
bool lq_vdb_available(void);
/* Writes the n grids to path, atomically (a temporary file renamed into place), with
 * `creator` in the file's metadata. LQ_ESIM with a message on failure. */
int lq_vdb_write(const char *path, const lq_vdb_grid *grids, int n, const char *creator);

#endif
