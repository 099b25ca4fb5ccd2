/*
 * machf.h — the launchers of the operation: each dispatches to the reference twin
 * (machf_ref.c) on the reference backend and enqueues the kernels of
 * kernels/mac/machf.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in machf_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_MACHF_H
#define LQ_HOST_MACHF_H

#include "ops/mac/machf_ref.h"

int lq_machf_ops_init(lq_machf_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_machf_ops_release(lq_machf_ops *o);
int lq_machf_state_init(lq_machf_state *st, lq_ctx *ctx, int nx, int ny, int nz);
void lq_machf_state_release(lq_machf_state *st);
/* Host ↔ backend copies of h (nx nz floats, index i + nx k). */
int lq_machf_set(lq_machf_state *st, const float *h);
int lq_machf_get(const lq_machf_state *st, float *h);
/* Eq. 12: one explicit step of every column over prm->dt with the face velocities
 * u, v, w (m/s; the field after step 7) and flags (LQ_MAC_*, read). */
int lq_machf_advance(lq_machf_ops *o, lq_machf_state *st, const lq_field *u, const lq_field *v,
                     const lq_field *w, const lq_field *flags, const lq_machf_params *prm);
/* Sets every cell that is not SOLID, INFLOW or OUTFLOW to FULL, SURFACE or EMPTY from h
 * (machf_cell.h). */
int lq_machf_classify(lq_machf_ops *o, lq_machf_state *st, lq_field *flags,
                      const lq_machf_params *prm);
/* h from the scene's liquid shapes (m, relative to the grid origin, markers.h): per
 * column, the top of the highest shape over the column's centre (x, z; in 2D, nz = 1, z
 * is ignored): a box's max y, a sphere's upper cap, a wave's cosine (below its box's
 * max y). The liquid is taken to fill the
 * column from the floor up (a height field has no air under water: a box or a ball in
 * the air becomes a column down to the floor). Columns no shape covers are dry. h is at
 * least the column's floor (the bottom of its lowest cell not SOLID, INFLOW or OUTFLOW
 * in flags; 0 when flags is NULL) and at most ny dy. */
void lq_machf_from_shapes(int nx, int ny, int nz, float dx, float dy, float dz,
                          const unsigned char *flags, int nshapes, const lq_markers_shape *shapes,
                          float *h);
/* h from cell flags: per column, (1 + the highest FULL or SURFACE row) dy, 0 for none. */
void lq_machf_from_flags(int nx, int ny, int nz, float dy, const unsigned char *flags, float *h);
/* From host copies of h and the flags (only the fixed kinds are read). */
void lq_machf_measure_host(int nx, int ny, int nz, float dx, float dy, float dz,
                           const unsigned char *flags, const float *h, lq_machf_measure *m);

#endif
