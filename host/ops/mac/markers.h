/*
 * markers.h — the launchers of the operation: each dispatches to the reference twin
 * (markers_ref.c) on the reference backend and enqueues the kernels of
 * kernels/mac/markers.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in markers_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_MARKERS_H
#define LQ_HOST_MARKERS_H

#include "ops/mac/markers_ref.h"

int lq_markers_ops_init(lq_markers_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_markers_ops_release(lq_markers_ops *o);
/* One midpoint (RK2) step of the first n particles through u, v, w (m/s, faces) over
 * prm->dt; a particle that would end in a SOLID cell stays where it was; positions stay
 * in the domain. flags: unsigned char LQ_MAC_* per cell (read). */
int lq_markers_advect(lq_markers_ops *o, lq_field *pos, int n, const lq_field *u, const lq_field *v,
                      const lq_field *w, const lq_field *flags, const lq_markers_params *prm);
/* Counts the first n particles per cell into count (int per cell), then sets every cell
 * that is not SOLID, INFLOW or OUTFLOW to EMPTY (no particle), SURFACE (particles and an
 * EMPTY neighbour in the grid) or FULL (§4.1). */
int lq_markers_classify(lq_markers_ops *o, const lq_field *pos, int n, lq_field *flags,
                        lq_field *count, const lq_markers_params *prm);
/* Is (x, y, z) (m, grid-relative) inside the shape? */
bool lq_markers_shape_inside(const lq_markers_shape *s, double x, double y, double z);
int lq_markers_seed(int nx, int ny, int nz, float dx, float dy, float dz,
                    const unsigned char *flags, int nshapes, const lq_markers_shape *shapes,
                    int per_cell, uint64_t seed, float *pos, size_t capacity, size_t *count);

#endif
