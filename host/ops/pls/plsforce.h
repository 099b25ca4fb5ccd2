/*
 * plsforce.h — the launchers of the operation: each dispatches to the reference twin
 * (plsforce_ref.c) on the reference backend and enqueues the kernels of
 * kernels/pls/plsforce.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in plsforce_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_PLSFORCE_H
#define LQ_HOST_PLSFORCE_H

#include "ops/pls/plsforce_ref.h"

int lq_plsforce_ops_init(lq_plsforce_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_plsforce_ops_release(lq_plsforce_ops *o);
/* Device bytes lq_plsforce_ops_init allocates (for lq_ctx_reserve). */
size_t lq_plsforce_ops_bytes(void);
/* u, v, w += g·dt on the interior faces with liquid (φ ≤ 0) beside them and no solid
 * side; domain-edge faces and faces touching an object (sdf ≤ 0) are set to 0; faces with
 * air on both sides are kept. g·dt is rounded once from double. */
int lq_plsforce_body_force(lq_plsforce_ops *o, lq_field *u, lq_field *v, lq_field *w,
                           const lq_field *phi, const lq_field *sdf, const double g[3], double dt);
/* smax = max |u|, |v|, |w| over all faces (m/s; 2D: smax[2] = 0); a NaN shows as NaN. */
int lq_plsforce_max_speed(lq_plsforce_ops *o, const lq_field *u, const lq_field *v,
                          const lq_field *w, float smax[3]);
/* *cells = the liquid volume in cells (fractional; × h³ for m³); *bad = number of
 * LQ_PLSFORCE_BLOCK-cell blocks holding a non-finite φ (0 when all is well). */
int lq_plsforce_volume(lq_plsforce_ops *o, const lq_field *phi, const lq_field *sdf, float h,
                       double *cells, int *bad);
/* *cells = the volume of the zero set {φ ≤ 0} of the piecewise-linear φ on the dual grid
 * (plsforce_cell.h: unchanged by whatever leaves φ's zero set in place), in cells; *bad =
 * number of rows of dual cubes with a non-finite φ at a corner. */
int lq_plsforce_volume_pl(lq_plsforce_ops *o, const lq_field *phi, const lq_field *sdf, float h,
                          double *cells, int *bad);

/* φ += delta (m) in every cell outside the solids (sdf may be NULL): one step of the opt-in
 * global volume correction (pls.volume_correction). */
int lq_plsforce_shift(lq_plsforce_ops *o, lq_field *phi, const lq_field *sdf, float delta);

#endif
