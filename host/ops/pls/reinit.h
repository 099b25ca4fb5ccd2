/*
 * reinit.h — the launchers of the operation: each dispatches to the reference twin
 * (reinit_ref.c) on the reference backend and enqueues the kernels of
 * kernels/pls/reinit.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in reinit_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_REINIT_H
#define LQ_HOST_REINIT_H

#include "ops/pls/reinit_ref.h"

/* FIM, band 5, automatic sweeps. FIM is the default because it is both more accurate
 * and faster than the PDE here (measured, one run each):
 *  - distorted sphere R = 17.3 h, 64³ (test_reinit_ops): FIM |φ − d| max 0.156 h, mean
 *    0.039 h, max ||∇φ| − 1| 0.039; PDE 0.224 h, 0.046 h, 0.087 (its automatic step count
 *    stops short of steady state); interface crossings 0.020 h from the sphere for both
 *    (0.016 h in the input);
 *  - box corner, 64³: mean 0.035 h (FIM) / 0.044 h (PDE), max 1.4 h for both at the convex
 *    edge (first order: edges and the corner are rounded, crossings move by 0.15 h);
 *  - sphere R = 30 h at 128³ on PoCL (2 shared CPU cores, full_levelset_validation):
 *    FIM 2.2 s per call (18 sweeps, mean error 0.022 h), PDE 3.2 s (17 RK2 steps, two
 *    passes each, 0.029 h).
 * FIM is the converged discrete distance (the fast-marching result); the PDE only
 * approaches it in pseudo-time. */
lq_reinit_params lq_reinit_params_default(float h);
int lq_reinit_ops_init(lq_reinit_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
/* The same with the per-cell scratch lent (views of the caller's fields, which it keeps):
 * lent[0..3] at least a float per cell each, for φ0, the FIM's stamps and its two lists.
 * Every call writes them before it reads them (the stamps zeroed first), so they are free
 * between the calls for anything else. */
int lq_reinit_ops_init_lent(lq_reinit_ops *o, lq_ctx *ctx, int nx, int ny, int nz,
                            const lq_field *const lent[4]);
void lq_reinit_ops_release(lq_reinit_ops *o);
/* Reinitialises phi in place; out (may be NULL) gets the stats (one download). */
int lq_reinit(lq_reinit_ops *o, lq_field *phi, lq_field *scratch, const lq_reinit_params *prm,
              lq_reinit_stats *out);
/* *mean = the mean of ||∇φ| − 1| over the *cells cells with |φ| < width·h (reinit_cell.h):
 * how far φ is from a signed distance near the surface (one download). */
int lq_reinit_departure(lq_reinit_ops *o, const lq_field *phi, float h, float width, double *mean,
                        long long *cells);

#endif
