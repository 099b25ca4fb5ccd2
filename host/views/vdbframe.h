/*
 * vdbframe.h — one frame of a 3D solver as an OpenVDB file (output.vdb, io/vdb.h): the
 * liquid's level set ("surface"), its velocity at the cell centres ("vel") and scalar
 * fields as fog volumes, from the solver's host views (core/solver_api.h).
 *
 * Invariants:
 * - "surface" is a signed distance in m, negative in the liquid, on the cells of the
 *   grid, active within LQ_VDBFRAME_BAND cells of the surface. A solver whose phi is a
 *   signed distance already (pls) has it written as it is, value for value; otherwise
 *   (mac's marker density) it is the distance to the zero surface of phi as the meshes
 *   draw it (marching cubes, linear between cell centres), within the band.
 * - "vel": the mean of each cell's two faces on each axis (m/s), active in the liquid and
 *   the band of air beside it (where the solver extrapolates velocity, as motion blur
 *   needs), background 0.
 * - Any other name: that scalar field of the solver, active in the liquid.
 */
#ifndef LQ_VDBFRAME_H
#define LQ_VDBFRAME_H

#include "core/solver_api.h"

#define LQ_VDBFRAME_BAND 3

/* Signed distance (m) to the zero surface of phi (liquid < 0) for the cells within
 * `band` cells of it, ±band·h elsewhere (by phi's sign); dist has the grid's size. */
void lq_vdbframe_distance(const float *phi, const int dims[3], double h, int band, float *dist);

/* Writes path with the grids `names` (n of them: "surface", "vel" or a field of vt).
 * phi_distance: the solver's "phi" is a signed distance in m. */
int lq_vdbframe_write(const char *path, const lq_solver_vt *vt, void *state, bool phi_distance,
                      const char *const *names, int n);

#endif
